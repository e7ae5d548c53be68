using System;
using System.Buffers.Text;

namespace Garnet.server;

/// <summary>
/// A stream entry ID: milliseconds and a sequence number, both unsigned 64-bit, ordered by milliseconds then
/// sequence. Written as "ms-seq"; 0-0 is never an entry's ID.
/// </summary>
public readonly struct StreamId : IComparable<StreamId>, IEquatable<StreamId>
{
    /// <summary>Longest text form: two 20-digit numbers and the dash.</summary>
    public const int MaxTextLength = 41;

    public readonly ulong Ms;
    public readonly ulong Seq;

    public StreamId(ulong ms, ulong seq)
    {
        Ms = ms;
        Seq = seq;
    }

    public static StreamId Min => default;

    public static StreamId Max => new(ulong.MaxValue, ulong.MaxValue);

    public bool IsZero => Ms == 0 && Seq == 0;

    public int CompareTo(StreamId other) => Ms != other.Ms ? Ms.CompareTo(other.Ms) : Seq.CompareTo(other.Seq);

    public bool Equals(StreamId other) => Ms == other.Ms && Seq == other.Seq;

    public override bool Equals(object? obj) => obj is StreamId other && Equals(other);

    public override int GetHashCode() => HashCode.Combine(Ms, Seq);

    public static bool operator <(StreamId a, StreamId b) => a.CompareTo(b) < 0;

    public static bool operator >(StreamId a, StreamId b) => a.CompareTo(b) > 0;

    public static bool operator <=(StreamId a, StreamId b) => a.CompareTo(b) <= 0;

    public static bool operator >=(StreamId a, StreamId b) => a.CompareTo(b) >= 0;

    public static bool operator ==(StreamId a, StreamId b) => a.Equals(b);

    public static bool operator !=(StreamId a, StreamId b) => !a.Equals(b);

    /// <summary>The next ID in order; false at <see cref="Max"/>.</summary>
    public bool TryIncrement(out StreamId next)
    {
        if (Seq != ulong.MaxValue)
            next = new StreamId(Ms, Seq + 1);
        else if (Ms != ulong.MaxValue)
            next = new StreamId(Ms + 1, 0);
        else
        {
            next = this;
            return false;
        }
        return true;
    }

    /// <summary>The previous ID in order; false at 0-0.</summary>
    public bool TryDecrement(out StreamId previous)
    {
        if (Seq != 0)
            previous = new StreamId(Ms, Seq - 1);
        else if (Ms != 0)
            previous = new StreamId(Ms - 1, ulong.MaxValue);
        else
        {
            previous = this;
            return false;
        }
        return true;
    }

    /// <summary>Writes "ms-seq" to <paramref name="destination"/> (at least <see cref="MaxTextLength"/> bytes); returns the length.</summary>
    public int Format(Span<byte> destination)
    {
        Utf8Formatter.TryFormat(Ms, destination, out int length);
        destination[length++] = (byte)'-';
        Utf8Formatter.TryFormat(Seq, destination.Slice(length), out int seqLength);
        return length + seqLength;
    }

    public override string ToString()
    {
        Span<byte> text = stackalloc byte[MaxTextLength];
        return System.Text.Encoding.ASCII.GetString(text.Slice(0, Format(text)));
    }

    /// <summary>
    /// An unsigned decimal as Redis reads one here (strtoull over the whole text): optional '+', then digits,
    /// at most 20 characters and within 64 bits.
    /// </summary>
    public static bool TryParseNumber(ReadOnlySpan<byte> text, out ulong value)
    {
        value = 0;
        if (text.Length > 0 && text[0] == '+')
            text = text.Slice(1);
        if (text.Length == 0 || text.Length > 20)
            return false;
        foreach (byte c in text)
        {
            uint digit = (uint)(c - '0');
            if (digit > 9)
                return false;
            if (value > (ulong.MaxValue - digit) / 10)
                return false;
            value = value * 10 + digit;
        }
        return true;
    }

    /// <summary>
    /// An ID argument of a range or read: "-" (0-0), "+" (the largest), "ms-seq", or "ms" with the sequence
    /// <paramref name="missingSeq"/> (0 for a start, the largest for an end).
    /// </summary>
    public static bool TryParse(ReadOnlySpan<byte> text, ulong missingSeq, out StreamId id)
    {
        id = default;
        if (text.Length == 1)
        {
            if (text[0] == '-')
                return true;
            if (text[0] == '+')
            {
                id = Max;
                return true;
            }
        }
        return TryParseStrict(text, missingSeq, out id, out bool autoSeq) && !autoSeq;
    }

    /// <summary>
    /// An explicit ID ("ms-seq", "ms", or "ms-*" when <paramref name="autoSeq"/> is allowed by the caller): no "-" or "+".
    /// </summary>
    public static bool TryParseStrict(ReadOnlySpan<byte> text, ulong missingSeq, out StreamId id, out bool autoSeq)
    {
        id = default;
        autoSeq = false;
        int dash = text.IndexOf((byte)'-');
        if (dash < 0)
        {
            if (!TryParseNumber(text, out ulong onlyMs))
                return false;
            id = new StreamId(onlyMs, missingSeq);
            return true;
        }
        if (!TryParseNumber(text.Slice(0, dash), out ulong ms))
            return false;
        var seqText = text.Slice(dash + 1);
        if (seqText.Length == 1 && seqText[0] == '*')
        {
            autoSeq = true;
            id = new StreamId(ms, 0);
            return true;
        }
        if (!TryParseNumber(seqText, out ulong seq))
            return false;
        id = new StreamId(ms, seq);
        return true;
    }
}
