using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Net;
using System.Numerics;
using System.Reflection;
using CommandLine;
using CommandLine.Text;
using Garnet.networking;
using Garnet.server;
using Microsoft.Extensions.Logging;

namespace Garnet;

/// <summary>
/// Turns the executable's arguments into <see cref="HostSettings"/>: parses them with CommandLineParser,
/// layers them over the JSON config file if one is named (the command line wins), and validates every
/// value into engine units. Nothing here prints or exits; the caller acts on the result.
/// </summary>
public static class OptionsParser
{
    private const int MinPageSize = 1 << 12;
    private const int MaxPageSize = 1 << 30;
    private const int MinIndexSize = 64;

    /// <summary>
    /// The page size a --maxmemory without --page gets: about this many pages fit in it. The head mover's reserve
    /// and lead are three pages, so fewer pages would leave a tenth of the budget or more unused by data.
    /// </summary>
    private const long PagesPerMaxMemory = 32;

    /// <summary>The fewest pages a --maxmemory must hold (the head mover keeps two in reserve).</summary>
    private const long MinPagesPerMaxMemory = 8;

    private const long MinMaxMemory = 1 << 20;
    private const int MaxDatabases = 1 << 16;
    private const int MinNetworkBufferSize = 1 << 10;
    private const int MaxNetworkBufferSize = 1 << 30;
    private const int MaxEventLoops = 1024;
    private const int MaxThreadPoolThreads = short.MaxValue;
    private const int DefaultWarmUpMilliseconds = 1500;

    /// <summary>The program name used in usage and version text.</summary>
    public const string ProgramName = "GarnetServer";

    /// <summary>The version of the host, without source-revision metadata (e.g. "0.1.0").</summary>
    public static string Version { get; } = ReadVersion();

    /// <summary>Parses and validates <paramref name="args"/>.</summary>
    public static OptionsParseResult Parse(IEnumerable<string> args)
    {
        ArgumentNullException.ThrowIfNull(args);
        var arguments = new List<string>(args);
        // CommandLineParser honours --help and --version only as the first argument; anywhere is friendlier.
        foreach (string argument in arguments)
        {
            if (argument == "--help")
                return OptionsParseResult.Print(HelpText);
            if (argument == "--version")
                return OptionsParseResult.Print(VersionText);
        }
        using var parser = new Parser(settings =>
        {
            settings.HelpWriter = null;
            settings.CaseSensitive = true;
            settings.AutoHelp = true;
            settings.AutoVersion = true;
            settings.IgnoreUnknownArguments = false;
        });
        try
        {
            // As redis-server: a configuration file first, then options; options this host lacks that are CONFIG
            // parameters (--hz 20, --save 900 1 300 10) take the words up to the next option as their value.
            string? configFile = arguments.Count > 0 && !arguments[0].StartsWith('-') ? arguments[0] : null;
            if (configFile != null)
                arguments.RemoveAt(0);
            var configParameters = TakeConfigParameters(arguments);
            ParserResult<Options> result = parser.ParseArguments<Options>(arguments);
            if (result is NotParsed<Options> notParsed)
                return FromErrors(result, notParsed.Errors);
            Options options = ((Parsed<Options>)result).Value;
            CheckValuesGiven(arguments, options);
            if (configFile != null)
            {
                if (options.ConfigImportPath != null)
                    throw new OptionsException($"'{configFile}' and --config-import-path both name a configuration file: give one of them");
                options.ConfigImportPath = configFile;
            }
            foreach (var (name, value) in configParameters)
                options.ConfigParameters[name] = value;
            if (!string.IsNullOrEmpty(options.ConfigImportPath))
                ConfigFileImporter.FillUnset(options, ConfigFileImporter.Load(options.ConfigImportPath));
            return OptionsParseResult.Run(Validate(options));
        }
        catch (OptionsException e)
        {
            return OptionsParseResult.Fail("error: " + e.Message);
        }
    }

    /// <summary>
    /// Removes from <paramref name="arguments"/> the "--name words..." of CONFIG parameters that are not options here,
    /// checked as CONFIG SET checks them.
    /// </summary>
    private static List<KeyValuePair<string, string>> TakeConfigParameters(List<string> arguments)
    {
        var taken = new List<KeyValuePair<string, string>>();
        int i = 0;
        while (i < arguments.Count)
        {
            string argument = arguments[i];
            if (argument == "--")
                break;
            string name = argument.StartsWith("--", StringComparison.Ordinal) ? argument.Substring(2) : "";
            if (name.Length == 0 || FindOption(argument) != null || !RespServerSession.IsConfigParameter(name))
            {
                i++;
                continue;
            }
            int end = i + 1;
            while (end < arguments.Count && !arguments[end].StartsWith("--", StringComparison.Ordinal))
                end++;
            if (end == i + 1)
                throw new OptionsException($"{argument} needs a value");
            string value = string.Join(' ', arguments.GetRange(i + 1, end - i - 1));
            CheckConfigParameter(argument, name, value);
            taken.Add(new(name, value));
            arguments.RemoveRange(i, end - i);
        }
        return taken;
    }

    /// <summary>Throws when <paramref name="name"/> cannot be <paramref name="value"/> at start, with CONFIG SET's reason.</summary>
    internal static void CheckConfigParameter(string where, string name, string value)
    {
        if (RespServerSession.StartupConfigError(name, value) is { } error)
            throw new OptionsException($"{where}: '{value}': {error}");
    }

    /// <summary>The usage text --help prints.</summary>
    public static string HelpText
    {
        get
        {
            using var parser = new Parser(settings => settings.HelpWriter = null);
            return BuildHelp(parser.ParseArguments<Options>(new[] { "--help" }));
        }
    }

    /// <summary>The line --version prints.</summary>
    public static string VersionText => $"{ProgramName} {Version}";

    /// <summary>--segment and the compaction options, which only a storage tier has files for.</summary>
    private static void ApplyStorageTierOptions(Options options, ServerOptions server)
    {
        if (options.SegmentSize != null)
        {
            server.SegmentSize = ParseSize(options.SegmentSize, "segment", server.PageSize, 1L << 40);
            if (!BitOperations.IsPow2(server.SegmentSize))
                throw new OptionsException($"--segment: {options.SegmentSize} ({server.SegmentSize} bytes) is not a power of two");
        }
        if (options.CompactionFrequencySecs != null)
            server.CompactionFrequencySecs = ParseInt(options.CompactionFrequencySecs, "compaction-freq", 0, int.MaxValue);
        if (options.CompactionMaxSegments != null)
            server.CompactionMaxSegments = ParseInt(options.CompactionMaxSegments, "compaction-max-segments", 1, int.MaxValue);
        if (options.CompactionType != null)
        {
            if (!Enum.TryParse<Tsavorite.CompactionType>(options.CompactionType.Trim(), ignoreCase: true, out var type) || !Enum.IsDefined(type))
                throw new OptionsException($"--compaction-type: '{options.CompactionType}' is not one of None, Shift, Scan, Lookup");
            server.CompactionType = type;
        }
        server.CopyReadsToTail = options.CopyReadsToTail;
        if (server.CopyReadsToTail && !server.StorageTier)
            throw new OptionsException("--copy-reads-to-tail copies what reads find on the disk of --storage-tier, which is off");
        ApplyReadCacheOptions(options, server);
        if (options.StorageTiers != null)
            server.LogTiers = ParseLogTiers(options, server);
        bool compacts = server.CompactionFrequencySecs > 0 && server.CompactionType != Tsavorite.CompactionType.None;
        if (!server.StorageTier && (compacts || options.SegmentSize != null))
            throw new OptionsException("--segment and --compaction-freq with a --compaction-type work on the files of --storage-tier, which is off");
    }

    /// <summary>--readcache, --readcache-memory and --readcache-page: a cache of what reads find on the disk of the storage tier.</summary>
    private static void ApplyReadCacheOptions(Options options, ServerOptions server)
    {
        server.ReadCache = options.EnableReadCache;
        if (options.ReadCachePageSize != null)
        {
            long page = ParseSize(options.ReadCachePageSize, "readcache-page", MinPageSize, MaxPageSize);
            if (!BitOperations.IsPow2(page))
                throw new OptionsException($"--readcache-page: {options.ReadCachePageSize} ({page} bytes) is not a power of two");
            server.ReadCachePageSize = page;
        }
        if (options.ReadCacheMemorySize != null)
            server.ReadCacheMemorySize = ParseSize(options.ReadCacheMemorySize, "readcache-memory", 4 * server.ReadCachePageSize, long.MaxValue);
        if (server.ReadCache && !server.StorageTier)
            throw new OptionsException("--readcache caches what reads find on the disk of --storage-tier, which is off");
    }

    /// <summary>--storage-tiers: "DIR:SIZE,...,DIR", fastest first; every tier but the last may keep only its newest SIZE bytes.</summary>
    private static List<LogTier> ParseLogTiers(Options options, ServerOptions server)
    {
        if (!server.StorageTier)
            throw new OptionsException("--storage-tiers keeps the log files of --storage-tier, which is off");
        if (EmptyToNull(options.LogDir) != null)
            throw new OptionsException("--storage-tiers and --logdir both say where the log files go: give one of them");
        var tiers = new List<LogTier>();
        foreach (string part in options.StorageTiers!.Split(','))
        {
            string entry = part.Trim();
            if (entry.Length == 0)
                throw new OptionsException($"--storage-tiers: '{options.StorageTiers}' has an empty directory");
            // A size follows the last ':' when what follows parses as one; otherwise the whole entry is the directory.
            long capacity = -1;
            int colon = entry.LastIndexOf(':');
            if (colon > 0 && SizeParser.TryParse(entry[(colon + 1)..], out long bytes))
            {
                if (bytes < 2 * server.SegmentSize)
                    throw new OptionsException($"--storage-tiers: {entry} keeps less than two --segment files of {SizeParser.Format(server.SegmentSize)}");
                capacity = bytes;
                entry = entry[..colon];
            }
            tiers.Add(new LogTier(entry, capacity));
        }
        if (tiers.Count < 2)
            throw new OptionsException("--storage-tiers: give at least two directories (one directory is --logdir)");
        if (tiers[^1].Capacity != -1)
            throw new OptionsException($"--storage-tiers: the last directory ({tiers[^1].Directory}) keeps everything, so it takes no size");
        return tiers;
    }

    private static OptionsParseResult FromErrors(ParserResult<Options> result, IEnumerable<Error> errors)
    {
        Error? first = null;
        foreach (Error error in errors)
        {
            if (error.Tag == ErrorType.HelpRequestedError)
                return OptionsParseResult.Print(BuildHelp(result));
            if (error.Tag == ErrorType.VersionRequestedError)
                return OptionsParseResult.Print(VersionText);
            first ??= error;
        }
        return OptionsParseResult.Fail($"error: {Describe(first)} (see --help)");
    }

    private static string Describe(Error? error)
    {
        switch (error)
        {
            case UnknownOptionError unknown:
                return $"unknown option '{(unknown.Token.Length == 1 ? "-" : "--")}{unknown.Token}'";
            case MissingValueOptionError missing:
                return $"{Name(missing.NameInfo)} needs a value";
            case RepeatedOptionError repeated:
                return $"{Name(repeated.NameInfo)} is given more than once";
            case BadFormatTokenError badToken:
                return $"malformed argument '{badToken.Token}'";
            case NamedError named:
                return $"{Name(named.NameInfo)}: invalid ({named.Tag})";
            case TokenError token:
                return $"invalid argument '{token.Token}' ({token.Tag})";
            case null:
                return "invalid arguments";
            default:
                return $"invalid arguments ({error.Tag})";
        }
    }

    /// <summary>
    /// CommandLineParser leaves a text option null when its name is last or followed by another
    /// option ("--port --quiet"); that is a missing value, not an absent option.
    /// </summary>
    private static void CheckValuesGiven(IEnumerable<string> args, Options options)
    {
        foreach (string argument in args)
        {
            if (argument == "--")
                break;
            PropertyInfo? property = FindOption(argument);
            if (property != null && property.PropertyType == typeof(string) && property.GetValue(options) == null)
                throw new OptionsException($"{argument} needs a value");
        }
    }

    private static PropertyInfo? FindOption(string argument)
    {
        bool isLong = argument.StartsWith("--", StringComparison.Ordinal);
        if (!isLong && (argument.Length != 2 || argument[0] != '-'))
            return null;
        foreach (PropertyInfo property in typeof(Options).GetProperties())
        {
            var option = property.GetCustomAttribute<OptionAttribute>();
            if (option == null)
                continue;
            if (isLong ? argument.AsSpan(2).SequenceEqual(option.LongName) : option.ShortName == argument.Substring(1))
                return property;
        }
        return null;
    }

    private static string Name(NameInfo name) => string.IsNullOrEmpty(name.LongName) ? "-" + name.ShortName : "--" + name.LongName;

    private static string BuildHelp(ParserResult<Options> result)
    {
        var help = new HelpText($"{ProgramName} {Version}", "")
        {
            AddDashesToOption = true,
            AdditionalNewLineAfterOption = false,
            MaximumDisplayWidth = 110,
        };
        help.AddPreOptionsLine($"Usage: {ProgramName} [options]");
        help.AddPreOptionsLine("Sizes take a b, k, m, g or t suffix (1k = 1024 bytes). Options can also come from a JSON file (--config-import-path).");
        help.AddOptions(result);
        return help.ToString();
    }

    /// <summary>Checks every option and converts it to engine units; throws <see cref="OptionsException"/>.</summary>
    private static HostSettings Validate(Options options)
    {
        if (options.UnexpectedArguments != null)
        {
            foreach (string argument in options.UnexpectedArguments)
                throw new OptionsException($"unexpected argument '{argument}' (options start with --; see --help)");
        }

        var server = new ServerOptions();
        if (options.Port != null)
            server.Port = ParseInt(options.Port, "port", 0, 65535);
        if (options.Address != null)
            server.Address = ParseAddress(options.Address);

        if (options.PageSize != null)
        {
            long page = ParseSize(options.PageSize, "page", MinPageSize, MaxPageSize);
            if (!BitOperations.IsPow2(page))
                throw new OptionsException($"--page: {options.PageSize} ({page} bytes) is not a power of two");
            server.PageSize = page;
        }
        if (options.MaxMemory != null)
        {
            server.MaxMemory = options.MaxMemory.Trim() == "0" ? 0 : ParseSize(options.MaxMemory, "maxmemory", MinMaxMemory, long.MaxValue);
            // The head of the log moves a page at a time and keeps pages in reserve, so a budget needs many pages:
            // without an explicit page size, a small budget gets smaller pages.
            if (options.PageSize == null && server.MaxMemory > 0)
                server.PageSize = Math.Clamp((long)BitOperations.RoundUpToPowerOf2((ulong)(server.MaxMemory / PagesPerMaxMemory + 1)) / 2, MinPageSize, server.PageSize);
            if (server.MaxMemory > 0 && server.MaxMemory < MinPagesPerMaxMemory * server.PageSize)
                throw new OptionsException($"--maxmemory: {SizeParser.Format(server.MaxMemory)} is less than {MinPagesPerMaxMemory} pages of {SizeParser.Format(server.PageSize)}");
        }
        if (options.MaxMemoryPolicy != null)
        {
            if (!EvictionPolicyNames.TryParse(options.MaxMemoryPolicy.Trim(), out var policy))
                throw new OptionsException($"--maxmemory-policy: '{options.MaxMemoryPolicy}' is not one of {EvictionPolicyNames.All}");
            server.MaxMemoryPolicy = policy;
        }
        if (options.LfuLogFactor != null)
            server.LfuLogFactor = ParseInt(options.LfuLogFactor, "lfu-log-factor", 0, int.MaxValue);
        if (options.LfuDecayTime != null)
            server.LfuDecayTime = ParseInt(options.LfuDecayTime, "lfu-decay-time", 0, int.MaxValue);
        if (options.MemorySize != null)
            server.MemorySize = ParseSize(options.MemorySize, "memory", 1, long.MaxValue);
        if (server.MemorySize < 2 * server.PageSize)
            throw new OptionsException($"--memory: {SizeParser.Format(server.MemorySize)} is less than two pages of {SizeParser.Format(server.PageSize)}");
        if (options.IndexSize != null)
            server.IndexSize = ParseSize(options.IndexSize, "index", MinIndexSize, long.MaxValue);
        if (options.IndexMaxMemorySize != null)
            server.IndexMaxSize = ParseSize(options.IndexMaxMemorySize, "index-max-size", MinIndexSize, long.MaxValue);

        string? databases = Alias(options.Databases, "databases", options.MaxDatabases, "max-databases");
        if (databases != null)
            server.Databases = ParseInt(databases, "databases", 1, MaxDatabases);

        server.LogDir = EmptyToNull(options.LogDir);
        server.StorageTier = options.EnableStorageTier;
        if (server.StorageTier && options.StorageTiers == null)
            server.LogDir ??= Directory.GetCurrentDirectory();
        ApplyStorageTierOptions(options, server);
        server.CheckpointDir = EmptyToNull(Alias(options.CheckpointDir, "checkpointdir", options.Dir, "dir"));
        server.EnableCluster = options.EnableCluster;
        server.CleanClusterConfig = options.CleanClusterConfig;
        server.ClusterAnnounceIp = EmptyToNull(options.ClusterAnnounceIp);
        if (options.ClusterAnnouncePort != null)
            server.ClusterAnnouncePort = ParseInt(options.ClusterAnnouncePort, "cluster-announce-port", 0, 65535);
        if (options.ClusterTimeout != null)
            server.ClusterTimeout = ParseInt(options.ClusterTimeout, "cluster-timeout", 1, int.MaxValue / 1000);
        server.ClusterUsername = EmptyToNull(options.ClusterUsername);
        server.ClusterPassword = EmptyToNull(options.ClusterPassword);
        ApplyAofOptions(options, server);
        server.UnixSocketPath = EmptyToNull(options.UnixSocketPath);
        server.Password = EmptyToNull(Alias(options.Password, "password", options.RequirePass, "requirepass"));
        server.AclFile = EmptyToNull(Alias(options.AclFile, "acl-file", options.RedisAclFile, "aclfile"));
        if (options.AuthenticationMode != null)
            ApplyAuthenticationMode(options.AuthenticationMode.Trim(), server);

        if (options.EnableDebugCommand != null)
            server.EnableDebugCommand = ParseDebugCommand(options.EnableDebugCommand, server.Address);
        if (options.ExpiredKeyDeletionScanFrequencySecs != null)
            server.ExpiredKeyDeletionScanFrequencySecs = Math.Max(0, ParseInt(options.ExpiredKeyDeletionScanFrequencySecs, "expired-key-deletion-scan-freq", -1, int.MaxValue));
        if (options.MaxClients != null)
            server.MaxClients = ParseInt(options.MaxClients, "maxclients", 1, int.MaxValue);
        if (options.Timeout != null)
            server.TimeoutSeconds = ParseInt(options.Timeout, "timeout", 0, int.MaxValue);
        if (options.TcpKeepAlive != null)
            server.TcpKeepAliveSeconds = ParseInt(options.TcpKeepAlive, "tcp-keepalive", 0, int.MaxValue);
        if (options.ClientQueryBufferLimit != null)
            server.ClientQueryBufferLimit = ParseSize(options.ClientQueryBufferLimit, "client-query-buffer-limit", 1L << 20, long.MaxValue);
        if (options.ProtoMaxBulkLength != null)
            server.ProtoMaxBulkLength = ParseSize(options.ProtoMaxBulkLength, "proto-max-bulk-len", 1L << 20, 1L << 30);
        if (options.ProtectedMode != null)
            server.ProtectedMode = ParseYesNo(options.ProtectedMode, "protected-mode");
        if (options.PubSubOutputLimit != null)
        {
            long hard = options.PubSubOutputLimit.Trim() == "0" ? 0 : ParseSize(options.PubSubOutputLimit, "pubsub-output-limit", 1, long.MaxValue);
            server.PubSubOutputLimit = server.PubSubOutputLimit with { HardBytes = hard };
        }
        if (options.ClientOutputBufferLimit != null)
            ApplyOutputLimits(server, options.ClientOutputBufferLimit);
        if (options.EnableTls)
            server.TlsOptions = TlsOptionsOf(options);
        else if (options.CertFileName != null)
            throw new OptionsException("--cert-file-name: given without --tls");
        string? luaTimeLimit = Alias(options.LuaTimeLimit, "lua-time-limit", options.BusyReplyThreshold, "busy-reply-threshold");
        if (luaTimeLimit != null)
            server.LuaTimeLimitMilliseconds = ParseInt(luaTimeLimit, "lua-time-limit", 0, int.MaxValue);
        foreach (var (name, value) in options.ConfigParameters)
            server.ConfigParameters[name] = value;
        if (!string.IsNullOrEmpty(options.ConfigImportPath))
            server.ConfigFile = Path.GetFullPath(options.ConfigImportPath);
        if (options.NotifyKeyspaceEvents != null)
        {
            if (!KeyspaceEventFlags.TryParse(options.NotifyKeyspaceEvents, out var classes))
                throw new OptionsException($"--notify-keyspace-events: '{options.NotifyKeyspaceEvents}': {KeyspaceEventFlags.InvalidClass}");
            server.NotifyKeyspaceEvents = classes;
        }
        if (options.ExtensionDir != null)
            server.ExtensionDirectories = options.ExtensionDir.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (options.NetworkBufferSize != null)
            server.NetworkBufferSize = (int)ParseSize(options.NetworkBufferSize, "network-buffer", MinNetworkBufferSize, MaxNetworkBufferSize);

        if (options.SocketIo != null)
            server.SocketIo = ParseSocketIo(options.SocketIo);
        if (options.EventLoops != null)
            server.EventLoops = ParseInt(options.EventLoops, "event-loops", 0, MaxEventLoops);
        if (options.BusyPoll != null)
            server.BusyPollMicroseconds = ParseInt(options.BusyPoll, "busy-poll", 0, 1_000_000);
        // On by default for the executable; an embedded server's ServerOptions leave it off (tests start many).
        server.WarmUpMilliseconds = options.WarmUp == null ? DefaultWarmUpMilliseconds : ParseInt(options.WarmUp, "warm-up", 0, 60_000);

        int metricsPort = options.MetricsPort == null ? 0 : ParseInt(options.MetricsPort, "metrics-port", 0, 65535);
        if (metricsPort != 0 && metricsPort == server.Port)
            throw new OptionsException($"--metrics-port: {metricsPort} is also --port");

        int minThreads = options.ThreadPoolMinThreads == null ? 0 : ParseInt(options.ThreadPoolMinThreads, "minthreads", 0, MaxThreadPoolThreads);
        int maxThreads = options.ThreadPoolMaxThreads == null ? 0 : ParseInt(options.ThreadPoolMaxThreads, "maxthreads", 0, MaxThreadPoolThreads);
        if (minThreads > 0 && maxThreads > 0 && minThreads > maxThreads)
            throw new OptionsException($"--minthreads: {minThreads} is more than --maxthreads {maxThreads}");

        return new HostSettings
        {
            Server = server,
            LogLevel = options.LogLevel == null ? LogLevel.Information : ParseLogLevel(options.LogLevel),
            Quiet = options.QuietMode,
            MinThreads = minThreads,
            MaxThreads = maxThreads,
            MetricsPort = metricsPort,
        };
    }

    /// <summary>--tls: the certificate file (reloaded every --cert-refresh-freq seconds when it changes) chosen per handshake.</summary>
    private static System.Net.Security.SslServerAuthenticationOptions TlsOptionsOf(Options options)
    {
        if (options.CertFileName == null)
            throw new OptionsException("--tls: needs --cert-file-name");
        int refresh = options.CertRefreshFrequency == null ? 0 : ParseInt(options.CertRefreshFrequency, "cert-refresh-freq", 0, int.MaxValue);
        CertificateFile certificate;
        try
        {
            certificate = new CertificateFile(options.CertFileName, options.CertPassword, refresh);
        }
        catch (Exception e) when (e is System.IO.IOException or UnauthorizedAccessException or System.Security.Cryptography.CryptographicException or ArgumentException)
        {
            throw new OptionsException($"--cert-file-name: {e.Message}");
        }
        return new System.Net.Security.SslServerAuthenticationOptions
        {
            ServerCertificateSelectionCallback = (_, _) => certificate.Current,
            ClientCertificateRequired = options.ClientCertificateRequired,
        };
    }

    private static bool ParseYesNo(string text, string option) => text.Trim().ToLowerInvariant() switch
    {
        "yes" => true,
        "no" => false,
        _ => throw new OptionsException($"--{option}: '{text}' is not yes or no"),
    };

    /// <summary>--client-output-buffer-limit: Redis's groups of "class hard soft seconds", checked as CONFIG SET checks them.</summary>
    private static void ApplyOutputLimits(ServerOptions server, string text)
    {
        if (ClientLimits.CheckOutputLimits(text) is { } error)
            throw new OptionsException($"--client-output-buffer-limit: {error}");
        ClientLimits.SetOutputLimits(server, text);
    }

    /// <summary>
    /// Garnet's --auth modes, mapped onto ACL: Password needs --password (the default user's), ACL needs
    /// --acl-file; NoAuth leaves both as given. Aad (Azure Active Directory tokens) is refused.
    /// </summary>
    private static void ApplyAuthenticationMode(string mode, ServerOptions server)
    {
        if (mode.Equals("NoAuth", StringComparison.OrdinalIgnoreCase))
            return;
        if (mode.Equals("Password", StringComparison.OrdinalIgnoreCase))
        {
            if (server.Password == null)
                throw new OptionsException("--auth Password: --password is required");
            return;
        }
        if (mode.Equals("ACL", StringComparison.OrdinalIgnoreCase))
        {
            if (server.AclFile == null)
                throw new OptionsException("--auth ACL: --acl-file is required");
            return;
        }
        if (mode.Equals("Aad", StringComparison.OrdinalIgnoreCase) || mode.Equals("AclWithAad", StringComparison.OrdinalIgnoreCase))
            throw new OptionsException($"--auth {mode}: Azure Active Directory authentication is not supported; use Password or ACL");
        throw new OptionsException($"--auth: '{mode}' is not one of NoAuth, Password or ACL");
    }

    private static void ApplyAofOptions(Options options, ServerOptions server)
    {
        server.EnableAof = options.EnableAOF;
        if (options.AppendOnly != null)
        {
            bool appendOnly = ParseYesNo(options.AppendOnly, "appendonly");
            if (options.EnableAOF && !appendOnly)
                throw new OptionsException("--aof and --appendonly are the same option but have different values");
            server.EnableAof = appendOnly;
        }
        // Redis keeps appendfsync while the AOF is off, so it is taken without --aof (where --aof-commit-freq is not).
        if (options.AppendFsync != null)
        {
            int frequency = options.AppendFsync.Trim().ToLowerInvariant() switch
            {
                "always" => 0,
                "everysec" => 1000,
                "no" => -1,
                _ => throw new OptionsException($"--appendfsync: '{options.AppendFsync}' is not one of always, everysec, no"),
            };
            if (options.CommitFrequencyMs != null && ParseInt(options.CommitFrequencyMs, "aof-commit-freq", -1, int.MaxValue) != frequency)
                throw new OptionsException("--aof-commit-freq and --appendfsync are the same option but have different values");
            server.AofCommitFrequencyMs = frequency;
        }
        server.Recover = options.Recover;
        if (options.CommitFrequencyMs != null)
            server.AofCommitFrequencyMs = ParseInt(options.CommitFrequencyMs, "aof-commit-freq", -1, int.MaxValue);
        server.AofCommitWait = options.WaitForCommit;
        if (options.AofMemorySize != null)
        {
            long memory = ParseSize(options.AofMemorySize, "aof-memory", 1L << 16, long.MaxValue);
            server.AofMemorySize = Math.Min(1L << 30, 1L << (63 - System.Numerics.BitOperations.LeadingZeroCount((ulong)memory)));
        }
        if (options.AofPageSize != null)
        {
            long page = ParseSize(options.AofPageSize, "aof-page-size", 1L << 12, long.MaxValue);
            server.AofPageSize = 1L << (63 - System.Numerics.BitOperations.LeadingZeroCount((ulong)page));
        }
        if (options.FailOnRecoveryError != null)
            server.FailOnRecoveryError = ParseBool(options.FailOnRecoveryError, "fail-on-recovery-error");
        if (options.AofSegmentSize != null)
            server.AofSegmentSize = ParseSize(options.AofSegmentSize, "aof-segment-size", 1L << 20, 1L << 40);
        if (options.AofSizeLimit != null)
            server.AofSizeLimit = ParseSize(options.AofSizeLimit, "aof-size-limit", 1L << 20, long.MaxValue);
        if (options.CheckpointFrequencySecs != null)
            server.CheckpointFrequencySecs = ParseInt(options.CheckpointFrequencySecs, "checkpoint-freq", 0, int.MaxValue);
        if (options.Save != null)
        {
            if (!Garnet.server.SavePoint.TryParseList(options.Save, out var points))
                throw new OptionsException($"--save: '{options.Save}' is not pairs of <seconds> <changes> (or \"\" for none)");
            server.SavePoints = points;
        }
        // The --aof-* options are taken without --aof too: they apply to a log CONFIG SET appendonly yes turns on, as Redis
        // keeps its AOF settings while the AOF is off.
        if (server.AofPageSize > server.AofMemorySize)
            throw new OptionsException($"--aof-page-size ({server.AofPageSize} bytes) must not exceed --aof-memory ({server.AofMemorySize} bytes)");
        if (server.AofCommitWait && server.AofCommitFrequencyMs <= 0)
            throw new OptionsException("--aof-commit-wait: replies wait for the periodic commit of --aof-commit-freq N > 0 (at 0 they always wait; at -1 there is none)");
    }

    private static bool ParseBool(string text, string option)
    {
        switch (text.Trim().ToLowerInvariant())
        {
            case "true" or "yes":
                return true;
            case "false" or "no":
                return false;
            default:
                throw new OptionsException($"--{option}: '{text}' is not true or false");
        }
    }

    private static int ParseInt(string text, string option, int min, int max)
    {
        if (!int.TryParse(text.Trim(), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out int value))
            throw new OptionsException($"--{option}: '{text}' is not a whole number");
        if (value < min || value > max)
            throw new OptionsException($"--{option}: {value} is out of range ({min} to {max})");
        return value;
    }

    private static long ParseSize(string text, string option, long min, long max)
    {
        if (!SizeParser.TryParse(text, out long bytes))
            throw new OptionsException($"--{option}: '{text}' is not a size (a whole number with an optional b, k, m, g or t suffix)");
        if (bytes < min || bytes > max)
            throw new OptionsException($"--{option}: {text} is out of range ({SizeParser.Format(min)} to {(max == long.MaxValue ? "any" : SizeParser.Format(max))})");
        return bytes;
    }

    /// <summary>Redis's bind list (see <see cref="BindAddresses"/>), each address in its plain form.</summary>
    private static string ParseAddress(string text)
        => BindAddresses.Format(BindAddresses.Parse(text, out string? error) ?? throw new OptionsException($"--bind: {error}"));

    /// <summary>"local" allows DEBUG only when every connection is local: listening on loopback (and the Unix socket).</summary>
    private static bool ParseDebugCommand(string text, string address)
    {
        switch (text.Trim().ToLowerInvariant())
        {
            case "no":
                return false;
            case "yes":
                return true;
            case "local":
                return BindAddresses.AllLoopback(BindAddresses.Parse(address, out _)!);
            default:
                throw new OptionsException($"--enable-debug-command: '{text}' is not one of no, yes, local");
        }
    }

    private static SocketIoModel ParseSocketIo(string text)
    {
        var model = text.Trim().ToLowerInvariant() switch
        {
            "auto" => SocketIoModel.Auto,
            "epoll" => SocketIoModel.Epoll,
            "async" => SocketIoModel.AsyncEventArgs,
            _ => throw new OptionsException($"--socket-io: '{text}' is not one of auto, epoll, async"),
        };
        if (model == SocketIoModel.Epoll && !OperatingSystem.IsLinux())
            throw new OptionsException("--socket-io: epoll is only available on Linux");
        return model;
    }

    private static LogLevel ParseLogLevel(string text)
    {
        foreach (LogLevel level in Enum.GetValues<LogLevel>())
        {
            if (string.Equals(level.ToString(), text.Trim(), StringComparison.OrdinalIgnoreCase))
                return level;
        }
        throw new OptionsException($"--logger-level: '{text}' is not one of {string.Join(", ", Enum.GetNames<LogLevel>())}");
    }

    /// <summary>The value of an option that has two names; giving both with different values is an error.</summary>
    private static string? Alias(string? value, string name, string? aliasValue, string aliasName)
    {
        if (value != null && aliasValue != null && value != aliasValue)
            throw new OptionsException($"--{name} and --{aliasName} are the same option but have different values");
        return value ?? aliasValue;
    }

    private static string? EmptyToNull(string? text) => string.IsNullOrWhiteSpace(text) ? null : text;

    private static string ReadVersion()
    {
        var attribute = typeof(OptionsParser).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>();
        string version = attribute?.InformationalVersion ?? typeof(OptionsParser).Assembly.GetName().Version?.ToString() ?? "0.0.0";
        int metadata = version.IndexOf('+');
        return metadata < 0 ? version : version.Substring(0, metadata);
    }
}
