using System;

namespace Garnet.server;

/// <summary>What a BITFIELD subcommand does.</summary>
internal enum BitFieldKind : byte
{
    Get,
    Set,
    IncrBy,
}

/// <summary>BITFIELD's OVERFLOW behaviour for the SET and INCRBY that follow it.</summary>
internal enum BitFieldOverflow : byte
{
    Wrap,
    Sat,
    Fail,
}

/// <summary>
/// One parsed BITFIELD subcommand. The session lays these out in a buffer it owns and passes them to
/// the engine callbacks through <see cref="StringInput.Value"/>, so the RMW applies them all at once.
/// </summary>
internal struct BitFieldOp
{
    public long Offset;
    public long Argument;
    public BitFieldKind Kind;
    public BitFieldOverflow Overflow;
    public bool Signed;
    public byte Bits;

    /// <summary>
    /// Runs the subcommand on <paramref name="value"/> (long enough for every write) and returns its
    /// reply: the old value for SET, the new one for INCRBY and GET; false for nil (OVERFLOW FAIL).
    /// </summary>
    public readonly bool Apply(Span<byte> value, out long result)
    {
        if (Kind == BitFieldKind.Get)
        {
            result = Read(value);
            return true;
        }
        long old = Read(value);
        bool overflowed;
        ulong stored;
        if (Signed)
        {
            long current = Kind == BitFieldKind.Set ? Argument : old;
            long increment = Kind == BitFieldKind.Set ? 0 : Argument;
            overflowed = SignedOverflow(current, increment, Bits, Overflow, out long limited);
            stored = (ulong)(overflowed ? limited : current + increment);
            result = Kind == BitFieldKind.Set ? old : (long)stored;
        }
        else
        {
            ulong current = Kind == BitFieldKind.Set ? (ulong)Argument : (ulong)old;
            long increment = Kind == BitFieldKind.Set ? 0 : Argument;
            overflowed = UnsignedOverflow(current, increment, Bits, Overflow, out ulong limited);
            stored = overflowed ? limited : current + (ulong)increment;
            result = Kind == BitFieldKind.Set ? old : (long)stored;
        }
        if (overflowed && Overflow == BitFieldOverflow.Fail)
        {
            result = 0;
            return false;
        }
        BitmapBits.SetField(value, Offset, Bits, stored);
        return true;
    }

    /// <summary>Reads the field as the subcommand's type.</summary>
    public readonly long Read(ReadOnlySpan<byte> value)
        => Signed ? BitmapBits.GetSigned(value, Offset, Bits) : (long)BitmapBits.GetUnsigned(value, Offset, Bits);

    /// <summary>Redis's checkUnsignedBitfieldOverflow: whether value + increment leaves [0, 2^bits - 1], and the wrapped or saturated result.</summary>
    private static bool UnsignedOverflow(ulong value, long increment, int bits, BitFieldOverflow mode, out ulong limited)
    {
        ulong max = bits == 64 ? ulong.MaxValue : (1UL << bits) - 1;
        long maxIncrement = (long)(max - value);
        long minIncrement = -(long)value;
        limited = 0;
        bool high = value > max || (increment > 0 && increment > maxIncrement);
        bool low = !high && increment < 0 && increment < minIncrement;
        if (!high && !low)
            return false;
        if (mode == BitFieldOverflow.Wrap)
        {
            ulong sum = unchecked(value + (ulong)increment);
            limited = bits == 64 ? sum : sum & max;
        }
        else if (mode == BitFieldOverflow.Sat)
        {
            limited = high ? max : 0;
        }
        return true;
    }

    /// <summary>Redis's checkSignedBitfieldOverflow: whether value + increment leaves [-2^(bits-1), 2^(bits-1) - 1].</summary>
    private static bool SignedOverflow(long value, long increment, int bits, BitFieldOverflow mode, out long limited)
    {
        long max = bits == 64 ? long.MaxValue : (1L << (bits - 1)) - 1;
        long min = -max - 1;
        long maxIncrement = unchecked((long)((ulong)max - (ulong)value));
        long minIncrement = unchecked(min - value);
        limited = 0;
        bool high = value > max || (bits != 64 && increment > maxIncrement) || (value >= 0 && increment > 0 && increment > maxIncrement);
        bool low = !high && (value < min || (bits != 64 && increment < minIncrement) || (value < 0 && increment < 0 && increment < minIncrement));
        if (!high && !low)
            return false;
        if (mode == BitFieldOverflow.Wrap)
        {
            ulong sum = unchecked((ulong)value + (ulong)increment);
            if (bits < 64)
            {
                ulong mask = ulong.MaxValue << bits;
                sum = (sum & (1UL << (bits - 1))) != 0 ? sum | mask : sum & ~mask;
            }
            limited = (long)sum;
        }
        else if (mode == BitFieldOverflow.Sat)
        {
            limited = high ? max : min;
        }
        return true;
    }
}
