using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// CONFIG GET / SET / RESETSTAT / REWRITE / HELP over a table of parameters. Parameters come in
/// three kinds: the server's options (immutable at runtime), Redis settings this server has exactly
/// one value for (SET accepts only that value, so scripts that "turn off" a feature keep working),
/// and the few that really change at runtime.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private enum ConfigKind
    {
        /// <summary>Read-only at runtime.</summary>
        Immutable,
        /// <summary>One supported value; setting it to that value is accepted and changes nothing.</summary>
        Fixed,
        /// <summary>Changes at runtime.</summary>
        Mutable,
    }

    /// <summary>The syntax of a parameter's value, as Redis checks it on CONFIG SET.</summary>
    private enum ConfigValue
    {
        Text,
        Integer,
        Memory,
        YesNo,
        NonNegativeInteger,
        MaxMemoryPolicy,
        OutputBufferLimit,
    }

    /// <summary>A CONFIG parameter: name, getter and, when mutable, its setter.</summary>
    private sealed class ConfigParameter
    {
        public ConfigParameter(string name, ConfigKind kind, Func<RespServerSession, string> get, Action<StoreWrapper, string>? set = null, ConfigValue value = ConfigValue.Text, long min = long.MinValue, long max = long.MaxValue, Func<RespServerSession?, string, string?>? check = null)
        {
            Check = check;
            Name = name;
            NameBytes = Encoding.ASCII.GetBytes(name);
            Kind = kind;
            Get = get;
            Set = set;
            Value = value;
            Min = min;
            Max = max;
        }

        /// <summary>What a value must look like; a malformed one is refused with Redis's words before anything else.</summary>
        public ConfigValue Value { get; }

        /// <summary>The smallest value an integer or memory parameter takes.</summary>
        public long Min { get; }

        /// <summary>The largest value an integer or memory parameter takes.</summary>
        public long Max { get; }

        public string Name { get; }
        public byte[] NameBytes { get; }
        public ConfigKind Kind { get; }
        public Func<RespServerSession, string> Get { get; }
        public Action<StoreWrapper, string>? Set { get; }

        /// <summary>Whether the system can give the parameter a well-formed value: null when it can, else Redis's reason (checked before any change applies).</summary>
        public Func<RespServerSession?, string, string?>? Check { get; }

        /// <summary>The parameter this one is another name of (slave-read-only of replica-read-only), or null for a primary name.</summary>
        public string? AliasOf { get; init; }

        /// <summary>Redis's protected configs (dir, dbfilename): CONFIG SET may change them only as enable-protected-configs allows.</summary>
        public bool Protected { get; init; }

        /// <summary>The name CONFIG REWRITE writes the parameter under.</summary>
        public string PrimaryName => AliasOf ?? Name;
    }

    private static readonly ConfigParameter[] s_configParameters =
    [
        // Listening/: the host's listeners are rebound at once (open connections stay), as Redis does.
        new("bind", ConfigKind.Mutable, static s => s._server.Options.Address, SetBind,
            check: static (_, value) => BindAddresses.Parse(value, out string? error) == null ? error : null),
        new("port", ConfigKind.Mutable, static s => s.ConfiguredPort().ToString(CultureInfo.InvariantCulture), SetPort, ConfigValue.Integer, 0, 65535),
        new("unixsocket", ConfigKind.Immutable, static s => s._server.Options.UnixSocketPath ?? ""),
        new("databases", ConfigKind.Immutable, static s => s._server.DatabaseCount.ToString(CultureInfo.InvariantCulture)),
        // Checkpoints taken from now on go to the new directory; the operation log's files cannot move while it runs.
        new("dir", ConfigKind.Mutable, static s => s._server.Options.CheckpointDir ?? Environment.CurrentDirectory, SetDir,
            check: static (s, value) => DirError(s?._server, value)) { Protected = true },
        new("requirepass", ConfigKind.Mutable, static s => s._server.Options.Password ?? "", SetPassword),
        // The memory budget: the head of each database's log moves to stay within it (Tsavorite's Eviction/).
        new("maxmemory", ConfigKind.Mutable, static s => s._server.MemoryBudget.Limit.ToString(CultureInfo.InvariantCulture),
            static (server, value) => server.MemoryBudget.Limit = ParseMemoryValue(value), ConfigValue.Memory),
        new("maxmemory-policy", ConfigKind.Mutable, static s => EvictionPolicyNames.NameOf(s._server.MemoryBudget.Policy),
            static (server, value) => server.MemoryBudget.Policy = EvictionPolicyNames.TryParse(value, out var policy) ? policy : throw new ArgumentException(value),
            ConfigValue.MaxMemoryPolicy),
        new("lfu-log-factor", ConfigKind.Mutable, static s => s._server.MemoryBudget.LfuLogFactor.ToString(CultureInfo.InvariantCulture),
            static (server, value) => server.MemoryBudget.LfuLogFactor = int.Parse(value, CultureInfo.InvariantCulture), ConfigValue.NonNegativeInteger),
        new("lfu-decay-time", ConfigKind.Mutable, static s => s._server.MemoryBudget.LfuDecayTime.ToString(CultureInfo.InvariantCulture),
            static (server, value) => server.MemoryBudget.LfuDecayTime = int.Parse(value, CultureInfo.InvariantCulture), ConfigValue.NonNegativeInteger),
        // Durability: Redis's save points, taken as background checkpoints (Durability/Checkpoints/CheckpointSchedule.cs).
        new("save", ConfigKind.Mutable, static s => SavePoint.Format(s._server.CheckpointSchedule.SavePoints),
            static (server, value) => server.CheckpointSchedule.SavePoints = SavePoint.TryParseList(value, out var points) ? points : throw new ArgumentException(value),
            check: static (_, value) => SavePoint.TryParseList(value, out var parsed) && parsed != null ? null : "Invalid save parameters"),
        // Durability: the operation log (--aof), opened at start or turned on and off here (Durability/AppendOnlySwitch.cs);
        // Redis's fsync policies name its commit frequencies (0, N ms, -1).
        new("appendonly", ConfigKind.Mutable, static s => s._server.OperationLog != null ? "yes" : "no", SetAppendOnly, ConfigValue.YesNo),
        // Both change the running log's commit policy (taken by each session at its next batch); while the log is off they
        // are kept, as Redis keeps appendfsync.
        new("appendfsync", ConfigKind.Mutable, static s => s._server.Options.AofCommitFrequencyMs switch { 0 => "always", < 0 => "no", _ => "everysec" },
            static (server, value) => SetCommitFrequency(server, value.ToLowerInvariant() switch { "always" => 0, "no" => -1, _ => 1000 }),
            check: static (_, value) => ChoiceError(["always", "everysec", "no"])(value)),
        new("appenddirname", ConfigKind.Immutable, static _ => "AOF"),
        new("aof-commit-freq", ConfigKind.Mutable, static s => s._server.Options.AofCommitFrequencyMs.ToString(CultureInfo.InvariantCulture),
            static (server, value) => SetCommitFrequency(server, int.Parse(value, CultureInfo.InvariantCulture)), ConfigValue.Integer, -1, int.MaxValue),
        // Clients/ClientLimits.cs: the limits on clients, applied to connections already open.
        new("maxclients", ConfigKind.Mutable, static s => s._server.ClientLimits.MaxClients.ToString(CultureInfo.InvariantCulture),
            SetMaxClients, ConfigValue.Integer, 1, int.MaxValue, static (s, value) => s?.MaxClientsUnavailable(value)),
        new("timeout", ConfigKind.Mutable, static s => s._server.ClientLimits.TimeoutSeconds.ToString(CultureInfo.InvariantCulture),
            static (server, value) => server.ClientLimits.TimeoutSeconds = int.Parse(value, CultureInfo.InvariantCulture), ConfigValue.Integer, 0, int.MaxValue),
        new("tcp-keepalive", ConfigKind.Mutable, static s => s._server.ClientLimits.TcpKeepAliveSeconds.ToString(CultureInfo.InvariantCulture),
            static (server, value) => server.ClientLimits.TcpKeepAliveSeconds = int.Parse(value, CultureInfo.InvariantCulture), ConfigValue.Integer, 0, int.MaxValue),
        new("client-query-buffer-limit", ConfigKind.Mutable, static s => s._server.ClientLimits.QueryBufferLimit.ToString(CultureInfo.InvariantCulture),
            static (server, value) => server.ClientLimits.QueryBufferLimit = ParseMemoryValue(value), ConfigValue.Memory, 1L << 20, long.MaxValue),
        // Bulk strings live in the receive buffer, which grows to 1 GB at most: a larger limit could never be used.
        new("proto-max-bulk-len", ConfigKind.Mutable, static s => s._server.ClientLimits.ProtoMaxBulkLength.ToString(CultureInfo.InvariantCulture),
            static (server, value) => server.ClientLimits.ProtoMaxBulkLength = ParseMemoryValue(value), ConfigValue.Memory, 1L << 20, 1L << 30),
        new("client-output-buffer-limit", ConfigKind.Mutable, static s => s._server.ClientLimits.FormatOutputLimits(),
            static (server, value) => server.ClientLimits.SetOutputLimits(value), ConfigValue.OutputBufferLimit),
        // Clients/ClientEviction.cs: past this much memory held by all clients together, the largest are disconnected.
        new("maxmemory-clients", ConfigKind.Mutable, static s => s._server.ClientEviction.Setting,
            static (server, value) => server.ClientEviction.Setting = NormalizeMemoryOrPercent(value),
            check: static (_, value) => MemoryOrPercentError(value)),
        new("protected-mode", ConfigKind.Mutable, static s => s._server.ClientLimits.ProtectedMode ? "yes" : "no",
            static (server, value) => server.ClientLimits.ProtectedMode = value.Equals("yes", StringComparison.OrdinalIgnoreCase), ConfigValue.YesNo),
        new("replica-read-only", ConfigKind.Fixed, static _ => "yes", value: ConfigValue.YesNo),
        new("slave-read-only", ConfigKind.Fixed, static _ => "yes", value: ConfigValue.YesNo) { AliasOf = "replica-read-only" },
        new("cluster-enabled", ConfigKind.Immutable, static s => s._cluster != null ? "yes" : "no"),
        // --cluster-timeout, in whole seconds (Garnet's unit); the node reads it at every judgement, so a change applies at once.
        new("cluster-node-timeout", ConfigKind.Mutable, static s => (s._server.Options.ClusterTimeout * 1000L).ToString(CultureInfo.InvariantCulture),
            static (server, value) => server.Options.ClusterTimeout = (int)Math.Max(1, (long.Parse(value, CultureInfo.InvariantCulture) + 999) / 1000),
            ConfigValue.Integer, 0, int.MaxValue),
        new("enable-debug-command", ConfigKind.Immutable, static s => s._server.Options.EnableDebugCommand ? "yes" : "no"),
        new("memory", ConfigKind.Immutable, static s => s._server.Options.MemorySize.ToString(CultureInfo.InvariantCulture)),
        new("index", ConfigKind.Immutable, static s => s._server.Options.IndexSize.ToString(CultureInfo.InvariantCulture)),
        new("index-max-size", ConfigKind.Immutable, static s => s._server.Options.IndexMaxSize.ToString(CultureInfo.InvariantCulture)),
        new("page", ConfigKind.Immutable, static s => s._server.Options.PageSize.ToString(CultureInfo.InvariantCulture)),
        new("logdir", ConfigKind.Immutable, static s => s._server.Options.LogDir ?? ""),
        // Garnet's name of dir: the same setting (an empty value until one is set).
        new("checkpointdir", ConfigKind.Mutable, static s => s._server.Options.CheckpointDir ?? "", SetDir,
            check: static (s, value) => DirError(s?._server, value)) { Protected = true, AliasOf = "dir" },
        // Scripting: the time limit before -BUSY.
        new("busy-reply-threshold", ConfigKind.Mutable, static s => s.Scripting.TimeLimitMilliseconds.ToString(CultureInfo.InvariantCulture), SetLuaTimeLimit, ConfigValue.Integer, 0, long.MaxValue),
        new("lua-time-limit", ConfigKind.Mutable, static s => s.Scripting.TimeLimitMilliseconds.ToString(CultureInfo.InvariantCulture), SetLuaTimeLimit, ConfigValue.Integer, 0, long.MaxValue) { AliasOf = "busy-reply-threshold" },
        // Stats/SlowLog.cs: which commands the slow log keeps, and how many.
        new("slowlog-log-slower-than", ConfigKind.Mutable, static s => s._server.SlowLog.ThresholdMicroseconds.ToString(CultureInfo.InvariantCulture),
            static (server, value) => server.SlowLog.ThresholdMicroseconds = long.Parse(value, CultureInfo.InvariantCulture), ConfigValue.Integer, -1, long.MaxValue),
        new("slowlog-max-len", ConfigKind.Mutable, static s => s._server.SlowLog.MaxLength.ToString(CultureInfo.InvariantCulture),
            static (server, value) => server.SlowLog.MaxLength = int.Parse(value, CultureInfo.InvariantCulture), ConfigValue.Integer, 0, int.MaxValue),
        // Stats/LatencyMonitor.cs and the per-command latency histograms (LATENCY, INFO latencystats).
        new("latency-monitor-threshold", ConfigKind.Mutable, static s => s._server.LatencyMonitor.ThresholdMilliseconds.ToString(CultureInfo.InvariantCulture),
            static (server, value) => server.LatencyMonitor.ThresholdMilliseconds = long.Parse(value, CultureInfo.InvariantCulture), ConfigValue.Integer, 0, long.MaxValue),
        new("latency-tracking", ConfigKind.Mutable, static s => s._server.Statistics.LatencyTracking ? "yes" : "no",
            static (server, value) => server.Statistics.LatencyTracking = value.Equals("yes", StringComparison.OrdinalIgnoreCase), ConfigValue.YesNo),
        new("latency-tracking-info-percentiles", ConfigKind.Mutable, static s => FormatPercentiles(s._server.Statistics.LatencyPercentiles),
            static (server, value) => server.Statistics.LatencyPercentiles = ParsePercentiles(value)!,
            check: static (_, value) => ParsePercentiles(value) != null ? null : "Invalid latency-tracking-info-percentiles parameters"),
        // Notifications/: which keyspace events are published.
        new("notify-keyspace-events", ConfigKind.Mutable, static s => KeyspaceEventFlags.Format(s._server.KeyspaceNotifications.Classes),
            static (server, value) => server.KeyspaceNotifications.Classes = KeyspaceEventFlags.TryParse(value, out var classes) ? classes : throw new ArgumentException(value),
            check: static (_, value) => KeyspaceEventFlags.TryParse(value, out KeyspaceEventClasses _) ? null : KeyspaceEventFlags.InvalidClass),
        // Tracking/TrackingTable.cs: past this many tracked keys, some are invalidated to make room (0: no limit).
        new("tracking-table-max-keys", ConfigKind.Mutable, static s => s._server.Tracking.MaxKeys.ToString(CultureInfo.InvariantCulture),
            static (server, value) => server.Tracking.MaxKeys = long.Parse(value, CultureInfo.InvariantCulture), ConfigValue.Integer, 0, long.MaxValue),
        new("expired-key-deletion-scan-freq", ConfigKind.Immutable, static s => s._server.Options.ExpiredKeyDeletionScanFrequencySecs.ToString(CultureInfo.InvariantCulture)),
        .. s_encodingConfigParameters,
        .. s_redisOnlyConfigParameters,
    ];

    private static readonly string[] s_configHelp =
    [
        "GET <pattern> [<pattern> ...]",
        "    Return the parameters matching the glob-like patterns and their values.",
        "SET <directive> <value> [<directive> <value> ...]",
        "    Set the configuration directives to the values.",
        "RESETSTAT",
        "    Reset the statistics reported by the INFO command.",
        "REWRITE",
        "    Rewrite the configuration file the server started from.",
    ];

    /// <summary>
    /// requirepass: the default user's password becomes the new one (or nopass when empty), as Redis does it;
    /// connections already logged in stay so.
    /// </summary>
    private static void SetPassword(StoreWrapper server, string value)
    {
        server.Options.Password = value.Length == 0 ? null : value;
        server.Acl.SetUser(AccessControlList.DefaultUserName, ["resetpass", value.Length == 0 ? "nopass" : ">" + value]);
    }

    /// <summary>Why <paramref name="value"/> cannot be the directory (Redis's chdir errors), or null.</summary>
    private static string? DirError(StoreWrapper? server, string value)
    {
        if (System.IO.File.Exists(value))
            return "Not a directory";
        if (!System.IO.Directory.Exists(value))
            return "No such file or directory";
        // A log turned off but still closing counts: appendonly yes would take it back, in its directory.
        if (server != null && (server.OperationLog != null || server.AppendOnly.LogOpen))
            return "can't change the directory while appendonly is on (the AOF's files stay where they started)";
        return null;
    }

    /// <summary>dir: the next checkpoints go to the new directory.</summary>
    private static void SetDir(StoreWrapper server, string value)
    {
        string full = System.IO.Path.GetFullPath(value);
        server.Options.CheckpointDir = full;
        server.Checkpoints.MoveTo(full);
    }

    /// <summary>bind: the listeners move to the new addresses at the current port.</summary>
    private static void SetBind(StoreWrapper server, string value)
    {
        var addresses = BindAddresses.Parse(value, out _)!;
        if (server.Listeners is { } listeners && !listeners.TryRebind(addresses, listeners.Port))
            throw new ConfigApplyException("Failed to bind to specified addresses.");
        server.Options.Address = BindAddresses.Format(addresses);
    }

    /// <summary>port: the listeners move to the new port (0: no TCP listener), on the current addresses.</summary>
    private static void SetPort(StoreWrapper server, string value)
    {
        int port = int.Parse(value, CultureInfo.InvariantCulture);
        if (server.Listeners is { } listeners && !listeners.TryRebind(BindAddresses.Parse(server.Options.Address, out _)!, port))
            throw new ConfigApplyException("Unable to listen on this port");
        server.Options.Port = port;
    }

    /// <summary>The TCP port listened on (the host's, after any CONFIG SET port), else the one this connection reached.</summary>
    private int ConfiguredPort() => _server.Listeners?.Port ?? ListeningPort();

    /// <summary>A setter could not apply its value (a port that cannot be bound): CONFIG SET fails with <see cref="Exception.Message"/> as the reason.</summary>
    private sealed class ConfigApplyException(string reason) : Exception(reason);

    /// <summary>
    /// appendonly: yes opens the log and has every session log from its next batch, then takes the AOF's base checkpoint in
    /// the background (aof_rewrite_in_progress); no makes what was logged durable, and sessions stop logging at their next batch.
    /// </summary>
    private static void SetAppendOnly(StoreWrapper server, string value)
    {
        if (!value.Equals("yes", StringComparison.OrdinalIgnoreCase))
        {
            server.AppendOnly.TurnOff();
            return;
        }
        try
        {
            server.AppendOnly.TurnOn();
        }
        catch (Exception e) when (e is System.IO.IOException or UnauthorizedAccessException or ArgumentException or ObjectDisposedException)
        {
            // Redis says "Check server logs"; the reason is said here instead.
            throw new ConfigApplyException("Unable to turn on AOF: " + e.Message);
        }
    }

    /// <summary>appendfsync / aof-commit-freq: the running operation log commits by the new policy from now on.</summary>
    private static void SetCommitFrequency(StoreWrapper server, int commitFrequencyMs)
    {
        server.Options.AofCommitFrequencyMs = commitFrequencyMs;
        server.OperationLog?.ChangeCommitFrequency(commitFrequencyMs);
    }

    /// <summary>maxclients: takes effect for the next connection; clients already connected past a lowered limit stay, as in Redis.</summary>
    private static void SetMaxClients(StoreWrapper server, string value) => server.ClientLimits.MaxClients = int.Parse(value, CultureInfo.InvariantCulture);

    /// <summary>
    /// maxclients needs a descriptor per client: the process's limit is raised as far as it goes first; Redis's words
    /// when it still cannot hold <paramref name="value"/> clients, or null.
    /// </summary>
    private string? MaxClientsUnavailable(string value)
    {
        int requested = int.Parse(value, CultureInfo.InvariantCulture);
        int fitting = ClientLimits.FitToDescriptors(requested, _server.ClientLimits.Connected, out _);
        return fitting < requested
            ? string.Create(CultureInfo.InvariantCulture, $"The operating system is not able to handle the specified number of clients, try with {fitting}")
            : null;
    }

    /// <summary>lua-time-limit: applies to scripts started afterwards.</summary>
    private static void SetLuaTimeLimit(StoreWrapper server, string value)
        => Garnet.server.Scripting.ScriptingState.Of(server).TimeLimitMilliseconds = long.Parse(value, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);

    /// <summary>Redis's complaint about a value of the wrong syntax for <paramref name="kind"/>, or null when it is well formed.</summary>
    private static string? ConfigValueError(ConfigValue kind, string value)
    {
        switch (kind)
        {
            case ConfigValue.Integer:
                return long.TryParse(value, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out _) ? null : "argument couldn't be parsed into an integer";
            case ConfigValue.Memory:
                return TryParseMemoryValue(value, out _) ? null : "argument must be a memory value";
            case ConfigValue.YesNo:
                return value.Equals("yes", StringComparison.OrdinalIgnoreCase) || value.Equals("no", StringComparison.OrdinalIgnoreCase)
                    ? null : "argument must be 'yes' or 'no'";
            case ConfigValue.NonNegativeInteger:
                if (!long.TryParse(value, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out long number))
                    return "argument couldn't be parsed into an integer";
                return number < 0 || number > int.MaxValue ? "argument must be between 0 and 2147483647 inclusive" : null;
            case ConfigValue.MaxMemoryPolicy:
                return EvictionPolicyNames.TryParse(value, out _) ? null : "argument(s) must be one of the following: " + EvictionPolicyNames.All;
            case ConfigValue.OutputBufferLimit:
                return ClientLimits.CheckOutputLimits(value);
            default:
                return null;
        }
    }

    /// <summary>latency-tracking-info-percentiles: space-separated numbers from 0 to 100 (none at all is allowed), or null.</summary>
    private static double[]? ParsePercentiles(string value)
    {
        var parts = value.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        var percentiles = new double[parts.Length];
        for (int i = 0; i < parts.Length; i++)
        {
            if (!double.TryParse(parts[i], NumberStyles.Float, CultureInfo.InvariantCulture, out percentiles[i]) || !(percentiles[i] >= 0 && percentiles[i] <= 100))
                return null;
        }
        return percentiles;
    }

    private static string FormatPercentiles(double[] percentiles)
    {
        var text = new StringBuilder();
        foreach (double percentile in percentiles)
        {
            if (text.Length > 0)
                text.Append(' ');
            text.Append(percentile.ToString("0.######", CultureInfo.InvariantCulture));
        }
        return text.ToString();
    }

    private static bool TryParseMemoryValue(string value, out long bytes) => MemoryValue.TryParse(value, out bytes);

    /// <summary>Redis's complaint about an integer or memory value outside the parameter's range, or null.</summary>
    private static string? ConfigRangeError(ConfigParameter parameter, string value)
    {
        long number;
        switch (parameter.Value)
        {
            case ConfigValue.Integer:
                if (!long.TryParse(value, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out number))
                    return null;
                break;
            case ConfigValue.Memory:
                if (!TryParseMemoryValue(value, out number))
                    return null;
                break;
            default:
                return null;
        }
        return number < parameter.Min || number > parameter.Max
            ? string.Create(CultureInfo.InvariantCulture, $"argument must be between {parameter.Min} and {parameter.Max} inclusive")
            : null;
    }

    private static long ParseMemoryValue(string value)
        => TryParseMemoryValue(value, out long bytes) ? bytes : throw new ArgumentException($"'{value}' is not a memory value.", nameof(value));

    private void Config()
    {
        var subcommand = ResolveSubcommand(RespCommand.CONFIG);
        if (subcommand == null)
            return;
        RememberConfigAtStart();
        switch (subcommand.Id)
        {
            case Subcommand.ConfigGet: ConfigGet(); break;
            case Subcommand.ConfigSet: ConfigSet(); break;
            case Subcommand.ConfigResetStat:
                _server.Statistics.Reset();
                ServerRuntimeState.Of(_server).ResetPeak();
                _writer.WriteOk();
                break;
            case Subcommand.ConfigRewrite: ConfigRewrite(); break;
            case Subcommand.ConfigHelp: WriteHelp(s_configHelp); break;
            default: throw new InvalidOperationException($"{subcommand.Id} is not a CONFIG subcommand.");
        }
    }

    /// <summary>
    /// CONFIG GET pattern [pattern ...]: each matching parameter once, as a map (a flat array in RESP2). A parameter
    /// asked for by its exact name is reported under the name as given (CONFIG GET PORT answers PORT), as Redis does.
    /// </summary>
    private void ConfigGet()
    {
        var matches = new List<(ConfigParameter Parameter, int NameArgument)>();
        foreach (var parameter in s_configParameters)
        {
            for (int i = 2; i < _argCount; i++)
            {
                if (GlobPattern.IsMatch(_args[i].Span, parameter.NameBytes, ignoreCase: true))
                {
                    matches.Add((parameter, _args[i].Span.IndexOfAny("*?["u8) < 0 ? i : -1));
                    break;
                }
            }
        }
        _writer.WriteMapHeader(matches.Count);
        foreach (var (parameter, nameArgument) in matches)
        {
            _writer.WriteBulk(nameArgument < 0 ? parameter.NameBytes : _args[nameArgument].Span);
            _writer.WriteBulk(parameter.Get(this));
        }
    }

    /// <summary>CONFIG SET name value [name value ...]: checks every pair before applying any, as Redis does.</summary>
    private void ConfigSet()
    {
        if (_argCount % 2 != 0)
        {
            WriteWrongArity(_lastSubcommand!.LowerName);
            return;
        }
        var changes = new List<(ConfigParameter Parameter, string Value)>();
        for (int i = 2; i < _argCount; i += 2)
        {
            ref readonly var name = ref _args[i];
            ConfigParameter? parameter = null;
            foreach (var candidate in s_configParameters)
            {
                if (Ascii.EqualsIgnoreCase(name.Span, candidate.NameBytes))
                {
                    parameter = candidate;
                    break;
                }
            }
            if (parameter == null)
            {
                _writer.WriteError($"ERR Unknown option or number of arguments for CONFIG SET - '{name}'");
                return;
            }
            // Redis refuses what may not be set at all before it looks at any value.
            if (parameter.Kind == ConfigKind.Immutable)
            {
                WriteConfigSetFailed(name, "can't set immutable config");
                return;
            }
            if (parameter.Protected && !ProtectedConfigAllowed())
            {
                WriteConfigSetFailed(name, "can't set protected config");
                return;
            }
            foreach (var change in changes)
            {
                if (change.Parameter.PrimaryName == parameter.PrimaryName)
                {
                    WriteConfigSetFailed(name, "duplicate parameter");
                    return;
                }
            }
            string value = _args[i + 1].ToString();
            if ((ConfigValueError(parameter.Value, value) ?? ConfigRangeError(parameter, value) ?? parameter.Check?.Invoke(this, value)) is { } malformed)
            {
                WriteConfigSetFailed(name, malformed);
                return;
            }
            switch (parameter.Kind)
            {
                case ConfigKind.Fixed:
                    string only = parameter.Get(this);
                    if (!string.Equals(value, only, StringComparison.OrdinalIgnoreCase))
                    {
                        WriteConfigSetFailed(name, $"this server only supports '{only}'");
                        return;
                    }
                    break;
                case ConfigKind.Mutable:
                    break;
                default:
                    throw new InvalidOperationException($"Unknown config kind {parameter.Kind}.");
            }
            changes.Add((parameter, value));
        }
        // Applied in order; when one cannot apply its value, those before it get their old values back, as Redis restores them.
        var previous = new string[changes.Count];
        for (int i = 0; i < changes.Count; i++)
        {
            var (parameter, value) = changes[i];
            previous[i] = parameter.Get(this);
            try
            {
                parameter.Set?.Invoke(_server, value);
            }
            catch (ConfigApplyException e)
            {
                for (int j = i - 1; j >= 0; j--)
                {
                    try
                    {
                        changes[j].Parameter.Set?.Invoke(_server, previous[j]);
                    }
                    catch (ConfigApplyException)
                    {
                        // As Redis: the restore is best effort; the error below is what the client hears.
                    }
                }
                _writer.WriteError($"ERR CONFIG SET failed (possibly related to argument '{parameter.Name}') - {e.Message}");
                return;
            }
        }
        _writer.WriteOk();
    }

    private void WriteConfigSetFailed(in ArgSlice name, string reason)
        => _writer.WriteError($"ERR CONFIG SET failed (possibly related to argument '{name}') - {reason}");
}
