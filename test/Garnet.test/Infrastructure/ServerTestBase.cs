using System;
using System.IO;
using Garnet.server;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test;

/// <summary>
/// Starts an in-process server on a free loopback port for each test and stops it afterwards,
/// deleting its files. Tests talk to it through StackExchange.Redis (<see cref="Connect"/>) or a raw
/// socket (<see cref="RawClient"/>) for byte-exact replies.
/// </summary>
public abstract class ServerTestBase
{
    private string? _directory;

    /// <summary>The server of the current test.</summary>
    protected GarnetServer Server { get; private set; } = null!;

    /// <summary>The log directory of the fixture's server (with <see cref="TestServerOptions.UseLogDirectory"/> or the storage tier).</summary>
    protected string? LogDirectory => _directory;

    /// <summary>The port it listens on.</summary>
    protected int Port => Server.Port;

    /// <summary>The options of the fixture's servers; override to change them.</summary>
    protected virtual TestServerOptions ServerOptions => new();

    [SetUp]
    public void StartServer()
    {
        var options = ServerOptions;
        if (options.UseLogDirectory || options.StorageTier)
        {
            _directory = Path.Combine(Path.GetTempPath(), "garnet-test-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(_directory);
        }
        LogTier[]? tiers = null;
        if (options.LogTierCapacities is { } capacities)
        {
            tiers = new LogTier[capacities.Length];
            for (int i = 0; i < tiers.Length; i++)
                tiers[i] = new LogTier(Path.Combine(_directory!, "tier" + i), capacities[i]);
        }
        Server = new GarnetServer(new ServerOptions
        {
            Address = "127.0.0.1",
            Port = 0,
            IndexSize = options.IndexSize,
            IndexMaxSize = options.IndexMaxSize,
            MemorySize = options.MemorySize,
            PageSize = options.PageSize,
            MaxMemory = options.MaxMemory,
            Databases = options.Databases,
            EnableDebugCommand = options.EnableDebugCommand,
            Password = options.Password,
            AclFile = options.AclFile,
            LogDir = tiers == null ? _directory : null,
            LogTiers = tiers,
            StorageTier = options.StorageTier,
            SegmentSize = options.SegmentSize,
            CopyReadsToTail = options.CopyReadsToTail,
            ReadCache = options.ReadCache,
            ReadCacheMemorySize = options.ReadCacheMemorySize > 0 ? options.ReadCacheMemorySize : 1L << 30,
            ReadCachePageSize = options.ReadCachePageSize > 0 ? options.ReadCachePageSize : 1L << 25,
            CompactionFrequencySecs = options.CompactionFrequencySecs,
            CompactionMaxSegments = options.CompactionMaxSegments,
            CompactionType = options.CompactionType,
            PubSubOutputLimit = new Garnet.networking.OutputLimit(options.PubSubOutputLimit, 8L << 20, 60),
            EventLoops = options.EventLoops,
            SocketIo = options.SocketIo,
            LogDeviceFactory = options.LogDeviceFactory,
        });
        BeforeStart(Server);
        Server.Start();
    }

    /// <summary>Runs before the server starts: registrations through the embedding API.</summary>
    protected virtual void BeforeStart(GarnetServer server)
    {
    }

    [TearDown]
    public void StopServer()
    {
        Server?.Dispose();
        if (_directory != null && Directory.Exists(_directory))
            Directory.Delete(_directory, recursive: true);
    }

    /// <summary>
    /// StackExchange.Redis options for the test server: RESP3, admin commands allowed, and pub/sub through the
    /// client like any application's.
    /// </summary>
    protected ConfigurationOptions ClientOptions() => new()
    {
        EndPoints = { { "127.0.0.1", Port } },
        Protocol = RedisProtocol.Resp3,
        AllowAdmin = true,
        ConnectTimeout = 5000,
        SyncTimeout = 5000,
        AbortOnConnectFail = true,
    };

    /// <summary>A StackExchange.Redis connection to the test server with <see cref="ClientOptions"/>.</summary>
    protected ConnectionMultiplexer Connect() => Connect(ClientOptions());

    /// <summary>A StackExchange.Redis connection to the test server with the given options.</summary>
    protected static ConnectionMultiplexer Connect(ConfigurationOptions configuration)
    {
        // The handshake log explains a failed connect in the test output.
        var log = new StringWriter();
        try
        {
            return ConnectionMultiplexer.Connect(configuration, log);
        }
        catch (RedisConnectionException)
        {
            TestContext.Out.WriteLine(log.ToString());
            throw;
        }
    }

    /// <summary>A raw RESP client to the test server.</summary>
    protected RawClient ConnectRaw() => new(Port);
}
