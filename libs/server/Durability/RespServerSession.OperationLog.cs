using System;
using System.IO;
using System.Runtime.CompilerServices;
using System.Threading;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The session's side of the operation log (AOF). A write command is logged as it was given — database, arguments —
/// with the instant it ran at and the random seed it drew from, which the command also runs with (a fixed clock, a
/// seeded generator), so that replaying it decides as it did. It is logged under its keys' locks (the transactions layer
/// takes them when the log is on), so the log holds the writes of each key in the order they happened; the commands of a
/// transaction or script run form one entry, appended when their locks are released. Commands that fail are not logged.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>
    /// This session's part of the operation log, or null when the log is off (or this session replays it). Changes only
    /// between batches, under the session's gate (<see cref="FollowOperationLog"/>).
    /// </summary>
    private SessionOperationLog? _oplog;

    /// <summary>This session replays the operation log at recovery: it logs nothing and never blocks.</summary>
    private readonly bool _replaying;

    /// <summary>The log is on or replayed: <see cref="DispatchOrRetry"/> goes through <see cref="DispatchDurable"/> (one test on every command's path).</summary>
    private bool _durable;

    /// <summary>
    /// For <see cref="AppendOnlySwitch"/>: takes the log the server publishes now, between this session's batches (or while
    /// it is blocked); false while it cannot yet (see <see cref="FollowOperationLog"/>).
    /// </summary>
    internal bool FollowPublishedLog()
    {
        lock (_gate)
            return _disposed || FollowOperationLog(_server.OperationLog);
    }

    /// <summary>
    /// Logs to <paramref name="log"/> (null: no more) from now on: called under the gate, between batches, so no command,
    /// transaction or script is half logged (a script stopped in the debugger, across batches, ends first). A session
    /// whose replies wait for its old log's commit keeps that log until they went (false), so none is sent before its
    /// write is durable.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool FollowOperationLog(OperationLog? log)
    {
        if (_replaying || _oplog?.Log == log)
            return true;
        if (_gateMode != 0 || _luaDebugger is { TakesInput: true })
            return false;
        if (_oplog is { } old && (old.HasHeldReplies || old.ReleasePending || old.Depth != 0 || old.Entry.Count != 0))
            return false;
        _oplog = log == null ? null : new SessionOperationLog(log, _server.Options.AofCommitWait);
        _durable = _oplog != null;
        _sink.Log = _oplog;
        return true;
    }

    /// <summary>Commands that failed when replayed (they had not failed when logged).</summary>
    internal long ReplayFailures { get; private set; }

    private bool IsWrite(RespCommandInfo info) => (EffectiveFlags(info, _args, _argCount) & CommandFlags.Write) != 0;

    /// <summary>A command's dispatch with the log on: a write is logged, unless a logged command runs it; replayed commands are checked.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void DispatchDurable(RespCommandInfo info, bool blockingRetry)
    {
        if (_oplog is { Depth: 0 } && IsWrite(info))
            DispatchLogged(info, blockingRetry);
        else if (_replaying)
            DispatchReplayed(info, blockingRetry);
        else
            DispatchUnlogged(info.Command, blockingRetry);
    }

    /// <summary>Runs a write with the clock and seed it is logged with; keeps it in the entry if it succeeded.</summary>
    private void DispatchLogged(RespCommandInfo info, bool blockingRetry)
    {
        var log = _oplog!;
        if (log.Log.Failure is { } failure)
        {
            _writer.WriteError("MISCONF Errors writing to the AOF file: " + failure.Message);
            return;
        }
        long clock = Expiration.NowUnixMs;
        ulong seed = CommandRandom.NewSeed();
        log.Entry.Add(_databaseIndex, clock, seed, (ushort)info.Command, _args, _argCount);
        long replyMark = _writer.Position;
        bool completed = false;
        OperationClock.Fix(clock);
        CommandRandom.Seed(seed);
        log.Depth++;
        try
        {
            DispatchUnlogged(info.Command, blockingRetry);
            completed = true;
        }
        finally
        {
            log.Depth--;
            OperationClock.Release();
            // No reply: a blocking command that found nothing and waits (it is logged when it is served).
            if (!completed || !RepliedWithoutError(replyMark))
                log.Entry.RemoveLast();
            // Under locks the entry waits for their release (UnlockKeys); a write taking none (FUNCTION LOAD) goes now.
            if (_gateMode == 0)
                AppendLoggedCommands();
        }
    }

    /// <summary>Appends the commands gathered to the log, as one entry (called as a write's locks are released).</summary>
    private void AppendLoggedCommands()
    {
        var log = _oplog;
        if (log == null || log.Entry.Count == 0)
            return;
        try
        {
            // The checkpoint version its writes belong to (it holds the key-lock gate, under which alone a checkpoint moves
            // the version): recovery replays only what the checkpoint it starts from lacks.
            log.AppendedUntil = log.Log.Append(log.Entry.Build(_server.Versions.Version));
        }
        catch (OperationLogFailedException)
        {
            // The writes happened but cannot be logged: their replies must never count as durable (with replies held, the
            // wait for this address finds the log failed and the connection ends unanswered); either way this client goes,
            // and later writes get MISCONF.
            log.AppendedUntil = long.MaxValue;
            _closeRequested = true;
        }
        finally
        {
            log.Entry.Clear();
        }
    }

    /// <summary>Whether the command whose reply starts at <paramref name="mark"/> replied, and not with an error.</summary>
    private bool RepliedWithoutError(long mark)
    {
        if (_writer.Position == mark)
            return false;
        // A reply already sent from the start was long: errors are short and written at once.
        return _writer.ByteAt(mark) != '-';
    }

    /// <summary>Enters the key-lock gate alone, for a logged write whose keys are not declared (see RunCommandCore).</summary>
    private void EnterGateForLog()
    {
        _server.KeyLockGate.EnterExclusive(RefreshWhileWaiting);
        _gateMode = 2;
    }

    private void ExitGateForLog()
    {
        AppendLoggedCommands();
        if (_oplog is { HoldsReplies: true } log && log.AppendedUntil != 0)
            log.Log.NoteUndeclaredWrite(log.AppendedUntil);
        ExitGate();
    }

    /// <summary>At the end of a batch: replies held for a write's commit go once it is durable (see <see cref="NetworkResponseSink"/>).</summary>
    private void ReleaseHeldReplies()
    {
        if (_oplog is { HoldsReplies: true })
        {
            _writer.Flush();
            if (!_sink.FinishBatch())
                _closeRequested = true;
        }
    }

    /// <summary>Told by the log (on its notifier thread) that this session's held replies may go: sends them under the session's gate.</summary>
    private sealed class HeldReplyRelease(RespServerSession session) : ICommitWaiter
    {
        /// <summary>The connection closed: its held replies have nobody to go to.</summary>
        public bool Abandoned => Volatile.Read(ref session._disposed);

        public void OnCommitted()
        {
            // The notifier thread must not wait behind a batch of this session (a script may run for long): if one runs, a
            // pool thread waits for the gate instead.
            if (Monitor.TryEnter(session._gate))
            {
                try
                {
                    session.ReleaseHeldUnderGate();
                }
                finally
                {
                    Monitor.Exit(session._gate);
                }
                return;
            }
            ThreadPool.UnsafeQueueUserWorkItem(static s =>
            {
                lock (s._gate)
                    s.ReleaseHeldUnderGate();
            }, session, preferLocal: false);
        }
    }

    private void ReleaseHeldUnderGate()
    {
        _oplog!.ReleasePending = false;
        if (_disposed || KillRequested)
        {
            _oplog.ClearHeld();
            return;
        }
        // Sends what is durable; what is not (the session wrote more meanwhile) waits for the next commit.
        bool sent = _sink.FinishBatch();
        // Sending lent the connection a send buffer: an idle connection holds none.
        if (!_writer.HoldsBuffer)
            _sender.ReleaseSendBuffer();
        if (!sent)
            _sender.CloseAfterSend();
    }

    /// <summary>Replays one logged command (recovery): in its database, at its clock, with its seed.</summary>
    internal void ReplayCommand(in LoggedCommand command, long offset)
    {
        var name = CommandName(command.Resp);
        var info = FindCommand(name);
        if (info == null || (ushort)info.Command != command.CommandId)
        {
            throw new InvalidDataException($"The AOF entry at offset {offset} holds {System.Text.Encoding.UTF8.GetString(name)} as command {command.CommandId}, "
                + (info == null ? "which this server does not have (a custom command not registered?)." : $"which this server numbers {(int)info.Command}."));
        }
        if (_replayRun)
        {
            ReplayInRun(in command, offset);
            return;
        }
        _databaseIndex = command.Database;
        OperationClock.Fix(command.ClockUnixMs);
        CommandRandom.Seed(command.Seed);
        try
        {
            fixed (byte* resp = command.Resp)
            {
                if (TryConsumeMessages(resp, command.Resp.Length) != command.Resp.Length)
                    throw new InvalidDataException($"The AOF entry at offset {offset} holds an incomplete command.");
            }
        }
        finally
        {
            OperationClock.Release();
        }
    }

    // A run of replayed commands (BeginReplayRun): one batch for all of them while their database stays the same.
    private bool _replayRun;
    private bool _replayBatchOpen;
    private int _replayRunCommands;

    /// <summary>
    /// Starts a run of replayed commands (a replica applying a chunk of its primary's log): the database's protection and
    /// the batch's bookkeeping are taken once for the run instead of once per command. Ended by <see cref="EndReplayRun"/>,
    /// on the same thread.
    /// </summary>
    internal void BeginReplayRun()
    {
        _replayRun = true;
        _replayRunCommands = 0;
    }

    /// <summary>Ends the run <see cref="BeginReplayRun"/> started.</summary>
    internal void EndReplayRun()
    {
        _replayRun = false;
        CloseReplayBatch();
    }

    /// <summary>Leaves the run's batch (its database protection) while the run waits; the next command takes it again.</summary>
    internal void SuspendReplayBatch() => CloseReplayBatch();

    private void CloseReplayBatch()
    {
        if (!_replayBatchOpen)
            return;
        _replayBatchOpen = false;
        try
        {
            EndTiming();
        }
        finally
        {
            EndBatch();
        }
        FlushKeyspaceStatistics();
        _writer.ReleaseBuffer();
    }

    private void ReplayInRun(in LoggedCommand command, long offset)
    {
        if (!_replayBatchOpen || command.Database != _databaseIndex)
        {
            CloseReplayBatch();
            _databaseIndex = command.Database;
            BeginBatch();
            BeginTiming(null, 0);
            _pauseSeen = false;
            _replayBatchOpen = true;
        }
        OperationClock.Fix(command.ClockUnixMs);
        CommandRandom.Seed(command.Seed);
        try
        {
            fixed (byte* resp = command.Resp)
            {
                // The run's stretch of timed commands goes on; the command's bytes are where it looks at them.
                _batchStart = resp;
                _batchLength = command.Resp.Length;
                int position = 0, commands = 0;
                try
                {
                    RunCommands(resp, command.Resp.Length, ref position, ref commands);
                }
                catch (DeviceReadException e)
                {
                    FailCommandOnDeviceError(e);
                    AfterDeviceError();
                    position = command.Resp.Length;
                }
                if (position != command.Resp.Length)
                    throw new InvalidDataException($"The AOF entry at offset {offset} holds an incomplete command.");
            }
        }
        finally
        {
            OperationClock.Release();
        }
        if (++_replayRunCommands % CommandsPerEpochRefresh == 0)
            _storeSession!.Refresh();
    }

    /// <summary>
    /// Commit-before-ack for readers: a read of <paramref name="key"/> whose last logged write is not durable yet holds this
    /// batch's replies until it is, so no client sees a value a crash could take back.
    /// </summary>
    private void WaitForDurableWriteOf(ReadOnlySpan<byte> key)
    {
        var log = _oplog!;
        long address = log.Log.DurableBeforeRead(Tsavorite.KeyHash.Hash(key));
        if (address > log.AppendedUntil && !log.Log.IsCommitted(address))
            log.AppendedUntil = address;
    }

    /// <summary>A replayed command runs as any other but logs nothing; its failure is counted.</summary>
    private void DispatchReplayed(RespCommandInfo info, bool blockingRetry)
    {
        long replyMark = _writer.Position;
        DispatchUnlogged(info.Command, blockingRetry);
        if (_writer.Position != replyMark && _writer.ByteAt(replyMark) == '-')
            ReplayFailures++;
    }

    /// <summary>The first bulk string of a RESP array (the command's name).</summary>
    private static ReadOnlySpan<byte> CommandName(ReadOnlySpan<byte> resp)
    {
        int line = resp.IndexOf((byte)'\n');
        var rest = resp.Slice(line + 1);
        int lengthEnd = rest.IndexOf((byte)'\r');
        if (line < 0 || lengthEnd < 2 || rest[0] != '$' || !System.Buffers.Text.Utf8Parser.TryParse(rest.Slice(1, lengthEnd - 1), out int length, out _) || length < 0 || rest.Length < lengthEnd + 2 + length)
            return default;
        return rest.Slice(lengthEnd + 2, length);
    }
}
