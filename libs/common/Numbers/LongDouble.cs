using System;
using System.Numerics;

namespace Garnet.common;

/// <summary>
/// A software x87 80-bit extended-precision float (C's <c>long double</c> on x86-64, where Redis
/// runs): a 64-bit significand and a 15-bit exponent, rounding to nearest, ties to even. INCRBYFLOAT
/// and HINCRBYFLOAT compute in this type and print it with <c>"%.17Lf"</c>, so replies such as
/// <c>1000.09999999999999998</c> and the range of accepted values (up to about 1.19e4932) match Redis
/// exactly. Parsing and formatting are exact (big-integer arithmetic), like glibc's strtold and printf.
/// </summary>
public readonly struct LongDouble : IEquatable<LongDouble>
{
    /// <summary>Longest text <see cref="FormatHuman"/> produces (Redis's MAX_LONG_DOUBLE_CHARS).</summary>
    public const int MaxHumanLength = 5 * 1024;

    /// <summary>Longest text Redis accepts as a long double (shorter than its 5 KB buffer).</summary>
    private const int MaxParseLength = 5 * 1024 - 1;

    /// <summary>Exponent of the least significant bit of the smallest subnormal: 2^-16445.</summary>
    private const int MinExponent = -16445;

    /// <summary>Largest exponent of the leading bit: values reach 2^16384 (exclusive).</summary>
    private const int MaxLeadingExponent = 16383;

    private enum Kind : byte
    {
        Finite,
        Infinity,
        NaN,
    }

    // Value = (Negative ? -1 : 1) * Significand * 2^Exponent; a zero has Significand 0.
    private readonly ulong _significand;
    private readonly int _exponent;
    private readonly bool _negative;
    private readonly Kind _kind;

    private LongDouble(bool negative, ulong significand, int exponent, Kind kind)
    {
        _negative = negative;
        _significand = significand;
        _exponent = exponent;
        _kind = kind;
    }

    /// <summary>Positive zero.</summary>
    public static LongDouble Zero => default;

    /// <summary>Positive infinity.</summary>
    public static LongDouble PositiveInfinity => new(false, 0, 0, Kind.Infinity);

    /// <summary>Negative infinity.</summary>
    public static LongDouble NegativeInfinity => new(true, 0, 0, Kind.Infinity);

    /// <summary>Not a number.</summary>
    public static LongDouble NaN => new(false, 0, 0, Kind.NaN);

    /// <summary>Whether the value is neither infinite nor NaN.</summary>
    public bool IsFinite => _kind == Kind.Finite;

    /// <summary>Whether the value is NaN.</summary>
    public bool IsNaN => _kind == Kind.NaN;

    /// <summary>Whether the value is positive or negative infinity.</summary>
    public bool IsInfinity => _kind == Kind.Infinity;

    /// <summary>Whether the value is a zero of either sign.</summary>
    public bool IsZero => _kind == Kind.Finite && _significand == 0;

    /// <summary>Whether the sign bit is set (negative numbers, -0, -inf).</summary>
    public bool IsNegative => _negative;

    /// <summary>The exact value of <paramref name="value"/> (every double is a long double).</summary>
    public static LongDouble FromDouble(double value)
    {
        if (double.IsNaN(value))
            return NaN;
        if (double.IsInfinity(value))
            return value > 0 ? PositiveInfinity : NegativeInfinity;
        long bits = BitConverter.DoubleToInt64Bits(value);
        bool negative = bits < 0;
        int biased = (int)((bits >> 52) & 0x7FF);
        ulong fraction = (ulong)bits & 0xF_FFFF_FFFF_FFFFUL;
        if (biased == 0)
            return fraction == 0 ? new LongDouble(negative, 0, 0, Kind.Finite) : Normalize(negative, fraction, -1074);
        return Normalize(negative, fraction | (1UL << 52), biased - 1075);
    }

    /// <summary>The value of a 64-bit integer (exact: the significand has 64 bits).</summary>
    public static LongDouble FromLong(long value)
    {
        if (value == 0)
            return Zero;
        bool negative = value < 0;
        ulong magnitude = negative ? (ulong)(-(value + 1)) + 1 : (ulong)value;
        return Normalize(negative, magnitude, 0);
    }

    private static LongDouble Normalize(bool negative, ulong significand, int exponent)
    {
        int shift = BitOperations.LeadingZeroCount(significand);
        int lowest = Math.Max(exponent - shift, MinExponent);
        return new LongDouble(negative, significand << (exponent - lowest), lowest, Kind.Finite);
    }

    /// <summary>
    /// Rounds <paramref name="magnitude"/> * 2^<paramref name="exponent"/> (plus a fraction below its
    /// last bit when <paramref name="sticky"/>) to 64 significant bits, or to the subnormal grid.
    /// </summary>
    private static LongDouble Round(bool negative, BigInteger magnitude, int exponent, bool sticky)
    {
        if (magnitude.IsZero)
            return new LongDouble(negative, 0, 0, Kind.Finite);
        long leading = exponent + (long)magnitude.GetBitLength() - 1;
        long lowest = Math.Max(leading - 63, MinExponent);
        long shift = lowest - exponent;
        BigInteger significand;
        if (shift <= 0)
        {
            significand = magnitude << (int)-shift;
        }
        else
        {
            significand = magnitude >> (int)shift;
            var remainder = magnitude - (significand << (int)shift);
            var half = BigInteger.One << (int)(shift - 1);
            int compare = remainder.CompareTo(half);
            if (compare > 0 || (compare == 0 && (sticky || !significand.IsEven)))
                significand += 1;
        }
        if (significand.GetBitLength() > 64)
        {
            significand >>= 1;
            lowest++;
        }
        if (significand.IsZero)
            return new LongDouble(negative, 0, 0, Kind.Finite);
        if (lowest + (long)significand.GetBitLength() - 1 > MaxLeadingExponent)
            return negative ? NegativeInfinity : PositiveInfinity;
        return new LongDouble(negative, (ulong)significand, (int)lowest, Kind.Finite);
    }

    /// <summary>The sum, rounded once, as the x87 unit computes it (inf + -inf is NaN).</summary>
    public static LongDouble operator +(LongDouble a, LongDouble b)
    {
        if (a._kind == Kind.NaN || b._kind == Kind.NaN)
            return NaN;
        if (a._kind == Kind.Infinity || b._kind == Kind.Infinity)
        {
            if (a._kind == Kind.Infinity && b._kind == Kind.Infinity && a._negative != b._negative)
                return NaN;
            return a._kind == Kind.Infinity ? a : b;
        }
        if (a._significand == 0)
            return b._significand == 0 ? new LongDouble(a._negative && b._negative, 0, 0, Kind.Finite) : b;
        if (b._significand == 0)
            return a;

        // An addend more than 130 bits below the other's last bit cannot change its rounding.
        if (a._exponent - b._exponent > 130)
            return a;
        if (b._exponent - a._exponent > 130)
            return b;
        int exponent = Math.Min(a._exponent, b._exponent);
        var x = new BigInteger(a._significand) << (a._exponent - exponent);
        var y = new BigInteger(b._significand) << (b._exponent - exponent);
        var sum = (a._negative ? -x : x) + (b._negative ? -y : y);
        if (sum.IsZero)
            return Zero; // exact cancellation gives +0 when rounding to nearest
        return Round(sum.Sign < 0, BigInteger.Abs(sum), exponent, sticky: false);
    }

    /// <summary>The negation.</summary>
    public static LongDouble operator -(LongDouble value) => new(!value._negative, value._significand, value._exponent, value._kind);

    /// <summary>
    /// Parses text as Redis's string2ld does with glibc's strtold: the whole text must be a decimal
    /// or hexadecimal ("0x1.8p3") float or "inf"/"infinity" (any case, optional sign); no leading
    /// space; NaN, overflow to infinity and underflow to zero are refused; at most 5119 bytes.
    /// </summary>
    public static bool TryParse(ReadOnlySpan<byte> text, out LongDouble value)
    {
        value = Zero;
        if (text.Length == 0 || text.Length > MaxParseLength)
            return false;
        int i = 0;
        bool negative = false;
        if (text[0] == '+' || text[0] == '-')
        {
            negative = text[0] == '-';
            i = 1;
        }
        var rest = text.Slice(i);
        if (rest.Length == 3 && System.Text.Ascii.EqualsIgnoreCase(rest, "inf"u8)
            || rest.Length == 8 && System.Text.Ascii.EqualsIgnoreCase(rest, "infinity"u8))
        {
            value = negative ? NegativeInfinity : PositiveInfinity;
            return true;
        }
        bool ok = rest.Length > 2 && rest[0] == '0' && (rest[1] | 0x20) == 'x'
            ? TryParseHex(rest.Slice(2), negative, out value)
            : TryParseDecimal(rest, negative, out value);
        // strtold reports overflow (HUGE_VAL) and underflow to zero as ERANGE, which Redis refuses.
        if (!ok || value.IsInfinity)
            return false;
        return true;
    }

    private static bool TryParseDecimal(ReadOnlySpan<byte> text, bool negative, out LongDouble value)
    {
        value = Zero;
        int i = 0;
        var digits = BigInteger.Zero;
        int digitCount = 0;
        long decimalExponent = 0;
        bool seenPoint = false;
        bool anyNonZero = false;
        // Accumulate digits in 18-digit chunks to keep big-integer work small.
        ulong chunk = 0;
        int chunkDigits = 0;
        for (; i < text.Length; i++)
        {
            byte c = text[i];
            if (c == '.')
            {
                if (seenPoint)
                    return false;
                seenPoint = true;
                continue;
            }
            if (c < '0' || c > '9')
                break;
            digitCount++;
            if (seenPoint)
                decimalExponent--;
            if (c != '0')
                anyNonZero = true;
            chunk = chunk * 10 + (ulong)(c - '0');
            if (++chunkDigits == 18)
            {
                digits = digits * 1_000_000_000_000_000_000UL + chunk;
                chunk = 0;
                chunkDigits = 0;
            }
        }
        if (digitCount == 0)
            return false;
        if (chunkDigits > 0)
            digits = digits * BigInteger.Pow(10, chunkDigits) + chunk;
        if (i < text.Length)
        {
            if ((text[i] | 0x20) != 'e' || !TryParseExponent(text.Slice(i + 1), out long exponent))
                return false;
            decimalExponent += exponent;
        }
        if (!anyNonZero)
        {
            value = new LongDouble(negative, 0, 0, Kind.Finite);
            return true;
        }

        // Quick range checks: the value lies in [10^(magnitude-1), 10^magnitude).
        long magnitude = (long)BigInteger.Log10(digits) + 1 + decimalExponent;
        if (magnitude > 4934)
        {
            value = negative ? NegativeInfinity : PositiveInfinity;
            return true;
        }
        if (magnitude < -4953)
            return false; // underflows to zero

        if (decimalExponent >= 0)
        {
            value = Round(negative, digits * BigInteger.Pow(10, (int)decimalExponent), 0, sticky: false);
        }
        else
        {
            var divisor = BigInteger.Pow(10, (int)-decimalExponent);
            // Enough quotient bits for 64 significant bits plus rounding, wherever the value lies.
            long scale = Math.Max(0, 66 + (long)divisor.GetBitLength() - (long)digits.GetBitLength());
            var quotient = BigInteger.DivRem(digits << (int)scale, divisor, out var remainder);
            value = Round(negative, quotient, (int)-scale, sticky: !remainder.IsZero);
        }
        return !value.IsZero;
    }

    private static bool TryParseHex(ReadOnlySpan<byte> text, bool negative, out LongDouble value)
    {
        value = Zero;
        var digits = BigInteger.Zero;
        int digitCount = 0;
        long binaryExponent = 0;
        bool seenPoint = false;
        int i = 0;
        for (; i < text.Length; i++)
        {
            byte c = text[i];
            if (c == '.')
            {
                if (seenPoint)
                    return false;
                seenPoint = true;
                continue;
            }
            int digit = HexDigit(c);
            if (digit < 0)
                break;
            digitCount++;
            if (seenPoint)
                binaryExponent -= 4;
            digits = (digits << 4) + digit;
        }
        if (digitCount == 0)
            return false;
        if (i < text.Length)
        {
            if ((text[i] | 0x20) != 'p' || !TryParseExponent(text.Slice(i + 1), out long exponent))
                return false;
            binaryExponent += exponent;
        }
        if (digits.IsZero)
        {
            value = new LongDouble(negative, 0, 0, Kind.Finite);
            return true;
        }
        long leading = binaryExponent + (long)digits.GetBitLength() - 1;
        if (leading > MaxLeadingExponent + 1)
        {
            value = negative ? NegativeInfinity : PositiveInfinity;
            return true;
        }
        if (leading < MinExponent - 2)
            return false;
        // Keep only the bits that can matter for rounding, folding the rest into the sticky flag.
        long excess = (long)digits.GetBitLength() - 70;
        bool sticky = false;
        if (excess > 0)
        {
            var kept = digits >> (int)excess;
            sticky = !(digits - (kept << (int)excess)).IsZero;
            digits = kept;
            binaryExponent += excess;
        }
        value = Round(negative, digits, (int)binaryExponent, sticky);
        return !value.IsZero;
    }

    private static int HexDigit(byte c)
    {
        if (c >= '0' && c <= '9')
            return c - '0';
        int lower = c | 0x20;
        return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
    }

    /// <summary>An exponent: optional sign and at least one digit, saturating far beyond any finite range.</summary>
    private static bool TryParseExponent(ReadOnlySpan<byte> text, out long exponent)
    {
        exponent = 0;
        int i = 0;
        bool negative = false;
        if (i < text.Length && (text[i] == '+' || text[i] == '-'))
        {
            negative = text[i] == '-';
            i++;
        }
        if (i == text.Length)
            return false;
        for (; i < text.Length; i++)
        {
            uint digit = (uint)(text[i] - '0');
            if (digit > 9)
                return false;
            if (exponent < 1_000_000)
                exponent = exponent * 10 + digit;
        }
        if (negative)
            exponent = -exponent;
        return true;
    }

    /// <summary>
    /// Formats as Redis's human-friendly long double (<c>"%.17Lf"</c>, trailing zeros and point
    /// removed, "-0" as "0"; "inf"/"-inf" for infinities). Returns the length written.
    /// </summary>
    public int FormatHuman(Span<byte> destination)
    {
        string text = ToHumanString();
        for (int i = 0; i < text.Length; i++)
            destination[i] = (byte)text[i];
        return text.Length;
    }

    /// <summary>The text <see cref="FormatHuman"/> writes.</summary>
    public string ToHumanString()
    {
        switch (_kind)
        {
            case Kind.NaN:
                return "nan";
            case Kind.Infinity:
                return _negative ? "-inf" : "inf";
        }
        string fixedText = FormatFixed(17);
        int end = fixedText.Length;
        if (fixedText.Contains('.'))
        {
            while (fixedText[end - 1] == '0')
                end--;
            if (fixedText[end - 1] == '.')
                end--;
        }
        fixedText = fixedText.Substring(0, end);
        return fixedText == "-0" ? "0" : fixedText;
    }

    /// <summary>printf("%.<paramref name="decimals"/>Lf"): exact value rounded half-even to that many decimals.</summary>
    private string FormatFixed(int decimals)
    {
        var scale = BigInteger.Pow(10, decimals);
        BigInteger scaled;
        if (_exponent >= 0)
        {
            scaled = (new BigInteger(_significand) << _exponent) * scale;
        }
        else
        {
            var numerator = new BigInteger(_significand) * scale;
            scaled = numerator >> -_exponent;
            var remainder = numerator - (scaled << -_exponent);
            var half = BigInteger.One << (-_exponent - 1);
            int compare = remainder.CompareTo(half);
            if (compare > 0 || (compare == 0 && !scaled.IsEven))
                scaled += 1;
        }
        var integer = BigInteger.DivRem(scaled, scale, out var fraction);
        string fractionText = fraction.ToString(System.Globalization.CultureInfo.InvariantCulture).PadLeft(decimals, '0');
        return (_negative ? "-" : "") + integer.ToString(System.Globalization.CultureInfo.InvariantCulture) + "." + fractionText;
    }

    /// <inheritdoc/>
    public bool Equals(LongDouble other)
        => _kind == other._kind && _kind != Kind.NaN
           && (_kind == Kind.Infinity ? _negative == other._negative
               : _significand == other._significand && (_significand == 0 || (_negative == other._negative && _exponent == other._exponent)));

    /// <inheritdoc/>
    public override bool Equals(object? obj) => obj is LongDouble other && Equals(other);

    /// <inheritdoc/>
    public override int GetHashCode() => _significand == 0 ? _kind.GetHashCode() : HashCode.Combine(_significand, _exponent, _negative, _kind);

    public static bool operator ==(LongDouble left, LongDouble right) => left.Equals(right);

    public static bool operator !=(LongDouble left, LongDouble right) => !left.Equals(right);

    /// <inheritdoc/>
    public override string ToString() => ToHumanString();
}
