using System;
using System.Threading;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Cluster mode in a session: a command's keys must share a hash slot, and that slot must be one this node serves
/// (<see cref="IClusterProvider.Route"/>); CLUSTER goes to the provider.
/// </summary>
public sealed unsafe partial class RespServerSession : IClusterConnection
{
    /// <summary>The cluster this node is part of (--cluster), or null for a standalone server: then nothing here runs.</summary>
    private readonly IClusterProvider? _cluster;

    private static ReadOnlySpan<byte> ErrCrossSlot => "CROSSSLOT Keys in request don't hash to the same slot"u8;

    /// <summary>
    /// Whether the current command may run on this node: true for a command without keys; else its keys must share one
    /// slot this node serves, or the error (CROSSSLOT, CLUSTERDOWN) is written and false returned. As in Redis, the check
    /// comes after ACL and before a command is queued in MULTI.
    /// </summary>
    private bool ClusterAdmits(RespCommandInfo info)
    {
        // ASKING holds for the one command after it (RESTORE-ASKING carries its own).
        bool asking = _asking || (info.Flags & CommandFlags.Asking) != 0;
        _asking = false;
        if (info.Command is RespCommand.SPUBLISH or RespCommand.SSUBSCRIBE or RespCommand.SUNSUBSCRIBE)
            return ShardChannelsAdmitted(info, asking);
        if (info.FirstKey == 0 && (info.Flags & CommandFlags.MovableKeys) == 0)
            return info.Command is not (RespCommand.MULTI or RespCommand.EXEC) || TransactionAdmits(info);
        int slot;
        // One key at a fixed place (GET, SET, HSET...): no key list to build.
        if (info.FirstKey == info.LastKey && (info.Flags & CommandFlags.MovableKeys) == 0)
        {
            if (info.FirstKey >= _argCount)
                return true;
            slot = HashSlot.Of(_args[info.FirstKey].Span);
        }
        else if (!TrySharedSlot(info, out slot))
        {
            return slot < 0 || WriteCrossSlot();
        }
        var route = _cluster!.Route(slot, (info.Flags & CommandFlags.Write) != 0);
        if (route == SlotRoute.Migrating && _transaction is not { InMulti: true } && _gateMode == 0)
        {
            // Whether its keys are still here is decided under their locks as it runs (RunOnMigratingSlot). It is timed
            // on its own (RunTimed runs it), so the path every other command takes has no test for it.
            _migratingSlot = slot;
            EndStretchBefore();
            return true;
        }
        if (route is SlotRoute.Migrating or SlotRoute.Importing)
            route = MigrationRoute(info, route, asking);
        else if (route == SlotRoute.Replicated)
            route = _clusterReadOnly && !MayWriteWhilePaused(info, _args, _argCount) ? SlotRoute.Served : SlotRoute.Moved;
        if (route != SlotRoute.Served)
        {
            if (route == SlotRoute.Unbound && _keysSplitByMigration)
                _writer.WriteError(ErrTryAgain);
            else
                _cluster.WriteRedirection(ref _writer, slot, route);
            return false;
        }
        // Queued in MULTI: the transaction's commands must all be on one slot (EXEC checks).
        if (_transaction is { InMulti: true })
        {
            if (_transactionSlot < 0)
                _transactionSlot = slot;
            else if (_transactionSlot != slot)
                _transactionCrossSlot = true;
        }
        return true;
    }

    private static ReadOnlySpan<byte> ErrTryAgain => "TRYAGAIN Multiple keys request during rehashing of slot"u8;

    // Set by ASKING (in cluster mode) for the next command.
    private bool _asking;

    // Set by READONLY (until READWRITE or RESET): reads of the slots of this replica's primary run here.
    private bool _clusterReadOnly;

    // Set by MigrationRoute when a command's keys are partly here and partly moved: it gets -TRYAGAIN.
    private bool _keysSplitByMigration;

    // Set by ClusterAdmits for a command on a slot this node migrates: RunTimed then runs it by RunOnMigratingSlot.
    private int _migratingSlot = -1;

    /// <summary>
    /// A command on a slot this node is migrating: its keys are locked, then it runs if they are all here, is sent on
    /// (-ASK) if none is, and gets -TRYAGAIN otherwise. Under the locks, because a slot migration moves a batch of keys
    /// under the same locks (see <see cref="SlotMigration"/>): a key found here cannot move before the command has run,
    /// and a write cannot create a key here that the migration already moved (it would be lost with the slot).
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void RunOnMigratingSlot(RespCommandInfo info)
    {
        int slot = _migratingSlot;
        _migratingSlot = -1;
        var keys = _commandKeys ??= new KeyList();
        KeyExtraction.Extract(info, _args, _argCount, keys);
        int count = 0;
        for (int i = 0; i < keys.Count; i++)
            AddLockRequest(ref count, KeyLockRequest.For(_args[keys.Position(i)].Span, exclusive: true));
        // A script may touch keys it did not declare: it takes the gate alone, as it does on any slot.
        LockKeys(count, keyspace: info.Command is RespCommand.EVAL or RespCommand.EVALSHA or RespCommand.EVAL_RO or RespCommand.EVALSHA_RO
            or RespCommand.FCALL or RespCommand.FCALL_RO);
        try
        {
            var route = MigrationRoute(info, SlotRoute.Migrating, asking: false);
            if (route == SlotRoute.Served)
            {
                if (_server.CommandObservers.Any)
                    RunObserved(info);
                else
                    RunCommandWithKeys(info, blockingRetry: false);
            }
            else if (route == SlotRoute.Unbound)
            {
                _writer.WriteError(ErrTryAgain);
            }
            else
            {
                _cluster!.WriteRedirection(ref _writer, slot, route);
            }
        }
        finally
        {
            UnlockKeys();
        }
    }

    /// <summary>
    /// A command on a slot being migrated or imported, as Redis decides it: on the source it runs when all its keys are
    /// still here and is sent on (ASK) when none is; on the target it runs after ASKING (unless some of several keys are
    /// not there yet). Keys partly here answer -TRYAGAIN, for the client to retry once the keys moved.
    /// </summary>
    private SlotRoute MigrationRoute(RespCommandInfo info, SlotRoute route, bool asking)
    {
        _keysSplitByMigration = false;
        if (route == SlotRoute.Importing && !asking)
            return SlotRoute.Importing;
        int present = 0, total = 0;
        if (info.FirstKey == info.LastKey && (info.Flags & CommandFlags.MovableKeys) == 0)
        {
            total = 1;
            present = KeyExists(_args[info.FirstKey].Span) ? 1 : 0;
        }
        else
        {
            var keys = _commandKeys!;
            total = keys.Count;
            for (int i = 0; i < keys.Count; i++)
            {
                if (KeyExists(_args[keys.Position(i)].Span))
                    present++;
            }
        }
        if (route == SlotRoute.Importing)
        {
            if (total > 1 && present < total)
            {
                _keysSplitByMigration = true;
                return SlotRoute.Unbound;
            }
            return SlotRoute.Served;
        }
        if (present == total)
            return SlotRoute.Served;
        if (present == 0)
            return SlotRoute.Migrating;
        _keysSplitByMigration = true;
        return SlotRoute.Unbound;
    }

    /// <summary>
    /// Sharded pub/sub: its channels live in slots as keys do (Redis hashes them alike), so they must share a slot this
    /// node serves. A slot being migrated keeps its channels here until it moves (channels are not keys to move).
    /// </summary>
    private bool ShardChannelsAdmitted(RespCommandInfo info, bool asking)
    {
        if (_argCount < 2)
            return true;
        int slot = HashSlot.Of(_args[1].Span);
        // SPUBLISH channel message: one channel; (S)SUBSCRIBE and SUNSUBSCRIBE: all their arguments.
        int channels = info.Command == RespCommand.SPUBLISH ? 2 : _argCount;
        for (int i = 2; i < channels; i++)
        {
            if (HashSlot.Of(_args[i].Span) != slot)
                return WriteCrossSlot();
        }
        var route = _cluster!.Route(slot, info.Command == RespCommand.SPUBLISH);
        if (route == SlotRoute.Migrating || (route == SlotRoute.Importing && asking))
            route = SlotRoute.Served;
        if (route == SlotRoute.Served)
            return true;
        _cluster.WriteRedirection(ref _writer, slot, route);
        return false;
    }

    /// <summary>The slot all of the command's keys hash to (true); false with -1 when it has none, or with the first key's slot when they differ.</summary>
    private bool TrySharedSlot(RespCommandInfo info, out int slot)
    {
        var keys = _commandKeys ??= new KeyList();
        KeyExtraction.Extract(info, _args, _argCount, keys);
        slot = -1;
        if (keys.Count == 0)
            return false;
        slot = HashSlot.Of(_args[keys.Position(0)].Span);
        for (int i = 1; i < keys.Count; i++)
        {
            if (HashSlot.Of(_args[keys.Position(i)].Span) != slot)
                return false;
        }
        return true;
    }

    private bool WriteCrossSlot()
    {
        _writer.WriteError(ErrCrossSlot);
        return false;
    }

    // The slot of the keys queued in the current MULTI (-1 before the first), and whether two queued commands differ.
    private int _transactionSlot = -1;
    private bool _transactionCrossSlot;

    /// <summary>
    /// MULTI starts a transaction's slot afresh; EXEC runs only if the queued commands' keys share a slot this node still
    /// serves, as Redis checks the whole transaction at EXEC. Otherwise the transaction is discarded with the error.
    /// </summary>
    private bool TransactionAdmits(RespCommandInfo info)
    {
        if (info.Command == RespCommand.MULTI)
        {
            if (_transaction is not { InMulti: true })
            {
                _transactionSlot = -1;
                _transactionCrossSlot = false;
            }
            return true;
        }
        if (_transaction is not { InMulti: true } || _transactionSlot < 0)
            return true;
        bool crossSlot = _transactionCrossSlot;
        var route = crossSlot ? SlotRoute.Unbound : _cluster!.Route(_transactionSlot, write: true);
        if (!crossSlot && route == SlotRoute.Served)
            return true;
        if (crossSlot)
            _writer.WriteError(ErrCrossSlot);
        else if (route is SlotRoute.Migrating or SlotRoute.Importing)
            _writer.WriteError(ErrTryAgain); // which keys moved is known only per command: the client retries the transaction
        else
            _cluster!.WriteRedirection(ref _writer, _transactionSlot, route);
        ResetTransaction();
        return false;
    }

    /// <summary>CLUSTER: answered by the cluster in cluster mode; otherwise every subcommand fails as Redis's do with cluster-enabled no.</summary>
    private void ClusterCommand()
    {
        if (ResolveSubcommand(RespCommand.CLUSTER) == null)
            return;
        if (_cluster == null)
        {
            _writer.WriteError(ServerStrings.ErrClusterDisabled);
            return;
        }
        _cluster.RunCommand(_args.AsSpan(1, _argCount - 1), ref _writer, this);
    }

    /// <summary>
    /// ASKING, READONLY, READWRITE: refused without cluster mode, as in Redis. In it they answer OK; ASKING lets the next
    /// command run on a slot this node imports (see <see cref="MigrationRoute"/>). READONLY and READWRITE change nothing
    /// yet: in Redis they matter only on a replica, which comes with replication.
    /// </summary>
    private void ClusterConnectionCommand(RespCommand command)
    {
        if (_cluster == null)
        {
            _writer.WriteError(ServerStrings.ErrClusterDisabled);
            return;
        }
        // ClusterAdmits cleared the flag as this command came in; it holds for the next one.
        if (command == RespCommand.ASKING)
            _asking = true;
        else
            _clusterReadOnly = command == RespCommand.READONLY;
        _writer.WriteOk();
    }

    string IClusterConnection.LocalIp
    {
        get
        {
            var endpoint = LocalEndpoint;
            int colon = endpoint.LastIndexOf(':');
            // A Unix domain socket's client reached this host.
            return colon <= 0 ? "127.0.0.1" : endpoint.Substring(0, colon).Trim('[', ']');
        }
    }

    string IClusterConnection.RemoteIp
    {
        get
        {
            var endpoint = RemoteEndpoint;
            int colon = endpoint.LastIndexOf(':');
            return colon <= 0 ? "127.0.0.1" : endpoint.Substring(0, colon).Trim('[', ']');
        }
    }

    int IClusterConnection.LocalPort
    {
        get
        {
            var endpoint = LocalEndpoint;
            int colon = endpoint.LastIndexOf(':');
            return colon > 0 && int.TryParse(endpoint.AsSpan(colon + 1), out int port) ? port : _server.Options.Port;
        }
    }

    long IClusterConnection.KeyCount => Store.Store.KeyCount;

    long IClusterConnection.CountKeysInSlot(int slot)
    {
        var scan = new SlotKeyScan(slot, null, long.MaxValue);
        Store.Scan(ref scan, 0, -1, ScanFlags.IncludeMovedPastEnd);
        return scan.Found;
    }

    void IClusterConnection.WriteKeysInSlot(int slot, long count, ref RespWriter writer)
    {
        var keys = EmptyKeyBuffer();
        if (count > 0)
        {
            var scan = new SlotKeyScan(slot, keys, count);
            Store.Scan(ref scan, 0, -1, ScanFlags.IncludeMovedPastEnd);
        }
        writer.WriteArrayHeader(keys.Count);
        for (int i = 0; i < keys.Count; i++)
            writer.WriteBulk(keys[i]);
    }

    bool[] IClusterConnection.FindSlotsWithKeys(bool[] slots)
    {
        var scan = new SlotsWithKeysScan(slots, new bool[HashSlot.Count]);
        Store.Scan(ref scan, 0, -1, ScanFlags.IncludeMovedPastEnd);
        return scan.WithKeys;
    }

    int IClusterConnection.SlotMigrationTasks => _server.SlotMigrations.Running;

    /// <summary>Marks which of the slots asked about hold a live key.</summary>
    private readonly struct SlotsWithKeysScan(bool[] slots, bool[] withKeys) : IScanFunctions
    {
        public bool[] WithKeys => withKeys;

        public bool OnRecord(in LogRecord record, long address)
        {
            int slot = HashSlot.Of(record.Key);
            if (slots[slot])
                withKeys[slot] = true;
            return true;
        }
    }

    /// <summary>Counts the live keys of one slot, keeping the first ones when given a buffer; stops once it has a limit of them.</summary>
    private struct SlotKeyScan(int slot, KeyBuffer? keys, long limit) : IScanFunctions
    {
        public long Found { get; private set; }

        public bool OnRecord(in LogRecord record, long address)
        {
            if (HashSlot.Of(record.Key) != slot)
                return true;
            keys?.Add(record.Key);
            return ++Found < limit;
        }
    }

    /// <summary>
    /// Redis's rule for a client blocked on keys in cluster mode: once a key's slot is served by another node (a migration
    /// or a failover moved it), by no node, or the cluster is down, the write that would wake the client cannot come here
    /// any more, so its wait ends with the redirection a command on that key would get now (-MOVED, -CLUSTERDOWN).
    /// </summary>
    internal void RedirectIfSlotGone(BlockedWaiter waiter)
    {
        var cluster = _cluster;
        if (cluster == null)
            return;
        bool resume;
        lock (_gate)
        {
            if (_disposed || _blockedOn != waiter)
                return;
            int slot = -1;
            var route = SlotRoute.Served;
            foreach (var key in waiter.Keys)
            {
                int keySlot = HashSlot.Of(key);
                var keyRoute = cluster.Route(keySlot, write: true);
                if (keyRoute is SlotRoute.Moved or SlotRoute.Unbound or SlotRoute.Down or SlotRoute.Replicated)
                {
                    (slot, route) = (keySlot, keyRoute);
                    break;
                }
            }
            if (slot < 0)
                return;
            _server.Blocking.Unregister(waiter);
            Volatile.Write(ref _blockedOn, null);
            cluster.WriteRedirection(ref _writer, slot, route);
            _writer.ReleaseBuffer();
            resume = _stashLength > 0;
        }
        if (resume)
            ScheduleResume();
    }
}
