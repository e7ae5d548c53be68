using System;
using System.Collections.Generic;
using System.IO;
using Garnet.server;

namespace Garnet.test.Durability;

/// <summary>
/// An in-process server with the operation log in a directory of its own that outlives the server, so a test can stop
/// it (a clean shutdown) or leave its files as they are and start it again with recovery.
/// </summary>
internal sealed class OperationLogTestServer : IDisposable
{
    private GarnetServer? _server;

    public OperationLogTestServer()
    {
        Directory = Path.Combine(Path.GetTempPath(), "garnet-aof-" + Guid.NewGuid().ToString("N"));
        System.IO.Directory.CreateDirectory(Directory);
    }

    /// <summary>A server over <paramref name="directory"/>, which another server (a child process) wrote; deleted with this.</summary>
    public OperationLogTestServer(string directory) => Directory = directory;

    /// <summary>The checkpoint directory; the log's files are in its AOF subdirectory.</summary>
    public string Directory { get; }

    public string AofDirectory => Path.Combine(Directory, "AOF");

    public GarnetServer Server => _server ?? throw new InvalidOperationException("not started");

    public int Port => Server.Port;

    /// <summary>Starts a server over the directory (replaying the log when <paramref name="recover"/>); <paramref name="configure"/> changes its options first.</summary>
    public GarnetServer Start(bool recover = false, Action<ServerOptions>? configure = null, Action<GarnetServer>? register = null)
    {
        if (_server != null)
            throw new InvalidOperationException("already started");
        var options = new ServerOptions
        {
            Address = "127.0.0.1",
            Port = 0,
            MemorySize = 1L << 26,
            PageSize = 1L << 20,
            IndexSize = 1L << 16,
            Databases = 16,
            EnableAof = true,
            CheckpointDir = Directory,
            Recover = recover,
            ExpiredKeyDeletionScanFrequencySecs = 0,
        };
        configure?.Invoke(options);
        var server = new GarnetServer(options);
        try
        {
            register?.Invoke(server);
            server.Start();
        }
        catch
        {
            server.Dispose();
            throw;
        }
        _server = server;
        return server;
    }

    /// <summary>Stops the server (a clean shutdown commits the log).</summary>
    public void Stop()
    {
        _server?.Dispose();
        _server = null;
    }

    /// <summary>Stops, then starts again with recovery.</summary>
    public GarnetServer Restart(Action<ServerOptions>? configure = null, Action<GarnetServer>? register = null)
    {
        Stop();
        return Start(recover: true, configure, register);
    }

    public RawClient Connect() => new(Port);

    /// <summary>Runs <paramref name="command"/> and asserts that it did not fail.</summary>
    public static void Ok(RawClient client, params string[] command)
        => NUnit.Framework.Assert.That(client.Execute(command), NUnit.Framework.Does.Not.StartWith("-"), string.Join(' ', command));

    /// <summary>Every key of every database with its DUMP payload and absolute expiration (PEXPIRETIME), as comparable text.</summary>
    public SortedDictionary<string, string> Snapshot()
    {
        var snapshot = new SortedDictionary<string, string>(StringComparer.Ordinal);
        using var client = Connect();
        for (int db = 0; db < 16; db++)
        {
            client.Execute("SELECT", db.ToString());
            foreach (string key in Keyspace.Resp.Strings(client.Execute("KEYS", "*")))
                snapshot[$"{db}/{key}"] = client.Execute("DUMP", key) + " " + client.Execute("PEXPIRETIME", key);
        }
        return snapshot;
    }

    public void Dispose()
    {
        Stop();
        try
        {
            System.IO.Directory.Delete(Directory, recursive: true);
        }
        catch (IOException)
        {
        }
    }
}
