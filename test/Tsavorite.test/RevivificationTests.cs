using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>Reuse of the space of deleted and superseded records in the mutable region.</summary>
[TestFixture]
public sealed class RevivificationTests
{
    private const int ValueLength = 24;

    // A big index so that every key heads a chain of its own and is unlinked when deleted.
    private static StoreOptions Options(bool revivification = true) => new() { IndexSize = 1L << 16, EnableRevivification = revivification };

    private static Status Insert(TestSession session, int i) => session.Upsert(TestData.FixedKey(i), TestData.Value(i, ValueLength), default);

    /// <summary>Deletes key <paramref name="round"/> and inserts key <paramref name="round"/> + <paramref name="live"/>: the live set keeps its size.</summary>
    private static void ChurnRound(TestSession session, int round, int live)
    {
        Assert.That(session.Delete(TestData.FixedKey(round)).Found, Is.True, $"round {round}");
        Assert.That(Insert(session, round + live).IsCreatedRecord, Is.True, $"round {round}");
    }

    [Test]
    public void DeleteInsertChurnStopsGrowingTheLog()
    {
        using var ts = new TestStore(Options());
        var session = ts.Session;
        const int live = 100;
        for (int i = 0; i < live; i++)
            Insert(session, i);

        int round = 0;
        for (; round < 50; round++)
            ChurnRound(session, round, live);
        long tail = ts.Log.TailAddress;
        for (; round < 1000; round++)
            ChurnRound(session, round, live);

        Assert.That(ts.Log.TailAddress, Is.EqualTo(tail), "every insert reused a deleted record");
        Assert.That(ts.Store.RevivifiedRecordCount, Is.GreaterThanOrEqualTo(950));
        for (int i = round; i < round + live; i++)
        {
            Assert.That(session.Read(TestData.FixedKey(i), out var value).Found, Is.True, $"key {i}");
            Assert.That(value, Is.EqualTo(TestData.Value(i, ValueLength)), $"key {i}");
        }
        Assert.That(session.Read(TestData.FixedKey(round - 1), out _).NotFound, Is.True);
        Assert.That(session.ScanAll(), Has.Count.EqualTo(live), "a scan steps over reused records correctly");
    }

    [Test]
    public void WithoutRevivificationTheLogKeepsGrowing()
    {
        using var ts = new TestStore(Options(revivification: false));
        var session = ts.Session;
        const int live = 100;
        for (int i = 0; i < live; i++)
            Insert(session, i);

        long tail = ts.Log.TailAddress;
        for (int round = 0; round < 200; round++)
        {
            ChurnRound(session, round, live);
            Assert.That(ts.Log.TailAddress, Is.GreaterThan(tail), $"round {round}");
            tail = ts.Log.TailAddress;
        }
        Assert.That(ts.Store.RevivifiedRecordCount, Is.Zero);
        Assert.That(ts.Store.FreeRecordCount, Is.Zero);
        Assert.That(session.ScanAll(), Has.Count.EqualTo(live));
    }

    [Test]
    public void AnExistingKeyIsNeverMovedIntoFreedSpaceBelowItsRecord()
    {
        using var ts = new TestStore(Options());
        var session = ts.Session;
        session.Upsert("big"u8, TestData.Value(1, 200));
        session.Upsert("grower"u8, "g"u8);
        Assert.That(session.Delete("big"u8).Found, Is.True);
        long tail = ts.Log.TailAddress;

        // The grower no longer fits in place; the freed big record would fit but lies below it, where
        // a scan cursor between the two would miss the key. So it goes to the tail instead.
        var status = session.Upsert("grower"u8, TestData.Value(2, 150));
        Assert.That(status.IsCreatedRecord, Is.True);
        Assert.That(ts.Log.TailAddress, Is.GreaterThan(tail));
        Assert.That(ts.Store.FreeRecordCount, Is.GreaterThanOrEqualTo(1), "the big record's space is still free");

        // A new key may take the freed space below.
        tail = ts.Log.TailAddress;
        session.Upsert("newcomer"u8, TestData.Value(3, 150));
        Assert.That(ts.Log.TailAddress, Is.EqualTo(tail), "a new key reuses the freed record");
    }

    [Test]
    public void SmallerRecordReusesALargerFreedRecord()
    {
        using var ts = new TestStore(Options());
        var session = ts.Session;
        session.Upsert("big"u8, TestData.Value(1, 200));
        session.Upsert("neighbor"u8, "n"u8);
        Assert.That(session.Delete("big"u8).Found, Is.True);
        long tail = ts.Log.TailAddress;

        var input = new TestInput();
        var output = new TestOutput();
        Assert.That(session.Upsert("small"u8, TestData.Value(2, 150), ref input, ref output).IsCreatedRecord, Is.True);

        Assert.That(ts.Log.TailAddress, Is.EqualTo(tail));
        Assert.That(ts.Store.RevivifiedRecordCount, Is.EqualTo(1));
        Assert.That(output.Address, Is.EqualTo(LogAddress.FirstValidAddress), "the first record's space was reused");
        Assert.That(session.Read("small"u8, out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo(TestData.Value(2, 150)));

        // The slack is the reused record's own: the value can grow into it in place.
        Assert.That(session.Upsert("small"u8, TestData.Value(3, 190)).IsInPlaceUpdated, Is.True);
        var keys = session.Snapshot().Keys;
        Assert.That(keys, Is.EquivalentTo(new[] { "736D616C6C", "6E65696768626F72" }), "small and neighbor, each once");
    }

    [Test]
    public void TombstoneInTheChainIsReusedByTheSameKey()
    {
        using var ts = new TestStore(Options());
        var session = ts.Session;
        var input = new TestInput();
        var output = new TestOutput();
        session.Upsert("k"u8, TestData.Value(1, 40), ref input, ref output);
        long readOnlyAddress = output.Address;
        ts.Log.ShiftReadOnlyToTail();
        session.Upsert("k"u8, TestData.Value(2, 40), ref input, ref output);
        long mutableAddress = output.Address;

        // The older read-only record keeps the tombstone in the chain: unlinking it would bring that value back.
        Assert.That(session.Delete("k"u8).Found, Is.True);
        Assert.That(ts.Log.GetRecord(mutableAddress).Info.Tombstone, Is.True);
        Assert.That(ts.Store.FreeRecordCount, Is.Zero);
        Assert.That(session.Read("k"u8, out _).NotFound, Is.True);
        long tail = ts.Log.TailAddress;

        ts.Counts.Reset();
        var status = session.Upsert("k"u8, TestData.Value(3, 30), ref input, ref output);
        Assert.That((status.NotFound, status.IsCreatedRecord), Is.EqualTo((true, true)), status.ToString());
        Assert.That(output.Address, Is.EqualTo(mutableAddress));
        Assert.That(ts.Counts.Fired, Is.EqualTo(Callback.InitialWriter | Callback.PostInitialWriter));
        Assert.That(ts.Log.TailAddress, Is.EqualTo(tail));
        Assert.That(session.Read("k"u8, out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo(TestData.Value(3, 30)));

        // Again through RMW.
        Assert.That(session.Delete("k"u8).Found, Is.True);
        status = session.RMW("k"u8, TestInput.Increment(9), out output);
        Assert.That(status.IsCreatedRecord, Is.True, status.ToString());
        Assert.That(output.Address, Is.EqualTo(mutableAddress));
        Assert.That(session.ReadCounter("k"u8), Is.EqualTo(9));
        Assert.That(ts.Log.TailAddress, Is.EqualTo(tail));
        Assert.That(ts.Log.GetRecord(readOnlyAddress).Info.Valid, Is.True, "the read-only record is untouched");
    }

    [Test]
    public void ReadOnlyRecordsAreNeverReused()
    {
        using var ts = new TestStore(Options());
        var session = ts.Session;
        const int count = 50;
        for (int i = 0; i < count; i++)
            Insert(session, i);
        for (int i = 0; i < count; i++)
            session.Delete(TestData.FixedKey(i));
        Assert.That(ts.Store.FreeRecordCount, Is.EqualTo(count));

        ts.Log.ShiftReadOnlyToTail();
        long tail = ts.Log.TailAddress;
        for (int i = count; i < 2 * count; i++)
        {
            var input = new TestInput();
            var output = new TestOutput();
            Assert.That(session.Upsert(TestData.FixedKey(i), TestData.Value(i, ValueLength), ref input, ref output).IsCreatedRecord, Is.True);
            Assert.That(output.Address, Is.GreaterThanOrEqualTo(tail), $"key {i} went to the tail");
        }
        Assert.That(ts.Store.RevivifiedRecordCount, Is.Zero);

        // Deleting read-only records appends tombstones and frees nothing.
        ts.Log.ShiftReadOnlyToTail();
        int freeBefore = ts.Store.FreeRecordCount;
        for (int i = count; i < 2 * count; i++)
            Assert.That(session.Delete(TestData.FixedKey(i)).Found, Is.True);
        Assert.That(ts.Store.FreeRecordCount, Is.EqualTo(freeBefore));
        Assert.That(session.ScanAll(), Is.Empty);
    }

    [Test]
    public void FreedRecordWaitsUntilEveryThreadHasMovedOn()
    {
        using var ts = new TestStore(Options());
        var session = ts.Session;
        session.Upsert("a"u8, TestData.Value(1, ValueLength));

        // Another thread stays protected at the current epoch, as if still looking at the record.
        using var holding = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var other = ts.NewSession();
        var holder = new Thread(() =>
        {
            other.BeginUnsafe();
            holding.Set();
            release.Wait(TestThreads.HangGuard);
            other.EndUnsafe();
        });
        holder.Start();
        Assert.That(holding.Wait(TestThreads.HangGuard), Is.True);

        Assert.That(session.Delete("a"u8).Found, Is.True);
        Assert.That(ts.Store.FreeRecordCount, Is.EqualTo(1));
        session.Upsert("b"u8, TestData.Value(2, ValueLength));
        Assert.That(ts.Store.RevivifiedRecordCount, Is.Zero, "the other thread may still see the freed record");

        release.Set();
        Assert.That(holder.Join(TestThreads.HangGuard), Is.True);
        var input = new TestInput();
        var output = new TestOutput();
        session.Upsert("c"u8, TestData.Value(3, ValueLength), ref input, ref output);
        Assert.That(ts.Store.RevivifiedRecordCount, Is.EqualTo(1));
        Assert.That(output.Address, Is.EqualTo(LogAddress.FirstValidAddress));
        Assert.That(session.Snapshot(), Has.Count.EqualTo(2));
    }
}
