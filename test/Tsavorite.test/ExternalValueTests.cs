using System;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// Values larger than a quarter of a page live out of line (<see cref="ExternalValue"/>): they read and update like
/// any value, and their blocks are counted until their records give them up.
/// </summary>
[TestFixture]
public sealed class ExternalValueTests
{
    private static byte[] Value(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }

    [Test]
    public void AValueLargerThanAPageRoundTripsAndIsCounted()
    {
        using var ts = new TestStore();
        var session = ts.Session;
        byte[] value = Value(100_000, 1); // 4 KB pages
        Assert.That(session.Upsert("big"u8, value).NotFound, Is.True);
        Assert.That(session.Read("big"u8, out var read).Found, Is.True);
        Assert.That(read, Is.EqualTo(value));
        Assert.That(ts.Log.ExternalCount, Is.EqualTo(1));
        Assert.That(ts.Log.ExternalBytes, Is.GreaterThanOrEqualTo(value.Length));
        Assert.That(ts.Store.MemoryBytes, Is.GreaterThanOrEqualTo(value.Length), "the budget counts the block");
    }

    [Test]
    public void ValuesAtTheThresholdStayInline()
    {
        using var ts = new TestStore();
        Assert.That(ts.Log.ExternalValueThreshold, Is.EqualTo(1024));
        ts.Session.Upsert("k"u8, Value(1000, 2));
        Assert.That(ts.Log.ExternalCount, Is.Zero);
        ts.Session.Upsert("k2"u8, Value(1025, 3));
        Assert.That(ts.Log.ExternalCount, Is.EqualTo(1));
    }

    [Test]
    public void OverwritesAndDeletesGiveBlocksUp()
    {
        using var ts = new TestStore();
        var session = ts.Session;
        session.Upsert("k"u8, Value(50_000, 1));
        byte[] larger = Value(80_000, 2);
        session.Upsert("k"u8, larger);
        Assert.That(session.Read("k"u8, out var read).Found, Is.True);
        Assert.That(read, Is.EqualTo(larger));
        Assert.That(ts.Log.ExternalCount, Is.EqualTo(1), "the superseded block was given up");
        Assert.That(session.Upsert("k"u8, Value(80_000, 3)).IsInPlaceUpdated, Is.True, "a value of the same size reuses the block");
        Assert.That(session.Upsert("k"u8, "small"u8).IsCreatedRecord, Is.True, "a small value does not keep a large block");
        Assert.That(ts.Log.ExternalCount, Is.Zero);

        session.Upsert("d"u8, Value(50_000, 3));
        Assert.That(ts.Log.ExternalCount, Is.EqualTo(1));
        Assert.That(session.Delete("d"u8).Found, Is.True);
        Assert.That(ts.Log.ExternalCount, Is.Zero);
        Assert.That(ts.Log.ExternalBytes, Is.Zero);
        Assert.That(session.Read("d"u8, out _).NotFound, Is.True);
    }

    [Test]
    public void LargeValuesSurviveTheHeadPassingTheirPages()
    {
        // 16 pages of 4 KB: the head passes pages again and again, copying live records (and their blocks) forward.
        // The blocks (30 KB) take their bytes from the log's 64 KB, so fewer pages stay in memory.
        using var ts = new TestStore(new StoreOptions { MemorySize = 1L << 16 });
        var session = ts.Session;
        for (int round = 0; round < 400; round++)
        {
            Assert.That(session.Upsert(TestData.Key(round % 10), Value(300 + round, round)).IsOutOfMemory, Is.False); // inline, growing: new records
            if (round % 20 == 0)
                Assert.That(session.Upsert(TestData.Key(1000 + round), Value(1_500, round)).IsOutOfMemory, Is.False);
        }
        Assert.That(ts.Log.HeadAddress, Is.GreaterThan(1L << 16), "the head moved");
        for (int round = 0; round < 400; round += 20)
        {
            Assert.That(session.Read(TestData.Key(1000 + round), out var read).Found, Is.True);
            Assert.That(read, Is.EqualTo(Value(1_500, round)));
        }
        Assert.That(ts.Log.ExternalCount, Is.EqualTo(20));
        Assert.That(ts.Log.ExternalBytes, Is.EqualTo(20 * 1_500));
    }

    [Test]
    public void LargeValuesBeyondTheLogsMemoryAreRefused()
    {
        // 64 KB of log memory and no budget: the blocks count against the log's memory size.
        using var ts = new TestStore(new StoreOptions { MemorySize = 1L << 16 });
        Assert.That(ts.Session.Upsert("huge"u8, Value(100_000, 1)).IsOutOfMemory, Is.True);
        Assert.That(ts.Log.ExternalCount, Is.Zero);
        Assert.That(ts.Session.Upsert("fits"u8, Value(20_000, 2)).IsOutOfMemory, Is.False);
    }
}
