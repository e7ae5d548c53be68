using System;
using System.Buffers.Text;
using System.Diagnostics;
using System.IO;
using System.Text;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// Streams this primary's operation log to one replica, on a thread of its own, over a connection it opens to the
/// replica and attaches with the token the replica gave (REPLATTACH): first a checkpoint when the replica cannot continue
/// where it stands (REPLFULL), then every entry as the log's writer puts it in the files (REPLAPPEND, whole entries, a
/// heartbeat when there are none for a second). Each REPLAPPEND is answered with the offset the replica applied, which
/// WAIT and INFO report. Any failure ends the sender; the replica's link asks again.
/// </summary>
internal sealed class ReplicaSender : IDisposable
{
    private const int TimeoutMs = 60_000;
    private const int ChunkBytes = 1 << 20;
    private const int HeartbeatMs = 1000;
    private const int Window = 4;

    private readonly StoreWrapper _server;
    private readonly Replication _replication;
    private readonly string _token;
    private readonly string _replicationId;
    private readonly Thread _thread;
    private volatile bool _stopping;
    private volatile MigrateConnection? _connection;
    private long _position;
    private long _acknowledged = -1;
    private long _lastAckTicks;
    // Since when the oldest batch not yet acknowledged waits (0: none outstanding), in Stopwatch ticks.
    private long _waitingSinceTicks;
    private volatile bool _inSync;

    /// <summary>A sender for the replica at <paramref name="host"/>:<paramref name="port"/>; <paramref name="offset"/> -1 for a full sync.</summary>
    public ReplicaSender(StoreWrapper server, Replication replication, string host, int port, string token, string replicationId, long offset)
    {
        _server = server;
        _replication = replication;
        Host = host;
        Port = port;
        _token = token;
        _replicationId = replicationId;
        // Until a checkpoint says where the stream starts, every file is kept.
        _position = offset < 0 ? 0 : offset;
        State = offset < 0 ? "wait_bgsave" : "online";
        _thread = new Thread(Run) { IsBackground = true, Name = $"Garnet replica {host}:{port}" };
    }

    public string Host { get; }

    public int Port { get; }

    /// <summary>Redis's replica state in INFO: wait_bgsave, send_bulk, online.</summary>
    public string State { get; private set; }

    /// <summary>The log offset this sender sends from next (the log keeps its files from here).</summary>
    public long Position => Interlocked.Read(ref _position);

    /// <summary>The offset the replica last said it applied everything up to; -1 before it said.</summary>
    public long AcknowledgedOffset => Interlocked.Read(ref _acknowledged);

    private long _durable = -1;

    /// <summary>The offset up to which the replica's own log holds the stream durably (REPLFACK), or -1.</summary>
    public long DurableOffset => Interlocked.Read(ref _durable);

    /// <summary>The replica reported its log durable up to <paramref name="offset"/>.</summary>
    internal void NoteDurable(long offset)
    {
        long current;
        while ((current = Interlocked.Read(ref _durable)) < offset && Interlocked.CompareExchange(ref _durable, offset, current) != current)
        {
        }
    }

    /// <summary>Seconds since the replica last acknowledged (INFO's lag).</summary>
    public long LagSeconds => Interlocked.Read(ref _lastAckTicks) == 0 ? 0 : (long)Stopwatch.GetElapsedTime(Interlocked.Read(ref _lastAckTicks)).TotalSeconds;

    /// <summary>
    /// Whether the replica follows closely enough that commits wait for it (cluster mode's commit-before-ack): from when
    /// it acknowledged up to within one window of the log's end, until it leaves or is late (<see cref="DropIfLate"/>).
    /// </summary>
    public bool InSync => _inSync;

    /// <summary>Takes the replica out of sync when a batch has waited longer than <paramref name="limitMs"/> for its acknowledgement; true if it was.</summary>
    public bool DropIfLate(long limitMs)
    {
        long since = Interlocked.Read(ref _waitingSinceTicks);
        if (!_inSync || since == 0 || Stopwatch.GetElapsedTime(since).TotalMilliseconds <= limitMs)
            return false;
        _inSync = false;
        return true;
    }

    /// <summary>
    /// The stream ended (the connection failed or the replica was replaced): a replica in sync stays in the commit gate at
    /// the offset it acknowledged until it is late (<see cref="DropIfLate"/>), as if it only stopped answering, so a
    /// primary cut off from it does not count commits without it while it still holds its lease.
    /// </summary>
    public void Departed()
    {
        if (_inSync)
            Interlocked.CompareExchange(ref _waitingSinceTicks, Stopwatch.GetTimestamp(), 0);
    }

    /// <summary>Takes the replica out of the commit gate at once (a new stream to it is in sync, or this server stops being a primary).</summary>
    public void LeaveGate() => _inSync = false;

    // A promotion FAILOVER asked for, sent once no batch waits for its acknowledgement.
    private PromotionRequest? _promotion;

    private sealed class PromotionRequest(long offset)
    {
        public readonly long Offset = offset;
        public readonly ManualResetEventSlim Done = new();
        public string? Error;
    }

    /// <summary>
    /// FAILOVER: has the replica promote itself (REPLPROMOTE on the stream's connection) once it applied up to
    /// <paramref name="offset"/> (-1: at once); the stream ends. Null when the replica is a primary now, else why not.
    /// </summary>
    public string? Promote(long offset, int timeoutMs)
    {
        var request = new PromotionRequest(offset);
        Volatile.Write(ref _promotion, request);
        if (!request.Done.Wait(timeoutMs))
        {
            // Withdrawn unless the sender took it already (a promotion sent late would make a second primary).
            if (Interlocked.CompareExchange(ref _promotion, null, request) == request)
                return "the replica did not answer the promotion in time";
            request.Done.Wait();
        }
        return request.Error;
    }

    /// <summary>Why the sender stopped, or null while it runs.</summary>
    public string? Error { get; private set; }

    public void Start() => _thread.Start();

    private void Run()
    {
        try
        {
            Error = Stream();
        }
        catch (Exception e) when (e is IOException or InvalidDataException or UnauthorizedAccessException or OperationLogFailedException)
        {
            Error = e.Message;
        }
        finally
        {
            _connection?.Dispose();
            if (Interlocked.Exchange(ref _promotion, null) is { Done.IsSet: false } promotion)
            {
                promotion.Error = "the stream to the replica ended: " + (Error ?? "stopped");
                promotion.Done.Set();
            }
            if (!_stopping)
                _replication.Remove(this);
        }
    }

    private string? Stream()
    {
        var log = _server.OperationLog ?? throw new InvalidOperationException("Replication needs the operation log.");
        using var connection = MigrateConnection.TryConnect($"{Host}:{Port}", Host, Port, TimeoutMs, _server.Options.Address);
        if (connection == null)
            return $"could not connect to the replica at {Host}:{Port}";
        _connection = connection;
        if (_stopping)
            return null;
        var commands = new MigrateCommandBuffer();
        commands.BeginCommand(3);
        commands.WriteBulk("REPLATTACH"u8);
        commands.WriteBulk(Encoding.ASCII.GetBytes(_token));
        commands.WriteBulk(Encoding.ASCII.GetBytes(_replicationId));
        if (Exchange(connection, commands, out _) is { } attachError)
            return attachError;

        var (directory, segmentSize) = log.FileLayout;
        log.Follow(true);
        using var reader = new LogTailReader(directory, segmentSize, log.Backlog);
        try
        {
            long offset = State == "online" ? Position : SendCheckpoint(connection, commands);
            State = "online";
            // Up to Window batches go out before their acknowledgements are read, so that the replica applies one while
            // the next is read and sent (a round trip per batch would leave both sides idle in turn).
            var expected = new System.Collections.Generic.Queue<long>();
            long next = offset;
            long lastSent = Environment.TickCount64;
            while (!_stopping)
            {
                if (expected.Count == 0 && Volatile.Read(ref _promotion) is { } promotion
                    && Interlocked.CompareExchange(ref _promotion, null, promotion) == promotion)
                {
                    promotion.Error = "the stream to the replica ended";
                    try
                    {
                        commands.Clear();
                        commands.BeginCommand(3);
                        commands.WriteBulk("REPLPROMOTE"u8);
                        commands.WriteBulk(Encoding.ASCII.GetBytes(_replicationId));
                        commands.WriteBulk(promotion.Offset);
                        promotion.Error = Exchange(connection, commands, out _);
                    }
                    finally
                    {
                        promotion.Done.Set();
                    }
                    return promotion.Error;
                }
                if (next < log.FileStart)
                    return $"the log from offset {next} was removed before the replica had it";
                if (expected.Count < Window)
                {
                    long written = log.WrittenOut;
                    var entries = written > next ? reader.ReadEntries(next, written) : default;
                    bool heartbeat = entries.IsEmpty && expected.Count == 0 && Environment.TickCount64 - lastSent >= HeartbeatMs;
                    if (!entries.IsEmpty || heartbeat)
                    {
                        commands.Clear();
                        commands.BeginCommand(4);
                        commands.WriteBulk("REPLAPPEND"u8);
                        commands.WriteBulk(Encoding.ASCII.GetBytes(_replicationId));
                        commands.WriteBulk(next);
                        commands.WriteBulk(entries);
                        if (connection.Write(commands.Written, TimeoutMs) != MigrateIo.Ok)
                            return "the connection to the replica failed";
                        next += entries.Length;
                        if (expected.Count == 0)
                            Interlocked.Exchange(ref _waitingSinceTicks, Stopwatch.GetTimestamp());
                        expected.Enqueue(next);
                        lastSent = Environment.TickCount64;
                        continue;
                    }
                    if (expected.Count == 0)
                    {
                        log.WaitForWrittenOut(next, HeartbeatMs);
                        continue;
                    }
                }
                if (ReadReply(connection, out long applied) is { } appendError)
                    return appendError;
                long wanted = expected.Dequeue();
                if (applied != wanted)
                    return $"the replica applied up to {applied}, not {wanted}";
                Interlocked.Exchange(ref _position, applied);
                Interlocked.Exchange(ref _acknowledged, applied);
                long now = Stopwatch.GetTimestamp();
                Interlocked.Exchange(ref _lastAckTicks, now);
                Interlocked.Exchange(ref _waitingSinceTicks, expected.Count == 0 ? 0 : now);
                // Caught up (what is still unsent fits in the window): from here commits wait for this replica too.
                if (!_inSync && log.WrittenOut - applied <= Window * LogTailReader.BatchBytes)
                    _inSync = true;
                _replication.OnAcknowledged();
            }
            return null;
        }
        finally
        {
            log.Follow(false);
        }
    }

    /// <summary>Takes a checkpoint, sends it, and returns the log offset the stream continues from.</summary>
    private long SendCheckpoint(MigrateConnection connection, MigrateCommandBuffer commands)
    {
        var log = _server.OperationLog!;
        while (true)
        {
            if (_stopping)
                throw new IOException("the sender stopped");
            if (!_server.Checkpoints.SaveWaitingForRunning())
                throw new IOException("the checkpoint for the replica failed: " + _server.Checkpoints.LastError);
            var checkpoints = CheckpointFile.List(_server.Checkpoints.Directory);
            if (checkpoints.Count == 0)
                continue;
            FileStream file;
            try
            {
                file = new FileStream(checkpoints[0].Path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, 1 << 16);
            }
            catch (FileNotFoundException)
            {
                continue; // a newer checkpoint replaced it: take that one
            }
            using (file)
            {
                var (_, aofStart) = CheckpointLoader.ReadHeader(checkpoints[0].Path);
                // From here the log keeps its files from the checkpoint's address on; a checkpoint that removed them
                // meanwhile makes this one useless, and the next round takes a newer one.
                Interlocked.Exchange(ref _position, aofStart);
                if (aofStart < log.FileStart)
                    continue;
                State = "send_bulk";
                commands.Clear();
                commands.BeginCommand(4);
                commands.WriteBulk("REPLFULL"u8);
                commands.WriteBulk("BEGIN"u8);
                commands.WriteBulk(Encoding.ASCII.GetBytes(_replicationId));
                commands.WriteBulk(aofStart);
                if (Exchange(connection, commands, out _) is { } beginError)
                    throw new IOException(beginError);
                var chunk = new byte[ChunkBytes];
                int read;
                while ((read = file.Read(chunk)) > 0)
                {
                    commands.Clear();
                    commands.BeginCommand(3);
                    commands.WriteBulk("REPLFULL"u8);
                    commands.WriteBulk("DATA"u8);
                    commands.WriteBulk(chunk.AsSpan(0, read));
                    if (Exchange(connection, commands, out _) is { } dataError)
                        throw new IOException(dataError);
                }
                commands.Clear();
                commands.BeginCommand(2);
                commands.WriteBulk("REPLFULL"u8);
                commands.WriteBulk("END"u8);
                if (Exchange(connection, commands, out _) is { } endError)
                    throw new IOException(endError);
                Interlocked.Exchange(ref _acknowledged, aofStart);
                Interlocked.Exchange(ref _lastAckTicks, Stopwatch.GetTimestamp());
                return aofStart;
            }
        }
    }

    /// <summary>Sends what <paramref name="commands"/> holds and reads its one reply: null when +OK or :integer, else why not.</summary>
    private string? Exchange(MigrateConnection connection, MigrateCommandBuffer commands, out long integer)
    {
        integer = 0;
        if (connection.Write(commands.Written, TimeoutMs) != MigrateIo.Ok)
            return "the connection to the replica failed";
        return ReadReply(connection, out integer);
    }

    /// <summary>Reads one reply: null when +OK or :integer, else why not.</summary>
    private string? ReadReply(MigrateConnection connection, out long integer)
    {
        integer = 0;
        if (connection.ReadLine(TimeoutMs, out var line) != MigrateIo.Ok)
            return "the replica did not answer";
        if (line.Length > 0 && line[0] == ':' && Utf8Parser.TryParse(line.Slice(1), out integer, out int used) && used == line.Length - 1)
            return null;
        if (line.SequenceEqual("+OK"u8))
            return null;
        return "the replica answered " + Encoding.UTF8.GetString(line);
    }

    /// <summary>Stops the sender and waits for its thread.</summary>
    public void Dispose()
    {
        _stopping = true;
        _connection?.Dispose();
        if (_thread.IsAlive && Thread.CurrentThread != _thread)
            _thread.Join();
    }
}
