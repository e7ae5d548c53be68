using System;
using System.Linq;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>
/// <see cref="RecordInfo.ValueIsObject"/> is the callbacks' to set; the engine carries it, shows it to
/// DisposeRecord, and clears it whenever a record's space is laid out again for a new value.
/// </summary>
[TestFixture]
public sealed class ValueIsObjectTests
{
    private static long Past => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() - 1000;

    private TestStore _ts = null!;

    [SetUp]
    public void SetUp() => _ts = new TestStore(new StoreOptions { IndexSize = 1L << 16 });

    [TearDown]
    public void TearDown() => _ts.Dispose();

    private TestSession Session => _ts.Session;

    private HybridLog Log => _ts.Log;

    private long UpsertAt(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, TestInput input)
    {
        var output = new TestOutput();
        Assert.That(Session.Upsert(key, value, ref input, ref output).IsCreatedRecord, Is.True);
        return output.Address;
    }

    [Test]
    public void FreshRecordsDoNotHaveIt()
    {
        long upserted = UpsertAt("u"u8, "value"u8, default);
        Session.RMW("r"u8, TestInput.Increment(1), out var rmw);
        Session.RMW("r"u8, new TestInput { Op = TestOp.Increment, Delta = 1, RefuseIn = Callback.InPlaceUpdater }, out var copied);

        Assert.That(Log.GetRecord(upserted).Info.ValueIsObject, Is.False);
        Assert.That(Log.GetRecord(rmw.Address).Info.ValueIsObject, Is.False);
        Assert.That(Log.GetRecord(copied.Address).Info.ValueIsObject, Is.False, "a copy has it only if CopyUpdater sets it");
    }

    [Test]
    public void TheEngineCarriesWhatACallbackSet()
    {
        long address = UpsertAt("k"u8, TestData.Value(1, 8), new TestInput { MarkObject = true });
        Assert.That(Log.GetRecord(address).Info.ValueIsObject, Is.True);

        // An in-place write does not touch the header bit.
        Assert.That(Session.Upsert("k"u8, TestData.Value(2, 8), default).IsInPlaceUpdated, Is.True);
        Assert.That(Log.GetRecord(address).Info.ValueIsObject, Is.True);

        Assert.That(Session.Delete("k"u8).Found, Is.True);
        Assert.That(_ts.Counts.Disposals.Single().ValueIsObject, Is.True, "DisposeRecord sees the bit to know what to release");
    }

    [Test]
    public void ReusingAnExpiredObjectRecordClearsIt([Values("Upsert", "RMW")] string operation)
    {
        var input = TestInput.Append(TestData.Value(1, 8));
        input.ExpirationUnixMs = Past;
        input.MarkObject = true;
        Session.RMW("k"u8, input, out var created);
        Assert.That(Log.GetRecord(created.Address).Info.ValueIsObject, Is.True);
        _ts.Counts.Reset();

        var upsertInput = new TestInput();
        var output = new TestOutput();
        var status = operation == "Upsert"
            ? Session.Upsert("k"u8, TestData.Value(2, 8), ref upsertInput, ref output)
            : Session.RMW("k"u8, TestInput.Append(TestData.Value(2, 8)), out output);

        Assert.That(status.IsCreatedRecord, Is.True, status.ToString());
        Assert.That(output.Address, Is.EqualTo(created.Address), "the expired record was reused in place");
        var disposal = _ts.Counts.Disposals.Single();
        Assert.That((disposal.Reason, disposal.ValueIsObject), Is.EqualTo((DisposeReason.Expired, true)), "disposed while it still held the object");
        Assert.That(Log.GetRecord(created.Address).Info.ValueIsObject, Is.False, "the new value is bytes");
    }

    [Test]
    public void ReusingADeletedObjectRecordClearsIt()
    {
        // An older read-only record keeps the mutable tombstone in the chain, where the next write reuses it.
        UpsertAt("k"u8, TestData.Value(1, 40), default);
        Log.ShiftReadOnlyToTail();
        long mutable = UpsertAt("k"u8, TestData.Value(2, 40), new TestInput { MarkObject = true });
        Assert.That(Session.Delete("k"u8).Found, Is.True);
        Assert.That(Log.GetRecord(mutable).Info.ValueIsObject, Is.True, "a tombstone keeps its header bits");

        Assert.That(UpsertAt("k"u8, TestData.Value(3, 40), default), Is.EqualTo(mutable));
        Assert.That(Log.GetRecord(mutable).Info.ValueIsObject, Is.False);
    }

    [Test]
    public void ARecordInRevivifiedSpaceDoesNotInheritIt()
    {
        long freed = UpsertAt(TestData.FixedKey(1), TestData.Value(1, 24), new TestInput { MarkObject = true });
        UpsertAt(TestData.FixedKey(2), TestData.Value(2, 24), default);
        Assert.That(Session.Delete(TestData.FixedKey(1)).Found, Is.True);
        Assert.That(_ts.Store.FreeRecordCount, Is.EqualTo(1));

        long reused = UpsertAt(TestData.FixedKey(3), TestData.Value(3, 24), default);

        Assert.That(reused, Is.EqualTo(freed));
        Assert.That(_ts.Store.RevivifiedRecordCount, Is.EqualTo(1));
        Assert.That(Log.GetRecord(reused).Info.ValueIsObject, Is.False);
    }
}
