using System;
using System.Buffers.Text;

namespace Resp.benchmark;

/// <summary>
/// Fixed-length keys: key <c>i</c> is <c>i</c> in base 62 (0-9, A-Z, a-z), left-padded with '0' to
/// the key length, so 8-byte keys cover 62^8 distinct keys and every key has the same size.
/// </summary>
public static class KeyFormat
{
    private static ReadOnlySpan<byte> Digits => "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"u8;

    /// <summary>Base-62 digits needed to write every key index below <paramref name="count"/>.</summary>
    public static int DigitsNeeded(long count)
    {
        int digits = 1;
        for (long max = count - 1; max >= 62; max /= 62)
            digits++;
        return digits;
    }

    /// <summary>Writes key <paramref name="index"/> into all of <paramref name="destination"/>.</summary>
    public static void Write(long index, Span<byte> destination)
    {
        for (int i = destination.Length - 1; i >= 0; i--)
        {
            destination[i] = Digits[(int)(index % 62)];
            index /= 62;
        }
    }

    /// <summary>Key <paramref name="index"/> as text (for tests and diagnostics).</summary>
    public static string ToText(long index, int length)
    {
        Span<byte> key = stackalloc byte[length];
        Write(index, key);
        return System.Text.Encoding.ASCII.GetString(key);
    }
}

/// <summary>
/// A growable buffer that requests are encoded into as RESP arrays of bulk strings. Only used to
/// pre-generate batches before the clock starts, so growing it may allocate.
/// </summary>
public sealed class RequestBuffer
{
    private byte[] _data;

    /// <summary>Creates an empty buffer with room for <paramref name="capacity"/> bytes.</summary>
    public RequestBuffer(int capacity = 4096) => _data = new byte[Math.Max(capacity, 16)];

    /// <summary>Bytes written so far.</summary>
    public int Length { get; private set; }

    /// <summary>The bytes written so far.</summary>
    public ReadOnlySpan<byte> Written => _data.AsSpan(0, Length);

    /// <summary>Forgets what was written, keeping the memory.</summary>
    public void Clear() => Length = 0;

    /// <summary>Writes the header of a command with <paramref name="arguments"/> parts (name included).</summary>
    public void ArrayHeader(int arguments)
    {
        Span<byte> span = Reserve(1 + 11 + 2);
        span[0] = (byte)'*';
        Utf8Formatter.TryFormat(arguments, span.Slice(1), out int digits);
        span[1 + digits] = (byte)'\r';
        span[2 + digits] = (byte)'\n';
        Length += 3 + digits;
    }

    /// <summary>Writes a bulk string.</summary>
    public void Bulk(ReadOnlySpan<byte> value)
    {
        Span<byte> payload = BulkPayload(value.Length);
        value.CopyTo(payload);
    }

    /// <summary>Writes an integer as a bulk string.</summary>
    public void Bulk(long value)
    {
        Span<byte> text = stackalloc byte[20];
        Utf8Formatter.TryFormat(value, text, out int digits);
        Bulk(text.Slice(0, digits));
    }

    /// <summary>Writes key <paramref name="index"/> (see <see cref="KeyFormat"/>) as a bulk string.</summary>
    public void Key(long index, int keyLength) => KeyFormat.Write(index, BulkPayload(keyLength));

    /// <summary>Writes a bulk header for <paramref name="length"/> bytes and returns the payload to fill.</summary>
    private Span<byte> BulkPayload(int length)
    {
        Span<byte> span = Reserve(1 + 11 + 2 + length + 2);
        span[0] = (byte)'$';
        Utf8Formatter.TryFormat(length, span.Slice(1), out int digits);
        int payloadStart = 3 + digits;
        span[1 + digits] = (byte)'\r';
        span[2 + digits] = (byte)'\n';
        span[payloadStart + length] = (byte)'\r';
        span[payloadStart + length + 1] = (byte)'\n';
        Length += payloadStart + length + 2;
        return span.Slice(payloadStart, length);
    }

    private Span<byte> Reserve(int bytes)
    {
        if ((long)Length + bytes > _data.Length)
        {
            long wanted = Math.Max((long)_data.Length * 2, (long)Length + bytes);
            if (wanted > Array.MaxLength)
            {
                if ((long)Length + bytes > Array.MaxLength)
                    throw new InvalidOperationException("A request batch exceeds 2 GiB; use a smaller --batchsize or --valuelength.");
                wanted = Array.MaxLength;
            }
            Array.Resize(ref _data, (int)wanted);
        }
        return _data.AsSpan(Length);
    }
}
