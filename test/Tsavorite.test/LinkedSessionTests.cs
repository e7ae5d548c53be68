using System;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// A linked session works on the same store with its own callbacks and shares the first session's
/// epoch protection: one BeginUnsafe covers operations on both, and EndUnsafe on either ends it for both.
/// </summary>
[TestFixture]
public sealed class LinkedSessionTests
{
    private TestStore _ts = null!;

    [SetUp]
    public void SetUp() => _ts = new TestStore();

    [TearDown]
    public void TearDown() => _ts.Dispose();

    private TestSession NewLinked(TestSession session, CallbackCounts counts)
        => session.NewLinkedSession<TestInput, TestOutput, TestFunctions>(new TestFunctions(counts));

    [Test]
    public void ALinkedSessionSeesTheSameStoreThroughItsOwnCallbacks()
    {
        var linkedCounts = new CallbackCounts();
        using var linked = NewLinked(_ts.Session, linkedCounts);

        Assert.That(linked.Store, Is.SameAs(_ts.Store));
        Assert.That(linked.Upsert("k"u8, "v"u8).IsCreatedRecord, Is.True);
        Assert.That(_ts.Session.Read("k"u8, out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo("v"u8.ToArray()));

        Assert.That(linkedCounts.Fired, Is.EqualTo(Callback.InitialWriter | Callback.PostInitialWriter));
        Assert.That(_ts.Counts.Fired, Is.EqualTo(Callback.Reader));
    }

    [Test]
    public void BeginUnsafeOnEitherCoversOperationsOnBoth([Values] bool beginOnLinked)
    {
        using var linked = NewLinked(_ts.Session, new CallbackCounts());
        var first = _ts.Session;
        var (begun, other) = beginOnLinked ? (linked, first) : (first, linked);

        begun.BeginUnsafe();
        Assert.That(_ts.Store.Epoch.ThisInstanceProtected(), Is.True);

        // Without shared protection these would resume the epoch again and throw (Resume is not reentrant).
        Assert.That(other.Upsert("a"u8, "1"u8).IsCreatedRecord, Is.True);
        Assert.That(other.Increment("c"u8, 2).IsCreatedRecord, Is.True);
        Assert.That(other.Read("a"u8, out _).Found, Is.True);
        Assert.That(other.ScanAll(), Has.Count.EqualTo(2));
        Assert.That(other.Delete("a"u8).Found, Is.True);
        Assert.That(begun.ReadCounter("c"u8), Is.EqualTo(2));
        Assert.That(_ts.Store.Epoch.ThisInstanceProtected(), Is.True, "operations inside the batch leave the protection on");

        other.EndUnsafe();

        Assert.That(_ts.Store.Epoch.ThisInstanceProtected(), Is.False, "EndUnsafe on either ends the batch of both");
        Assert.That(begun.Increment("c"u8, 1).IsInPlaceUpdated, Is.True, "after the batch each operation protects itself");
        Assert.That(other.ReadCounter("c"u8), Is.EqualTo(3));
        Assert.That(_ts.Store.Epoch.ThisInstanceProtected(), Is.False);
    }

    [Test]
    public void UnlinkedSessionsOnOneThreadDoNotShareProtection()
    {
        using var unlinked = _ts.NewSession();
        _ts.Session.BeginUnsafe();
        try
        {
            Assert.That(() => unlinked.Upsert("k"u8, "v"u8), Throws.InvalidOperationException, "the contrast that makes linking necessary");
        }
        finally
        {
            _ts.Session.EndUnsafe();
        }
        Assert.That(_ts.Store.Epoch.ThisInstanceProtected(), Is.False);
    }

    [Test]
    public void DisposingTheSessionsEndsAnOpenBatch()
    {
        var session = _ts.NewSession();
        var linked = NewLinked(session, new CallbackCounts());
        linked.BeginUnsafe();
        Assert.That(session.Upsert("k"u8, "v"u8).IsCreatedRecord, Is.True);

        linked.Dispose();
        Assert.That(_ts.Store.Epoch.ThisInstanceProtected(), Is.False);
        session.Dispose(); // the batch is already over: nothing left to end
        Assert.That(_ts.Store.Epoch.ThisInstanceProtected(), Is.False);
        Assert.That(_ts.Session.Read("k"u8, out _).Found, Is.True);
    }

    [Test]
    public void EachThreadWithItsOwnPairWorksInBatches([Values(2, 4)] int threadCount)
    {
        const int opsPerThread = 4096; // whole batches of 64
        const int counters = 8;
        var totals = new long[threadCount];

        TestThreads.Run(threadCount, t =>
        {
            using var session = _ts.NewSession();
            using var linked = NewLinked(session, new CallbackCounts());
            for (int i = 0; i < opsPerThread; i++)
            {
                if (i % 64 == 0)
                    (i % 128 == 0 ? session : linked).BeginUnsafe();

                // Counters shared by all threads, alternating between the two sessions; and a key of the thread's own.
                var counter = TestData.Key(i % counters);
                Assert.That((i % 2 == 0 ? session : linked).Increment(counter, 1).IsCanceled, Is.False);
                var own = TestData.Key(1000 + t);
                (i % 3 == 0 ? linked : session).Upsert(own, BitConverter.GetBytes((long)i), default);
                totals[t]++;

                if (i % 64 == 63)
                    (i % 128 == 63 ? linked : session).EndUnsafe();
            }
            Assert.That(_ts.Store.Epoch.ThisInstanceProtected(), Is.False, $"thread {t} ended every batch");
        });

        long sum = 0;
        for (int c = 0; c < counters; c++)
            sum += _ts.Session.ReadCounter(TestData.Key(c)) ?? 0;
        Assert.That(sum, Is.EqualTo((long)threadCount * opsPerThread));
        for (int t = 0; t < threadCount; t++)
        {
            Assert.That(_ts.Session.Read(TestData.Key(1000 + t), out var value).Found, Is.True);
            Assert.That(BitConverter.ToInt64(value), Is.EqualTo(opsPerThread - 1), $"thread {t}'s last write");
        }
    }
}
