using System.Linq;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>Which callbacks fire, and what the log looks like after, for each path of each operation.</summary>
[TestFixture]
public sealed class CallbackPathTests
{
    private TestStore _ts = null!;

    [SetUp]
    public void SetUp() => _ts = new TestStore();

    [TearDown]
    public void TearDown() => _ts.Dispose();

    private TestSession Session => _ts.Session;

    private CallbackCounts Counts => _ts.Counts;

    private HybridLog Log => _ts.Log;

    [Test]
    public void UpsertOfANewKeyWritesANewRecord()
    {
        long tail = Log.TailAddress;
        var input = new TestInput();
        var output = new TestOutput();
        var status = Session.Upsert("k"u8, "value"u8, ref input, ref output);

        Assert.That(status.IsCreatedRecord, Is.True, status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.InitialWriter | Callback.PostInitialWriter));
        Assert.That(Counts.Of(Callback.GetUpsertFieldInfo), Is.EqualTo(1));
        Assert.That(output.Address, Is.EqualTo(tail));
        Assert.That(Log.TailAddress, Is.GreaterThan(tail));
    }

    [Test]
    public void RMWExistingOfAnUnindexedKeyCallsNothingAndLeavesNoEntry()
    {
        long tail = Log.TailAddress;
        var input = TestInput.Increment(1);
        var output = new TestOutput();

        var status = Session.RMWExisting("absent"u8, ref input, ref output);

        Assert.That(status.NotFound, Is.True, status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.None));
        Assert.That(_ts.ChainHead("absent"u8.ToArray()), Is.Zero, "no index entry was created");
        Assert.That(Log.TailAddress, Is.EqualTo(tail));
    }

    [Test]
    public void RMWExistingOfAnExistingKeyUpdatesIt()
    {
        Session.RMW("c"u8, TestInput.Increment(5), out _);
        Counts.Reset();
        var input = TestInput.Increment(2);
        var output = new TestOutput();

        var status = Session.RMWExisting("c"u8, ref input, ref output);

        Assert.That(status.Found, Is.True, status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.InPlaceUpdater));
        Assert.That(Session.Read("c"u8, out var value).Found, Is.True);
        Assert.That(System.BitConverter.ToInt64(value), Is.EqualTo(7));
    }

    [Test]
    public void UpsertOfAMutableRecordWritesInPlace()
    {
        var input = new TestInput();
        var output = new TestOutput();
        Session.Upsert("k"u8, "value"u8, ref input, ref output);
        long address = output.Address;
        long tail = Log.TailAddress;
        Counts.Reset();

        var status = Session.Upsert("k"u8, "VALUE"u8, ref input, ref output);

        Assert.That(status.IsInPlaceUpdated, Is.True, status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.InPlaceWriter));
        Assert.That(output.Address, Is.EqualTo(address));
        Assert.That(Log.TailAddress, Is.EqualTo(tail));
        Assert.That(Session.Read("k"u8, out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo("VALUE"u8.ToArray()));
    }

    [Test]
    public void UpsertOfABiggerValueWritesANewRecordAndFreesTheOld()
    {
        var input = new TestInput();
        var output = new TestOutput();
        Session.Upsert("k"u8, TestData.Value(1, 8), ref input, ref output);
        long oldAddress = output.Address;
        long tail = Log.TailAddress;
        Counts.Reset();

        var status = Session.Upsert("k"u8, TestData.Value(2, 100), ref input, ref output);

        Assert.That((status.Found, status.IsCreatedRecord), Is.EqualTo((true, true)), status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.InPlaceWriter | Callback.InitialWriter | Callback.PostInitialWriter | Callback.DisposeRecord));
        Assert.That(output.Address, Is.EqualTo(tail));
        var disposal = Counts.Disposals.Single();
        Assert.That(disposal.Reason, Is.EqualTo(DisposeReason.Superseded));
        Assert.That(disposal.Value, Is.EqualTo(TestData.Value(1, 8)), "the old value is handed over intact");
        Assert.That(disposal.ChainHead, Is.EqualTo(output.Address), "the new record is linked before the old one is disposed");
        Assert.That(Log.GetRecord(oldAddress).Info.Abandoned, Is.True, "the superseded record is unlinked");
        Assert.That(_ts.Store.FreeRecordCount, Is.EqualTo(1), "its space waits for reuse");
        Assert.That(Session.Read("k"u8, out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo(TestData.Value(2, 100)));
    }

    [Test]
    public void UpsertOfAReadOnlyRecordWritesANewRecordAndKeepsTheOld()
    {
        var input = new TestInput();
        var output = new TestOutput();
        Session.Upsert("k"u8, "old"u8, ref input, ref output);
        long oldAddress = output.Address;
        Log.ShiftReadOnlyToTail();
        Counts.Reset();

        var status = Session.Upsert("k"u8, "new"u8, ref input, ref output);

        Assert.That((status.Found, status.IsCreatedRecord), Is.EqualTo((true, true)), status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.InitialWriter | Callback.PostInitialWriter | Callback.DisposeRecord));
        Assert.That(output.Address, Is.GreaterThanOrEqualTo(Log.ReadOnlyAddress));
        var disposal = Counts.Disposals.Single();
        Assert.That((disposal.Reason, disposal.Value), Is.EqualTo((DisposeReason.Superseded, "old"u8.ToArray())));
        Assert.That(disposal.ChainHead, Is.EqualTo(output.Address), "the new record is linked before the old one is disposed");
        Assert.That(Log.GetRecord(oldAddress).Info.Valid, Is.True, "read-only records are never changed");
        Assert.That(_ts.Store.FreeRecordCount, Is.Zero);
        Assert.That(Session.Read("k"u8, out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo("new"u8.ToArray()));
    }

    [Test]
    public void RmwOfANewKeyCreatesIt()
    {
        var status = Session.RMW("c"u8, TestInput.Increment(5), out var output);

        Assert.That((status.NotFound, status.IsCreatedRecord), Is.EqualTo((true, true)), status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.NeedInitialUpdate | Callback.InitialUpdater | Callback.PostInitialUpdater));
        Assert.That(Counts.Of(Callback.GetRMWInitialFieldInfo), Is.EqualTo(1));
        Assert.That(output.AsLong, Is.EqualTo(5));
    }

    [Test]
    public void NeedInitialUpdateReturningFalseLeavesTheKeyAbsent()
    {
        long tail = Log.TailAddress;
        var input = TestInput.Increment(5);
        input.RefuseIn = Callback.NeedInitialUpdate;
        var status = Session.RMW("c"u8, input, out _);

        Assert.That(status.NotFound, Is.True, status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.NeedInitialUpdate));
        Assert.That(Log.TailAddress, Is.EqualTo(tail));
        Assert.That(Session.Read("c"u8, out _).NotFound, Is.True);
    }

    [Test]
    public void RmwOfAMutableRecordUpdatesInPlace()
    {
        Session.RMW("c"u8, TestInput.Increment(5), out var created);
        long tail = Log.TailAddress;
        Counts.Reset();

        var status = Session.RMW("c"u8, TestInput.Increment(2), out var output);

        Assert.That((status.Found, status.IsInPlaceUpdated), Is.EqualTo((true, true)), status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.InPlaceUpdater));
        Assert.That(output.Address, Is.EqualTo(created.Address));
        Assert.That(output.AsLong, Is.EqualTo(7));
        Assert.That(Log.TailAddress, Is.EqualTo(tail));
    }

    [Test]
    public void RmwOfAReadOnlyRecordCopiesItAboveTheReadOnlyAddress()
    {
        Session.RMW("c"u8, TestInput.Increment(5), out var created);
        Log.ShiftReadOnlyToTail();
        Assert.That(created.Address, Is.LessThan(Log.ReadOnlyAddress));
        Counts.Reset();

        var status = Session.RMW("c"u8, TestInput.Increment(2), out var output);

        Assert.That((status.Found, status.IsCopyUpdated, status.IsInPlaceUpdated), Is.EqualTo((true, true, false)), status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.NeedCopyUpdate | Callback.CopyUpdater | Callback.PostCopyUpdater));
        Assert.That(output.Address, Is.GreaterThanOrEqualTo(Log.ReadOnlyAddress));
        Assert.That(output.AsLong, Is.EqualTo(7));
        Assert.That(Log.GetRecord(created.Address).Info.Valid, Is.True, "the read-only source stays as it was");
        Assert.That(Session.ReadCounter("c"u8), Is.EqualTo(7));

        // The copy is mutable: the next RMW updates it in place.
        Counts.Reset();
        Assert.That(Session.Increment("c"u8, 1).IsInPlaceUpdated, Is.True);
        Assert.That(Counts.Fired, Is.EqualTo(Callback.InPlaceUpdater));
    }

    [Test]
    public void NeedCopyUpdateReturningFalseWritesNothing()
    {
        Session.Increment("c"u8, 5);
        Log.ShiftReadOnlyToTail();
        long tail = Log.TailAddress;
        Counts.Reset();

        var input = TestInput.Increment(2);
        input.RefuseIn = Callback.NeedCopyUpdate;
        var status = Session.RMW("c"u8, input, out _);

        Assert.That((status.Found, status.IsCopyUpdated, status.IsCreatedRecord), Is.EqualTo((true, false, false)), status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.NeedCopyUpdate));
        Assert.That(Log.TailAddress, Is.EqualTo(tail));
        Assert.That(Session.ReadCounter("c"u8), Is.EqualTo(5));
    }

    [Test]
    public void InPlaceUpdaterReturningFalseCopiesTheRecord()
    {
        Session.RMW("c"u8, TestInput.Increment(5), out var created);
        Counts.Reset();

        var input = TestInput.Increment(2);
        input.RefuseIn = Callback.InPlaceUpdater;
        var status = Session.RMW("c"u8, input, out var output);

        Assert.That((status.Found, status.IsCopyUpdated), Is.EqualTo((true, true)), status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.InPlaceUpdater | Callback.CopyUpdater | Callback.PostCopyUpdater));
        Assert.That(output.Address, Is.Not.EqualTo(created.Address));
        Assert.That(Log.GetRecord(created.Address).Info.Abandoned, Is.True, "the mutable source heading its chain is replaced");
        Assert.That(Session.ReadCounter("c"u8), Is.EqualTo(7));
    }

    [Test]
    public void AppendGrowsInPlaceWithinTheSlackThenCopies()
    {
        // A 4-byte value is padded to 8 bytes; 8 bytes of slack let it grow to 16 bytes in place.
        var input = TestInput.Append("abcd"u8.ToArray());
        input.ExtraValueSpace = 8;
        Session.RMW("s"u8, input, out var created);
        Assert.That(Log.GetRecord(created.Address).MaxValueLength, Is.EqualTo(16));
        Counts.Reset();

        Assert.That(Session.RMW("s"u8, TestInput.Append("efgh"u8.ToArray()), out var grown).IsInPlaceUpdated, Is.True);
        Assert.That(Session.RMW("s"u8, TestInput.Append("ijkl"u8.ToArray()), out _).IsInPlaceUpdated, Is.True);
        Assert.That(Session.RMW("s"u8, TestInput.Append("mnop"u8.ToArray()), out _).IsInPlaceUpdated, Is.True);
        Assert.That(grown.Address, Is.EqualTo(created.Address));
        Assert.That(Counts.Fired, Is.EqualTo(Callback.InPlaceUpdater));

        Counts.Reset();
        var status = Session.RMW("s"u8, TestInput.Append("qrst"u8.ToArray()), out var copied);
        Assert.That(status.IsCopyUpdated, Is.True, status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.InPlaceUpdater | Callback.CopyUpdater | Callback.PostCopyUpdater));
        Assert.That(copied.Address, Is.Not.EqualTo(created.Address));
        Assert.That(Session.Read("s"u8, out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo("abcdefghijklmnopqrst"u8.ToArray()));
    }

    [Test]
    public void ExpireAndStopFromInPlaceUpdaterDeletesTheKey()
    {
        Session.Increment("c"u8, 5);
        Counts.Reset();

        var status = Session.RMW("c"u8, new TestInput { Op = TestOp.ExpireAndStop }, out _);

        Assert.That(status.NotFound, Is.True, status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.InPlaceUpdater | Callback.DisposeRecord));
        Assert.That(Counts.DisposeReasons, Is.EqualTo(new[] { DisposeReason.Deleted }));
        Assert.That(Counts.Disposals[0].Tombstone, Is.False, "a mutable record is disposed before it becomes a tombstone");
        Assert.That(Session.Read("c"u8, out _).NotFound, Is.True);
        Assert.That(Session.ScanAll(), Is.Empty);
    }

    [Test]
    public void ExpireAndStopFromNeedCopyUpdateDeletesAReadOnlyKey()
    {
        Session.Increment("c"u8, 5);
        Log.ShiftReadOnlyToTail();
        long tail = Log.TailAddress;
        Counts.Reset();

        var status = Session.RMW("c"u8, new TestInput { Op = TestOp.ExpireAndStop }, out _);

        Assert.That(status.NotFound, Is.True, status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.NeedCopyUpdate | Callback.DisposeRecord));
        Assert.That(Counts.DisposeReasons, Is.EqualTo(new[] { DisposeReason.Deleted }));
        Assert.That(Counts.Disposals[0].ChainHead, Is.EqualTo(tail), "the tombstone is linked before the read-only record is disposed");
        Assert.That(Log.TailAddress, Is.GreaterThan(tail), "a tombstone shadows the read-only record");
        Assert.That(Session.Read("c"u8, out _).NotFound, Is.True);
        Assert.That(Session.ScanAll(), Is.Empty);
    }

    [Test]
    public void DeleteOfAMutableRecordCallsInPlaceDeleter()
    {
        Session.Upsert("k"u8, "v"u8);
        long tail = Log.TailAddress;
        Counts.Reset();

        var status = Session.Delete("k"u8);

        Assert.That(status.Found, Is.True, status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.InPlaceDeleter | Callback.DisposeRecord));
        var disposal = Counts.Disposals.Single();
        Assert.That((disposal.Reason, disposal.Value, disposal.Tombstone), Is.EqualTo((DisposeReason.Deleted, "v"u8.ToArray(), false)),
            "a mutable record is disposed before it becomes a tombstone");
        Assert.That(Log.TailAddress, Is.EqualTo(tail));
        Assert.That(Session.Read("k"u8, out _).NotFound, Is.True);
    }

    [Test]
    public void DeleteOfAReadOnlyRecordAppendsATombstone()
    {
        Session.Upsert("k"u8, "v"u8);
        Session.Upsert("other"u8, "v"u8);
        Log.ShiftReadOnlyToTail();
        long tail = Log.TailAddress;
        Counts.Reset();

        var status = Session.Delete("k"u8);

        Assert.That(status.Found, Is.True, status.ToString());
        Assert.That(Counts.Fired, Is.EqualTo(Callback.DisposeRecord), "a read-only record is not handed to InPlaceDeleter");
        var disposal = Counts.Disposals.Single();
        Assert.That((disposal.Reason, disposal.Value), Is.EqualTo((DisposeReason.Deleted, "v"u8.ToArray())));
        Assert.That(disposal.ChainHead, Is.EqualTo(tail), "the tombstone is linked before the read-only record is disposed");
        Assert.That(Log.TailAddress, Is.GreaterThan(tail));
        Assert.That(Session.Read("k"u8, out _).NotFound, Is.True);
        Assert.That(Session.Delete("k"u8).NotFound, Is.True);
        Assert.That(Counts.Disposals, Has.Length.EqualTo(1), "deleting a deleted key disposes nothing");
        var scanned = Session.ScanAll();
        Assert.That(scanned, Has.Count.EqualTo(1));
        Assert.That(scanned[0].Key, Is.EqualTo("other"u8.ToArray()));

        // Writing the key again hides the tombstone, which has no value to dispose.
        Assert.That(Session.Increment("k"u8, 3).IsCreatedRecord, Is.True);
        Assert.That(Session.ReadCounter("k"u8), Is.EqualTo(3));
        Assert.That(Counts.Disposals, Has.Length.EqualTo(1));
    }
}
