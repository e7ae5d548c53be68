using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;
using Garnet.common;
using NUnit.Framework;

namespace Garnet.test.Common;

/// <summary>
/// <see cref="RespWriter"/> over a deliberately tiny buffer: every reply type must come out byte for
/// byte the same however the flushes cut it.
/// </summary>
[TestFixture]
public sealed unsafe class RespWriterTests
{
    /// <summary>A sink that collects what is flushed, with a small native buffer.</summary>
    private sealed class RecordingSink : IResponseSink, IDisposable
    {
        private readonly byte* _buffer;
        private readonly List<byte> _sent = new();

        public RecordingSink(int length)
        {
            BufferLength = length;
            _buffer = (byte*)NativeMemory.Alloc((nuint)length);
        }

        public byte* BufferStart => _buffer;

        public int BufferLength { get; }

        public int Flushes { get; private set; }

        public bool Fail { get; set; }

        public string Sent => Encoding.Latin1.GetString(_sent.ToArray());

        public bool Flush(int length)
        {
            Assert.That(length, Is.InRange(1, BufferLength));
            Flushes++;
            if (Fail)
                return false;
            _sent.AddRange(new ReadOnlySpan<byte>(_buffer, length).ToArray());
            return true;
        }

        public void Dispose() => NativeMemory.Free(_buffer);
    }

    private delegate void Write(ref RespWriter writer);

    private static string Render(int bufferLength, Write write, bool resp3 = false)
    {
        using var sink = new RecordingSink(bufferLength);
        var writer = new RespWriter { Resp3 = resp3 };
        writer.Attach(sink);
        write(ref writer);
        Assert.That(writer.Flush(), Is.True);
        Assert.That(writer.Pending, Is.Zero);
        return sink.Sent;
    }

    [Test]
    public void SimpleReplies()
    {
        Assert.That(Render(64, (ref RespWriter w) => w.WriteOk()), Is.EqualTo("+OK\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteSimpleString("PONG"u8)), Is.EqualTo("+PONG\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteError("ERR syntax error"u8)), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteInteger(long.MinValue)), Is.EqualTo(":-9223372036854775808\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteBulk("abc"u8)), Is.EqualTo("$3\r\nabc\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteBulk(ReadOnlySpan<byte>.Empty)), Is.EqualTo("$0\r\n\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteBulk("h\u00e9")), Is.EqualTo("$3\r\nh\u00c3\u00a9\r\n"), "text is sent as UTF-8");
        Assert.That(Render(64, (ref RespWriter w) => w.WriteBulkInteger(-12)), Is.EqualTo("$3\r\n-12\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteArrayHeader(3)), Is.EqualTo("*3\r\n"));
    }

    [Test]
    public void Resp2AndResp3Encodings()
    {
        Assert.That(Render(64, (ref RespWriter w) => w.WriteNull()), Is.EqualTo("$-1\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteNull(), resp3: true), Is.EqualTo("_\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteNullArray()), Is.EqualTo("*-1\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteMapHeader(2)), Is.EqualTo("*4\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteMapHeader(2), resp3: true), Is.EqualTo("%2\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteSetHeader(2), resp3: true), Is.EqualTo("~2\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WritePushHeader(2), resp3: true), Is.EqualTo(">2\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteBoolean(true)), Is.EqualTo(":1\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteBoolean(false), resp3: true), Is.EqualTo("#f\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteDouble(1.5)), Is.EqualTo("$3\r\n1.5\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteDouble(double.NegativeInfinity), resp3: true), Is.EqualTo(",-inf\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteVerbatim("hi"u8), resp3: true), Is.EqualTo("=6\r\ntxt:hi\r\n"));
        Assert.That(Render(64, (ref RespWriter w) => w.WriteVerbatim("hi"u8)), Is.EqualTo("$2\r\nhi\r\n"));
    }

    [Test]
    public void ErrorsFromTextHaveNoNewlines()
    {
        Assert.That(Render(64, (ref RespWriter w) => w.WriteError("ERR bad\r\ninput")), Is.EqualTo("-ERR bad  input\r\n"));
        string longMessage = "ERR " + new string('x', 400) + "\n";
        Assert.That(Render(64, (ref RespWriter w) => w.WriteError(longMessage)), Is.EqualTo("-ERR " + new string('x', 400) + " \r\n"));
    }

    [Test]
    public void ABulkLargerThanTheBufferIsSplitAcrossFlushes()
    {
        var value = new byte[1000];
        for (int i = 0; i < value.Length; i++)
            value[i] = (byte)i;
        using var sink = new RecordingSink(32);
        var writer = new RespWriter();
        writer.Attach(sink);
        writer.WriteBulk(value);
        writer.Flush();
        Assert.That(sink.Sent, Is.EqualTo("$1000\r\n" + Encoding.Latin1.GetString(value) + "\r\n"));
        Assert.That(sink.Flushes, Is.GreaterThanOrEqualTo(1000 / 32));
    }

    [Test]
    public void EveryBoundaryPosition()
    {
        // The same sequence of replies rendered with every offset of the buffer boundary.
        Write sequence = (ref RespWriter w) =>
        {
            w.WriteArrayHeader(4);
            w.WriteInteger(1234567890123);
            w.WriteBulk("hello world, this is a bulk string"u8);
            w.WriteNull();
            w.WriteError("ERR something"u8);
            w.WriteSimpleString("OK"u8);
            w.WriteDouble(-0.25);
        };
        string expected = Render(4096, sequence);
        Assert.That(expected, Is.EqualTo("*4\r\n:1234567890123\r\n$34\r\nhello world, this is a bulk string\r\n$-1\r\n-ERR something\r\n+OK\r\n$5\r\n-0.25\r\n"));
        for (int length = 24; length <= 80; length++)
            Assert.That(Render(length, sequence), Is.EqualTo(expected), $"buffer of {length} bytes");
    }

    [Test]
    public void ManySmallRepliesFillAndFlush()
    {
        var expected = new StringBuilder();
        string rendered = Render(40, (ref RespWriter w) =>
        {
            for (int i = 0; i < 1000; i++)
                w.WriteInteger(i);
        });
        for (int i = 0; i < 1000; i++)
            expected.Append(':').Append(i).Append("\r\n");
        Assert.That(rendered, Is.EqualTo(expected.ToString()));
    }

    [Test]
    public void AFailedFlushMakesTheWriterUnhealthy()
    {
        using var sink = new RecordingSink(32);
        var writer = new RespWriter();
        writer.Attach(sink);
        Assert.That(writer.Healthy, Is.True);
        sink.Fail = true;
        writer.WriteBulk(new byte[100]);
        Assert.That(writer.Healthy, Is.False);
        Assert.That(writer.Flush(), Is.False);
    }

    [Test]
    public void FlushWithNothingPendingSendsNothing()
    {
        using var sink = new RecordingSink(32);
        var writer = new RespWriter();
        writer.Attach(sink);
        Assert.That(writer.Flush(), Is.True);
        Assert.That(sink.Flushes, Is.Zero);
        Assert.That(new RespWriter().Flush(), Is.False, "an unattached writer has nowhere to send");
    }
}
