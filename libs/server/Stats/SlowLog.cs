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
        RedactSecrets(arguments);
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

    /// <summary>The values Redis keeps out of the slow log, shown as "(redacted)": AUTH's arguments, HELLO's AUTH user and password, MIGRATE's AUTH and AUTH2 values, passwords given to CONFIG SET.</summary>
    private static void RedactSecrets(byte[][] arguments)
    {
        if (arguments.Length < 2)
            return;
        if (Is(arguments[0], "AUTH"))
        {
            for (int i = 1; i < arguments.Length; i++)
                arguments[i] = Redacted();
        }
        else if (Is(arguments[0], "HELLO"))
        {
            for (int i = 1; i + 2 < arguments.Length; i++)
            {
                if (Is(arguments[i], "AUTH"))
                {
                    arguments[i + 1] = Redacted();
                    arguments[i + 2] = Redacted();
                    i += 2;
                }
            }
        }
        else if (arguments.Length >= 4 && Is(arguments[0], "CONFIG") && Is(arguments[1], "SET"))
        {
            for (int i = 2; i + 1 < arguments.Length; i += 2)
            {
                if (Is(arguments[i], "requirepass") || Is(arguments[i], "masterauth") || Is(arguments[i], "tls-key-file-pass") || Is(arguments[i], "tls-client-key-file-pass"))
                    arguments[i + 1] = Redacted();
            }
        }
        else if (arguments.Length > 6 && Is(arguments[0], "MIGRATE"))
        {
            MigrateArguments.RedactSecrets(arguments, Redacted());
        }
        else if (arguments.Length >= 4 && Is(arguments[0], "ACL") && Is(arguments[1], "SETUSER"))
        {
            // The rules may hold passwords (>pass, #hash): everything after the user's name.
            for (int i = 3; i < arguments.Length; i++)
                arguments[i] = Redacted();
        }

        static byte[] Redacted() => "(redacted)"u8.ToArray();
        static bool Is(byte[] argument, string name) => Encoding.ASCII.GetString(argument).Equals(name, StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>
    /// A command's arguments as Redis logs them: at most <see cref="MaxArguments"/>, the last of them then
    /// "... (N more arguments)"; each at most <see cref="MaxArgumentBytes"/> bytes, then "... (N more bytes)".
    /// </summary>
    public static byte[][] CutArguments(ReadOnlySpan<ArgSlice> arguments)
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
            var value = arguments[i].Span;
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
