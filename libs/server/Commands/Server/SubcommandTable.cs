using System;
using System.Collections.Generic;
using static Garnet.server.KeySpecFlagSets;
using A = Garnet.server.AclCategories;
using F = Garnet.server.CommandFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

/// <summary>The subcommands of the container commands (CLIENT, CONFIG, COMMAND, MEMORY, FUNCTION, OBJECT, ACL, CLUSTER, XGROUP, XINFO).</summary>
internal enum Subcommand : byte
{
    ClientId,
    ClientInfo,
    ClientList,
    ClientKill,
    ClientGetName,
    ClientSetName,
    ClientSetInfo,
    ClientNoEvict,
    ClientNoTouch,
    ClientHelp,
    ClientReply,
    ClientUnblock,
    ClientPause,
    ClientUnpause,
    ClientTracking,
    ClientCaching,
    ClientGetRedir,
    ClientTrackingInfo,
    ConfigGet,
    ConfigSet,
    ConfigResetStat,
    ConfigRewrite,
    ConfigHelp,
    CommandCount,
    CommandInfo,
    CommandDocs,
    CommandGetKeys,
    CommandGetKeysAndFlags,
    CommandList,
    CommandHelp,
    MemoryUsage,
    MemoryPurge,
    MemoryHelp,
    MemoryStats,
    MemoryDoctor,
    MemoryMallocStats,
    SlowLogGet,
    SlowLogLen,
    SlowLogReset,
    SlowLogHelp,
    LatencyLatest,
    LatencyHistory,
    LatencyReset,
    LatencyGraph,
    LatencyDoctor,
    LatencyHistogram,
    LatencyHelp,
    FunctionDelete,
    FunctionDump,
    FunctionFlush,
    FunctionHelp,
    FunctionKill,
    FunctionList,
    FunctionLoad,
    FunctionRestore,
    FunctionStats,
    ObjectEncoding,
    ObjectFreq,
    ObjectIdleTime,
    ObjectRefCount,
    ObjectHelp,
    AclCat,
    AclDelUser,
    AclDryRun,
    AclGenPass,
    AclGetUser,
    AclHelp,
    AclList,
    AclLoad,
    AclLog,
    AclSave,
    AclSetUser,
    AclUsers,
    AclWhoAmI,
    ClusterAddSlots,
    ClusterAddSlotsRange,
    ClusterBumpEpoch,
    ClusterCountFailureReports,
    ClusterCountKeysInSlot,
    ClusterDelSlots,
    ClusterDelSlotsRange,
    ClusterFailover,
    ClusterFlushSlots,
    ClusterForget,
    ClusterGetKeysInSlot,
    ClusterHelp,
    ClusterInfo,
    ClusterKeySlot,
    ClusterLinks,
    ClusterMeet,
    ClusterMTasks,
    ClusterGossip,
    ClusterMyId,
    ClusterMyShardId,
    ClusterNodes,
    ClusterReplicas,
    ClusterReplicate,
    ClusterReset,
    ClusterSaveConfig,
    ClusterSetConfigEpoch,
    ClusterSetSlot,
    ClusterSetSlotsRange,
    ClusterShards,
    ClusterSlaves,
    ClusterSlots,
    XGroupCreate,
    XGroupSetId,
    XGroupDestroy,
    XGroupCreateConsumer,
    XGroupDelConsumer,
    XGroupHelp,
    XInfoStream,
    XInfoGroups,
    XInfoConsumers,
    XInfoHelp,
}

/// <summary>One subcommand: its id and its table entry (named "parent|sub", with the parent's command id).</summary>
internal sealed class SubcommandInfo
{
    public SubcommandInfo(Subcommand id, RespCommandInfo info)
    {
        Id = id;
        Info = info;
        ShortNameBytes = info.NameBytes.AsSpan(info.Name.IndexOf('|') + 1).ToArray();
    }

    /// <summary>The subcommand.</summary>
    public Subcommand Id { get; }

    /// <summary>Arity (counting the container's name), flags, key positions and ACL categories, as COMMAND INFO reports them.</summary>
    public RespCommandInfo Info { get; }

    /// <summary>The upper-case name after the '|' (e.g. "LIST").</summary>
    public byte[] ShortNameBytes { get; }
}

/// <summary>
/// The subcommands of the container commands, as Redis declares them. The containers' own entries
/// live in <see cref="CommandTable"/>; COMMAND INFO and DOCS list these under them, and the
/// containers use them for lookup and arity errors ("client|setname").
/// </summary>
internal static class SubcommandTable
{
    private static readonly Dictionary<RespCommand, SubcommandInfo[]> s_byParent = new()
    {
        [RespCommand.CLIENT] =
        [
            Entry(Subcommand.ClientId, RespCommand.CLIENT, "ID", 2, F.NoScript | F.Loading | F.Stale, A.Slow | A.Connection, "Returns the unique client ID of the connection."),
            Entry(Subcommand.ClientInfo, RespCommand.CLIENT, "INFO", 2, F.NoScript | F.Loading | F.Stale, A.Slow | A.Connection, "Returns information about the connection."),
            Entry(Subcommand.ClientList, RespCommand.CLIENT, "LIST", -2, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous | A.Connection, "Lists open connections."),
            Entry(Subcommand.ClientKill, RespCommand.CLIENT, "KILL", -3, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous | A.Connection, "Terminates open connections."),
            Entry(Subcommand.ClientGetName, RespCommand.CLIENT, "GETNAME", 2, F.NoScript | F.Loading | F.Stale, A.Slow | A.Connection, "Returns the name of the connection."),
            Entry(Subcommand.ClientSetName, RespCommand.CLIENT, "SETNAME", 3, F.NoScript | F.Loading | F.Stale, A.Slow | A.Connection, "Sets the connection name."),
            Entry(Subcommand.ClientSetInfo, RespCommand.CLIENT, "SETINFO", 4, F.NoScript | F.Loading | F.Stale, A.Slow | A.Connection, "Sets information specific to the client or connection."),
            Entry(Subcommand.ClientNoEvict, RespCommand.CLIENT, "NO-EVICT", 3, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous | A.Connection, "Sets the client eviction mode of the connection."),
            Entry(Subcommand.ClientNoTouch, RespCommand.CLIENT, "NO-TOUCH", 3, F.NoScript | F.Loading | F.Stale, A.Slow | A.Connection, "Controls whether commands sent by the client affect the LRU/LFU of accessed keys."),
            Entry(Subcommand.ClientReply, RespCommand.CLIENT, "REPLY", 3, F.NoScript | F.Loading | F.Stale, A.Slow | A.Connection, "Instructs the server whether to reply to commands."),
            Entry(Subcommand.ClientUnblock, RespCommand.CLIENT, "UNBLOCK", -3, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous | A.Connection, "Unblocks a client blocked by a blocking command from a different connection."),
            Entry(Subcommand.ClientPause, RespCommand.CLIENT, "PAUSE", -3, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous | A.Connection, "Suspends commands processing."),
            Entry(Subcommand.ClientUnpause, RespCommand.CLIENT, "UNPAUSE", 2, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous | A.Connection, "Resumes processing commands from paused clients."),
            Entry(Subcommand.ClientTracking, RespCommand.CLIENT, "TRACKING", -3, F.NoScript | F.Loading | F.Stale, A.Slow | A.Connection, "Controls server-assisted client-side caching for the connection."),
            Entry(Subcommand.ClientCaching, RespCommand.CLIENT, "CACHING", 3, F.NoScript | F.Loading | F.Stale, A.Slow | A.Connection, "Instructs the server whether to track the keys in the next request."),
            Entry(Subcommand.ClientGetRedir, RespCommand.CLIENT, "GETREDIR", 2, F.NoScript | F.Loading | F.Stale, A.Slow | A.Connection, "Returns the client ID to which the connection's tracking notifications are redirected."),
            Entry(Subcommand.ClientTrackingInfo, RespCommand.CLIENT, "TRACKINGINFO", 2, F.NoScript | F.Loading | F.Stale, A.Slow | A.Connection, "Returns information about server-assisted client-side caching for the connection."),
            Entry(Subcommand.ClientHelp, RespCommand.CLIENT, "HELP", 2, F.Loading | F.Stale, A.Slow | A.Connection, "Returns helpful text about the different subcommands."),
        ],
        [RespCommand.CONFIG] =
        [
            Entry(Subcommand.ConfigGet, RespCommand.CONFIG, "GET", -3, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Returns the effective values of configuration parameters."),
            Entry(Subcommand.ConfigSet, RespCommand.CONFIG, "SET", -4, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Sets configuration parameters in-flight.",
                secrets: SecretArguments.SensitiveConfigValues),
            Entry(Subcommand.ConfigResetStat, RespCommand.CONFIG, "RESETSTAT", 2, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Resets the server's statistics."),
            Entry(Subcommand.ConfigRewrite, RespCommand.CONFIG, "REWRITE", 2, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Persists the effective configuration to file."),
            Entry(Subcommand.ConfigHelp, RespCommand.CONFIG, "HELP", 2, F.Loading | F.Stale, A.Slow, "Returns helpful text about the different subcommands."),
        ],
        [RespCommand.COMMAND] =
        [
            Entry(Subcommand.CommandCount, RespCommand.COMMAND, "COUNT", 2, F.Loading | F.Stale, A.Slow | A.Connection, "Returns a count of commands."),
            Entry(Subcommand.CommandInfo, RespCommand.COMMAND, "INFO", -2, F.Loading | F.Stale, A.Slow | A.Connection, "Returns information about one, multiple or all commands."),
            Entry(Subcommand.CommandDocs, RespCommand.COMMAND, "DOCS", -2, F.Loading | F.Stale, A.Slow | A.Connection, "Returns documentary information about one, multiple or all commands."),
            Entry(Subcommand.CommandGetKeys, RespCommand.COMMAND, "GETKEYS", -3, F.Loading | F.Stale, A.Slow | A.Connection, "Extracts the key names from an arbitrary command."),
            Entry(Subcommand.CommandGetKeysAndFlags, RespCommand.COMMAND, "GETKEYSANDFLAGS", -3, F.Loading | F.Stale, A.Slow | A.Connection, "Extracts the key names and access flags for an arbitrary command."),
            Entry(Subcommand.CommandList, RespCommand.COMMAND, "LIST", -2, F.Loading | F.Stale, A.Slow | A.Connection, "Returns a list of command names."),
            Entry(Subcommand.CommandHelp, RespCommand.COMMAND, "HELP", 2, F.Loading | F.Stale, A.Slow | A.Connection, "Returns helpful text about the different subcommands."),
        ],
        [RespCommand.MEMORY] =
        [
            Entry(Subcommand.MemoryUsage, RespCommand.MEMORY, "USAGE", -3, F.ReadOnly, A.Read | A.Slow, "Estimates the memory usage of a key.", keys: [S.At(Ro, 2)]),
            Entry(Subcommand.MemoryPurge, RespCommand.MEMORY, "PURGE", 2, F.None, A.Slow, "Asks the allocator to release memory."),
            Entry(Subcommand.MemoryHelp, RespCommand.MEMORY, "HELP", 2, F.Loading | F.Stale, A.Slow, "Returns helpful text about the different subcommands."),
            Entry(Subcommand.MemoryStats, RespCommand.MEMORY, "STATS", 2, F.None, A.Slow, "Returns details about memory usage."),
            Entry(Subcommand.MemoryDoctor, RespCommand.MEMORY, "DOCTOR", 2, F.None, A.Slow, "Outputs a memory problems report."),
            Entry(Subcommand.MemoryMallocStats, RespCommand.MEMORY, "MALLOC-STATS", 2, F.None, A.Slow, "Returns the allocator statistics."),
        ],
        [RespCommand.SLOWLOG] =
        [
            Entry(Subcommand.SlowLogGet, RespCommand.SLOWLOG, "GET", -2, F.Admin | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Returns the slow log's entries."),
            Entry(Subcommand.SlowLogLen, RespCommand.SLOWLOG, "LEN", 2, F.Admin | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Returns the number of entries in the slow log."),
            Entry(Subcommand.SlowLogReset, RespCommand.SLOWLOG, "RESET", 2, F.Admin | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Clears all entries from the slow log."),
            Entry(Subcommand.SlowLogHelp, RespCommand.SLOWLOG, "HELP", 2, F.Loading | F.Stale, A.Slow, "Show helpful text about the different subcommands"),
        ],
        [RespCommand.LATENCY] =
        [
            Entry(Subcommand.LatencyLatest, RespCommand.LATENCY, "LATEST", 2, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Returns the latest latency samples for all events."),
            Entry(Subcommand.LatencyHistory, RespCommand.LATENCY, "HISTORY", 3, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Returns timestamp-latency samples for an event."),
            Entry(Subcommand.LatencyReset, RespCommand.LATENCY, "RESET", -2, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Resets the latency data for one or more events."),
            Entry(Subcommand.LatencyGraph, RespCommand.LATENCY, "GRAPH", 3, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Returns a latency graph for an event."),
            Entry(Subcommand.LatencyDoctor, RespCommand.LATENCY, "DOCTOR", 2, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Returns a human-readable latency analysis report."),
            Entry(Subcommand.LatencyHistogram, RespCommand.LATENCY, "HISTOGRAM", -2, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Returns the cumulative distribution of latencies of a subset or all commands."),
            Entry(Subcommand.LatencyHelp, RespCommand.LATENCY, "HELP", 2, F.Loading | F.Stale, A.Slow, "Returns helpful text about the different subcommands."),
        ],
        [RespCommand.OBJECT] =
        [
            Entry(Subcommand.ObjectEncoding, RespCommand.OBJECT, "ENCODING", 3, F.ReadOnly, A.Keyspace | A.Read | A.Slow, "Returns the internal encoding of a Redis object.", keys: [S.At(Ro, 2)]),
            Entry(Subcommand.ObjectFreq, RespCommand.OBJECT, "FREQ", 3, F.ReadOnly, A.Keyspace | A.Read | A.Slow, "Returns the logarithmic access frequency counter of a Redis object.", keys: [S.At(Ro, 2)]),
            Entry(Subcommand.ObjectHelp, RespCommand.OBJECT, "HELP", 2, F.Loading | F.Stale, A.Keyspace | A.Slow, "Returns helpful text about the different subcommands."),
            Entry(Subcommand.ObjectIdleTime, RespCommand.OBJECT, "IDLETIME", 3, F.ReadOnly, A.Keyspace | A.Read | A.Slow, "Returns the time since the last access to a Redis object.", keys: [S.At(Ro, 2)]),
            Entry(Subcommand.ObjectRefCount, RespCommand.OBJECT, "REFCOUNT", 3, F.ReadOnly, A.Keyspace | A.Read | A.Slow, "Returns the reference count of a value of a key.", keys: [S.At(Ro, 2)]),
        ],
        [RespCommand.XGROUP] =
        [
            Entry(Subcommand.XGroupCreate, RespCommand.XGROUP, "CREATE", -5, F.Write | F.DenyOom, A.Write | A.Stream | A.Slow, "Creates a consumer group.", keys: [S.At(RwInsert, 2)]),
            Entry(Subcommand.XGroupCreateConsumer, RespCommand.XGROUP, "CREATECONSUMER", 5, F.Write | F.DenyOom, A.Write | A.Stream | A.Slow, "Creates a consumer in a consumer group.", keys: [S.At(RwInsert, 2)]),
            Entry(Subcommand.XGroupDelConsumer, RespCommand.XGROUP, "DELCONSUMER", 5, F.Write, A.Write | A.Stream | A.Slow, "Deletes a consumer from a consumer group.", keys: [S.At(RwDelete, 2)]),
            Entry(Subcommand.XGroupDestroy, RespCommand.XGROUP, "DESTROY", 4, F.Write, A.Write | A.Stream | A.Slow, "Destroys a consumer group.", keys: [S.At(RwDelete, 2)]),
            Entry(Subcommand.XGroupHelp, RespCommand.XGROUP, "HELP", 2, F.Loading | F.Stale, A.Stream | A.Slow, "Returns helpful text about the different subcommands."),
            Entry(Subcommand.XGroupSetId, RespCommand.XGROUP, "SETID", -5, F.Write, A.Write | A.Stream | A.Slow, "Sets the last-delivered ID of a consumer group.", keys: [S.At(RwUpdate, 2)]),
        ],
        [RespCommand.XINFO] =
        [
            Entry(Subcommand.XInfoConsumers, RespCommand.XINFO, "CONSUMERS", 4, F.ReadOnly, A.Read | A.Stream | A.Slow, "Returns a list of the consumers in a consumer group.", keys: [S.At(RoAccess, 2)]),
            Entry(Subcommand.XInfoGroups, RespCommand.XINFO, "GROUPS", 3, F.ReadOnly, A.Read | A.Stream | A.Slow, "Returns a list of the consumer groups of a stream.", keys: [S.At(RoAccess, 2)]),
            Entry(Subcommand.XInfoHelp, RespCommand.XINFO, "HELP", 2, F.Loading | F.Stale, A.Stream | A.Slow, "Returns helpful text about the different subcommands."),
            Entry(Subcommand.XInfoStream, RespCommand.XINFO, "STREAM", -3, F.ReadOnly, A.Read | A.Stream | A.Slow, "Returns information about a stream.", keys: [S.At(RoAccess, 2)]),
        ],
        [RespCommand.ACL] =
        [
            Entry(Subcommand.AclCat, RespCommand.ACL, "CAT", -2, F.NoScript | F.Loading | F.Stale, A.Slow, "Lists the ACL categories, or the commands inside a category."),
            Entry(Subcommand.AclDelUser, RespCommand.ACL, "DELUSER", -3, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Deletes ACL users, and terminates their connections."),
            Entry(Subcommand.AclDryRun, RespCommand.ACL, "DRYRUN", -4, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Simulates the execution of a command by a user, without executing the command."),
            Entry(Subcommand.AclGenPass, RespCommand.ACL, "GENPASS", -2, F.NoScript | F.Loading | F.Stale, A.Slow, "Generates a pseudorandom, secure password that can be used to identify ACL users."),
            Entry(Subcommand.AclGetUser, RespCommand.ACL, "GETUSER", 3, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Lists the ACL rules of a user."),
            Entry(Subcommand.AclHelp, RespCommand.ACL, "HELP", 2, F.Loading | F.Stale, A.Slow, "Returns helpful text about the different subcommands."),
            Entry(Subcommand.AclList, RespCommand.ACL, "LIST", 2, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Dumps the effective rules in ACL file format."),
            Entry(Subcommand.AclLoad, RespCommand.ACL, "LOAD", 2, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Reloads the rules from the configured ACL file."),
            Entry(Subcommand.AclLog, RespCommand.ACL, "LOG", -2, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Lists recent security events generated due to ACL rules."),
            Entry(Subcommand.AclSave, RespCommand.ACL, "SAVE", 2, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Saves the effective ACL rules in the configured ACL file."),
            Entry(Subcommand.AclSetUser, RespCommand.ACL, "SETUSER", -3, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Creates and modifies an ACL user and its rules.",
                secrets: SecretArguments.AclRules),
            Entry(Subcommand.AclUsers, RespCommand.ACL, "USERS", 2, F.Admin | F.NoScript | F.Loading | F.Stale, A.Admin | A.Slow | A.Dangerous, "Lists all ACL users."),
            Entry(Subcommand.AclWhoAmI, RespCommand.ACL, "WHOAMI", 2, F.NoScript | F.Loading | F.Stale, A.Slow, "Returns the authenticated username of the current connection."),
        ],
        [RespCommand.FUNCTION] =
        [
            Entry(Subcommand.FunctionDelete, RespCommand.FUNCTION, "DELETE", 3, F.NoScript | F.Write, A.Write | A.Slow | A.Scripting, "Deletes a library and its functions."),
            Entry(Subcommand.FunctionDump, RespCommand.FUNCTION, "DUMP", 2, F.NoScript, A.Slow | A.Scripting, "Dumps all libraries into a serialized binary payload."),
            Entry(Subcommand.FunctionFlush, RespCommand.FUNCTION, "FLUSH", -2, F.NoScript | F.Write, A.Write | A.Slow | A.Scripting, "Deletes all libraries and functions."),
            Entry(Subcommand.FunctionHelp, RespCommand.FUNCTION, "HELP", 2, F.Loading | F.Stale, A.Slow | A.Scripting, "Returns helpful text about the different subcommands."),
            Entry(Subcommand.FunctionKill, RespCommand.FUNCTION, "KILL", 2, F.NoScript | F.AllowBusy, A.Slow | A.Scripting, "Terminates a function during execution."),
            Entry(Subcommand.FunctionList, RespCommand.FUNCTION, "LIST", -2, F.NoScript, A.Slow | A.Scripting, "Returns information about all libraries."),
            Entry(Subcommand.FunctionLoad, RespCommand.FUNCTION, "LOAD", -3, F.NoScript | F.Write | F.DenyOom, A.Write | A.Slow | A.Scripting, "Creates a library."),
            Entry(Subcommand.FunctionRestore, RespCommand.FUNCTION, "RESTORE", -3, F.NoScript | F.Write | F.DenyOom, A.Write | A.Slow | A.Scripting, "Restores all libraries from a payload."),
            Entry(Subcommand.FunctionStats, RespCommand.FUNCTION, "STATS", 2, F.NoScript | F.AllowBusy, A.Slow | A.Scripting, "Returns information about a function during execution."),
        ],
        [RespCommand.CLUSTER] =
        [
            Entry(Subcommand.ClusterAddSlots, RespCommand.CLUSTER, "ADDSLOTS", -3, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Assigns new hash slots to a node."),
            Entry(Subcommand.ClusterAddSlotsRange, RespCommand.CLUSTER, "ADDSLOTSRANGE", -4, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Assigns new hash slot ranges to a node."),
            Entry(Subcommand.ClusterBumpEpoch, RespCommand.CLUSTER, "BUMPEPOCH", 2, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Advances the cluster config epoch."),
            Entry(Subcommand.ClusterCountFailureReports, RespCommand.CLUSTER, "COUNT-FAILURE-REPORTS", 3, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Returns the number of active failure reports active for a node."),
            Entry(Subcommand.ClusterCountKeysInSlot, RespCommand.CLUSTER, "COUNTKEYSINSLOT", 3, F.Stale, A.Slow, "Returns the number of keys in a hash slot."),
            Entry(Subcommand.ClusterDelSlots, RespCommand.CLUSTER, "DELSLOTS", -3, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Sets hash slots as unbound for a node."),
            Entry(Subcommand.ClusterDelSlotsRange, RespCommand.CLUSTER, "DELSLOTSRANGE", -4, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Sets hash slot ranges as unbound for a node."),
            Entry(Subcommand.ClusterFailover, RespCommand.CLUSTER, "FAILOVER", -2, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Forces a replica to perform a manual failover of its master."),
            Entry(Subcommand.ClusterFlushSlots, RespCommand.CLUSTER, "FLUSHSLOTS", 2, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Deletes all slots information from a node."),
            Entry(Subcommand.ClusterForget, RespCommand.CLUSTER, "FORGET", 3, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Removes a node from the nodes table."),
            Entry(Subcommand.ClusterGossip, RespCommand.CLUSTER, "GOSSIP", 3, F.Admin | F.Stale | F.NoScript, A.Admin | A.Slow | A.Dangerous, "Takes a message from another node's link and answers with this node's state (the cluster bus)."),
            Entry(Subcommand.ClusterGetKeysInSlot, RespCommand.CLUSTER, "GETKEYSINSLOT", 4, F.Stale, A.Slow, "Returns the key names in a hash slot."),
            Entry(Subcommand.ClusterHelp, RespCommand.CLUSTER, "HELP", 2, F.Loading | F.Stale, A.Slow, "Returns helpful text about the different subcommands."),
            Entry(Subcommand.ClusterInfo, RespCommand.CLUSTER, "INFO", 2, F.Stale, A.Slow, "Returns information about the state of a node."),
            Entry(Subcommand.ClusterKeySlot, RespCommand.CLUSTER, "KEYSLOT", 3, F.Stale, A.Slow, "Returns the hash slot for a key."),
            Entry(Subcommand.ClusterLinks, RespCommand.CLUSTER, "LINKS", 2, F.Stale, A.Slow, "Returns a list of all TCP links to and from peer nodes."),
            Entry(Subcommand.ClusterMeet, RespCommand.CLUSTER, "MEET", -4, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Forces a node to handshake with another node."),
            Entry(Subcommand.ClusterMTasks, RespCommand.CLUSTER, "MTASKS", 2, F.Stale, A.Slow, "Returns the number of slot migrations (MIGRATE ... SLOTS) running on this node."),
            Entry(Subcommand.ClusterMyId, RespCommand.CLUSTER, "MYID", 2, F.Stale, A.Slow, "Returns the ID of a node."),
            Entry(Subcommand.ClusterMyShardId, RespCommand.CLUSTER, "MYSHARDID", 2, F.Stale, A.Slow, "Returns the shard ID of a node."),
            Entry(Subcommand.ClusterNodes, RespCommand.CLUSTER, "NODES", 2, F.Stale, A.Slow, "Returns the cluster configuration for a node."),
            Entry(Subcommand.ClusterReplicas, RespCommand.CLUSTER, "REPLICAS", 3, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Lists the replica nodes of a master node."),
            Entry(Subcommand.ClusterReplicate, RespCommand.CLUSTER, "REPLICATE", 3, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Configure a node as replica of a master node."),
            Entry(Subcommand.ClusterReset, RespCommand.CLUSTER, "RESET", -2, F.Admin | F.NoScript | F.Stale, A.Admin | A.Slow | A.Dangerous, "Resets a node."),
            Entry(Subcommand.ClusterSaveConfig, RespCommand.CLUSTER, "SAVECONFIG", 2, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Forces a node to save the cluster configuration to disk."),
            Entry(Subcommand.ClusterSetConfigEpoch, RespCommand.CLUSTER, "SET-CONFIG-EPOCH", 3, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Sets the configuration epoch for a new node."),
            Entry(Subcommand.ClusterSetSlot, RespCommand.CLUSTER, "SETSLOT", -4, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Binds a hash slot to a node."),
            Entry(Subcommand.ClusterSetSlotsRange, RespCommand.CLUSTER, "SETSLOTSRANGE", -5, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Binds the hash slots of ranges to a node, or sets their migration state."),
            Entry(Subcommand.ClusterShards, RespCommand.CLUSTER, "SHARDS", 2, F.Stale, A.Slow, "Returns the mapping of cluster slots to shards."),
            Entry(Subcommand.ClusterSlaves, RespCommand.CLUSTER, "SLAVES", 3, F.Admin | F.Stale, A.Admin | A.Slow | A.Dangerous, "Lists the replica nodes of a master node."),
            Entry(Subcommand.ClusterSlots, RespCommand.CLUSTER, "SLOTS", 2, F.Stale, A.Slow, "Returns the mapping of cluster slots to nodes."),
        ],
    };

    // Indexed by command id: MULTI asks this of every queued command.
    private static readonly bool[] s_isContainer = ContainerFlags();

    private static bool[] ContainerFlags()
    {
        int max = 0;
        foreach (var parent in s_byParent.Keys)
            max = Math.Max(max, (int)parent);
        var flags = new bool[max + 1];
        foreach (var parent in s_byParent.Keys)
            flags[(int)parent] = true;
        return flags;
    }

    private static SubcommandInfo Entry(Subcommand id, RespCommand parent, string name, int arity, CommandFlags flags, AclCategories categories, string summary,
        KeySpec[]? keys = null, SecretArguments secrets = SecretArguments.None)
        => new(id, new RespCommandInfo(parent, CommandTable.Get(parent).Name + "|" + name, arity, flags, keys ?? [], categories, summary)
        {
            StatsSlot = ServerStatistics.SubcommandSlot(id),
            Secrets = secrets,
        });

    /// <summary>The subcommands of <paramref name="parent"/>, empty if it is not a container.</summary>
    public static ReadOnlySpan<SubcommandInfo> Of(RespCommand parent)
        => s_byParent.TryGetValue(parent, out var subcommands) ? subcommands : ReadOnlySpan<SubcommandInfo>.Empty;

    /// <summary>Whether <paramref name="command"/> has subcommands.</summary>
    public static bool IsContainer(RespCommand command) => (uint)command < (uint)s_isContainer.Length && s_isContainer[(int)command];

    /// <summary>Finds subcommand <paramref name="name"/> (any case) of <paramref name="parent"/>.</summary>
    public static SubcommandInfo? Find(RespCommand parent, in ArgSlice name)
    {
        foreach (var subcommand in Of(parent))
        {
            if (name.EqualsUpper(subcommand.ShortNameBytes))
                return subcommand;
        }
        return null;
    }

    /// <summary>Finds a subcommand by its full name "parent|sub" (any case).</summary>
    public static SubcommandInfo? Find(string fullName)
    {
        int bar = fullName.IndexOf('|');
        if (bar <= 0)
            return null;
        var parent = CommandTable.Lookup(fullName.Substring(0, bar));
        if (parent == null)
            return null;
        string name = fullName.Substring(bar + 1).ToUpperInvariant();
        foreach (var subcommand in Of(parent.Command))
        {
            if (subcommand.Info.Name.AsSpan(subcommand.Info.Name.IndexOf('|') + 1).SequenceEqual(name))
                return subcommand;
        }
        return null;
    }
}
