using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using System.Threading;

namespace Garnet.server;

/// <summary>One SLOWLOG entry, as Redis keeps it: arguments already cut to Redis's limits.</summary>
public sealed record SlowLogEntry(long Id, long UnixSeconds, long Microseconds, byte[][] Arguments, string ClientAddress, string ClientName);

/// <summary>
/// The slow log (SLOWLOG GET/LEN/RESET): commands that ran at least <see cref="ThresholdMicroseconds"/>
/// (slowlog-log-slower-than; negative turns it off, 0 logs every command), newest first, at most
/// <see cref="MaxLength"/> (slowlog-max-len). Entries come rarely, so a lock guards the list.
/// </summary>
public sealed class SlowLog
{
    /// <summary>Redis's SLOWLOG_ENTRY_MAX_ARGC: more arguments are summed up in the last one kept.</summary>
    public const int MaxArguments = 32;

    /// <summary>Redis's SLOWLOG_ENTRY_MAX_STRING: a longer argument is cut and says how much was left out.</summary>
    public const int MaxArgumentBytes = 128;

    private readonly object _lock = new();
    private readonly LinkedList<SlowLogEntry> _entries = new();
    private long _nextId;
    private long _threshold = 10_000;
    private int _maxLength = 128;

    /// <summary>slowlog-log-slower-than, in microseconds.</summary>
    public long ThresholdMicroseconds
    {
        get => Volatile.Read(ref _threshold);
        set => Volatile.Write(ref _threshold, value);
    }

    /// <summary>slowlog-max-len: the oldest entries go when there are more.</summary>
    public int MaxLength
    {
        get => Volatile.Read(ref _maxLength);
        set
        {
            lock (_lock)
            {
                _maxLength = value;
                Trim();
            }
        }
    }

    /// <summary>Whether a command that ran <paramref name="microseconds"/> is logged.</summary>
    public bool Logs(long microseconds)
    {
        long threshold = ThresholdMicroseconds;
        return threshold >= 0 && microseconds >= threshold;
    }

    /// <summary>Logs a command (<paramref name="arguments"/> from <see cref="CutArguments"/>).</summary>
    public void Add(long microseconds, byte[][] arguments, string clientAddress, string? clientName)
    {
        long now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        lock (_lock)
        {
            _entries.AddFirst(new SlowLogEntry(_nextId++, now, microseconds, arguments, clientAddress, clientName ?? ""));
            Trim();
        }
    }

    private void Trim()
    {
        while (_entries.Count > Math.Max(0, _maxLength))
            _entries.RemoveLast();
    }

    /// <summary>The newest <paramref name="count"/> entries (all of them for -1).</summary>
    public List<SlowLogEntry> Newest(long count)
    {
        lock (_lock)
        {
            var list = new List<SlowLogEntry>();
            foreach (var entry in _entries)
            {
                if (count >= 0 && list.Count >= count)
                    break;
                list.Add(entry);
            }
            return list;
        }
    }

    /// <summary>SLOWLOG LEN.</summary>
    public int Count
    {
        get
        {
            lock (_lock)
                return _entries.Count;
        }
    }

    /// <summary>SLOWLOG RESET: the entries go; ids go on from where they were, as in Redis.</summary>
    public void Reset()
    {
        lock (_lock)
            _entries.Clear();
    }

    /// <summary>
    /// A command's arguments as Redis logs them: at most <see cref="MaxArguments"/>, the last of them then
    /// "... (N more arguments)"; each at most <see cref="MaxArgumentBytes"/> bytes, then "... (N more bytes)"; the
    /// secrets its table entry declares (<paramref name="secrets"/>) as "(redacted)".
    /// </summary>
    public static byte[][] CutArguments(ReadOnlySpan<ArgSlice> arguments, SecretArguments secrets)
    {
        int count = arguments.Length;
        int kept = Math.Min(count, MaxArguments);
        var result = new byte[kept][];
        for (int i = 0; i < kept; i++)
        {
            if (kept != count && i == kept - 1)
            {
                result[i] = Encoding.ASCII.GetBytes(string.Create(CultureInfo.InvariantCulture, $"... ({count - kept + 1} more arguments)"));
                break;
            }
            var value = ArgumentRedaction.IsSecret(secrets, arguments, i) ? ArgumentRedaction.Redacted : arguments[i].Span;
            if (value.Length <= MaxArgumentBytes)
            {
                result[i] = value.ToArray();
                continue;
            }
            var suffix = Encoding.ASCII.GetBytes(string.Create(CultureInfo.InvariantCulture, $"... ({value.Length - MaxArgumentBytes} more bytes)"));
            var cut = new byte[MaxArgumentBytes + suffix.Length];
            value.Slice(0, MaxArgumentBytes).CopyTo(cut);
            suffix.CopyTo(cut.AsSpan(MaxArgumentBytes));
            result[i] = cut;
        }
        return result;
    }
}
