using System.Text;
using Garnet.common;
using NUnit.Framework;

namespace Garnet.test.Common;

/// <summary>
/// <see cref="HashSlot"/>: the CRC-16 check value, and slots as Redis 7.0's CLUSTER KEYSLOT gives them (recorded from a
/// cluster-enabled redis-server), among them the hash-tag cases of the Redis Cluster specification.
/// </summary>
[TestFixture]
public sealed class HashSlotTests
{
    private static int Slot(string key) => HashSlot.Of(Encoding.UTF8.GetBytes(key));

    [Test]
    public void Crc16OfTheCheckStringIsTheXmodemCheckValue()
    {
        Assert.That(HashSlot.Crc16("123456789"u8), Is.EqualTo(0x31C3));
        Assert.That(HashSlot.Crc16(default), Is.EqualTo(0));
    }

    [Test]
    public void Crc16OfEveryLengthMatchesTheBitByBitDefinition()
    {
        var random = new System.Random(16);
        for (int length = 0; length < 70; length++)
        {
            var bytes = new byte[length];
            for (int round = 0; round < 20; round++)
            {
                random.NextBytes(bytes);
                Assert.That(HashSlot.Crc16(bytes), Is.EqualTo(BitByBit(bytes)), $"length {length}");
            }
        }
    }

    /// <summary>CRC-16/XMODEM as its definition has it: polynomial 0x1021, most significant bit first, from 0.</summary>
    private static ushort BitByBit(byte[] bytes)
    {
        int crc = 0;
        foreach (byte b in bytes)
        {
            crc ^= b << 8;
            for (int bit = 0; bit < 8; bit++)
                crc = (crc & 0x8000) != 0 ? ((crc << 1) ^ 0x1021) & 0xFFFF : (crc << 1) & 0xFFFF;
        }
        return (ushort)crc;
    }

    [TestCase("somekey", 11058)]
    [TestCase("foo{hash_tag}", 2515)]
    [TestCase("hash_tag", 2515)]
    [TestCase("foo", 12182)]
    [TestCase("bar", 5061)]
    [TestCase("", 0)]
    [TestCase("foo{{bar}}zap", 4015)]
    [TestCase("foo{}{bar}", 8363)]
    [TestCase("}foo{x}", 16287)]
    public void KnownKeysHaveRedisSlots(string key, int slot)
    {
        Assert.That(Slot(key), Is.EqualTo(slot));
    }

    [Test]
    public void KeysWithTheSameTagShareItsSlot()
    {
        Assert.That(Slot("{user1000}.following"), Is.EqualTo(Slot("user1000")));
        Assert.That(Slot("{user1000}.followers"), Is.EqualTo(Slot("user1000")));
    }

    [Test]
    public void OnlyTheFirstNonEmptyBracePairIsATag()
    {
        // The first '{' and the first '}' after it.
        Assert.That(Slot("foo{{bar}}zap"), Is.EqualTo(Slot("{bar")));
        Assert.That(Slot("foo{bar}{zap}"), Is.EqualTo(Slot("bar")));
        // An empty tag, or an unclosed one, hashes the whole key.
        Assert.That(Encoding.UTF8.GetString(HashSlot.HashedPart("foo{}{bar}"u8)), Is.EqualTo("foo{}{bar}"));
        Assert.That(Encoding.UTF8.GetString(HashSlot.HashedPart("foo{bar"u8)), Is.EqualTo("foo{bar"));
        Assert.That(Encoding.UTF8.GetString(HashSlot.HashedPart("}foo{x}"u8)), Is.EqualTo("x"));
    }

    [Test]
    public void EverySlotIsBelowTheCount()
    {
        var key = new byte[4];
        for (int i = 0; i < 100_000; i++)
        {
            key[0] = (byte)i;
            key[1] = (byte)(i >> 8);
            key[2] = (byte)(i >> 16);
            key[3] = (byte)(i * 31);
            int slot = HashSlot.Of(key);
            Assert.That(slot, Is.InRange(0, HashSlot.Count - 1));
        }
    }
}
