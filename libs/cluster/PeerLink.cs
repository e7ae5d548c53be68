using System;
using System.Collections.Concurrent;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Garnet.common;
using Garnet.server;

namespace Garnet.cluster;

/// <summary>
/// This node's link to another: a client connection to its port, authenticated with --cluster-username/--cluster-password
/// when set, on which this node sends CLUSTER GOSSIP with its state and takes the answer. It pings at least every second
/// (sooner when poked), reconnects when the connection fails, and a ping not answered within the node timeout counts
/// against the node (<see cref="ClusterNode.Tick"/>).
/// </summary>
internal sealed class PeerLink
{
    private readonly ClusterNode _node;
    private readonly KnownNode _target;
    private readonly ServerOptions _options;
    private readonly CancellationTokenSource _cancel;
    private readonly ConcurrentQueue<string> _fails = new();
    private readonly SemaphoreSlim _poke = new(0, 1);
    private readonly Task _task;

    public PeerLink(ClusterNode node, KnownNode target, ServerOptions options, CancellationToken stop)
    {
        _node = node;
        _target = target;
        _options = options;
        _cancel = CancellationTokenSource.CreateLinkedTokenSource(stop);
        CreatedMs = ClusterNode.NowMs;
        _task = Task.Run(RunAsync);
    }

    public KnownNode Target => _target;

    public long CreatedMs { get; }

    public bool Ended => _task.IsCompleted;

    public void QueueFail(string id)
    {
        _fails.Enqueue(id);
        Poke();
    }

    // 1 while this replica's request for the target's vote waits to be sent.
    private int _askVote;

    /// <summary>The next message asks the target for its vote in this replica's election.</summary>
    public void QueueVoteRequest()
    {
        Interlocked.Exchange(ref _askVote, 1);
        Poke();
    }

    public void Poke()
    {
        try
        {
            if (_poke.CurrentCount == 0)
                _poke.Release();
        }
        catch (SemaphoreFullException)
        {
            // Poked already.
        }
    }

    public void Stop() => _cancel.Cancel();

    public void Wait(TimeSpan timeout)
    {
        _cancel.Cancel();
        try
        {
            _task.Wait(timeout);
        }
        catch (AggregateException)
        {
            // Ended by cancellation.
        }
    }

    private TimeSpan Timeout => TimeSpan.FromMilliseconds(_node.TimeoutMs);

    private TimeSpan PingInterval => TimeSpan.FromMilliseconds(Math.Clamp(_node.TimeoutMs / 4, 100, 1000));

    private async Task RunAsync()
    {
        var token = _cancel.Token;
        while (!token.IsCancellationRequested)
        {
            try
            {
                var address = _target.Address;
                var destination = IPAddress.TryParse(address.Ip, out var parsed) ? parsed : await ResolveAsync(address.Ip, token).ConfigureAwait(false);
                using var socket = new Socket(destination.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
                // From the address this server listens on, as Redis's cluster bus connects.
                NodeConnections.BindSource(socket, _options.Address, destination);
                using (var connect = CancellationTokenSource.CreateLinkedTokenSource(token))
                {
                    connect.CancelAfter(Timeout);
                    await socket.ConnectAsync(new IPEndPoint(destination, address.Port), connect.Token).ConfigureAwait(false);
                }
                using var stream = new NetworkStream(socket, ownsSocket: false);
                var reader = new ReplyReader(stream);
                if (!string.IsNullOrEmpty(_options.ClusterPassword))
                {
                    var auth = string.IsNullOrEmpty(_options.ClusterUsername)
                        ? Command("AUTH"u8.ToArray(), Encoding.UTF8.GetBytes(_options.ClusterPassword))
                        : Command("AUTH"u8.ToArray(), Encoding.UTF8.GetBytes(_options.ClusterUsername), Encoding.UTF8.GetBytes(_options.ClusterPassword));
                    await stream.WriteAsync(auth, token).ConfigureAwait(false);
                    var (_, error) = await reader.ReadAsync(Timeout, token).ConfigureAwait(false);
                    if (error != null)
                        throw new IOException("the node refused this node's cluster credentials: " + error);
                }
                _node.NoteLink(_target, true);
                while (!token.IsCancellationRequested)
                {
                    _fails.TryDequeue(out var failed);
                    bool askVote = failed == null && Interlocked.Exchange(ref _askVote, 0) == 1;
                    var ping = _node.NextPing(_target, failed, askVote);
                    if (ping == null)
                        return;
                    await stream.WriteAsync(Command("CLUSTER"u8.ToArray(), "GOSSIP"u8.ToArray(), ping), token).ConfigureAwait(false);
                    var (reply, error) = await reader.ReadAsync(Timeout, token).ConfigureAwait(false);
                    if (error != null)
                        throw new IOException(error);
                    if (!_node.ReceivePong(_target, reply))
                        return;
                    if (_fails.IsEmpty && Volatile.Read(ref _askVote) == 0)
                        await _poke.WaitAsync(PingInterval, token).ConfigureAwait(false);
                }
            }
            catch (OperationCanceledException) when (token.IsCancellationRequested)
            {
                return;
            }
            catch (Exception e) when (e is SocketException or IOException or OperationCanceledException or InvalidDataException)
            {
                _node.NoteUnreachable(_target);
            }
            try
            {
                await Task.Delay(PingInterval, token).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    private static async Task<IPAddress> ResolveAsync(string host, CancellationToken token)
    {
        var addresses = await Dns.GetHostAddressesAsync(host, token).ConfigureAwait(false);
        return addresses.Length > 0 ? addresses[0] : throw new SocketException((int)SocketError.HostNotFound);
    }

    /// <summary>A command as a RESP array of bulk strings.</summary>
    private static byte[] Command(params byte[][] args)
    {
        using var stream = new MemoryStream();
        stream.Write(Encoding.ASCII.GetBytes($"*{args.Length}\r\n"));
        foreach (var arg in args)
        {
            stream.Write(Encoding.ASCII.GetBytes($"${arg.Length}\r\n"));
            stream.Write(arg);
            stream.Write("\r\n"u8);
        }
        return stream.ToArray();
    }

    /// <summary>Reads the replies a node sends a link: bulk strings (the pongs), simple strings (OK) and errors.</summary>
    private sealed class ReplyReader(Stream stream)
    {
        private const int MaxReply = 64 << 20;
        private byte[] _buffer = new byte[64 * 1024];
        private int _start;
        private int _end;

        public async ValueTask<(byte[] Value, string? Error)> ReadAsync(TimeSpan timeout, CancellationToken token)
        {
            using var limit = CancellationTokenSource.CreateLinkedTokenSource(token);
            limit.CancelAfter(timeout);
            var line = await ReadLineAsync(limit.Token).ConfigureAwait(false);
            if (line.Length == 0)
                throw new InvalidDataException("empty reply");
            string text = Encoding.UTF8.GetString(line, 1, line.Length - 1);
            switch (line[0])
            {
                case (byte)'+':
                    return (Encoding.UTF8.GetBytes(text), null);
                case (byte)'-':
                    return ([], text);
                case (byte)'$':
                    if (!int.TryParse(text, out int length) || length < 0 || length > MaxReply)
                        throw new InvalidDataException("bad bulk length " + text);
                    await FillAsync(length + 2, limit.Token).ConfigureAwait(false);
                    var value = _buffer.AsSpan(_start, length).ToArray();
                    _start += length + 2;
                    return (value, null);
                default:
                    throw new InvalidDataException("unexpected reply " + text);
            }
        }

        private async ValueTask<byte[]> ReadLineAsync(CancellationToken token)
        {
            while (true)
            {
                int newline = _buffer.AsSpan(_start, _end - _start).IndexOf("\r\n"u8);
                if (newline >= 0)
                {
                    var line = _buffer.AsSpan(_start, newline).ToArray();
                    _start += newline + 2;
                    return line;
                }
                if (_end - _start > 4096)
                    throw new InvalidDataException("reply line too long");
                await FillAsync(_end - _start + 1, token).ConfigureAwait(false);
            }
        }

        /// <summary>Reads until at least <paramref name="count"/> bytes are buffered.</summary>
        private async ValueTask FillAsync(int count, CancellationToken token)
        {
            if (_start > 0 && _buffer.Length - _start < count)
            {
                Buffer.BlockCopy(_buffer, _start, _buffer, 0, _end - _start);
                _end -= _start;
                _start = 0;
            }
            if (_buffer.Length < count)
                Array.Resize(ref _buffer, count);
            while (_end - _start < count)
            {
                int read = await stream.ReadAsync(_buffer.AsMemory(_end), token).ConfigureAwait(false);
                if (read == 0)
                    throw new IOException("the node closed the link");
                _end += read;
            }
        }
    }
}
