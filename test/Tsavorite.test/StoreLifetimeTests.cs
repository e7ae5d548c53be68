using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// A store never written counts nothing against its budget, and a retired store can give back its memory while
/// threads may still protect themselves on its epoch (<see cref="TsavoriteKV.FreeMemory"/>).
/// </summary>
[TestFixture]
public class StoreLifetimeTests
{
    [Test]
    public void AStoreNeverWrittenCountsNothingUntilItsFirstRecord()
    {
        var budget = new MemoryBudget();
        using var ts = new TestStore(new StoreOptions { Budget = budget });
        Assert.That(ts.Log.NeverWritten, Is.True);
        Assert.That((ts.Store.MemoryBytes, budget.Used), Is.EqualTo((0L, 0L)));
        Assert.That(ts.Store.IndexAllocatedBytes, Is.EqualTo(1L << 13), "the index is there, zeroed on demand");

        // Reads latch buckets but write nothing.
        Assert.That(ts.Session.Read(TestData.Key(1), out _).Found, Is.False);
        Assert.That(budget.Used, Is.EqualTo(0));

        ts.Session.Upsert(TestData.Key(1), TestData.Value(1, 10), default);
        Assert.That(ts.Log.NeverWritten, Is.False);
        Assert.That(ts.Store.MemoryBytes, Is.EqualTo((1L << 12) + (1L << 13)), "its first page and its index");
        Assert.That(budget.Used, Is.EqualTo(ts.Store.MemoryBytes));
    }

    [Test]
    public void FreeMemoryLeavesTheBudgetAndKeepsTheEpochUsable()
    {
        var budget = new MemoryBudget();
        var store = new TsavoriteKV(new KVSettings { IndexSize = 1L << 13, PageSizeBits = 12, MemorySize = 1L << 20, Budget = budget });
        var session = store.NewSession<TestInput, TestOutput, TestFunctions>(new TestFunctions(new CallbackCounts()));
        for (int i = 0; i < 100; i++)
            session.Upsert(TestData.Key(i), TestData.Value(i, 100), default);
        Assert.That(budget.Stores, Has.Count.EqualTo(1));

        store.FreeMemory();
        Assert.That((budget.Stores.Count, budget.Used), Is.EqualTo((0, 0L)));
        // A thread that finds the store retired protects and leaves: the epoch outlives the memory.
        store.Epoch.Resume();
        Assert.That(store.Epoch.AnyThreadProtected(), Is.True);
        store.Epoch.Suspend();
        Assert.That(store.Epoch.AnyThreadProtected(), Is.False);
        store.FreeMemory();
        store.Dispose();
    }

    [Test]
    public void AnyThreadProtectedSeesOtherThreads()
    {
        using var epoch = new LightEpoch();
        Assert.That(epoch.AnyThreadProtected(), Is.False);
        using var protectedNow = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var thread = new Thread(() =>
        {
            epoch.Resume();
            protectedNow.Set();
            release.Wait();
            epoch.ProtectAndDrain();
            epoch.Suspend();
        });
        thread.Start();
        protectedNow.Wait();
        Assert.That(epoch.AnyThreadProtected(), Is.True);
        release.Set();
        thread.Join();
        Assert.That(epoch.AnyThreadProtected(), Is.False);
    }
}
