using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Threading;

namespace Garnet.server;

/// <summary>One of Redis's <c>save &lt;seconds&gt; &lt;changes&gt;</c> points: a background save once both have passed since the last one.</summary>
public readonly record struct SavePoint(long Seconds, long Changes)
{
    /// <summary>
    /// Parses Redis's form, pairs of numbers separated by spaces ("3600 1 300 100"), or "" for none; false (with the
    /// points unset) when it is not that.
    /// </summary>
    public static bool TryParseList(string text, out List<SavePoint> points)
    {
        points = [];
        var parts = text.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (parts.Length % 2 != 0)
            return false;
        for (int i = 0; i < parts.Length; i += 2)
        {
            if (!long.TryParse(parts[i], NumberStyles.None, CultureInfo.InvariantCulture, out long seconds) || seconds < 1
                || !long.TryParse(parts[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out long changes))
            {
                points = [];
                return false;
            }
            points.Add(new SavePoint(seconds, changes));
        }
        return true;
    }

    /// <summary>The points in Redis's form (CONFIG GET save).</summary>
    public static string Format(IReadOnlyList<SavePoint> points)
    {
        var parts = new List<string>(points.Count * 2);
        foreach (var point in points)
        {
            parts.Add(point.Seconds.ToString(CultureInfo.InvariantCulture));
            parts.Add(point.Changes.ToString(CultureInfo.InvariantCulture));
        }
        return string.Join(' ', parts);
    }
}

/// <summary>
/// The checkpoints nobody asks for, checked every second as Redis's cron does: a save point reached (<c>save</c>), the
/// gap of <c>--checkpoint-freq</c> passed since the last checkpoint ended, or the AOF grown past <c>--aof-size-limit</c>
/// (a checkpoint after which the files before it are removed). A failed save is tried again after 5 seconds at the
/// earliest, as Redis does.
/// </summary>
internal sealed class CheckpointSchedule : IDisposable
{
    private const long RetryAfterFailureSeconds = 5;

    private readonly StoreWrapper _server;
    private readonly PeriodicLoop _loop;
    private volatile IReadOnlyList<SavePoint> _savePoints;
    private long _lastAttemptTicks = Stopwatch.GetTimestamp();

    public CheckpointSchedule(StoreWrapper server)
    {
        _server = server;
        _savePoints = server.Options.SavePoints ?? [];
        _loop = new PeriodicLoop(TimeSpan.FromSeconds(1), _ => RunOnce());
        _loop.Start();
    }

    /// <summary>The save points (CONFIG GET/SET save).</summary>
    public IReadOnlyList<SavePoint> SavePoints
    {
        get => _savePoints;
        set => _savePoints = value;
    }

    /// <summary>Whether the server is configured to save by itself, so stopping saves too (as Redis's SHUTDOWN does with save points).</summary>
    public bool SavesConfigured => _savePoints.Count > 0 || _server.Options.CheckpointFrequencySecs > 0;

    private void RunOnce()
    {
        var checkpoints = _server.Checkpoints;
        if (checkpoints.InProgress || checkpoints.Stopping)
            return;
        long sinceAttempt = (long)Stopwatch.GetElapsedTime(Interlocked.Read(ref _lastAttemptTicks)).TotalSeconds;
        if (!checkpoints.LastSaveSucceeded && sinceAttempt < RetryAfterFailureSeconds)
            return;

        var log = _server.OperationLog;
        long limit = _server.Options.AofSizeLimit;
        if (limit > 0 && log != null && log.FileBytes - log.FileStart > limit)
        {
            Attempt(() => checkpoints.RewriteAofInBackground());
            return;
        }

        long sinceSave = DateTimeOffset.UtcNow.ToUnixTimeSeconds() - _server.LastSaveUnixSeconds;
        int frequency = _server.Options.CheckpointFrequencySecs;
        if (frequency > 0 && checkpoints.SecondsSinceLastEnd >= frequency)
        {
            Attempt(() => checkpoints.SaveInBackground());
            return;
        }
        var points = _savePoints;
        if (points.Count == 0)
            return;
        long changes = checkpoints.ChangesSinceLastSave;
        foreach (var point in points)
        {
            if (sinceSave >= point.Seconds && changes >= point.Changes)
            {
                Attempt(() => checkpoints.SaveInBackground());
                return;
            }
        }
    }

    private void Attempt(Func<CheckpointStart> start)
    {
        Interlocked.Exchange(ref _lastAttemptTicks, Stopwatch.GetTimestamp());
        start();
    }

    public void Dispose() => _loop.Dispose();
}
