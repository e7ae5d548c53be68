using System;
using System.Security.Cryptography;
using System.Text;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// A replica's link to its primary, on a thread of its own: it connects (with masteruser/masterauth, or the cluster's
/// credentials in cluster mode), asks for the stream with REPLSYNC (where this server listens, a fresh token, and the
/// history and offset it holds), and then watches: a PING each second, and a new REPLSYNC when the connection fails or
/// the primary's stream stays silent past repl-timeout. The primary connects back and sends the stream to
/// <see cref="ReplicaStream"/>.
/// </summary>
internal sealed class ReplicaLink : IDisposable
{
    private const int ConnectTimeoutMs = 5000;
    private const int RetryMs = 1000;

    private readonly StoreWrapper _server;
    private readonly Replication _replication;
    private readonly Thread _thread;
    private readonly ManualResetEventSlim _stop = new();
    private volatile MigrateConnection? _connection;

    public ReplicaLink(StoreWrapper server, Replication replication, string host, int port)
    {
        _server = server;
        _replication = replication;
        Host = host;
        Port = port;
        _thread = new Thread(Run) { IsBackground = true, Name = $"Garnet replica of {host}:{port}" };
    }

    public string Host { get; }

    public int Port { get; }

    /// <summary>Redis's link states (ROLE): connect, connecting, sync, connected.</summary>
    public string State { get; private set; } = "connect";

    /// <summary>Whether the link is up and the stream attached (master_link_status).</summary>
    public bool Up => State == "connected";

    /// <summary>Why the last attempt failed, or null.</summary>
    public string? LastError { get; private set; }

    public void Start() => _thread.Start();

    private void Run()
    {
        while (!_stop.IsSet)
        {
            try
            {
                Follow();
            }
            catch (Exception e) when (e is System.IO.IOException or System.Net.Sockets.SocketException or ObjectDisposedException)
            {
                LastError = e.Message;
            }
            _connection?.Dispose();
            _connection = null;
            State = "connect";
            _stop.Wait(RetryMs);
        }
    }

    /// <summary>One connection to the primary: REPLSYNC, then watching until it fails or goes silent.</summary>
    private void Follow()
    {
        State = "connecting";
        var connection = MigrateConnection.TryConnect($"{Host}:{Port}", Host, Port, ConnectTimeoutMs, _server.Options.Address);
        if (connection == null)
        {
            LastError = $"could not connect to {Host}:{Port}";
            return;
        }
        _connection = connection;
        if (_stop.IsSet)
            return;
        var commands = new MigrateCommandBuffer();
        if (Authenticate(_server, connection, commands, ConnectTimeoutMs) is { } authError)
        {
            LastError = authError;
            return;
        }

        string token = Convert.ToHexString(RandomNumberGenerator.GetBytes(16)).ToLowerInvariant();
        var stream = _replication.Stream;
        stream.Expect(token);
        var (heldId, heldOffset) = stream.Held();
        var (host, port) = Announced();
        commands.Clear();
        commands.BeginCommand(6);
        commands.WriteBulk("REPLSYNC"u8);
        commands.WriteBulk(Encoding.ASCII.GetBytes(host));
        commands.WriteBulk(port);
        commands.WriteBulk(Encoding.ASCII.GetBytes(token));
        commands.WriteBulk(Encoding.ASCII.GetBytes(heldId ?? "?"));
        commands.WriteBulk(heldOffset);
        if (Exchange(connection, commands, "+OK"u8) is { } syncError)
        {
            LastError = "REPLSYNC: " + syncError;
            return;
        }
        State = "sync";
        LastError = null;

        long timeoutMs = ReplicationTimeoutMs();
        long nextPing = Environment.TickCount64 + RetryMs;
        long reported = -1;
        bool reporting = true;
        var wakes = new WaitHandle[] { _stop.WaitHandle, stream.AppliedSignal };
        while (true)
        {
            // Between PINGs: entries applied and copied to this server's log are reported once committed (REPLFACK).
            long now = Environment.TickCount64;
            if (now < nextPing)
            {
                WaitHandle.WaitAny(wakes, (int)(nextPing - now));
                if (_stop.IsSet)
                    return;
                WaitForCopyCommitted(stream, nextPing);
            }
            if (_stop.IsSet)
                return;
            if (reporting && !ReportDurable(connection, commands, stream, host, port, ref reported, out reporting))
                return;
            if (Environment.TickCount64 < nextPing)
                continue;
            nextPing = Environment.TickCount64 + RetryMs;
            if (stream.Attached && stream.ReplicationId != null && !stream.Syncing)
                State = "connected";
            commands.Clear();
            commands.BeginCommand(1);
            commands.WriteBulk("PING"u8);
            if (Exchange(connection, commands, "+PONG"u8) is { } pingError)
            {
                LastError = "PING: " + pingError;
                return;
            }
            // Attached once, then gone or silent: the primary's sender stopped; ask again.
            long silence = stream.SilenceMs;
            if (State == "connected" && (!stream.Attached || silence > timeoutMs))
            {
                LastError = stream.Attached ? "the primary's stream went silent" : "the primary's stream closed";
                return;
            }
            if (State == "sync" && silence > timeoutMs)
            {
                LastError = "the primary did not start the stream";
                return;
            }
        }
    }

    /// <summary>
    /// Waits (at most until <paramref name="deadline"/>, in slices that let a stop through) until this server's log holds
    /// durably what the stream applied, asking for the commit when the log commits on request (appendfsync always).
    /// </summary>
    private void WaitForCopyCommitted(ReplicaStream stream, long deadline)
    {
        if (stream.LogMirror is not { } mirror || mirror.Log.CommitFrequencyMs < 0)
            return;
        long target = stream.Offset - mirror.Delta;
        if (mirror.Log.CommittedFileOffset >= target)
            return;
        if (mirror.Log.CommitFrequencyMs == 0)
        {
            // One commit per window at most: entries applied meanwhile share it.
            long wait = _lastCommitRequest + CommitWindowMs - Environment.TickCount64;
            if (wait > 0 && _stop.Wait((int)wait))
                return;
            _lastCommitRequest = Environment.TickCount64;
            mirror.Log.RequestCommit(mirror.RingTail);
            target = stream.Offset - mirror.Delta;
        }
        mirror.Log.WaitForCommittedFileOffset(target, Math.Min(deadline, Environment.TickCount64 + 100));
    }

    private long _lastCommitRequest;

    /// <summary>
    /// Sends REPLFACK when the stream's copy is durable further than <paramref name="reported"/>. False when the
    /// connection failed; <paramref name="stillReporting"/> false when the primary refused it (an older server, whose
    /// WAITAOF then counts no replica).
    /// </summary>
    private bool ReportDurable(MigrateConnection connection, MigrateCommandBuffer commands, ReplicaStream stream, string host, int port,
        ref long reported, out bool stillReporting)
    {
        stillReporting = true;
        long durable = stream.DurableOffset;
        if (durable <= reported)
            return true;
        commands.Clear();
        commands.BeginCommand(4);
        commands.WriteBulk("REPLFACK"u8);
        commands.WriteBulk(Encoding.ASCII.GetBytes(host));
        commands.WriteBulk(port);
        commands.WriteBulk(durable);
        switch (Exchange(connection, commands, "+OK"u8))
        {
            case null:
                reported = durable;
                return true;
            case "the connection failed" or "no answer":
                LastError = "REPLFACK: the connection failed";
                return false;
            default:
                stillReporting = false;
                return true;
        }
    }

    /// <summary>
    /// How often at most a replica whose log commits on request (--aof-commit-freq 0) commits its copy of the stream. Its
    /// commits acknowledge nothing to clients (the primary's do; WAITAOF's replica count waits for them), so they need not
    /// follow every batch applied. Measured with a cluster primary under commit-before-ack and two replicas on its core,
    /// against the same primary whose replicas kept no log: a commit after every batch 0.67x, at most every 10 ms 0.81x,
    /// every 100 ms 0.96x, every 200 ms 0.94x (the fsyncs share the disk with the primary's).
    /// </summary>
    private const int CommitWindowMs = 100;

    /// <summary>Sends AUTH on a connection to the primary when credentials are set: null when logged in (or none needed), else why not.</summary>
    internal static string? Authenticate(StoreWrapper server, MigrateConnection connection, MigrateCommandBuffer commands, int timeoutMs)
    {
        var (user, password) = Credentials(server);
        if (password == null)
            return null;
        commands.Clear();
        commands.BeginCommand(user != null ? 3 : 2);
        commands.WriteBulk("AUTH"u8);
        if (user != null)
            commands.WriteBulk(Encoding.UTF8.GetBytes(user));
        commands.WriteBulk(Encoding.UTF8.GetBytes(password));
        if (connection.Write(commands.Written, timeoutMs) != MigrateIo.Ok || connection.ReadLine(timeoutMs, out var line) != MigrateIo.Ok)
            return "AUTH: no answer";
        return line.SequenceEqual("+OK"u8) ? null : "AUTH: " + Encoding.UTF8.GetString(line);
    }

    /// <summary>The credentials for the primary: masteruser/masterauth, else the cluster's.</summary>
    private static (string? User, string? Password) Credentials(StoreWrapper server)
    {
        var settings = RedisOnlySettings.Of(server);
        string password = settings.Get("masterauth", "");
        if (password.Length > 0)
        {
            string user = settings.Get("masteruser", "");
            return (user.Length > 0 ? user : null, password);
        }
        var options = server.Options;
        if (options.ClusterPassword is { Length: > 0 } clusterPassword)
            return (options.ClusterUsername is { Length: > 0 } clusterUser ? clusterUser : null, clusterPassword);
        return (null, null);
    }

    /// <summary>Where the primary reaches this server: replica-announce-ip/port when set, else the cluster's or the listening address.</summary>
    private (string Host, int Port) Announced()
    {
        var settings = RedisOnlySettings.Of(_server);
        var options = _server.Options;
        string host = settings.Get("replica-announce-ip", "");
        if (host.Length == 0)
            host = options.ClusterAnnounceIp is { Length: > 0 } clusterIp ? clusterIp : options.Address;
        if (host is "0.0.0.0" or "::" or "*" or "")
            host = "127.0.0.1";
        int port = int.TryParse(settings.Get("replica-announce-port", "0"), out int announced) && announced > 0 ? announced
            : options.ClusterAnnouncePort > 0 ? options.ClusterAnnouncePort : _server.Listeners?.Port ?? options.Port;
        return (host, port);
    }

    private long ReplicationTimeoutMs()
        => long.TryParse(RedisOnlySettings.Of(_server).Get("repl-timeout", "60"), out long seconds) ? seconds * 1000 : 60_000;

    private static string? Exchange(MigrateConnection connection, MigrateCommandBuffer commands, ReadOnlySpan<byte> expected)
    {
        if (connection.Write(commands.Written, ConnectTimeoutMs) != MigrateIo.Ok)
            return "the connection failed";
        if (connection.ReadLine(ConnectTimeoutMs * 2, out var line) != MigrateIo.Ok)
            return "no answer";
        return line.SequenceEqual(expected) ? null : Encoding.UTF8.GetString(line);
    }

    /// <summary>Stops the link (the stream it asked for is detached by the caller).</summary>
    private int _disposed;

    public void Dispose()
    {
        // Two REPLICAOF calls racing may both stop the link they replaced.
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        _stop.Set();
        _connection?.Dispose();
        if (_thread.IsAlive && Thread.CurrentThread != _thread)
            _thread.Join();
        _stop.Dispose();
    }
}
