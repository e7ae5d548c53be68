using System;
using System.Text;
using System.Threading.Tasks;
using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Protocol;

/// <summary>
/// How requests arrive does not matter: thousands pipelined in one write, one byte per read, a frame
/// cut at every position, and large values spread over many reads all give the same replies in order.
/// </summary>
[TestFixture]
public sealed class FramingTests : ServerTestBase
{
    [Test]
    public void ThousandsOfPipelinedCommandsInOneWrite()
    {
        const int Keys = 5000;
        var request = new StringBuilder();
        var expected = new StringBuilder();
        for (int i = 0; i < Keys; i++)
        {
            request.Append(RawClient.Encode("SET", "key:" + i, "value:" + i));
            expected.Append(Ok);
        }
        for (int i = 0; i < Keys; i++)
        {
            request.Append(RawClient.Encode("INCR", "counter"));
            expected.Append(Integer(i + 1));
            request.Append(RawClient.Encode("GET", "key:" + i));
            expected.Append(Bulk("value:" + i));
        }

        using var client = new ByteClient(Port);
        // Send from another task: a client that only reads after writing everything could deadlock
        // with a server whose replies fill the socket buffers.
        var send = Task.Run(() => client.Send(request.ToString()));
        string replies = client.Read(Encoding.Latin1.GetByteCount(expected.ToString()));
        send.Wait();
        Assert.That(replies == expected.ToString(), Is.True, "every reply arrives, in order");
    }

    [Test]
    public void MixedCommandsPipelinedKeepTheirOrder()
    {
        using var client = ConnectRaw();
        var replies = client.Pipeline(
            new[] { "SET", "a", "1" },
            new[] { "APPEND", "a", "23" },
            new[] { "INCRBY", "a", "7" },
            new[] { "GETSET", "a", "x" },
            new[] { "GETDEL", "a" },
            new[] { "GET", "a" },
            new[] { "ECHO", "done" });
        Assert.That(replies, Is.EqualTo(new[] { Ok, Integer(3), Integer(130), Bulk("130"), Bulk("x"), Nil, Bulk("done") }));
    }

    [Test]
    public void OneByteAtATime()
    {
        using var client = new ByteClient(Port);
        client.SendInPieces(RawClient.Encode("SET", "key", "hello world") + RawClient.Encode("GET", "key"), pieceLength: 1);
        string expected = Ok + Bulk("hello world");
        Assert.That(client.Read(expected.Length), Is.EqualTo(expected));
        client.SendInPieces("SET inline \"quoted value\"\r\nGET inline\r\n", pieceLength: 1);
        expected = Ok + Bulk("quoted value");
        Assert.That(client.Read(expected.Length), Is.EqualTo(expected));
    }

    [Test]
    public void AFrameCutAtEveryPosition()
    {
        string frame = RawClient.Encode("SET", "k", "0123456789") + RawClient.Encode("INCR", "n");
        using var client = new ByteClient(Port);
        for (int cut = 1; cut < frame.Length; cut++)
        {
            client.Send(frame.Substring(0, cut));
            System.Threading.Thread.Sleep(2);
            client.Send(frame.Substring(cut));
            Assert.That(client.Read(5 + Integer(cut).Length), Is.EqualTo(Ok + Integer(cut)), $"cut at {cut}");
        }
    }

    [Test]
    public void ALargeValueSpreadOverManyReads()
    {
        string value = Pattern(2 << 20, seed: 3);
        string request = RawClient.Encode("SET", "big", value);
        using var client = new ByteClient(Port);
        client.SendInPieces(request, pieceLength: 16 * 1024, pauseMilliseconds: 1);
        Assert.That(client.Read(5), Is.EqualTo(Ok));
        using var reader = ConnectRaw();
        Assert.That(reader.Execute("GET", "big") == Bulk(value), Is.True);
        Assert.That(reader.Execute("STRLEN", "big"), Is.EqualTo(Integer(2 << 20)));
    }

    [Test]
    public void LargeValuesBetweenSmallCommandsInOneWrite()
    {
        string first = Pattern(300_000, seed: 1);
        string second = Pattern(1_000_000, seed: 2);
        using var client = ConnectRaw();
        var replies = client.Pipeline(
            new[] { "SET", "a", first },
            new[] { "PING" },
            new[] { "SET", "b", second },
            new[] { "GET", "a" },
            new[] { "GET", "b" },
            new[] { "STRLEN", "b" });
        Assert.That(replies[0], Is.EqualTo(Ok));
        Assert.That(replies[1], Is.EqualTo("+PONG\r\n"));
        Assert.That(replies[2], Is.EqualTo(Ok));
        Assert.That(replies[3] == Bulk(first), Is.True);
        Assert.That(replies[4] == Bulk(second), Is.True);
        Assert.That(replies[5], Is.EqualTo(Integer(1_000_000)));
    }

    [Test]
    public void ManyClientsPipeliningAtOnce()
    {
        const int Clients = 8;
        const int Commands = 1000;
        Parallel.For(0, Clients, c =>
        {
            using var client = ConnectRaw();
            var commands = new string[Commands][];
            for (int i = 0; i < Commands; i++)
                commands[i] = i % 2 == 0 ? new[] { "SET", $"c{c}:{i}", $"v{i}" } : new[] { "GET", $"c{c}:{i - 1}" };
            var replies = client.Pipeline(commands);
            for (int i = 0; i < Commands; i++)
                Assert.That(replies[i], Is.EqualTo(i % 2 == 0 ? Ok : Bulk($"v{i - 1}")));
        });
    }
}

/// <summary>Arguments far larger than the receive buffer: the buffer grows and the bytes come back intact.</summary>
[TestFixture]
public sealed class HugeArgumentTests : ServerTestBase
{
    [Test]
    public void HundredMegabyteArgumentRoundTrip()
    {
        const int Length = 100 << 20;
        var value = new byte[Length];
        new Random(42).NextBytes(value);
        var header = Encoding.ASCII.GetBytes($"*2\r\n$4\r\nECHO\r\n${Length}\r\n");

        using var client = new ByteClient(Port, receiveTimeoutMilliseconds: 60000);
        var send = Task.Run(() =>
        {
            client.Send(header);
            for (int offset = 0; offset < Length; offset += 1 << 20)
                client.Send(value.AsSpan(offset, Math.Min(1 << 20, Length - offset)));
            client.Send("\r\n"u8);
        });

        var replyHeader = Encoding.ASCII.GetBytes($"${Length}\r\n");
        var received = new byte[replyHeader.Length];
        client.ReadExactly(received);
        Assert.That(received, Is.EqualTo(replyHeader));
        var chunk = new byte[1 << 20];
        for (int offset = 0; offset < Length; offset += chunk.Length)
        {
            var piece = chunk.AsSpan(0, Math.Min(chunk.Length, Length - offset));
            client.ReadExactly(piece);
            if (!piece.SequenceEqual(value.AsSpan(offset, piece.Length)))
                Assert.Fail($"The echoed bytes differ in the megabyte at {offset}.");
        }
        var tail = new byte[2];
        client.ReadExactly(tail);
        Assert.That(tail, Is.EqualTo("\r\n"u8.ToArray()));
        send.Wait();

        // The connection goes on normally after the huge request.
        client.Send(RawClient.Encode("PING"));
        Assert.That(client.Read(7), Is.EqualTo("+PONG\r\n"));
    }
}
