using System;
using System.Linq;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>Records with an expiration in the past behave as absent for every operation.</summary>
[TestFixture]
public sealed class ExpirationTests
{
    private static long Past => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() - 1000;

    private static long Future => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() + 3_600_000;

    private TestStore _ts = null!;

    [SetUp]
    public void SetUp() => _ts = new TestStore();

    [TearDown]
    public void TearDown() => _ts.Dispose();

    private TestSession Session => _ts.Session;

    /// <summary>Writes an 8-byte counter that expires at <paramref name="expiration"/>, optionally moved below the read-only boundary.</summary>
    private void WriteCounter(ReadOnlySpan<byte> key, long value, long expiration, bool readOnly)
    {
        var input = TestInput.Increment(value);
        input.ExpirationUnixMs = expiration;
        Assert.That(Session.RMW(key, input, out _).IsCreatedRecord, Is.True);
        if (readOnly)
            _ts.Log.ShiftReadOnlyToTail();
        _ts.Counts.Reset();
    }

    [Test]
    public void ExpiredRecordReadsAsNotFound([Values] bool readOnly)
    {
        WriteCounter("k"u8, 5, Past, readOnly);

        var status = Session.Read("k"u8, out var value);

        Assert.That((status.NotFound, status.IsExpired), Is.EqualTo((true, true)), status.ToString());
        Assert.That(value, Is.Null);
        Assert.That(_ts.Counts.Fired, Is.EqualTo(Callback.None), "the reader never sees an expired record");
        Assert.That(Session.ScanAll(), Is.Empty);
    }

    [Test]
    public void FutureExpirationReadsNormally([Values] bool readOnly)
    {
        long expiration = Future;
        WriteCounter("k"u8, 5, expiration, readOnly);

        var output = new TestOutput();
        var status = Session.Read("k"u8, ref output);

        Assert.That(status.Found, Is.True, status.ToString());
        Assert.That(status.IsExpired, Is.False);
        Assert.That(output.AsLong, Is.EqualTo(5));
        Assert.That(output.Expiration, Is.EqualTo(expiration));
        Assert.That(Session.ScanAll(), Has.Count.EqualTo(1));
    }

    [Test]
    public void AFixedClockDecidesExpiryInUnixMilliseconds()
    {
        // The far end of the range: a record expiring at 2^63-1 ms is live until a clock fixed there.
        WriteCounter("k"u8, 5, long.MaxValue, readOnly: false);
        try
        {
            OperationClock.Fix(long.MaxValue - 1);
            Assert.That(OperationClock.NowUnixMs, Is.EqualTo(long.MaxValue - 1));
            Assert.That(Session.Read("k"u8, out _).Found, Is.True);
            OperationClock.Fix(long.MaxValue);
            Assert.That(Session.Read("k"u8, out _).IsExpired, Is.True);
        }
        finally
        {
            OperationClock.Release();
        }
        long before = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        long now = OperationClock.NowUnixMs;
        Assert.That(now, Is.InRange(before, DateTimeOffset.UtcNow.ToUnixTimeMilliseconds()), "released, the clock follows the system's");
    }

    [Test]
    public void RmwTreatsAnExpiredRecordAsAbsent([Values] bool readOnly)
    {
        WriteCounter("k"u8, 5, Past, readOnly);

        var status = Session.RMW("k"u8, TestInput.Increment(2), out var output);

        Assert.That((status.NotFound, status.IsCreatedRecord), Is.EqualTo((true, true)), status.ToString());
        Assert.That(_ts.Counts.Fired, Is.EqualTo(Callback.NeedInitialUpdate | Callback.InitialUpdater | Callback.PostInitialUpdater | Callback.DisposeRecord));
        var disposal = _ts.Counts.Disposals.Single();
        Assert.That(disposal.Reason, Is.EqualTo(DisposeReason.Expired));
        Assert.That(BitConverter.ToInt64(disposal.Value), Is.EqualTo(5), "the expired value is handed over before it is overwritten");
        Assert.That(disposal.ChainHead, Is.EqualTo(output.Address), "reused in place, or replaced by a record already linked");
        Assert.That(output.AsLong, Is.EqualTo(2), "the expired value is not carried over");
        Assert.That(output.Expiration, Is.Zero);
        Assert.That(Session.ReadCounter("k"u8), Is.EqualTo(2));
    }

    [Test]
    public void RmwThatDeclinesToCreateLeavesAnExpiredKeyAbsent()
    {
        WriteCounter("k"u8, 5, Past, readOnly: false);

        var status = Session.RMW("k"u8, new TestInput { Op = TestOp.SetExpiration, ExpirationUnixMs = Future }, out _);

        Assert.That((status.NotFound, status.IsExpired), Is.EqualTo((true, true)), status.ToString());
        Assert.That(_ts.Counts.Fired, Is.EqualTo(Callback.NeedInitialUpdate));
        Assert.That(Session.Read("k"u8, out _).NotFound, Is.True, "setting an expiration does not revive the key");
    }

    [Test]
    public void UpsertOverAnExpiredRecordWritesTheNewValue([Values] bool readOnly)
    {
        WriteCounter("k"u8, 5, Past, readOnly);

        var input = new TestInput();
        var output = new TestOutput();
        var status = Session.Upsert("k"u8, "fresh"u8, ref input, ref output);

        Assert.That((status.NotFound, status.IsCreatedRecord), Is.EqualTo((true, true)), status.ToString());
        Assert.That(_ts.Counts.Fired, Is.EqualTo(Callback.InitialWriter | Callback.PostInitialWriter | Callback.DisposeRecord), "an expired record is not written in place");
        var disposal = _ts.Counts.Disposals.Single();
        Assert.That((disposal.Reason, BitConverter.ToInt64(disposal.Value)), Is.EqualTo((DisposeReason.Expired, 5L)));
        Assert.That(disposal.ChainHead, Is.EqualTo(output.Address), "reused in place, or replaced by a record already linked");
        Assert.That(Session.Read("k"u8, out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo("fresh"u8.ToArray()));
        Assert.That(Session.ScanAll(), Has.Count.EqualTo(1));
    }

    [Test]
    public void DeleteOfAnExpiredRecordReportsNotFound([Values] bool readOnly)
    {
        WriteCounter("k"u8, 5, Past, readOnly);

        var status = Session.Delete("k"u8);

        Assert.That((status.NotFound, status.IsExpired), Is.EqualTo((true, true)), status.ToString());
        Assert.That(_ts.Counts.DisposeReasons, Is.EqualTo(new[] { DisposeReason.Deleted }), "deleting an expired record drops its value");
        Assert.That(Session.Read("k"u8, out _).NotFound, Is.True);
        Assert.That(Session.Increment("k"u8, 1).IsCreatedRecord, Is.True);
        Assert.That(_ts.Counts.Disposals, Has.Length.EqualTo(1), "the tombstone has no value to dispose");
        Assert.That(Session.ReadCounter("k"u8), Is.EqualTo(1));
    }

    [Test]
    public void SettingAnExpirationInThePastExpiresALiveKey([Values] bool readOnly)
    {
        WriteCounter("k"u8, 5, 0, readOnly);

        var status = Session.RMW("k"u8, new TestInput { Op = TestOp.SetExpiration, ExpirationUnixMs = Past }, out _);
        Assert.That(status.Found, Is.True, status.ToString());

        Assert.That(Session.Read("k"u8, out _).IsExpired, Is.True);
        Assert.That(Session.ScanAll(), Is.Empty);
    }

    [Test]
    public void UpsertWithoutExpirationClearsIt()
    {
        var input = new TestInput { ExpirationUnixMs = Future };
        Session.Upsert("k"u8, "12345678"u8, input);

        var output = new TestOutput();
        var status = Session.Upsert("k"u8, "87654321"u8, new TestInput());
        Assert.That(status.IsInPlaceUpdated, Is.True, status.ToString());
        Assert.That(Session.Read("k"u8, ref output).Found, Is.True);
        Assert.That(output.Expiration, Is.Zero);
        Assert.That(output.Value, Is.EqualTo("87654321"u8.ToArray()));
    }

    [Test]
    public void WritesThatLeaveAnExpirationMarkTheStore()
    {
        var store = _ts.Store;
        Assert.That(store.MayHoldExpirations, Is.False, "a new store holds no expirations");

        Assert.That(Session.Upsert("plain"u8, "v"u8, default).IsCreatedRecord, Is.True);
        Session.Increment("counter"u8, 1);
        Session.Increment("counter"u8, 1);
        Assert.That(store.MayHoldExpirations, Is.False, "writes without an expiration leave the note clear");

        // New record with an expiration (InitialUpdater).
        WriteCounter("a"u8, 1, Future, readOnly: false);
        Assert.That(store.MayHoldExpirations, Is.True);

        // In place (InPlaceUpdater giving an existing record an expiration).
        store.ClearExpirationNote();
        var setExpiration = new TestInput { Op = TestOp.SetExpiration, ExpirationUnixMs = Future };
        Assert.That(Session.RMW("counter"u8, setExpiration, out _).Found, Is.True);
        Assert.That(store.MayHoldExpirations, Is.True);

        // Copy update of a read-only record that carries one.
        store.ClearExpirationNote();
        _ts.Log.ShiftReadOnlyToTail();
        Session.Increment("counter"u8, 1);
        Assert.That(store.MayHoldExpirations, Is.True);

        // Upsert with an expiration (InitialWriter), and in place (InPlaceWriter).
        store.ClearExpirationNote();
        Assert.That(Session.Upsert("u"u8, "v"u8, new TestInput { ExpirationUnixMs = Future }).IsCreatedRecord, Is.True);
        Assert.That(store.MayHoldExpirations, Is.True);
        store.ClearExpirationNote();
        Assert.That(Session.Upsert("u"u8, "w"u8, new TestInput { ExpirationUnixMs = Future }).Found, Is.True);
        Assert.That(store.MayHoldExpirations, Is.True);

        // A plain overwrite of a plain record does not.
        store.ClearExpirationNote();
        Assert.That(Session.Upsert("plain"u8, "w"u8, default).Found, Is.True);
        Assert.That(store.MayHoldExpirations, Is.False);
    }
}
