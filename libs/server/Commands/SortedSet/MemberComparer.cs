using System;
using System.Collections.Generic;

namespace Garnet.server;

/// <summary>
/// Compares sorted-set members by content, and (on .NET 9 and later) looks up byte spans against
/// stored arrays without allocating. The hash is per-process randomized (<see cref="HashCode"/>).
/// </summary>
internal sealed class MemberComparer : IEqualityComparer<byte[]>
#if NET9_0_OR_GREATER
    , IAlternateEqualityComparer<ReadOnlySpan<byte>, byte[]>
#endif
{
    public static readonly MemberComparer Instance = new();

    public bool Equals(byte[]? x, byte[]? y) => x.AsSpan().SequenceEqual(y);

    public int GetHashCode(byte[] obj) => Hash(obj);

    private static int Hash(ReadOnlySpan<byte> bytes)
    {
        var hash = new HashCode();
        hash.AddBytes(bytes);
        return hash.ToHashCode();
    }

#if NET9_0_OR_GREATER
    public bool Equals(ReadOnlySpan<byte> alternate, byte[] other) => alternate.SequenceEqual(other);

    public int GetHashCode(ReadOnlySpan<byte> alternate) => Hash(alternate);

    public byte[] Create(ReadOnlySpan<byte> alternate) => alternate.ToArray();
#endif
}
