using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// How long commands run (INFO commandstats usec, SLOWLOG), which fail (failed_calls, an error reply while running) and
/// which are refused (rejected_calls). Reading the clock costs about as much as a GET's own work here, so cheap commands
/// (<see cref="RespCommandInfo.SharesBatchTime"/>) are not timed one by one: a run of them between two clock readings (a
/// <em>stretch</em>: from the batch's start or the last timed command to the next timed command or the batch's end)
/// shares the stretch's time evenly. A command sent alone is a stretch of one, timed exactly; every other command is
/// timed on its own.
/// </summary>
public sealed unsafe partial class RespServerSession : IErrorReplyListener
{
    /// <summary>This thread's per-command counters (fetched once per batch).</summary>
    private CommandCounters _counters = s_noCounters;
    private static readonly CommandCounters s_noCounters = new(0);

    /// <summary>A replaying session's counters, which nothing reads (null for a client's session).</summary>
    private readonly CommandCounters? _replayCounters;

    /// <summary>Error replies this session wrote; a command that moved it failed.</summary>
    private int _errorReplies;

    private long _stretchStart;
    // A stretch's commands as runs of one command (a pipeline is mostly one command): the current run in fields, the
    // earlier ones in arrays. The stretch's commands are the ones parsed from _stretchFirstOffset on (a command that does
    // not join ends the stretch, see EndStretchBefore), so a slow log entry can parse them again.
    private RespCommandInfo? _runCommand;
    private int _runLength;
    private RespCommandInfo[] _earlierRuns = [];
    private int[] _earlierRunLengths = [];
    private int _earlierRunCount;
    private int _stretchFirstOffset;

    /// <summary>The batch being run (its commands are parsed again for a slow log entry), and where the current command starts in it.</summary>
    private byte* _batchStart;
    private int _batchLength;
    private int _commandOffset;
    private int _commandLength;

    /// <summary>Whether cheap commands join stretches: during a batch, with no per-command latency observer (metrics).</summary>
    private bool _timingStretches;

    void IErrorReplyListener.OnErrorReply(ReadOnlySpan<byte> message)
    {
        _errorReplies++;
        _server.Statistics.Errors.Add(message);
    }

    void IErrorReplyListener.OnRepeatedErrorReply() => _errorReplies++;

    /// <summary>At a batch's start: the first stretch starts.</summary>
    private void BeginTiming(byte* buffer, int length)
    {
        _batchStart = buffer;
        _batchLength = length;
        _timingStretches = _latency == null;
        _stretchStart = Stopwatch.GetTimestamp();
    }

    /// <summary>At a batch's end: its last stretch ends (before the batch's buffer may be reused).</summary>
    private void EndTiming()
    {
        if (StretchOpen)
            CloseStretch(Stopwatch.GetTimestamp());
        _batchStart = null;
        _timingStretches = false;
    }

    /// <summary>
    /// Runs a command that passed its checks and counts it: in the current stretch, or timed on its own. A command that
    /// extends the current run (a pipeline of one command) costs a compare and an increment: its call is counted with the
    /// run's when the stretch closes.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void RunCounted(RespCommandInfo info)
    {
        // A run exists only while stretches are timed, and only of a command that shares batch time.
        if (ReferenceEquals(info, _runCommand) && IsSmallArrayCommand())
        {
            int errors = _errorReplies;
            // Joined before running: a device error while it runs closes the stretch with it (AfterDeviceError).
            _runLength++;
            RunCommand(info);
            if (_errorReplies != errors)
                _server.Statistics.AddCommandTime(_counters, info.StatsSlot, 0, failed: true);
        }
        else
        {
            RunOutsideRun(info);
        }
    }

    /// <summary>A command that does not extend the current run: it starts the next run of the stretch, or is timed alone.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void RunOutsideRun(RespCommandInfo info)
    {
        // A command on a slot this node migrates is timed alone (see ClusterAdmits).
        if (info.SharesBatchTime && _timingStretches && IsSmallArrayCommand() && _migratingSlot < 0)
        {
            int errors = _errorReplies;
            StartRun(info);
            RunCommand(info);
            if (_errorReplies != errors)
                _server.Statistics.AddCommandTime(_counters, info.StatsSlot, 0, failed: true);
        }
        else
        {
            RunTimed(info, _latency);
        }
    }

    /// <summary>
    /// The table entry a command is counted under: a container's subcommand (CLIENT ID counts as client|id), else its
    /// own. The subcommand found is kept for the container's handler (<see cref="ResolveSubcommand"/>), which then does
    /// not look it up again.
    /// </summary>
    private RespCommandInfo CountedAs(RespCommandInfo info)
    {
        if (_argCount <= 1 || !SubcommandTable.IsContainer(info.Command))
            return info;
        _countedSubcommand = SubcommandTable.Find(info.Command, _args[1]);
        return _countedSubcommand?.Info ?? info;
    }

    /// <summary>The subcommand <see cref="CountedAs"/> found for the container command about to run; taken once by its handler.</summary>
    private SubcommandInfo? _countedSubcommand;

    /// <summary>
    /// Adds <paramref name="count"/> runs of <paramref name="ticks"/> each of <paramref name="counted"/> to its latency
    /// histogram (latency-tracking) and, past latency-monitor-threshold, a spike to the latency monitor.
    /// </summary>
    private void RecordDuration(RespCommandInfo counted, long ticks, int count)
    {
        if (_server.Statistics.LatencyTracking)
            _server.Statistics.AddLatency(_counters, counted.StatsSlot, ticks, count);
        var monitor = _server.LatencyMonitor;
        if (monitor.ThresholdMilliseconds > 0 && !_replaying)
            monitor.AddIfSpike((counted.Flags & CommandFlags.Fast) != 0 ? LatencyMonitor.FastCommandEvent : LatencyMonitor.CommandEvent, ToMicroseconds(ticks) / 1000);
    }

    /// <summary>
    /// Whether the current command may share a stretch: sent as a RESP array (an inline command's bytes are unescaped in
    /// place when parsed, so they could not be parsed again for the slow log) with few, small arguments (a @fast command
    /// such as ZADD or SET costs more the more and larger its arguments are).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool IsSmallArrayCommand()
    {
        const int MaxArguments = 4, MaxBytes = 16 << 10;
        return _argCount <= MaxArguments && _commandLength <= MaxBytes && _batchStart[_commandOffset] == (byte)'*';
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void StartRun(RespCommandInfo info)
    {
        if (_runCommand == null)
        {
            _stretchFirstOffset = _commandOffset;
        }
        else
        {
            if (_earlierRunCount == _earlierRuns.Length)
            {
                Array.Resize(ref _earlierRuns, Math.Max(8, _earlierRuns.Length * 2));
                Array.Resize(ref _earlierRunLengths, _earlierRuns.Length);
            }
            _earlierRuns[_earlierRunCount] = _runCommand;
            _earlierRunLengths[_earlierRunCount] = _runLength;
            _earlierRunCount++;
        }
        _runCommand = info;
        _runLength = 1;
    }

    /// <summary>
    /// After a command ended with a device error (the storage tier): it counts as failed, the open stretch ends before it
    /// and the next starts now, so neither holds a command that did not join it.
    /// </summary>
    private void AfterDeviceError()
    {
        long now = Stopwatch.GetTimestamp();
        if (StretchOpen)
            CloseStretch(now);
        _stretchStart = now;
        if (_currentCommand != null)
            _server.Statistics.AddCommandTime(_counters, _currentCommand.StatsSlot, 0, failed: true);
    }

    /// <summary>Whether commands joined the current stretch.</summary>
    private bool StretchOpen => _runCommand != null;

    /// <summary>
    /// A command that does not join a stretch (refused, queued in MULTI) ends the open one first, so every command parsed
    /// within a stretch's bytes is one of its commands. Out of line: its callers are cold branches of the command loop.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void EndStretchBefore()
    {
        long now = Stopwatch.GetTimestamp();
        if (StretchOpen)
            CloseStretch(now);
        _stretchStart = now;
    }

    /// <summary>Runs <paramref name="info"/> between two clock readings (the stretch before it ends at the first).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void RunTimed(RespCommandInfo info, ICommandLatencyObserver? latency)
    {
        var counted = CountedAs(info);
        _server.Statistics.AddCommandCall(_counters, counted.StatsSlot);
        int errors = _errorReplies;
        long start = Stopwatch.GetTimestamp();
        if (StretchOpen)
            CloseStretch(start);
        if (_migratingSlot >= 0)
            RunOnMigratingSlot(info); // Cluster/RespServerSession.Cluster.cs
        else
            RunCommand(info);
        long end = Stopwatch.GetTimestamp();
        _stretchStart = end;
        long ticks = end - start;
        latency?.Record(info, ticks);
        _server.Statistics.AddCommandTime(_counters, counted.StatsSlot, ticks, failed: _errorReplies != errors);
        RecordDuration(counted, ticks, 1);
        if ((info.Flags & CommandFlags.SkipSlowlog) == 0 && !_replaying && _server.SlowLog.Logs(ToMicroseconds(ticks)))
            _server.SlowLog.Add(ToMicroseconds(ticks), SlowLog.CutArguments(_args.AsSpan(0, _argCount), counted.Secrets), RemoteEndpoint, ClientName);
    }

    /// <summary>Times a command run inside another (EXEC's queued commands, a script's calls): always on its own.</summary>
    private void RunInnerTimed(RespCommandInfo info, bool slowLog)
    {
        var counted = CountedAs(info);
        _server.Statistics.AddCommandCall(_counters, counted.StatsSlot);
        int errors = _errorReplies;
        long start = Stopwatch.GetTimestamp();
        RunCommand(info);
        bool failed = _errorReplies != errors;
        _errorReplies = errors; // the outer command (EXEC, the script) does not fail by it
        CountInnerCommand(info, counted, Stopwatch.GetTimestamp() - start, failed, slowLog);
    }

    /// <summary>Adds an inner command's time (and failure) to its counters (those of <paramref name="counted"/>, from <see cref="CountedAs"/>) and, when slow, to the slow log.</summary>
    private void CountInnerCommand(RespCommandInfo info, RespCommandInfo counted, long ticks, bool failed, bool slowLog)
    {
        _latency?.Record(info, ticks);
        _server.Statistics.AddCommandTime(_counters, counted.StatsSlot, ticks, failed);
        RecordDuration(counted, ticks, 1);
        if (slowLog && (info.Flags & CommandFlags.SkipSlowlog) == 0 && !_replaying && _server.SlowLog.Logs(ToMicroseconds(ticks)))
            _server.SlowLog.Add(ToMicroseconds(ticks), SlowLog.CutArguments(_args.AsSpan(0, _argCount), counted.Secrets), RemoteEndpoint, ClientName);
    }

    /// <summary>Ends the current stretch at <paramref name="now"/>: each of its commands gets an even share of its time.</summary>
    private void CloseStretch(long now)
    {
        int count = _runLength;
        for (int i = 0; i < _earlierRunCount; i++)
            count += _earlierRunLengths[i];
        long share = (now - _stretchStart) / count;
        var statistics = _server.Statistics;
        statistics.AddCommandRun(_counters, _runCommand!.StatsSlot, _runLength, share * _runLength);
        RecordDuration(_runCommand, share, _runLength);
        for (int i = 0; i < _earlierRunCount; i++)
        {
            statistics.AddCommandRun(_counters, _earlierRuns[i].StatsSlot, _earlierRunLengths[i], share * _earlierRunLengths[i]);
            RecordDuration(_earlierRuns[i], share, _earlierRunLengths[i]);
            _earlierRuns[i] = null!;
        }
        _runCommand = null;
        _earlierRunCount = 0;
        // A pipeline that kept changing commands grew the arrays: an idle connection does not keep them.
        if (_earlierRuns.Length > 64)
        {
            _earlierRuns = [];
            _earlierRunLengths = [];
        }
        if (!_replaying && _server.SlowLog.Logs(ToMicroseconds(share)))
            LogStretch(count, ToMicroseconds(share));
    }

    /// <summary>Slow log entries for a stretch whose commands each took at least the threshold: they are parsed again from the batch.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void LogStretch(int count, long microseconds)
    {
        if (_batchStart == null)
            return;
        // Parsed into a spare array, so a command about to run keeps its own arguments.
        var savedArgs = _args;
        int savedCount = _argCount;
        _args = _slowLogArgs;
        // Whatever the parse could say goes nowhere and counts nowhere (the commands parsed before, so it says nothing).
        _discardingSink ??= new DiscardingSink();
        var savedWriter = RedirectReplies(_discardingSink, resp3: false);
        _writer.ErrorListener = null;
        try
        {
            int offset = _stretchFirstOffset;
            while (count > 0 && offset < _batchLength)
            {
                // These commands were parsed once already: they are complete and well-formed.
                var parse = TryParseCommand(_batchStart + offset, _batchLength - offset, out int consumed);
                offset += consumed;
                if (parse != ParseResult.Command)
                {
                    if (parse == ParseResult.Empty)
                        continue;
                    break;
                }
                count--;
                var info = FindCommand(_args[0].Span);
                if (info != null && (info.Flags & CommandFlags.SkipSlowlog) == 0)
                    _server.SlowLog.Add(microseconds, SlowLog.CutArguments(_args.AsSpan(0, _argCount), CountedAs(info).Secrets), RemoteEndpoint, ClientName);
            }
        }
        finally
        {
            EndRedirect(savedWriter);
            _slowLogArgs = _args;
            _args = savedArgs;
            _argCount = savedCount;
        }
    }

    private ArgSlice[] _slowLogArgs = [];

    /// <summary>Counts a command refused before it ran (rejected_calls); it ends the open stretch (see <see cref="EndStretchBefore"/>).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void CountRejected(RespCommandInfo info)
    {
        EndStretchBefore();
        _server.Statistics.AddCommandRejected(_counters, CountedAs(info).StatsSlot);
        _countedSubcommand = null; // the command does not run
    }

    private static long ToMicroseconds(long ticks) => CommandCounts.TicksToMicroseconds(ticks);
}
