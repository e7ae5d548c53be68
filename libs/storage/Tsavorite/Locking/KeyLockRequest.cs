using System;

namespace Tsavorite;

/// <summary>
/// One key for <see cref="ClientSession{TInput, TOutput, TFunctions}.LockKeys"/>: its hash (from
/// <see cref="KeyHash.Hash"/>) and whether the holder will write it (exclusive) or only read it (shared).
/// </summary>
public readonly struct KeyLockRequest
{
    /// <summary>A request for the key with hash <paramref name="hash"/>.</summary>
    public KeyLockRequest(long hash, bool exclusive)
    {
        Hash = hash;
        Exclusive = exclusive;
    }

    /// <summary>A request for <paramref name="key"/>.</summary>
    public static KeyLockRequest For(ReadOnlySpan<byte> key, bool exclusive) => new(KeyHash.Hash(key), exclusive);

    /// <summary>The key's hash.</summary>
    public long Hash { get; }

    /// <summary>Whether the key is written (exclusive latch) rather than only read (shared latch).</summary>
    public bool Exclusive { get; }
}
