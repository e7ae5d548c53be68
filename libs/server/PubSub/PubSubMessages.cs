using System;
using System.Buffers.Text;

namespace Garnet.server;

/// <summary>
/// Encodes the messages a subscriber receives. They are encoded once per publish as RESP2 arrays
/// ('*'); a RESP3 subscriber gets the same bytes with the first one turned into the push type ('>')
/// as they are written out (see <see cref="RespServerSession"/>'s delivery).
/// </summary>
internal static class PubSubMessages
{
    /// <summary><c>*3 $7 message $channel $message</c>.</summary>
    public static byte[] Message(ReadOnlySpan<byte> channel, ReadOnlySpan<byte> message) => KindMessage("message"u8, channel, message);

    /// <summary><c>*3 $8 smessage $channel $message</c> (sharded pub/sub).</summary>
    public static byte[] ShardMessage(ReadOnlySpan<byte> channel, ReadOnlySpan<byte> message) => KindMessage("smessage"u8, channel, message);

    private static byte[] KindMessage(ReadOnlySpan<byte> kind, ReadOnlySpan<byte> channel, ReadOnlySpan<byte> message)
    {
        int length = 4 + BulkLength(kind.Length) + BulkLength(channel.Length) + BulkLength(message.Length);
        var bytes = new byte[length];
        var span = bytes.AsSpan();
        int at = WriteHeader(span, (byte)'3');
        at = WriteBulk(span, at, kind);
        at = WriteBulk(span, at, channel);
        WriteBulk(span, at, message);
        return bytes;
    }

    /// <summary><c>*4 $8 pmessage $pattern $channel $message</c>.</summary>
    public static byte[] PatternMessage(ReadOnlySpan<byte> pattern, ReadOnlySpan<byte> channel, ReadOnlySpan<byte> message)
    {
        int length = 4 + BulkLength("pmessage"u8.Length) + BulkLength(pattern.Length) + BulkLength(channel.Length) + BulkLength(message.Length);
        var bytes = new byte[length];
        var span = bytes.AsSpan();
        int at = WriteHeader(span, (byte)'4');
        at = WriteBulk(span, at, "pmessage"u8);
        at = WriteBulk(span, at, pattern);
        at = WriteBulk(span, at, channel);
        WriteBulk(span, at, message);
        return bytes;
    }

    private static int WriteHeader(Span<byte> span, byte count)
    {
        span[0] = (byte)'*';
        span[1] = count;
        span[2] = (byte)'\r';
        span[3] = (byte)'\n';
        return 4;
    }

    /// <summary>Bytes of <c>$n\r\n...\r\n</c> for <paramref name="n"/> bytes of content.</summary>
    private static int BulkLength(int n) => 1 + Digits(n) + 2 + n + 2;

    private static int Digits(int n)
    {
        int digits = 1;
        while (n >= 10)
        {
            n /= 10;
            digits++;
        }
        return digits;
    }

    private static int WriteBulk(Span<byte> span, int at, ReadOnlySpan<byte> value)
    {
        span[at++] = (byte)'$';
        Utf8Formatter.TryFormat(value.Length, span.Slice(at), out int written);
        at += written;
        span[at++] = (byte)'\r';
        span[at++] = (byte)'\n';
        value.CopyTo(span.Slice(at));
        at += value.Length;
        span[at++] = (byte)'\r';
        span[at++] = (byte)'\n';
        return at;
    }
}
