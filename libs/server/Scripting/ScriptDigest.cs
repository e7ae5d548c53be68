using System;
using System.Buffers.Binary;
using System.Security.Cryptography;

namespace Garnet.server.Scripting;

/// <summary>A script's SHA1 digest as a value (no string per EVAL), printed as 40 lower-case hex digits.</summary>
internal readonly struct ScriptDigest : IEquatable<ScriptDigest>
{
    private readonly ulong _a;
    private readonly ulong _b;
    private readonly uint _c;

    private ScriptDigest(ReadOnlySpan<byte> hash)
    {
        _a = BinaryPrimitives.ReadUInt64BigEndian(hash);
        _b = BinaryPrimitives.ReadUInt64BigEndian(hash.Slice(8));
        _c = BinaryPrimitives.ReadUInt32BigEndian(hash.Slice(16));
    }

    /// <summary>The digest of <paramref name="body"/>.</summary>
    public static ScriptDigest Of(ReadOnlySpan<byte> body)
    {
        Span<byte> hash = stackalloc byte[20];
        SHA1.HashData(body, hash);
        return new ScriptDigest(hash);
    }

    /// <summary>Length of a digest's text (40 hex digits).</summary>
    public const int HexLength = 40;

    /// <summary>Parses 40 hex digits in any case (EVALSHA, SCRIPT EXISTS).</summary>
    public static bool TryParse(ReadOnlySpan<byte> hex, out ScriptDigest digest)
    {
        digest = default;
        if (hex.Length != HexLength)
            return false;
        var values = HexValues;
        Span<byte> hash = stackalloc byte[20];
        int invalid = 0;
        for (int i = 0; i < 20; i++)
        {
            int high = values[hex[2 * i]];
            int low = values[hex[2 * i + 1]];
            invalid |= high | low;
            hash[i] = (byte)((high << 4) | low);
        }
        if ((invalid & 0x80) != 0)
            return false;
        digest = new ScriptDigest(hash);
        return true;
    }

    /// <summary>The value of each byte as a hex digit, 0xFF for a byte that is not one.</summary>
    private static ReadOnlySpan<byte> HexValues =>
    [
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 255, 255, 255, 255, 255, 255,
        255, 10, 11, 12, 13, 14, 15, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 10, 11, 12, 13, 14, 15, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    ];

    /// <summary>Writes the 40 lower-case hex digits into <paramref name="destination"/>.</summary>
    public void Format(Span<byte> destination)
    {
        Span<byte> hash = stackalloc byte[20];
        BinaryPrimitives.WriteUInt64BigEndian(hash, _a);
        BinaryPrimitives.WriteUInt64BigEndian(hash.Slice(8), _b);
        BinaryPrimitives.WriteUInt32BigEndian(hash.Slice(16), _c);
        const string Digits = "0123456789abcdef";
        for (int i = 0; i < 20; i++)
        {
            destination[2 * i] = (byte)Digits[hash[i] >> 4];
            destination[2 * i + 1] = (byte)Digits[hash[i] & 15];
        }
    }

    public override string ToString()
    {
        Span<byte> text = stackalloc byte[40];
        Format(text);
        return System.Text.Encoding.ASCII.GetString(text);
    }

    public bool Equals(ScriptDigest other) => _a == other._a && _b == other._b && _c == other._c;

    public override bool Equals(object? obj) => obj is ScriptDigest other && Equals(other);

    // The bits of a SHA1 are uniformly spread already.
    public override int GetHashCode() => (int)_a;
}
