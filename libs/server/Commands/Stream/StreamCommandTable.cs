using static Garnet.server.KeySpecFlagSets;
using A = Garnet.server.AclCategories;
using E = Garnet.server.ObjectWriteEvent;
using F = Garnet.server.CommandFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

public static partial class CommandTable
{
    /// <summary>The stream commands' table entries (XGROUP's and XINFO's subcommands are in <see cref="SubcommandTable"/>).</summary>
    private static RespCommandInfo[] StreamCommands =>
    [
        new(RespCommand.XADD, "XADD", -5, F.Write | F.DenyOom | F.Fast, [S.At(RwUpdate, 1, notes: "UPDATE instead of INSERT because of the optional trimming feature")], A.Write | A.Stream | A.Fast, "Appends a new message to a stream. Creates the key if it doesn't exist.") { WriteEvent = E.Stream("xadd", onSuccess: true) },
        new(RespCommand.XLEN, "XLEN", 2, F.ReadOnly | F.Fast, [S.At(Ro, 1)], A.Read | A.Stream | A.Fast, "Return the number of messages in a stream."),
        new(RespCommand.XRANGE, "XRANGE", -4, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Stream | A.Slow, "Returns the messages from a stream within a range of IDs."),
        new(RespCommand.XREVRANGE, "XREVRANGE", -4, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Stream | A.Slow, "Returns the messages from a stream within a range of IDs in reverse order."),
        new(RespCommand.XDEL, "XDEL", -3, F.Write | F.Fast, [S.At(RwDelete, 1)], A.Write | A.Stream | A.Fast, "Returns the number of messages after removing them from a stream.") { WriteEvent = E.Stream("xdel") },
        new(RespCommand.XTRIM, "XTRIM", -4, F.Write, [S.At(RwDelete, 1)], A.Write | A.Stream | A.Slow, "Deletes messages from the beginning of a stream.") { WriteEvent = E.Stream("xtrim") },
        new(RespCommand.XREAD, "XREAD", -4, F.ReadOnly | F.Blocking | F.MovableKeys, [S.AfterKeyword(RoAccess, "STREAMS", 1, -1, 1, 2)], A.Read | A.Stream | A.Slow | A.Blocking, "Returns messages from multiple streams with IDs greater than the ones requested. Blocks until a message is available otherwise."),
        new(RespCommand.XGROUP, "XGROUP", -2, F.None, [], A.Slow, "A container for consumer groups commands.") { WriteEvent = E.StreamGroup() },
        new(RespCommand.XREADGROUP, "XREADGROUP", -7, F.Write | F.Blocking | F.MovableKeys, [S.AfterKeyword(RoAccess, "STREAMS", 4, -1, 1, 2)], A.Write | A.Stream | A.Slow | A.Blocking, "Returns new or historical messages from a stream for a consumer in a group. Blocks until a message is available otherwise.") { WriteEvent = E.Stream("xgroup-createconsumer") },
        new(RespCommand.XACK, "XACK", -4, F.Write | F.Fast, [S.At(RwUpdate, 1)], A.Write | A.Stream | A.Fast, "Returns the number of messages that were successfully acknowledged by the consumer group member of a stream.") { WriteEvent = E.NotHere },
        new(RespCommand.XPENDING, "XPENDING", -3, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Stream | A.Slow, "Returns the information and entries from a stream consumer group's pending entries list."),
        new(RespCommand.XCLAIM, "XCLAIM", -6, F.Write | F.Fast, [S.At(RwUpdate, 1)], A.Write | A.Stream | A.Fast, "Changes, or acquires, ownership of a message in a consumer group, as if the message was delivered a consumer group member.") { WriteEvent = E.Stream("xgroup-createconsumer") },
        new(RespCommand.XAUTOCLAIM, "XAUTOCLAIM", -6, F.Write | F.Fast, [S.At(RwDelete, 1)], A.Write | A.Stream | A.Fast, "Changes, or acquires, ownership of messages in a consumer group, as if the messages were delivered to as consumer group member.") { WriteEvent = E.Stream("xgroup-createconsumer") },
        new(RespCommand.XINFO, "XINFO", -2, F.None, [], A.Slow, "A container for stream introspection commands."),
        new(RespCommand.XSETID, "XSETID", -3, F.Write | F.DenyOom | F.Fast, [S.At(RwUpdate, 1)], A.Write | A.Stream | A.Fast, "An internal command for replicating stream values.") { WriteEvent = E.Stream("xsetid", onSuccess: true) },
    ];
}
