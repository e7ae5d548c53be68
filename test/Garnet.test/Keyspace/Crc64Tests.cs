using System;
using Garnet.common;
using NUnit.Framework;

namespace Garnet.test.Keyspace;

/// <summary>The CRC-64 of DUMP payloads: Redis's variant (Jones polynomial, reflected, no final XOR).</summary>
public class Crc64Tests
{
    /// <summary>Bit-by-bit reference implementation of the same CRC.</summary>
    private static ulong Reference(ReadOnlySpan<byte> data)
    {
        ulong crc = 0;
        foreach (byte b in data)
        {
            crc ^= b;
            for (int bit = 0; bit < 8; bit++)
                crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x95AC9329AC4BC9B5UL : crc >> 1;
        }
        return crc;
    }

    [Test]
    public void MatchesRedisCheckValue()
    {
        Assert.That(Crc64.Compute("123456789"u8), Is.EqualTo(0xE9C6D914C4B8D9CAUL));
        Assert.That(Crc64.Compute(ReadOnlySpan<byte>.Empty), Is.EqualTo(0UL));
    }

    [Test]
    public void SlicedComputationMatchesBitwiseReferenceAtEveryLength()
    {
        var random = new Random(42);
        var data = new byte[300];
        random.NextBytes(data);
        for (int length = 0; length <= data.Length; length++)
            Assert.That(Crc64.Compute(data.AsSpan(0, length)), Is.EqualTo(Reference(data.AsSpan(0, length))), $"length {length}");
    }

    [Test]
    public void UpdateContinuesAComputation()
    {
        var random = new Random(7);
        var data = new byte[1000];
        random.NextBytes(data);
        for (int split = 0; split <= data.Length; split += 37)
        {
            ulong crc = Crc64.Update(Crc64.Compute(data.AsSpan(0, split)), data.AsSpan(split));
            Assert.That(crc, Is.EqualTo(Crc64.Compute(data)), $"split {split}");
        }
    }
}
