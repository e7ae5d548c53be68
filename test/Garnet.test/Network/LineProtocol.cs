using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Text;
using System.Threading;
using Garnet.networking;

namespace Garnet.test.Network;

/// <summary>Creates a <see cref="LineConsumer"/> per connection and keeps them all, so tests can check their lifecycle.</summary>
internal sealed class LineSessionProvider : ISessionProvider
{
    private readonly ConcurrentQueue<LineConsumer> _consumers = new();

    /// <summary>Gets every consumer created so far, in creation order.</summary>
    public IReadOnlyCollection<LineConsumer> Consumers => _consumers;

    /// <summary>Gets the total number of Dispose calls over all consumers.</summary>
    public int DisposeCalls
    {
        get
        {
            var total = 0;
            foreach (var consumer in _consumers)
                total += consumer.DisposeCount;
            return total;
        }
    }

    /// <summary>Gets or sets what the "SHUTDOWN" command does (typically disposes the server).</summary>
    public Action? Shutdown { get; set; }

    public IMessageConsumer CreateConsumer(INetworkSender sender)
    {
        var consumer = new LineConsumer(sender, this);
        _consumers.Enqueue(consumer);
        return consumer;
    }
}

/// <summary>
/// A protocol of its own, known only to the tests: messages end with '\n'. The reply to a line is the line
/// upper-cased, except for a few commands:
/// "QUIT" replies "BYE" and closes; "BOOM" throws; "BIG n" replies n pattern bytes ('a'..'z' repeating);
/// "WHO" replies "remote|local" endpoints; "CLOSE-LATER" replies "OK" and then calls CloseAfterSend from another
/// thread, while the connection waits for input; "SHUTDOWN" invokes <see cref="LineSessionProvider.Shutdown"/>.
/// </summary>
internal sealed unsafe class LineConsumer : IMessageConsumer
{
    private readonly INetworkSender _sender;
    private readonly LineSessionProvider _provider;
    private int _replyLength;
    private int _disposeCount;
    private int _linesHandled;

    public LineConsumer(INetworkSender sender, LineSessionProvider provider)
    {
        _sender = sender;
        _provider = provider;
    }

    public int DisposeCount => Volatile.Read(ref _disposeCount);

    public int LinesHandled => Volatile.Read(ref _linesHandled);

    /// <summary>Gets how many times TryConsumeMessages was called (tells whether a message arrived in pieces).</summary>
    public int ConsumeCalls { get; private set; }

    public static byte PatternByte(int index) => (byte)('a' + index % 26);

    public int TryConsumeMessages(byte* buffer, int bytesRead)
    {
        ConsumeCalls++;
        var consumed = 0;
        while (consumed < bytesRead)
        {
            var line = new ReadOnlySpan<byte>(buffer + consumed, bytesRead - consumed);
            var end = line.IndexOf((byte)'\n');
            if (end < 0)
                break;
            line = line[..end];
            consumed += end + 1;
            Interlocked.Increment(ref _linesHandled);

            if (line.SequenceEqual("BOOM"u8))
                throw new InvalidOperationException("BOOM requested by the client.");

            bool ok;
            if (line.SequenceEqual("QUIT"u8))
            {
                ok = WriteReply("BYE"u8) && Flush();
                _sender.CloseAfterSend();
                return consumed;
            }
            else if (line.StartsWith("BIG "u8))
            {
                ok = WriteBig(int.Parse(Encoding.ASCII.GetString(line[4..])));
            }
            else if (line.SequenceEqual("CLOSE-LATER"u8))
            {
                ok = WriteReply("OK"u8) && Flush();
                var sender = _sender;
                ThreadPool.QueueUserWorkItem(_ =>
                {
                    Thread.Sleep(20);
                    sender.CloseAfterSend();
                });
            }
            else if (line.SequenceEqual("SHUTDOWN"u8))
            {
                ok = WriteReply("SHUTTING DOWN"u8) && Flush();
                _provider.Shutdown?.Invoke();
            }
            else if (line.SequenceEqual("WHO"u8))
            {
                ok = WriteReply(Encoding.UTF8.GetBytes(_sender.RemoteEndpoint + "|" + _sender.LocalEndpoint));
            }
            else
            {
                ok = WriteUpper(line);
            }

            if (!ok)
                return consumed;
        }

        // As the server's sessions do: an idle connection holds no send buffer.
        if (Flush())
            _sender.ReleaseSendBuffer();
        return consumed;
    }

    public void Dispose() => Interlocked.Increment(ref _disposeCount);

    private bool WriteReply(ReadOnlySpan<byte> reply)
    {
        foreach (var b in reply)
        {
            if (!Put(b))
                return false;
        }
        return Put((byte)'\n');
    }

    private bool WriteUpper(ReadOnlySpan<byte> line)
    {
        foreach (var b in line)
        {
            if (!Put(b is >= (byte)'a' and <= (byte)'z' ? (byte)(b - 32) : b))
                return false;
        }
        return Put((byte)'\n');
    }

    private bool WriteBig(int length)
    {
        for (var i = 0; i < length; i++)
        {
            if (!Put(PatternByte(i)))
                return false;
        }
        return Put((byte)'\n');
    }

    private bool Put(byte b)
    {
        if (_replyLength == _sender.SendBufferLength && !Flush())
            return false;
        _sender.SendBufferStart[_replyLength++] = b;
        return true;
    }

    private bool Flush()
    {
        if (_replyLength == 0)
            return true;
        var length = _replyLength;
        _replyLength = 0;
        return _sender.Send(length);
    }
}
