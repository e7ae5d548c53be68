using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Garnet;

/// <summary>
/// The requests <see cref="StartupWarmUp"/> sends: what a first benchmark or a first application sends, over real
/// loopback connections so the receive, parse, execute and send paths all run. Each round sends, on every connection,
/// pipelined batches of 64 (GET and SET weigh most, as in most loads) and the same commands one at a time, then reads
/// every reply before the next request goes.
/// </summary>
internal sealed class WarmUpTraffic : IDisposable
{
    private const int Batch = 64;
    private const int HotRepeats = 6;

    private readonly Socket[] _connections;
    private readonly List<Request> _pipelined = [];
    private readonly List<Request> _single = [];
    private byte[] _replies = new byte[1 << 16];

    /// <summary>Requests sent so far (a pipelined batch counts each of its commands).</summary>
    public long Requests { get; private set; }

    /// <summary>Connects <paramref name="connections"/> clients to the server at <paramref name="port"/> on loopback.</summary>
    public WarmUpTraffic(int port, int connections, TimeSpan replyTimeout)
    {
        _connections = new Socket[connections];
        try
        {
            for (int i = 0; i < connections; i++)
            {
                var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp)
                {
                    NoDelay = true,
                    ReceiveTimeout = (int)replyTimeout.TotalMilliseconds,
                    SendTimeout = (int)replyTimeout.TotalMilliseconds,
                };
                _connections[i] = socket;
                socket.Connect(new IPEndPoint(IPAddress.Loopback, port));
            }
        }
        catch
        {
            Dispose();
            throw;
        }
        BuildRequests();
    }

    /// <summary>One round: every request on every connection, each answered before the next is sent.</summary>
    public void RunRound()
    {
        foreach (var connection in _connections)
        {
            foreach (var request in _pipelined)
                Exchange(connection, request);
            foreach (var request in _single)
                Exchange(connection, request);
        }
    }

    private void Exchange(Socket connection, Request request)
    {
        int sent = 0;
        while (sent < request.Bytes.Length)
            sent += connection.Send(request.Bytes, sent, request.Bytes.Length - sent, SocketFlags.None);
        ReadReplies(connection, request.Replies);
        Requests += request.Replies;
    }

    /// <summary>Reads until <paramref name="count"/> whole replies arrived (the server answers in order, nothing more).</summary>
    private void ReadReplies(Socket connection, int count)
    {
        int filled = 0;
        int parsed = 0;
        while (count > 0)
        {
            if (filled == _replies.Length)
            {
                if (parsed > 0)
                {
                    Buffer.BlockCopy(_replies, parsed, _replies, 0, filled - parsed);
                    filled -= parsed;
                    parsed = 0;
                }
                else
                {
                    Array.Resize(ref _replies, _replies.Length * 2);
                }
            }
            int received = connection.Receive(_replies, filled, _replies.Length - filled, SocketFlags.None);
            if (received == 0)
                throw new SocketException((int)SocketError.ConnectionReset);
            filled += received;
            while (count > 0 && RespReplies.TrySkip(_replies.AsSpan(0, filled), ref parsed))
                count--;
        }
        if (parsed != filled)
            throw new InvalidOperationException("the warm-up server sent more replies than it was asked for");
    }

    private void BuildRequests()
    {
        // redis-benchmark's default tests, plus MGET, EXISTS and DEL; most reads hit and most writes update, as in a running
        // server, with some misses and inserts.
        var batchOf = new Func<int, string[]>[]
        {
            i => ["SET", Key("s", i), "xxx"],
            i => ["GET", Key("s", i)],
            i => ["SET", Key("s", i), "xxx"],
            i => ["GET", Key("s", i)],
            // A benchmark's first requests mostly miss (GET) and insert (SET): keys deleted before they are set, and never set.
            i => ["DEL", Key("t", i)],
            i => ["SET", Key("t", i), "xxx"],
            i => ["GET", Key("absent", i)],
            i => ["INCR", Key("n", i)],
            i => ["LPUSH", "warm-up:list", "xxx"],
            i => ["RPUSH", "warm-up:list", "xxx"],
            i => ["LPOP", "warm-up:list"],
            i => ["RPOP", "warm-up:list"],
            i => ["SADD", "warm-up:set", Key("m", i)],
            i => ["SPOP", "warm-up:set"],
            i => ["HSET", "warm-up:hash", Key("f", i), "xxx"],
            i => ["ZADD", "warm-up:zset", i.ToString(), Key("m", i)],
            i => ["ZPOPMIN", "warm-up:zset"],
            i => ["EXISTS", Key("s", i)],
            i => ["MSET", Key("s", i), "xxx", Key("s", i + 1), "xxx", Key("s", i + 2), "xxx"],
            i => ["MGET", Key("s", i), Key("s", i + 1), Key("s", i + 2)],
            i => ["DEL", Key("d", i)],
        };
        // Every batch uses the same keys (so the DEL of a key comes before its SET each round); single commands use the next.
        for (int c = 0; c < batchOf.Length; c++)
        {
            // GET and SET (the first four) weigh most, as in most loads: the optimized code of the paths they share with
            // the other commands is laid out by the calls it saw (a mix without that weight measured 2.5% slower warm SETs).
            int repeats = c < 4 ? HotRepeats : 1;
            for (int r = 0; r < repeats; r++)
            {
                var batch = new StringBuilder();
                for (int i = 0; i < Batch; i++)
                    AppendCommand(batch, batchOf[c](i));
                _pipelined.Add(new Request(Encoding.ASCII.GetBytes(batch.ToString()), Batch));
            }
            var single = new StringBuilder();
            AppendCommand(single, batchOf[c](Batch + c));
            _single.Add(new Request(Encoding.ASCII.GetBytes(single.ToString()), 1));
        }
        // The lists LRANGE reads, and inline PING (redis-benchmark's PING_INLINE).
        var range = new StringBuilder();
        for (int i = 0; i < 100; i++)
            AppendCommand(range, ["RPUSH", "warm-up:range", "xxx"]);
        AppendCommand(range, ["LRANGE", "warm-up:range", "0", "99"]);
        AppendCommand(range, ["LTRIM", "warm-up:range", "0", "99"]);
        _pipelined.Add(new Request(Encoding.ASCII.GetBytes(range.ToString()), 102));
        _single.Add(new Request("PING\r\n"u8.ToArray(), 1));
        var ping = new StringBuilder();
        AppendCommand(ping, ["PING"]);
        _single.Add(new Request(Encoding.ASCII.GetBytes(ping.ToString()), 1));
    }

    private static string Key(string kind, int i) => "warm-up:" + kind + ":" + i.ToString();

    private static void AppendCommand(StringBuilder to, string[] arguments)
    {
        to.Append('*').Append(arguments.Length).Append("\r\n");
        foreach (string argument in arguments)
            to.Append('$').Append(argument.Length).Append("\r\n").Append(argument).Append("\r\n");
    }

    public void Dispose()
    {
        foreach (var connection in _connections)
            connection?.Dispose();
    }

    private readonly record struct Request(byte[] Bytes, int Replies);
}
