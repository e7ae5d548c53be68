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

    /// <summary>Parses 40 hex digits in any case (EVALSHA, SCRIPT EXISTS).</summary>
    public static bool TryParse(ReadOnlySpan<byte> hex, out ScriptDigest digest)
    {
        digest = default;
        if (hex.Length != 40)
            return false;
        Span<byte> hash = stackalloc byte[20];
        for (int i = 0; i < 20; i++)
        {
            int high = HexValue(hex[2 * i]);
            int low = HexValue(hex[2 * i + 1]);
            if (high < 0 || low < 0)
                return false;
            hash[i] = (byte)((high << 4) | low);
        }
        digest = new ScriptDigest(hash);
        return true;
    }

    private static int HexValue(byte c) => c switch
    {
        >= (byte)'0' and <= (byte)'9' => c - '0',
        >= (byte)'a' and <= (byte)'f' => c - 'a' + 10,
        >= (byte)'A' and <= (byte)'F' => c - 'A' + 10,
        _ => -1,
    };

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

    public override int GetHashCode() => HashCode.Combine(_a, _b, _c);
}
