using System;
using System.Threading;
using Garnet.common;

namespace Garnet.server;

/// <summary>How an attempt to serve a blocked client ended.</summary>
internal enum BlockedServeResult
{
    /// <summary>The command ran and replied; the client is unblocked.</summary>
    Served,

    /// <summary>The command found nothing to pop; the client stays blocked.</summary>
    NothingToServe,

    /// <summary>The key written now holds another type than the command waits for; the client stays blocked.</summary>
    OtherType,

    /// <summary>The session was busy and the caller could not wait; try again later.</summary>
    Busy,

    /// <summary>The client is no longer blocked on this waiter (served, timed out, closed).</summary>
    Gone,
}

/// <summary>
/// Blocked clients, session side: a blocking command that finds nothing registers a waiter and the
/// session stops consuming. Input that arrives meanwhile (or followed the blocking command in its
/// batch) is kept here, in order, and runs once the client is served or times out. Another thread
/// serves the client by re-running its command on this session's engine session; the gate keeps
/// that and this connection's receive path apart.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>Held while this session runs commands: by its receive path, or by a thread serving it.</summary>
    private readonly object _gate = new();

    /// <summary>The waiter while the client is blocked.</summary>
    private BlockedWaiter? _blockedOn;

    /// <summary>Set while re-running a blocked command for a waker: finding nothing keeps the client blocked.</summary>
    private bool _blockingRetry;

    /// <summary>Set by a retried command that found nothing.</summary>
    private bool _retryFoundNothing;

    /// <summary>How long a writer serving blocked clients waits for one's session before leaving it to the pump.</summary>
    private const int BusyWaitMilliseconds = 50;

    /// <summary>
    /// Input received after a blocking or paused command, not yet run. It is this client's query buffer as Redis sees
    /// it: bounded by client-query-buffer-limit and counted in CLIENT LIST's qbuf and the client's memory.
    /// </summary>
    private byte[] _stash = Array.Empty<byte>();
    private int _stashLength;

    /// <summary>This session wrote a key that clients wait on: it serves them after the command.</summary>
    private bool _blockingSignaled;

    /// <summary>The keys of a write signalled while an XREADGROUP waits (<see cref="SignalWrittenKeysToGroupReaders"/>).</summary>
    private KeyList? _groupSignalKeys;

    /// <summary>The server's registry of blocked clients.</summary>
    internal BlockingRegistry BlockingRegistry => _server.Blocking;

    /// <summary>Whether the client waits in a blocking command (CLIENT LIST flag 'b').</summary>
    public bool IsBlocked => Volatile.Read(ref _blockedOn) != null || Volatile.Read(ref _pausedCommand) != null;

    /// <summary>Whether input must go through the stash: the client is blocked, or input from then is still queued.</summary>
    private bool HasBlockedInput => _blockedOn != null || _stashLength > 0 || _pausedCommand != null;

    /// <summary>Whether an object write may add elements (installs, and deny-oom commands such as LPUSH, ZADD, LMOVE).</summary>
    private static bool MayAddElements(in ObjectInput input)
        => input.Operation == ObjectOperation.Install
           || (input.Command != RespCommand.NONE && (CommandTable.Get(input.Command).Flags & CommandFlags.DenyOom) != 0);

    /// <summary>Wakes clients blocked on <paramref name="key"/> after this session wrote it (list or sorted set).</summary>
    private void NotifyKeyWritten(ReadOnlySpan<byte> key)
    {
        if (_server.Blocking.Signal(_databaseIndex, key))
            _blockingSignaled = true;
    }

    /// <summary>
    /// Wakes clients blocked on <paramref name="key"/> after this session deleted it: an XREADGROUP runs again and, its
    /// stream gone, ends with NOGROUP, as Redis 7.2 ends it; the other blocking commands find nothing and wait on.
    /// </summary>
    private void NotifyKeyDeleted(ReadOnlySpan<byte> key) => NotifyKeyWritten(key);

    /// <summary>
    /// After a write (every path that runs one: single-key, several keys, EXEC, scripts): a command that may replace a
    /// key's type looks at a count of XREADGROUPs waiting, and signals its keys only while one waits.
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private void SignalTypeReplacement(RespCommandInfo info)
    {
        if (info.MayReplaceType && _server.Blocking.GroupReadersWaiting)
            SignalWrittenKeysToGroupReaders(info);
    }

    /// <summary>
    /// After a command that may replace a key's value whatever its type (<see cref="RespCommandInfo.MayReplaceType"/>) while
    /// an XREADGROUP waits (<see cref="BlockingRegistry.GroupReadersWaiting"/>): the keys it writes are signalled, so a
    /// stream overwritten with another type (SET, a *STORE destination, RESTORE REPLACE) ends the group's wait, which runs
    /// again and answers WRONGTYPE, as Redis 7.2 signals a key on every overwrite. Other writes cannot change a stream's
    /// type (they answer WRONGTYPE), and signalling them would run the blocked readers again for nothing.
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private void SignalWrittenKeysToGroupReaders(RespCommandInfo info)
    {
        // Its own list: a script's commands run inside EVAL and use the command's.
        var keys = _groupSignalKeys ??= new KeyList();
        KeyExtraction.Extract(info, _args, _argCount, keys);
        var access = KeyExtraction.AccessOf(info, _args, _argCount);
        for (int i = 0; i < keys.Count; i++)
        {
            if (KeyExtraction.Modifies(access, i) && keys.Position(i) < _argCount)
                NotifyKeyWritten(_args[keys.Position(i)].Span);
        }
    }

    /// <summary>
    /// Serves the clients blocked on keys this session's last command wrote, before its next command
    /// (as Redis does). Leaves the epoch while other sessions' commands run on this thread.
    /// </summary>
    private void ServeSignaledWaiters()
    {
        _blockingSignaled = false;
        EndBatch();
        _server.Blocking.Drain(canWait: false);
        BeginBatch();
    }

    /// <summary>
    /// Called by a blocking command that found nothing: registers the client as waiting on
    /// <paramref name="keyCount"/> keys from argument <paramref name="firstKey"/> until
    /// <paramref name="deadline"/> (0 = forever). When retried for a waker, only notes that nothing was found.
    /// </summary>
    private void BlockOnKeys(int firstKey, int keyCount, long deadline)
    {
        // Transactions and scripting: inside EXEC or called from a script a blocking command never blocks;
        // it answers as if it timed out (nil, as Redis: a null bulk for BLMOVE and BRPOPLPUSH, a null array for the others).
        // Replaying the operation log, the command was served when it ran: it finds what it took then.
        if (_inExec || _inScriptCommand || _replaying)
        {
            if (CurrentCommand.Command is RespCommand.BLMOVE or RespCommand.BRPOPLPUSH)
                _writer.WriteNull();
            else
                _writer.WriteNullArray();
            return;
        }
        if (_blockingRetry)
        {
            _retryFoundNothing = true;
            return;
        }
        var waiter = new BlockedWaiter(this, _databaseIndex, CurrentCommand, _args, _argCount, firstKey, keyCount, deadline);
        Volatile.Write(ref _blockedOn, waiter);
        _server.Blocking.Register(waiter);

        // A write between the first attempt and the registration signaled nobody: try once more.
        _blockingRetry = true;
        _retryFoundNothing = false;
        try
        {
            ExecuteBlockingCommand(waiter.Command.Command);
        }
        finally
        {
            _blockingRetry = false;
        }
        if (!_retryFoundNothing)
        {
            _server.Blocking.Unregister(waiter);
            Volatile.Write(ref _blockedOn, null);
        }
    }

    /// <summary>
    /// Parses a blocking command's timeout (seconds, fractional) as Redis does and turns it into a
    /// deadline (<see cref="Environment.TickCount64"/> milliseconds, 0 = wait forever); writes the error otherwise.
    /// </summary>
    private bool TryParseBlockingTimeout(ReadOnlySpan<byte> text, out long deadline)
    {
        deadline = 0;
        if (!NumberFormat.TryParseDouble(text, out double seconds))
        {
            _writer.WriteError(RespStrings.ErrTimeoutNotFloat);
            return false;
        }
        double milliseconds = Math.Ceiling(seconds * 1000.0);
        if (milliseconds < 0)
        {
            _writer.WriteError("ERR timeout is negative"u8);
            return false;
        }
        long now = Environment.TickCount64;
        if (milliseconds >= long.MaxValue - now)
        {
            _writer.WriteError("ERR timeout is out of range"u8);
            return false;
        }
        if (milliseconds > 0)
            deadline = now + (long)milliseconds;
        return true;
    }

    /// <summary>Keeps <paramref name="length"/> received bytes after the stashed ones.</summary>
    private void Stash(byte* bytes, int length)
    {
        if (length <= 0)
            return;
        if ((long)_stashLength + length > _server.ClientLimits.QueryBufferLimit)
        {
            // Redis's client-query-buffer-limit: a blocked or paused client may not queue without bound.
            _server.Statistics.AddQueryBufferLimitDisconnection();
            _stash = Array.Empty<byte>();
            _stashLength = 0;
            _closeRequested = true;
            _sender.CloseAfterSend();
            return;
        }
        if (_stash.Length - _stashLength < length)
        {
            var grown = new byte[Math.Max(_stash.Length * 2, _stashLength + length)];
            Buffer.BlockCopy(_stash, 0, grown, 0, _stashLength);
            _stash = grown;
        }
        new ReadOnlySpan<byte>(bytes, length).CopyTo(_stash.AsSpan(_stashLength));
        _stashLength += length;
    }

    /// <summary>Receive path while blocked input is queued: keep the bytes, and run them if no longer blocked.</summary>
    private int ConsumeWhileBlocked(byte* buffer, int bytesRead)
    {
        Stash(buffer, bytesRead);
        if (_blockedOn == null && _pausedCommand == null)
            RunStash();
        // The stash is memory this client holds: maxmemory-clients counts it as it grows.
        if (_eviction.IsOn)
            CountMemoryAfterBatch();
        return bytesRead;
    }

    /// <summary>Runs the stashed input until it is used up, incomplete, or the client blocks again.</summary>
    private void RunStash()
    {
        while (_stashLength > 0 && _blockedOn == null && _pausedCommand == null && !_disposed && !_closeRequested && !KillRequested)
        {
            int consumed;
            fixed (byte* start = _stash)
                consumed = ConsumeBatch(start, _stashLength);
            if (consumed == 0)
                return;
            _stashLength -= consumed;
            Buffer.BlockCopy(_stash, consumed, _stash, 0, _stashLength);
        }
        if (_stashLength == 0 && _stash.Length > 64 * 1024)
            _stash = Array.Empty<byte>();
    }

    /// <summary>
    /// Re-runs the blocked command of <paramref name="waiter"/> for a thread that wrote one of its
    /// keys (or the pump). With <paramref name="canWait"/> false the session is only tried, since
    /// the caller holds its own gate.
    /// </summary>
    internal BlockedServeResult TryServeBlocked(BlockedWaiter waiter, byte[] readyKey, bool canWait)
    {
        if (Monitor.IsEntered(_gate))
            return BlockedServeResult.Busy;
        // A blocked session's gate is only held briefly (input arriving, another thread serving it),
        // so a writer holding its own gate may wait a moment; the bound rules out deadlock between two.
        if (canWait)
            Monitor.Enter(_gate);
        else if (!Monitor.TryEnter(_gate, BusyWaitMilliseconds))
            return BlockedServeResult.Busy;

        bool resume;
        try
        {
            if (_disposed || KillRequested || _blockedOn != waiter)
                return BlockedServeResult.Gone;
            BlockedServeResult result;
            try
            {
                result = RetryBlockedCommand(waiter, readyKey);
            }
            catch (Exception)
            {
                // As on the receive path, a failing command ends its own connection only.
                _sender.CloseAfterSend();
                return BlockedServeResult.Gone;
            }
            if (result != BlockedServeResult.Served)
                return result;
            _server.Blocking.Unregister(waiter);
            Volatile.Write(ref _blockedOn, null);
            _writer.ReleaseBuffer();
            resume = _stashLength > 0;
        }
        finally
        {
            Monitor.Exit(_gate);
        }
        if (resume)
            ScheduleResume();
        return BlockedServeResult.Served;
    }

    /// <summary>
    /// Runs the waiter's command again for a write of <paramref name="readyKey"/>, unless the key holds another type than
    /// it waits for; it may find nothing (and write nothing). As Redis serves a blocked client only by a key of the type it waits for, a key now of another type
    /// (an XREAD's stream deleted and made a list) leaves the client waiting; an XREADGROUP runs again on any change.
    /// </summary>
    private BlockedServeResult RetryBlockedCommand(BlockedWaiter waiter, byte[] readyKey)
    {
        var args = _args;
        int argCount = _argCount;
        var command = _currentCommand;
        _args = waiter.Args;
        _argCount = waiter.ArgCount;
        _currentCommand = waiter.Command;
        _blockingRetry = true;
        _retryFoundNothing = false;
        BeginBatch();
        try
        {
            if (!waiter.EndsOnAnyChange && HoldsOtherType(readyKey, waiter.WaitsForType))
                return BlockedServeResult.OtherType;
            // Transactions: with the command's key locks (BLMOVE is atomic) and watch-version bumps.
            RunBlockingRetry(waiter.Command);
            return _retryFoundNothing ? BlockedServeResult.NothingToServe : BlockedServeResult.Served;
        }
        catch (Tsavorite.TsavoriteException e)
        {
            _writer.WriteError("ERR " + e.Message);
            return BlockedServeResult.Served;
        }
        finally
        {
            EndBatch();
            _blockingRetry = false;
            _args = args;
            _argCount = argCount;
            _currentCommand = command;
        }
    }

    /// <summary>Whether <paramref name="key"/> exists with a type other than <paramref name="type"/> (TYPE's look: no access counted).</summary>
    private bool HoldsOtherType(ReadOnlySpan<byte> key, GarnetObjectType type)
    {
        var output = default(StringOutput);
        return ReadKey(key, RespCommand.TYPE, ref output).Found && output.ObjectType != type;
    }

    /// <summary>Whether this client still waits on <paramref name="waiter"/>.</summary>
    internal bool IsBlockedOn(BlockedWaiter waiter) => ReferenceEquals(Volatile.Read(ref _blockedOn), waiter);

    /// <summary>Ends the wait of <paramref name="waiter"/> with the nil reply, if the client still waits on it.</summary>
    internal void TimeOutBlocked(BlockedWaiter waiter) => EndWait(waiter, error: false);

    /// <summary>
    /// CLIENT UNBLOCK from another client: ends this client's wait as a timeout would, or with -UNBLOCKED when
    /// <paramref name="error"/>. False when it is not blocked.
    /// </summary>
    internal bool UnblockFromOtherClient(bool error) => Volatile.Read(ref _blockedOn) is { } waiter && EndWait(waiter, error);

    /// <summary>Ends the wait of <paramref name="waiter"/> with a timeout's reply or the -UNBLOCKED error, if it still waits.</summary>
    private bool EndWait(BlockedWaiter waiter, bool error)
    {
        bool resume;
        lock (_gate)
        {
            if (_disposed || _blockedOn != waiter)
                return false;
            _server.Blocking.Unregister(waiter);
            Volatile.Write(ref _blockedOn, null);
            if (error)
                _writer.WriteError("UNBLOCKED client unblocked via CLIENT UNBLOCK"u8);
            else if (waiter.Command.Command is RespCommand.WAIT or RespCommand.WAITAOF)
                WriteReplicaWaitReply(waiter.Command.Command);
            else if (waiter.Command.Command is RespCommand.COMMITAOF && _server.OperationLog is { } log)
                WriteCommitAofReply(log);
            else
                _writer.WriteNullArray();
            _writer.ReleaseBuffer();
            resume = _stashLength > 0;
        }
        if (resume)
            ScheduleResume();
        return true;
    }

    /// <summary>Runs the input stashed while blocked, on the thread pool (the receive path may be idle).</summary>
    private void ScheduleResume()
        => ThreadPool.UnsafeQueueUserWorkItem(static session => session.Resume(), this, preferLocal: false);

    private void Resume()
    {
        lock (_gate)
        {
            if (_disposed || _blockedOn != null)
                return;
            try
            {
                RunStash();
            }
            catch (Exception)
            {
                // As on the receive path, a failing command ends its own connection only.
                _sender.CloseAfterSend();
            }
        }
    }

    /// <summary>Drops the client's wait (disconnect, CLIENT KILL).</summary>
    private void CancelBlocking()
    {
        var waiter = Volatile.Read(ref _blockedOn);
        if (waiter != null)
            _server.Blocking.Unregister(waiter);
    }
}
