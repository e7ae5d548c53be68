using System;
using System.Buffers;
using System.Globalization;
using System.Text;

namespace Garnet.server;

/// <summary>
/// MONITOR: the clients that asked to see every command the server runs, and the line each command becomes, as Redis
/// writes it: <c>+&lt;unix seconds&gt;.&lt;microseconds&gt; [&lt;db&gt; &lt;client address | lua&gt;] "arg" "arg"...</c>.
/// </summary>
/// <remarks>
/// Sessions look at <see cref="Active"/> after each command (one read of a field while nobody monitors). A line is
/// made once and queued on every monitor's outbox, which delivers it as published messages are delivered and bounds
/// it with the normal clients' output limit, as Redis's monitors are.
/// </remarks>
internal sealed class MonitorFeed
{
    private readonly object _lock = new();
    private PubSubOutbox[] _monitors = [];
    private volatile int _count;
    private readonly CommandObservers _observers;

    internal MonitorFeed(CommandObservers observers) => _observers = observers;

    /// <summary>Whether any client monitors.</summary>
    public bool Active => _count != 0;

    /// <summary>How many clients monitor.</summary>
    public int Count => _count;

    /// <summary>Starts feeding <paramref name="monitor"/>; false if it was fed already.</summary>
    public bool Add(PubSubOutbox monitor)
    {
        lock (_lock)
        {
            bool added = OutboxList.TryAdd(ref _monitors, monitor);
            _count = _monitors.Length;
            _observers.Set(CommandObservers.Monitoring, _count != 0);
            return added;
        }
    }

    /// <summary>Stops feeding <paramref name="monitor"/> (RESET, disconnect).</summary>
    public void Remove(PubSubOutbox monitor)
    {
        lock (_lock)
        {
            OutboxList.TryRemove(ref _monitors, monitor);
            _count = _monitors.Length;
            _observers.Set(CommandObservers.Monitoring, _count != 0);
        }
    }

    /// <summary>Queues the line of a command that ran (<paramref name="args"/>, the name first) for every monitor.</summary>
    public void Feed(int database, string origin, ReadOnlySpan<ArgSlice> args, SecretArguments secrets)
    {
        var monitors = _monitors;
        if (monitors.Length == 0)
            return;
        var line = Line(DateTimeOffset.UtcNow, database, origin, args, secrets);
        foreach (var monitor in monitors)
        {
            if (!monitor.EnqueueMonitorLine(line))
                monitor.Disconnect();
        }
    }

    /// <summary>The monitor line of a command; the secrets its table entry declares (<paramref name="secrets"/>) are "(redacted)", as Redis shows them.</summary>
    internal static byte[] Line(DateTimeOffset at, int database, string origin, ReadOnlySpan<ArgSlice> args, SecretArguments secrets)
    {
        var line = new ArrayBufferWriter<byte>(64 + (args.Length * 16));
        long micros = (at.UtcTicks - DateTime.UnixEpoch.Ticks) / 10;
        Append(line, string.Create(CultureInfo.InvariantCulture, $"+{micros / 1_000_000}.{micros % 1_000_000:D6} [{database} {origin}]"));
        for (int i = 0; i < args.Length; i++)
        {
            Append(line, " ");
            AppendQuoted(line, ArgumentRedaction.IsSecret(secrets, args, i) ? ArgumentRedaction.Redacted : args[i].Span);
        }
        Append(line, "\r\n");
        return line.WrittenSpan.ToArray();
    }

    private static void Append(ArrayBufferWriter<byte> line, string text)
    {
        var span = line.GetSpan(Encoding.ASCII.GetMaxByteCount(text.Length));
        line.Advance(Encoding.ASCII.GetBytes(text, span));
    }

    /// <summary>An argument in double quotes with Redis's escapes (\\, \", \n, \r, \t, \a, \b, \xHH for the rest unprintable).</summary>
    private static void AppendQuoted(ArrayBufferWriter<byte> line, ReadOnlySpan<byte> value)
    {
        var span = line.GetSpan((value.Length * 4) + 2);
        int n = 0;
        span[n++] = (byte)'"';
        foreach (byte b in value)
        {
            switch (b)
            {
                case (byte)'\\':
                case (byte)'"':
                    span[n++] = (byte)'\\';
                    span[n++] = b;
                    break;
                case (byte)'\n': n += Escape(span.Slice(n), 'n'); break;
                case (byte)'\r': n += Escape(span.Slice(n), 'r'); break;
                case (byte)'\t': n += Escape(span.Slice(n), 't'); break;
                case 7: n += Escape(span.Slice(n), 'a'); break;
                case 8: n += Escape(span.Slice(n), 'b'); break;
                default:
                    if (b >= 0x20 && b < 0x7f)
                    {
                        span[n++] = b;
                    }
                    else
                    {
                        span[n++] = (byte)'\\';
                        span[n++] = (byte)'x';
                        span[n++] = (byte)"0123456789abcdef"[b >> 4];
                        span[n++] = (byte)"0123456789abcdef"[b & 15];
                    }
                    break;
            }
        }
        span[n++] = (byte)'"';
        line.Advance(n);
    }

    private static int Escape(Span<byte> to, char letter)
    {
        to[0] = (byte)'\\';
        to[1] = (byte)letter;
        return 2;
    }
}
