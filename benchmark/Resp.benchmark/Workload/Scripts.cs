using System;
using System.Security.Cryptography;

namespace Resp.benchmark;

/// <summary>The Lua scripts the scripting operations run, and their SHA1 digests as EVALSHA names them.</summary>
public static class Scripts
{
    /// <summary>
    /// The script of <see cref="OpType.EVALSHA3"/>: three redis.call's over two keys, both written,
    /// so a server has to lock (or otherwise isolate) two keys per script. ARGV[1] is an integer, so
    /// a key that was the SET target can later be INCR's target.
    /// </summary>
    public static ReadOnlySpan<byte> ThreeCalls =>
        "redis.call('INCR', KEYS[1]) redis.call('SET', KEYS[2], ARGV[1]) return redis.call('GET', KEYS[2])"u8;

    /// <summary>The lowercase hex SHA1 of <paramref name="script"/>: the name SCRIPT LOAD returns and EVALSHA takes.</summary>
    public static byte[] Sha1Hex(ReadOnlySpan<byte> script)
    {
        Span<byte> digest = stackalloc byte[SHA1.HashSizeInBytes];
        SHA1.HashData(script, digest);
        var hex = new byte[digest.Length * 2];
        for (int i = 0; i < digest.Length; i++)
        {
            hex[2 * i] = (byte)"0123456789abcdef"[digest[i] >> 4];
            hex[(2 * i) + 1] = (byte)"0123456789abcdef"[digest[i] & 15];
        }
        return hex;
    }
}
