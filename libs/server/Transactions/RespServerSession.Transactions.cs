using System;
using System.Diagnostics;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Transactions, session side: queuing between MULTI and EXEC, running a transaction under the
/// locks of all its keys, WATCH validation, and the per-command key work every command goes
/// through (<see cref="RunCommand"/>): watched-version bumps for writes and locks for multi-key commands.
/// </summary>
/// <remarks>
/// EXEC is pessimistic two-phase locking on the engine's bucket latches: the keys of every queued
/// command come from the command table (<see cref="KeyExtraction"/>), the engine takes their buckets
/// in sorted order (no deadlocks), the watches are checked, the commands run through the normal
/// dispatch with their replies inside EXEC's array, and the locks are released. Commands that
/// switch databases (SELECT, FLUSHDB, FLUSHALL, SWAPDB) split a transaction: each run of commands
/// between them is locked and atomic on its own database.
/// </remarks>
public sealed unsafe partial class RespServerSession
{
    private static ReadOnlySpan<byte> ErrExecAbort => "EXECABORT Transaction discarded because of previous errors."u8;

    private TransactionState? _transaction;

    /// <summary>The keys of the command being run (by <see cref="RunCommand"/>).</summary>
    private KeyList? _commandKeys; // these scratch lists and arrays are made at first use: an idle connection costs little

    /// <summary>Keys of one queued command while EXEC gathers its lock set.</summary>
    private KeyList? _queuedKeys;

    private KeyLockRequest[] _lockRequests = [];

    /// <summary>While EXEC runs a run of queued commands: where each one's keys start in <c>_lockRequests</c> (one more entry ends the last).</summary>
    private int[] _queuedKeyStarts = [];
    private int[] _writeSlots = [];

    /// <summary>The server's <see cref="WatchArming"/>, and this session's count of writes that skipped the versions.</summary>
    private readonly WatchArming _watchArming;
    private readonly WritesInFlight _writesInFlight;

    /// <summary>Whether this session counts as a watcher in <see cref="WatchArming"/> (it has watched keys).</summary>
    private bool _holdsWatch;
    private ArgSlice[] _execArgs = [];

    /// <summary>How this session holds the server's <see cref="KeyLockGate"/>: 0 not, 1 shared, 2 exclusive.</summary>
    private int _gateMode;

    /// <summary>Lock requests taken by the last LockKeys (the written keys are noted for readers as the locks go, see UnlockKeys).</summary>
    private int _lockedCount;
    private Action? _refreshWhileWaiting;

    /// <summary>What a wait for the key-lock gate does meanwhile: refresh the batch's epoch, as the engine's latches do.</summary>
    private Action RefreshWhileWaiting => _refreshWhileWaiting ??= () =>
    {
        if (_batchActive)
            _storeSession!.Refresh();
    };

    /// <summary>Set while EXEC runs the queued commands: blocking commands answer as if timed out instead of blocking.</summary>
    private bool _inExec;

    /// <summary>Whether MULTI is open (commands are being queued).</summary>
    public bool InMulti => _transaction is { InMulti: true };

    /// <summary>Whether EXEC is running this session's queued commands.</summary>
    internal bool InExec => _inExec;

    /// <summary>A refused command (unknown, wrong arity, not allowed) inside MULTI makes EXEC abort, as in Redis.</summary>
    private void FlagTransactionError()
    {
        if (_transaction is { InMulti: true } transaction)
            transaction.Dirty = true;
    }

    /// <summary>
    /// Inside MULTI, queues the command (+QUEUED) unless it is one that runs at once (EXEC, DISCARD,
    /// MULTI, WATCH, QUIT, RESET). Returns whether the command was handled here.
    /// </summary>
    private bool TryQueueCommand(RespCommandInfo info)
    {
        switch (info.Command)
        {
            case RespCommand.EXEC:
            case RespCommand.DISCARD:
            case RespCommand.MULTI:
            case RespCommand.WATCH:
            case RespCommand.QUIT:
            case RespCommand.RESET:
                return false;
        }
        var transaction = _transaction!;
        if ((info.Flags & CommandFlags.NoMulti) != 0)
        {
            transaction.Dirty = true;
            _writer.WriteError("ERR Command not allowed inside a transaction"u8);
            return true;
        }
        // Container commands are checked as Redis checks subcommands when queuing: unknown or wrong arity refuses.
        if (SubcommandTable.IsContainer(info.Command) && _argCount >= 2)
        {
            var subcommand = SubcommandTable.Find(info.Command, _args[1]);
            if (subcommand == null)
            {
                transaction.Dirty = true;
                WriteUnknownSubcommand(info.Name);
                return true;
            }
            if (!subcommand.Info.ArityAccepts(_argCount))
            {
                transaction.Dirty = true;
                WriteWrongArity(subcommand.Info.LowerName);
                return true;
            }
        }
        transaction.Queue(info, _args.AsSpan(0, _argCount));
        _writer.WriteSimpleString("QUEUED"u8);
        return true;
    }

    /// <summary>The server's <see cref="StoreWrapper.CommandObservers"/>, held here so a command's look at it is one load.</summary>
    private readonly CommandObservers _observers;

    /// <summary>
    /// Runs the current command (<c>_args</c>) through its family's handler, around it: the watched
    /// versions of the keys of a write move (a flush or swap moves its databases' generations), and a
    /// command with several keys runs under their locks unless this session already holds locks
    /// (inside EXEC), which makes RPOPLPUSH, LMOVE, SMOVE, RENAME, the *STORE commands, MSET... atomic.
    /// </summary>
    private void RunCommand(RespCommandInfo info)
    {
        // MONITOR (libs/server/Monitor) and client tracking (Tracking/): one look at a word while neither is on.
        if (_observers.Any)
            RunObserved(info);
        else
            RunCommandWithKeys(info, blockingRetry: false);
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void RunObserved(RespCommandInfo info)
    {
        if (_server.Monitors.Active)
            RunMonitored(info, static (session, info) => session.RunCommandCore(info, blockingRetry: false));
        else
            RunCommandCore(info, blockingRetry: false);
    }

    /// <summary>Re-runs a blocked command for a waker (RespServerSession.Blocking.cs) with the same locks and version bumps.</summary>
    private void RunBlockingRetry(RespCommandInfo info) => RunCommandCore(info, blockingRetry: true);

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)] // the tracking check stays in the caller
    private void RunCommandCore(RespCommandInfo info, bool blockingRetry)
    {
        // Client tracking (Tracking/): one look at a count while no client tracks.
        if (_server.Tracking.Active)
        {
            int errors = BeginTrackedCommand(info);
            RunCommandWithKeys(info, blockingRetry);
            EndTrackedCommand(info, errors);
            return;
        }
        RunCommandWithKeys(info, blockingRetry);
    }

    private void RunCommandWithKeys(RespCommandInfo info, bool blockingRetry)
    {
        var flags = info.Flags;
        // With the operation log on, a container's writing subcommand (XGROUP CREATE, FUNCTION LOAD) counts as a write, so
        // it is logged under its key's lock (or the gate) like any other.
        bool write = _oplog != null ? IsWrite(info) : (flags & CommandFlags.Write) != 0;
        bool armed = false; // a write already found the table armed: it moves versions without asking again
        if (info.FirstKey == info.LastKey && (flags & CommandFlags.MovableKeys) == 0)
        {
            // Reads of one key (GET, HGET...) and keyless commands need none of this.
            if (!write)
            {
                DispatchOrRetry(info, blockingRetry);
                // After the read: a write it saw noted its log address before releasing the latch the read then took.
                if (info.FirstKey > 0 && _oplog is { HoldsReplies: true } && info.FirstKey < _argCount)
                    WaitForDurableWriteOf(_args[info.FirstKey].Span);
                return;
            }
            // A write of one key (SET, INCR, HSET...) while no session watches: no lock, no version. With the operation
            // log on, a write is logged under its key's lock (below), so the log has the writes of a key in their order.
            if (info.FirstKey > 0 && _oplog == null)
            {
                if (_watchArming.TryBeginUnarmedWrite(_writesInFlight))
                {
                    try
                    {
                        DispatchOrRetry(info, blockingRetry);
                    }
                    finally
                    {
                        WatchArming.EndUnarmedWrite(_writesInFlight);
                    }
                    SignalTypeReplacement(info);
                    return;
                }
                armed = true;
            }
        }
        RunCommandUnderKeys(info, blockingRetry, write, armed);
    }

    /// <summary>
    /// The rest of <see cref="RunCommandWithKeys"/>: commands of several keys, logged writes and writes a watch may see.
    /// Apart because its loops keep the JIT from tiering its method up with profile data, which the one-key paths above
    /// (every GET and SET) then would lose too.
    /// </summary>
    private void RunCommandUnderKeys(RespCommandInfo info, bool blockingRetry, bool write, bool armed)
    {
        var keys = _commandKeys ??= new KeyList();
        KeyExtraction.Extract(info, _args, _argCount, keys);
        bool logged = write && _oplog != null && _gateMode == 0;
        bool lockHere = keys.Scope == KeyScope.Declared && (keys.Count > 1 || (logged && keys.Count > 0)) && _gateMode == 0;
        if (lockHere)
        {
            int count = 0;
            for (int i = 0; i < keys.Count; i++)
                AddLockRequest(ref count, KeyLockRequest.For(_args[keys.Position(i)].Span, keys.IsWrite(i)));
            LockKeys(count, keyspace: false);
        }
        // Durability: a logged write of keys it does not declare (or of none, or of whole databases) runs alone among writers.
        bool gateHere = logged && !lockHere;
        if (gateHere)
            EnterGateForLog();

        int writes = 0;
        bool databaseChange = false;
        bool unarmed = false;
        var versions = _server.WatchVersions;
        try
        {
            if (write)
            {
                if (keys.Scope == KeyScope.DatabaseSwitch)
                {
                    databaseChange = true;
                    for (int db = 0; db < _server.DatabaseCount; db++)
                        versions.BeginDatabaseChange(db);
                }
                unarmed = !armed && _watchArming.TryBeginUnarmedWrite(_writesInFlight);
                if (!unarmed)
                {
                    if (_writeSlots.Length < keys.Count)
                        _writeSlots = new int[Math.Max(keys.Count, _writeSlots.Length * 2)];
                    for (int i = 0; i < keys.Count; i++)
                    {
                        if (!keys.IsWrite(i))
                            continue;
                        int slot = WatchVersionTable.SlotOf(_args[keys.Position(i)].Span);
                        versions.BeginWrite(slot);
                        _writeSlots[writes++] = slot;
                    }
                }
            }
            DispatchOrRetry(info, blockingRetry);
            SignalTypeReplacement(info);
        }
        finally
        {
            if (unarmed)
                WatchArming.EndUnarmedWrite(_writesInFlight);
            for (int i = 0; i < writes; i++)
                versions.EndWrite(_writeSlots[i]);
            if (databaseChange)
            {
                for (int db = 0; db < _server.DatabaseCount; db++)
                    versions.EndDatabaseChange(db);
            }
            if (lockHere)
                UnlockKeys();
            else if (gateHere)
                ExitGateForLog();
            // A read's reply waits for the writes it saw to be durable (after the read: see the single-key case above).
            if (!write && _oplog is { HoldsReplies: true })
            {
                for (int i = 0; i < keys.Count; i++)
                    WaitForDurableWriteOf(_args[keys.Position(i)].Span);
            }
        }
    }

    private void DispatchOrRetry(RespCommandInfo info, bool blockingRetry)
    {
        // Durability (Durability/RespServerSession.OperationLog.cs): with the log on (or replaying it) writes take another path.
        if (_durable)
        {
            DispatchDurable(info, blockingRetry);
            return;
        }
        DispatchUnlogged(info.Command, blockingRetry);
    }

    private void DispatchUnlogged(RespCommand command, bool blockingRetry)
    {
        if (blockingRetry)
        {
            ExecuteBlockingCommand(command);
            return;
        }
        try
        {
            // GET and SET, the commonest commands, go straight to their handlers (two calls and two switches less each).
            if (command == RespCommand.GET)
                Get();
            else if (command == RespCommand.SET)
                Set();
            else
                Dispatch(command);
        }
        catch (TsavoriteException e)
        {
            _writer.WriteError("ERR " + e.Message);
        }
    }

    private void AddLockRequest(ref int count, KeyLockRequest request)
    {
        if (count == _lockRequests.Length)
            Array.Resize(ref _lockRequests, Math.Max(16, count * 2));
        _lockRequests[count++] = request;
    }

    /// <summary>
    /// Takes the server's gate (exclusive when the commands may touch undeclared keys) and then the
    /// bucket locks of the first <paramref name="count"/> requests in <c>_lockRequests</c>.
    /// </summary>
    private void LockKeys(int count, bool keyspace)
    {
        var gate = _server.KeyLockGate;
        if (keyspace)
        {
            gate.EnterExclusive(RefreshWhileWaiting);
            _gateMode = 2;
        }
        else
        {
            gate.EnterShared(RefreshWhileWaiting);
            _gateMode = 1;
        }
        try
        {
            Store.LockKeys(_lockRequests.AsSpan(0, count));
        }
        catch
        {
            ExitGate();
            throw;
        }
        _lockedCount = count;
    }

    private void UnlockKeys()
    {
        // Durability: the writes done under these locks go to the log before another client can change their keys, and a
        // read that sees them (after the locks) waits for them to be durable.
        AppendLoggedCommands();
        if (_oplog is { HoldsReplies: true } log && log.AppendedUntil != 0)
        {
            for (int i = 0; i < _lockedCount; i++)
            {
                if (_lockRequests[i].Exclusive)
                    log.Log.NoteWritten(_lockRequests[i].Hash, log.AppendedUntil);
            }
        }
        _lockedCount = 0;
        Store.UnlockKeys();
        ExitGate();
    }

    private void ExitGate()
    {
        if (_gateMode == 2)
            _server.KeyLockGate.ExitExclusive();
        else if (_gateMode == 1)
            _server.KeyLockGate.ExitShared();
        _gateMode = 0;
    }

    /// <summary>
    /// EXEC: EXECABORT after a queuing error; otherwise, under the locks of the first run of
    /// commands, nil if a watched key changed, else the array of the queued commands' replies.
    /// </summary>
    private void Exec()
    {
        var transaction = _transaction;
        if (transaction is not { InMulti: true })
        {
            _writer.WriteError("ERR EXEC without MULTI"u8);
            return;
        }
        if (transaction.Dirty)
        {
            transaction.EndMulti();
            ForgetWatches();
            _writer.WriteError(ErrExecAbort);
            return;
        }

        // The queued commands run outside MULTI: a command that dispatches others (a script) must not queue them.
        transaction.InMulti = false;
        var savedArgs = _args;
        int savedArgCount = _argCount;
        var savedCommand = _currentCommand;
        _inExec = true;
        try
        {
            fixed (byte* arena = transaction.Arena)
                RunQueuedCommands(transaction, arena);
        }
        finally
        {
            _inExec = false;
            _args = savedArgs;
            _argCount = savedArgCount;
            _currentCommand = savedCommand;
            transaction.EndMulti();
            ForgetWatches();
        }
    }

    private void RunQueuedCommands(TransactionState transaction, byte* arena)
    {
        int total = transaction.Count;
        int start = 0;
        bool validated = false;
        while (true)
        {
            // Gather the lock set of the commands up to the next database switch.
            int count = 0;
            bool keyspace = false;
            if (!validated)
            {
                // Watched keys of this database are locked too, so checking them reads declared keys only.
                foreach (var watched in transaction.Watched)
                {
                    if (watched.Database == _databaseIndex)
                        AddLockRequest(ref count, KeyLockRequest.For(watched.Key, exclusive: false));
                }
            }
            int end = start;
            for (; end < total; end++)
            {
                transaction.FillArgs(end, arena, ref _execArgs);
                _queuedKeys ??= new KeyList();
                KeyExtraction.Extract(transaction.CommandAt(end), _execArgs, transaction.ArgCountAt(end), _queuedKeys);
                if (_queuedKeys.Scope == KeyScope.DatabaseSwitch)
                    break;
                keyspace |= _queuedKeys.Scope == KeyScope.Keyspace;
                SetQueuedKeyStart(end - start, count);
                for (int i = 0; i < _queuedKeys.Count; i++)
                    AddLockRequest(ref count, KeyLockRequest.For(_execArgs[_queuedKeys.Position(i)].Span, _queuedKeys.IsWrite(i)));
            }
            SetQueuedKeyStart(end - start, count);

            LockKeys(count, keyspace);
            try
            {
                if (!validated)
                {
                    validated = true;
                    if (!WatchesHold(transaction))
                    {
                        _writer.WriteNullArray();
                        return;
                    }
                    _writer.WriteArrayHeader(total);
                }
                for (int i = start; i < end; i++)
                    RunQueued(transaction, i, arena, i - start);
            }
            finally
            {
                UnlockKeys();
            }

            if (end == total)
                return;
            RunQueued(transaction, end, arena, lockedIndex: -1);
            start = end + 1;
            if (start == total)
                return;
        }
    }

    private void SetQueuedKeyStart(int index, int start)
    {
        if (index == _queuedKeyStarts.Length)
            Array.Resize(ref _queuedKeyStarts, Math.Max(16, index * 2));
        _queuedKeyStarts[index] = start;
    }

    /// <summary>
    /// Runs queued command <paramref name="index"/>: under the transaction's locks when
    /// <paramref name="lockedIndex"/> is its place in the locked run (its keys are then the ones
    /// gathered for the lock set), else on its own (a database switch, between runs).
    /// </summary>
    private void RunQueued(TransactionState transaction, int index, byte* arena, int lockedIndex)
    {
        transaction.FillArgs(index, arena, ref _execArgs);
        _args = _execArgs;
        _argCount = transaction.ArgCountAt(index);
        var info = transaction.CommandAt(index);
        _currentCommand = info;
        LastCommand = info.Command;
        // ACL is checked again at EXEC, as Redis does: the user may have changed since the command was queued.
        if (!Permitted(info, AclLogContext.Multi))
            return;
        if (lockedIndex < 0)
        {
            RunInnerTimed(info, slowLog: true); // Stats/RespServerSession.CommandTiming.cs
            return;
        }
        var counted = CountedAs(info);
        _server.Statistics.AddCommandCall(_counters, counted.StatsSlot);
        int errors = _errorReplies;
        long start = Stopwatch.GetTimestamp();
        int first = _queuedKeyStarts[lockedIndex];
        bool monitored = _server.Monitors.Active;
        bool fedFirst = monitored && FeedsMonitorsFirst(info.Command);
        if (fedFirst)
            FeedMonitors(info);
        RunLockedCommand(info, _lockRequests.AsSpan(first, _queuedKeyStarts[lockedIndex + 1] - first));
        bool failed = _errorReplies != errors;
        _errorReplies = errors; // EXEC does not fail by it
        CountInnerCommand(info, counted, Stopwatch.GetTimestamp() - start, failed, slowLog: true);
        if (monitored && !fedFirst)
            FeedMonitors(info);
    }

    /// <summary>
    /// What <see cref="RunCommandCore"/> does for a command whose keys are already locked by EXEC,
    /// without extracting and hashing the keys again: a write moves the watched versions of the keys
    /// it writes (<paramref name="keys"/> are its lock requests, exclusive for written keys).
    /// </summary>
    private void RunLockedCommand(RespCommandInfo info, ReadOnlySpan<KeyLockRequest> keys)
    {
        // Client tracking (Tracking/), as in RunCommandCore.
        if (_server.Tracking.Active)
        {
            int errors = BeginTrackedCommand(info);
            RunLockedCommandCore(info, keys);
            EndTrackedCommand(info, errors);
            return;
        }
        RunLockedCommandCore(info, keys);
    }

    private void RunLockedCommandCore(RespCommandInfo info, ReadOnlySpan<KeyLockRequest> keys)
    {
        if ((info.Flags & CommandFlags.Write) == 0 || keys.IsEmpty)
        {
            DispatchOrRetry(info, blockingRetry: false);
            return;
        }
        if (_watchArming.TryBeginUnarmedWrite(_writesInFlight))
        {
            try
            {
                DispatchOrRetry(info, blockingRetry: false);
            }
            finally
            {
                WatchArming.EndUnarmedWrite(_writesInFlight);
            }
            SignalTypeReplacement(info);
            return;
        }
        // The slots are copied out of the shared lock buffer: the command may run others (a script's) through the session.
        Span<int> slots = keys.Length <= 16 ? stackalloc int[keys.Length] : new int[keys.Length];
        int writes = 0;
        var versions = _server.WatchVersions;
        try
        {
            foreach (ref readonly var key in keys)
            {
                if (!key.Exclusive)
                    continue;
                int slot = WatchVersionTable.SlotOfHash(key.Hash);
                versions.BeginWrite(slot);
                slots[writes++] = slot;
            }
            DispatchOrRetry(info, blockingRetry: false);
            SignalTypeReplacement(info);
        }
        finally
        {
            for (int i = 0; i < writes; i++)
                versions.EndWrite(slots[i]);
        }
    }

    /// <summary>
    /// Whether no watched key changed since WATCH: same version with no write in flight, not expired
    /// meanwhile (Redis 7 aborts then too), and not flushed or swapped away (a flush only matters to
    /// a key that existed, or exists now, as in Redis).
    /// </summary>
    private bool WatchesHold(TransactionState transaction)
    {
        if (transaction.Watched.Count == 0)
            return true;
        var versions = _server.WatchVersions;
        long now = 0;
        foreach (var watched in transaction.Watched)
        {
            if (!WatchVersionTable.Unchanged(watched.Version, versions.Read(watched.Slot)))
                return false;
            if (watched.ExpirationUnixMs != 0)
            {
                if (now == 0)
                    now = Expiration.NowUnixMs;
                if (now >= watched.ExpirationUnixMs)
                    return false;
            }
            if (!WatchVersionTable.Unchanged(watched.Generation, versions.ReadGeneration(watched.Database))
                && (watched.Existed || watched.Database != _databaseIndex || KeyExists(watched.Key)))
                return false;
        }
        return true;
    }

    /// <summary>Forgets the transaction and the watches (RESET, and when the connection ends).</summary>
    private void ResetTransaction()
    {
        _transaction?.EndMulti();
        ForgetWatches();
    }

    /// <summary>
    /// Records this session as watching (<see cref="WatchArming"/>) before its first watched key is
    /// read. Arming may wait for other sessions' writes, so the batch's epoch protection is let go meanwhile.
    /// </summary>
    private void HoldWatch()
    {
        if (_holdsWatch)
            return;
        bool inBatch = _batchActive;
        EndBatch();
        try
        {
            _watchArming.AddWatcher(_writesInFlight);
            _holdsWatch = true;
        }
        finally
        {
            if (inBatch)
                BeginBatch();
        }
    }

    /// <summary>Forgets the watched keys and stops counting as a watcher.</summary>
    private void ForgetWatches()
    {
        _transaction?.Unwatch();
        if (_holdsWatch)
        {
            _holdsWatch = false;
            _watchArming.RemoveWatcher();
        }
    }
}
