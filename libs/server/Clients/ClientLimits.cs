using System;
using System.Globalization;
using System.Text;
using System.Threading;
using Garnet.networking;
using Garnet.networking.Linux;

namespace Garnet.server;

/// <summary>
/// The limits Redis puts on clients, shared by all connections and changed by CONFIG SET while they run: how many may
/// connect (maxclients), how long one may idle (timeout), how much input one may send unparsed
/// (client-query-buffer-limit, proto-max-bulk-len) and how much output it may leave unread per class of clients
/// (client-output-buffer-limit), plus protected mode and TCP keepalive.
/// </summary>
public sealed class ClientLimits
{
    /// <summary>
    /// Descriptors kept free beyond those open when the limit is fitted: the runtime opens more later (assemblies it
    /// loads lazily, event loops, files), and accept must never be the call that runs out.
    /// </summary>
    public const int ReservedDescriptors = 96;

    // The settings CONFIG SET changes while connections read them: each read and written with Volatile (a long
    // cannot be a volatile field), so a change is seen by every thread and a long is never read torn.
    private int _maxClients;
    private int _timeoutSeconds;
    private int _tcpKeepAliveSeconds;
    private long _queryBufferLimit;
    private long _protoMaxBulkLength;
    private bool _protectedMode;
    private int _connected;

    /// <summary>Creates the limits from the server's options.</summary>
    public ClientLimits(ServerOptions options)
    {
        MaxClients = options.MaxClients;
        TimeoutSeconds = options.TimeoutSeconds;
        TcpKeepAliveSeconds = options.TcpKeepAliveSeconds;
        QueryBufferLimit = options.ClientQueryBufferLimit;
        ProtoMaxBulkLength = options.ProtoMaxBulkLength;
        ProtectedMode = options.ProtectedMode;
        Normal = new OutputLimitClass(options.NormalOutputLimit);
        Replica = new OutputLimitClass(options.ReplicaOutputLimit);
        PubSub = new OutputLimitClass(options.PubSubOutputLimit);
    }

    /// <summary>Most clients connected at once (Redis's maxclients); a client past it gets an error and is closed.</summary>
    public int MaxClients
    {
        get => Volatile.Read(ref _maxClients);
        set => Volatile.Write(ref _maxClients, value);
    }

    /// <summary>Clients connected now (admitted connections not yet closed).</summary>
    public int Connected => Volatile.Read(ref _connected);

    /// <summary>Seconds a client may stay idle before it is closed; 0 never (Redis's timeout).</summary>
    public int TimeoutSeconds
    {
        get => Volatile.Read(ref _timeoutSeconds);
        set => Volatile.Write(ref _timeoutSeconds, value);
    }

    /// <summary>Seconds between TCP keepalive probes on idle connections; 0 off (Redis's tcp-keepalive).</summary>
    public int TcpKeepAliveSeconds
    {
        get => Volatile.Read(ref _tcpKeepAliveSeconds);
        set => Volatile.Write(ref _tcpKeepAliveSeconds, value);
    }

    /// <summary>Most bytes of one client's input waiting to be parsed (Redis's client-query-buffer-limit).</summary>
    public long QueryBufferLimit
    {
        get => Volatile.Read(ref _queryBufferLimit);
        set => Volatile.Write(ref _queryBufferLimit, value);
    }

    /// <summary>Longest bulk string a client may send (Redis's proto-max-bulk-len).</summary>
    public long ProtoMaxBulkLength
    {
        get => Volatile.Read(ref _protoMaxBulkLength);
        set => Volatile.Write(ref _protoMaxBulkLength, value);
    }

    /// <summary>Whether clients from other hosts are refused while the default user has no password (Redis's protected-mode).</summary>
    public bool ProtectedMode
    {
        get => Volatile.Read(ref _protectedMode);
        set => Volatile.Write(ref _protectedMode, value);
    }

    /// <summary>Output limit of normal clients.</summary>
    public OutputLimitClass Normal { get; }

    /// <summary>Output limit of replicas.</summary>
    public OutputLimitClass Replica { get; }

    /// <summary>Output limit of clients subscribed to a channel or pattern.</summary>
    public OutputLimitClass PubSub { get; }

    /// <summary>Connections closed for passing an output limit (INFO client_output_buffer_limit_disconnections).</summary>
    public long OutputLimitDisconnections => Normal.Disconnections + Replica.Disconnections + PubSub.Disconnections;

    /// <summary>Takes a place for a new client; false when <see cref="MaxClients"/> are connected.</summary>
    internal bool TryAdmit()
    {
        if (Interlocked.Increment(ref _connected) <= MaxClients)
            return true;
        Interlocked.Decrement(ref _connected);
        return false;
    }

    /// <summary>Gives back the place of a client that closed.</summary>
    internal void Release() => Interlocked.Decrement(ref _connected);

    /// <summary>
    /// Makes room for <paramref name="maxClients"/> clients under the descriptor limit, as Redis does at start and on
    /// CONFIG SET: raises the soft limit toward the hard one when it is short, and returns how many clients fit after
    /// that (<paramref name="maxClients"/> when all do; at least 1). <paramref name="connected"/> clients hold descriptors
    /// now that are not the server's own. <paramref name="report"/> describes what happened, or is null when nothing had
    /// to change.
    /// </summary>
    public static int FitToDescriptors(int maxClients, int connected, out string? report)
    {
        report = null;
        if (!DescriptorLimit.TryGet(out long soft, out long hard))
            return maxClients;
        long reserved = Math.Max(0, DescriptorLimit.OpenNow() - connected) + ReservedDescriptors;
        long needed = maxClients + reserved;
        if (soft >= needed)
            return maxClients;

        int error = DescriptorLimit.TrySetSoft(Math.Min(needed, hard));
        if (error == 0 && DescriptorLimit.TryGet(out long raised, out _))
        {
            if (raised >= needed)
            {
                report = $"Increased maximum number of open files to {raised} (it was originally set to {soft}).";
                return maxClients;
            }
            soft = raised;
        }
        int fitting = (int)Math.Max(1, Math.Min(maxClients, soft - reserved));
        report = $"You requested maxclients of {maxClients} requiring at least {needed} max file descriptors. "
            + $"Current maximum open files is {soft}. maxclients has been reduced to {fitting} to compensate for low ulimit. "
            + "If you need higher maxclients increase 'ulimit -n'.";
        return fitting;
    }

    /// <summary>
    /// Checks a client-output-buffer-limit value: groups of "class hard soft seconds", class normal, replica (or slave)
    /// or pubsub, sizes with Redis's units. Returns null when it is well formed, else Redis's reason.
    /// </summary>
    public static string? CheckOutputLimits(string value) => ParseOutputLimits(value, out _);

    /// <summary>Applies a client-output-buffer-limit value to the running classes; classes it does not name keep their limits.</summary>
    public void SetOutputLimits(string value)
    {
        if (ParseOutputLimits(value, out var groups) is { } error)
            throw new ArgumentException(error, nameof(value));
        foreach (var (name, limit) in groups)
            (name switch { "normal" => Normal, "pubsub" => PubSub, _ => Replica }).Limit = limit;
    }

    /// <summary>Applies a client-output-buffer-limit value to the options a server starts with (the host's --client-output-buffer-limit).</summary>
    public static void SetOutputLimits(ServerOptions options, string value)
    {
        if (ParseOutputLimits(value, out var groups) is { } error)
            throw new ArgumentException(error, nameof(value));
        foreach (var (name, limit) in groups)
        {
            switch (name)
            {
                case "normal": options.NormalOutputLimit = limit; break;
                case "pubsub": options.PubSubOutputLimit = limit; break;
                default: options.ReplicaOutputLimit = limit; break;
            }
        }
    }

    private static string? ParseOutputLimits(string value, out (string Class, OutputLimit Limit)[] groups)
    {
        groups = [];
        var parts = value.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (parts.Length == 0 || parts.Length % 4 != 0)
            return "Wrong number of arguments in buffer limit configuration.";
        var parsed = new (string Class, OutputLimit Limit)[parts.Length / 4];
        for (int i = 0; i < parts.Length; i += 4)
        {
            string name = parts[i].ToLowerInvariant();
            if (name is not ("normal" or "replica" or "slave" or "pubsub"))
                return "Invalid client class specified in buffer limit configuration.";
            if (!MemoryValue.TryParse(parts[i + 1], out long hard) || !MemoryValue.TryParse(parts[i + 2], out long soft)
                || !int.TryParse(parts[i + 3], NumberStyles.None, CultureInfo.InvariantCulture, out int seconds))
                return "Error in hard, soft or soft_seconds setting in buffer limit configuration.";
            parsed[i / 4] = (name, new OutputLimit(hard, soft, seconds));
        }
        groups = parsed;
        return null;
    }

    /// <summary>client-output-buffer-limit as CONFIG GET shows it (Redis's order and names).</summary>
    public string FormatOutputLimits()
    {
        var text = new StringBuilder();
        Append(text, "normal", Normal.Limit);
        text.Append(' ');
        Append(text, "slave", Replica.Limit);
        text.Append(' ');
        Append(text, "pubsub", PubSub.Limit);
        return text.ToString();

        static void Append(StringBuilder text, string name, OutputLimit limit)
            => text.Append(CultureInfo.InvariantCulture, $"{name} {limit.HardBytes} {limit.SoftBytes} {limit.SoftSeconds}");
    }
}
