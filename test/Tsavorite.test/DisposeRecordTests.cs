using System;
using System.Linq;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// DisposeRecord fires exactly once when a record's value stops being reachable: Deleted for Delete
/// and ExpireAndStop, Superseded for an Upsert that writes a new record over a live one, Expired when
/// a write replaces or reuses an expired record. Never for copy update, tombstones, or writes that
/// are canceled before they replace anything.
/// </summary>
[TestFixture]
public sealed class DisposeRecordTests
{
    private static long Past => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() - 1000;

    private TestStore _ts = null!;

    [SetUp]
    public void SetUp() => _ts = new TestStore();

    [TearDown]
    public void TearDown() => _ts.Dispose();

    private TestSession Session => _ts.Session;

    private CallbackCounts Counts => _ts.Counts;

    private HybridLog Log => _ts.Log;

    /// <summary>Creates <paramref name="key"/> as a counter through RMW; returns the record's address.</summary>
    private long WriteCounter(ReadOnlySpan<byte> key, long value, long expiration = 0, bool readOnly = false)
    {
        var input = TestInput.Increment(value);
        input.ExpirationUnixMs = expiration;
        Assert.That(Session.RMW(key, input, out var output).IsCreatedRecord, Is.True);
        if (readOnly)
            Log.ShiftReadOnlyToTail();
        Counts.Reset();
        return output.Address;
    }

    /// <summary>Writes <paramref name="key"/> through Upsert; returns the record's address.</summary>
    private long Write(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, bool readOnly = false)
    {
        var input = new TestInput();
        var output = new TestOutput();
        Assert.That(Session.Upsert(key, value, ref input, ref output).IsCreatedRecord, Is.True);
        if (readOnly)
            Log.ShiftReadOnlyToTail();
        Counts.Reset();
        return output.Address;
    }

    private static Status Upsert(TestSession session, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, TestInput input, out TestOutput output)
    {
        output = new TestOutput();
        return session.Upsert(key, value, ref input, ref output);
    }

    // ---- Delete ----

    [Test]
    public void DeleteDisposesTheLiveValueOnce([Values] bool readOnly)
    {
        Write("k"u8, "value"u8, readOnly);

        Assert.That(Session.Delete("k"u8).Found, Is.True);

        var disposal = Counts.Disposals.Single();
        Assert.That((disposal.Reason, disposal.Value, disposal.Key), Is.EqualTo((DisposeReason.Deleted, "value"u8.ToArray(), "k"u8.ToArray())));
        Assert.That(disposal.Tombstone, Is.False, "the record handed over is the value, not a tombstone");
    }

    [Test]
    public void DeletingADeletedOrAbsentKeyDisposesNothing([Values] bool readOnly)
    {
        Write("k"u8, "value"u8, readOnly);
        Assert.That(Session.Delete("k"u8).Found, Is.True);
        Counts.Reset();

        Assert.That(Session.Delete("k"u8).NotFound, Is.True);
        Assert.That(Session.Delete("k"u8).NotFound, Is.True);
        Assert.That(Session.Delete("never"u8).NotFound, Is.True);

        Assert.That(Counts.Disposals, Is.Empty);
    }

    [Test]
    public void CanceledDeleteOfAReadOnlyRecordLeavesItAndWritesNoTombstone()
    {
        Write("k"u8, "value"u8);
        _ts.Store.Log.ShiftReadOnlyToTail();
        long tail = _ts.Store.Log.TailAddress;
        using var session = _ts.NewSession(Counts);
        session.Functions = new TestFunctions(Counts) { CancelShadowDeletes = true };

        Assert.That(session.Delete("k"u8).IsCanceled, Is.True);

        Assert.That(Counts.Disposals, Is.Empty);
        Assert.That(_ts.Store.Log.TailAddress, Is.EqualTo(tail), "no tombstone");
        Assert.That(Session.Read("k"u8, out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo("value"u8.ToArray()));
    }

    [Test]
    public void CanceledDeleteDisposesNothing()
    {
        Write("k"u8, "value"u8);
        using var session = _ts.NewSession(Counts);
        session.Functions = new TestFunctions(Counts) { CancelDeletes = true };

        Assert.That(session.Delete("k"u8).IsCanceled, Is.True);

        Assert.That(Counts.Fired, Is.EqualTo(Callback.InPlaceDeleter));
        Assert.That(Session.Read("k"u8, out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo("value"u8.ToArray()));
    }

    [Test]
    public void DeleteOfAnExpiredValueDisposesItAsDeleted([Values] bool readOnly)
    {
        WriteCounter("k"u8, 5, Past, readOnly);

        var status = Session.Delete("k"u8);

        Assert.That((status.NotFound, status.IsExpired), Is.EqualTo((true, true)), status.ToString());
        Assert.That(Counts.DisposeReasons, Is.EqualTo(new[] { DisposeReason.Deleted }));
        Assert.That(Session.Delete("k"u8).NotFound, Is.True);
        Assert.That(Counts.Disposals, Has.Length.EqualTo(1));
    }

    // ---- RMW ExpireAndStop ----

    [Test]
    public void ExpireAndStopFromEachUpdaterDisposesOnceAsDeleted([Values("InPlaceUpdater", "NeedCopyUpdate", "CopyUpdater")] string updater)
    {
        WriteCounter("c"u8, 5, readOnly: updater == "NeedCopyUpdate");
        var input = new TestInput { Op = TestOp.ExpireAndStop };
        if (updater == "CopyUpdater")
            input.RefuseIn = Callback.InPlaceUpdater; // on to a copy, whose updater then asks for the delete

        var status = Session.RMW("c"u8, input, out _);

        Assert.That(status.NotFound, Is.True, status.ToString());
        var disposal = Counts.Disposals.Single();
        Assert.That((disposal.Reason, BitConverter.ToInt64(disposal.Value)), Is.EqualTo((DisposeReason.Deleted, 5L)));
        Assert.That(Session.Read("c"u8, out _).NotFound, Is.True);

        // Once deleted, the key has nothing left to dispose.
        Assert.That(Session.RMW("c"u8, input, out _).NotFound, Is.True);
        Assert.That(Session.Delete("c"u8).NotFound, Is.True);
        Assert.That(Counts.Disposals, Has.Length.EqualTo(1));
    }

    // ---- Upsert ----

    [Test]
    public void UpsertOverALiveValueDisposesItAsSupersededAfterTheLink([Values("ReadOnly", "Refused", "TooBig")] string path)
    {
        Write("k"u8, TestData.Value(1, 8), readOnly: path == "ReadOnly");
        var input = new TestInput { RefuseIn = path == "Refused" ? Callback.InPlaceWriter : Callback.None };
        var value = TestData.Value(2, path == "TooBig" ? 100 : 8);

        var status = Upsert(Session, "k"u8, value, input, out var output);

        Assert.That((status.Found, status.IsCreatedRecord), Is.EqualTo((true, true)), status.ToString());
        var disposal = Counts.Disposals.Single();
        Assert.That((disposal.Reason, disposal.Value), Is.EqualTo((DisposeReason.Superseded, TestData.Value(1, 8))));
        Assert.That(disposal.ChainHead, Is.EqualTo(output.Address), "the new record is linked first");
        Assert.That(Session.Read("k"u8, out var read).Found, Is.True);
        Assert.That(read, Is.EqualTo(value));
    }

    [Test]
    public void UpsertInPlaceDisposesNothing()
    {
        Write("k"u8, "value"u8);

        Assert.That(Session.Upsert("k"u8, "VALUE"u8, default).IsInPlaceUpdated, Is.True);

        Assert.That(Counts.Disposals, Is.Empty, "an in-place writer replaces the value itself");
    }

    [Test]
    public void CanceledUpsertDisposesNothing([Values] bool readOnly)
    {
        Write("k"u8, "old"u8, readOnly);
        long tail = Log.TailAddress;

        var status = Session.Upsert("k"u8, TestData.Value(2, 100), new TestInput { CancelIn = Callback.InitialWriter });

        Assert.That(status.IsCanceled, Is.True, status.ToString());
        Assert.That(Counts.Disposals, Is.Empty, "the abandoned new record replaced nothing");
        Assert.That(Log.TailAddress, Is.GreaterThan(tail), "the new record was allocated, then abandoned");
        Assert.That(Session.Read("k"u8, out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo("old"u8.ToArray()));
    }

    [Test]
    public void UpsertOverAnExpiredValueDisposesItAsExpired([Values("ReuseInChain", "NewRecord", "ReadOnly")] string path)
    {
        WriteCounter("k"u8, 5, Past, readOnly: path == "ReadOnly");
        var value = path == "NewRecord" ? TestData.Value(2, 100) : "fresh"u8.ToArray();

        var status = Upsert(Session, "k"u8, value, default, out var output);

        Assert.That((status.NotFound, status.IsCreatedRecord), Is.EqualTo((true, true)), status.ToString());
        var disposal = Counts.Disposals.Single();
        Assert.That((disposal.Reason, BitConverter.ToInt64(disposal.Value)), Is.EqualTo((DisposeReason.Expired, 5L)), "handed over before it is overwritten");
        Assert.That(disposal.ChainHead, Is.EqualTo(output.Address));
        Assert.That(Session.Read("k"u8, out var read).Found, Is.True);
        Assert.That(read, Is.EqualTo(value));
    }

    [Test]
    public void CanceledUpsertLeavesAnExpiredValueForTheNextWrite()
    {
        // A new record (the value does not fit the expired one) is canceled: the expired value stays where it was.
        WriteCounter("k"u8, 5, Past);
        Assert.That(Session.Upsert("k"u8, TestData.Value(2, 100), new TestInput { CancelIn = Callback.InitialWriter }).IsCanceled, Is.True);
        Assert.That(Counts.Disposals, Is.Empty);

        Assert.That(Session.Upsert("k"u8, TestData.Value(3, 100), default).IsCreatedRecord, Is.True);
        Assert.That(Counts.DisposeReasons, Is.EqualTo(new[] { DisposeReason.Expired }));
    }

    [Test]
    public void CanceledWriteIntoAReusedExpiredRecordDisposesTheOverwrittenValueOnce()
    {
        // In-chain reuse overwrites the expired value before InitialWriter runs, so it is disposed even
        // if the writer then cancels; the record is left a tombstone, which is never disposed again.
        WriteCounter("k"u8, 5, Past);
        var status = Session.Upsert("k"u8, "fresh"u8, new TestInput { CancelIn = Callback.InitialWriter });

        Assert.That(status.IsCanceled, Is.True, status.ToString());
        Assert.That(Counts.DisposeReasons, Is.EqualTo(new[] { DisposeReason.Expired }));
        Assert.That(Session.Read("k"u8, out _).NotFound, Is.True);
        Assert.That(Session.Delete("k"u8).NotFound, Is.True);
        Assert.That(Session.Upsert("k"u8, "again"u8, default).IsCreatedRecord, Is.True);
        Assert.That(Counts.Disposals, Has.Length.EqualTo(1));
    }

    // ---- RMW initial update ----

    [Test]
    public void RmwOverAnExpiredValueDisposesItAsExpired([Values("ReuseInPlace", "NewRecord", "ReadOnly")] string path)
    {
        var initial = TestInput.Append(TestData.Value(1, 8));
        initial.ExpirationUnixMs = Past;
        Session.RMW("k"u8, initial, out var created);
        if (path == "ReadOnly")
            Log.ShiftReadOnlyToTail();
        Counts.Reset();
        var bytes = path == "NewRecord" ? TestData.Value(2, 100) : TestData.Value(2, 8);

        var status = Session.RMW("k"u8, TestInput.Append(bytes), out var output);

        Assert.That((status.NotFound, status.IsCreatedRecord), Is.EqualTo((true, true)), status.ToString());
        Assert.That(output.Address == created.Address, Is.EqualTo(path == "ReuseInPlace"));
        var disposal = Counts.Disposals.Single();
        Assert.That((disposal.Reason, disposal.Value), Is.EqualTo((DisposeReason.Expired, TestData.Value(1, 8))));
        Assert.That(disposal.ChainHead, Is.EqualTo(output.Address));
        Assert.That(Session.Read("k"u8, out var read).Found, Is.True);
        Assert.That(read, Is.EqualTo(bytes), "the expired value is not carried over");
    }

    [Test]
    public void RmwThatDeclinesOrCancelsLeavesAnExpiredValueForTheNextWrite([Values] bool readOnly)
    {
        WriteCounter("k"u8, 5, Past, readOnly);

        var declined = TestInput.Increment(1);
        declined.RefuseIn = Callback.NeedInitialUpdate;
        Assert.That(Session.RMW("k"u8, declined, out _).NotFound, Is.True);
        var canceled = TestInput.Append(TestData.Value(2, 100)); // too big to reuse the record: a new one, canceled
        canceled.CancelIn = Callback.InitialUpdater;
        Assert.That(Session.RMW("k"u8, canceled, out _).IsCanceled, Is.True);
        Assert.That(Counts.Disposals, Is.Empty);

        Assert.That(Session.Increment("k"u8, 1).IsCreatedRecord, Is.True);
        Assert.That(Counts.DisposeReasons, Is.EqualTo(new[] { DisposeReason.Expired }));
        Assert.That(Session.ReadCounter("k"u8), Is.EqualTo(1));
    }

    // ---- No dispose ----

    [Test]
    public void CopyUpdateLeavesTheSourceToPostCopyUpdater([Values] bool readOnly)
    {
        WriteCounter("c"u8, 5, readOnly: readOnly);
        var input = TestInput.Increment(2);
        if (!readOnly)
            input.RefuseIn = Callback.InPlaceUpdater;

        var status = Session.RMW("c"u8, input, out _);

        Assert.That(status.IsCopyUpdated, Is.True, status.ToString());
        Assert.That(Counts.Fired & (Callback.PostCopyUpdater | Callback.DisposeRecord), Is.EqualTo(Callback.PostCopyUpdater));
        Assert.That(Session.ReadCounter("c"u8), Is.EqualTo(7));
    }

    [Test]
    public void InPlaceAndCanceledUpdatesDisposeNothing()
    {
        WriteCounter("c"u8, 5);
        Assert.That(Session.Increment("c"u8, 1).IsInPlaceUpdated, Is.True);
        Assert.That(Session.RMW("c"u8, new TestInput { Op = TestOp.ExpireAndStop, CancelIn = Callback.InPlaceUpdater }, out _).IsCanceled, Is.True);
        Assert.That(Session.RMW("c"u8, new TestInput { Op = TestOp.ExpireAndStop, RefuseIn = Callback.InPlaceUpdater, CancelIn = Callback.CopyUpdater }, out _).IsCanceled, Is.True);

        Assert.That(Counts.Disposals, Is.Empty);
        Assert.That(Session.ReadCounter("c"u8), Is.EqualTo(6));
    }

    [Test]
    public void WritesOverATombstoneDisposeNothing([Values("Upsert", "RMW")] string operation)
    {
        // An older read-only record keeps the mutable tombstone in the chain, where the next write reuses it.
        Write("k"u8, TestData.Value(1, 40), readOnly: true);
        long mutable = Write("k"u8, TestData.Value(2, 40));
        Assert.That(Session.Delete("k"u8).Found, Is.True);
        Assert.That(Log.GetRecord(mutable).Info.Tombstone, Is.True);
        Counts.Reset();

        var status = operation == "Upsert"
            ? Upsert(Session, "k"u8, TestData.Value(3, 40), default, out var output)
            : Session.RMW("k"u8, TestInput.Append(TestData.Value(3, 40)), out output);

        Assert.That(status.IsCreatedRecord, Is.True, status.ToString());
        Assert.That(output.Address, Is.EqualTo(mutable), "the tombstone's space was reused");
        Assert.That(Counts.Disposals, Is.Empty);

        // A tombstone record shadowing a read-only value is not disposed either when it is written over.
        Write("t"u8, TestData.Value(4, 40), readOnly: true);
        Assert.That(Session.Delete("t"u8).Found, Is.True);
        Counts.Reset();
        Assert.That(Session.Upsert("t"u8, TestData.Value(5, 40), default).IsCreatedRecord, Is.True);
        Assert.That(Session.Increment("absent"u8, 1).IsCreatedRecord, Is.True);
        Assert.That(Counts.Disposals, Is.Empty);
    }
}
