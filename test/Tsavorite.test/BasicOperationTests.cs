using System;
using System.Collections.Generic;
using NUnit.Framework;

namespace Tsavorite.test;

[TestFixture]
public sealed class BasicOperationTests
{
    [Test]
    public void UpsertReadDeleteAndRmwOnManyKeys()
    {
        using var ts = new TestStore();
        var session = ts.Session;
        const int keyCount = 2000;

        for (int i = 0; i < keyCount; i++)
            Assert.That(session.Upsert(TestData.Key(i), TestData.Value(i, 1 + (i % 40)), default).NotFound, Is.True);
        for (int i = 0; i < keyCount; i++)
        {
            Assert.That(session.Read(TestData.Key(i), out var value).Found, Is.True, $"key {i}");
            Assert.That(value, Is.EqualTo(TestData.Value(i, 1 + (i % 40))), $"key {i}");
        }

        for (int i = 0; i < keyCount; i += 2)
            Assert.That(session.Delete(TestData.Key(i)).Found, Is.True, $"key {i}");
        for (int i = 0; i < keyCount; i++)
        {
            var status = session.Read(TestData.Key(i), out var value);
            if (i % 2 == 0)
                Assert.That(status.NotFound && value == null, Is.True, $"deleted key {i}: {status}");
            else
                Assert.That(value, Is.EqualTo(TestData.Value(i, 1 + (i % 40))), $"key {i}");
        }

        byte[] counter = "counter"u8.ToArray();
        for (int i = 1; i <= 100; i++)
            session.Increment(counter, i);
        Assert.That(session.ReadCounter(counter), Is.EqualTo(5050));

        for (int i = 0; i < keyCount; i += 2)
            Assert.That(session.Increment(TestData.Key(i), i).IsCreatedRecord, Is.True, "RMW recreates a deleted key");
        for (int i = 0; i < keyCount; i += 2)
            Assert.That(session.ReadCounter(TestData.Key(i)), Is.EqualTo(i));
    }

    [Test]
    public void AbsentKeysAreNotFound()
    {
        using var ts = new TestStore();
        var session = ts.Session;
        session.Upsert("present"u8, "v"u8);

        Assert.Multiple(() =>
        {
            Assert.That(session.Read("absent"u8, out var value).NotFound, Is.True);
            Assert.That(value, Is.Null);
            Assert.That(session.Delete("absent"u8).NotFound, Is.True);
            var expireInput = new TestInput { Op = TestOp.SetExpiration, ExpirationUnixMs = 1 };
            Assert.That(session.RMW("absent"u8, expireInput, out _).NotFound, Is.True);
            Assert.That(session.Read("absent"u8, out _).NotFound, Is.True, "an RMW that declined to create leaves the key absent");
            Assert.That(session.Read("presen"u8, out _).NotFound, Is.True, "a prefix of a key is another key");
            Assert.That(session.Read("present!"u8, out _).NotFound, Is.True);
        });
        Assert.That(session.Delete("present"u8).Found, Is.True);
        Assert.That(session.Delete("present"u8).NotFound, Is.True, "a second delete finds nothing");
    }

    [Test]
    public void BinaryKeysWithNulBytesAreDistinct()
    {
        using var ts = new TestStore();
        var session = ts.Session;
        byte[][] keys = [[0], [0, 0], [0, 0, 0], [(byte)'a', 0, (byte)'b'], [(byte)'a', 0, (byte)'c'], [(byte)'a'], [(byte)'a', 0], [0xFF, 0, 0xFE, 0, 0, 0, 0, 0, 0, 1]];
        for (int i = 0; i < keys.Length; i++)
            session.Upsert(keys[i], TestData.Value(i, 5 + i));
        for (int i = 0; i < keys.Length; i++)
        {
            Assert.That(session.Read(keys[i], out var value).Found, Is.True, $"key {i}");
            Assert.That(value, Is.EqualTo(TestData.Value(i, 5 + i)), $"key {i}");
        }
        Assert.That(session.ScanAll(), Has.Count.EqualTo(keys.Length));
    }

    [Test]
    public void EmptyKeyAndEmptyValue()
    {
        using var ts = new TestStore();
        var session = ts.Session;

        Assert.That(session.Upsert(ReadOnlySpan<byte>.Empty, "value of the empty key"u8).IsCreatedRecord, Is.True);
        Assert.That(session.Upsert("empty value"u8, ReadOnlySpan<byte>.Empty).IsCreatedRecord, Is.True);
        Assert.That(session.Upsert(ReadOnlySpan<byte>.Empty, "v2"u8).IsInPlaceUpdated, Is.True);

        Assert.That(session.Read(ReadOnlySpan<byte>.Empty, out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo("v2"u8.ToArray()));
        Assert.That(session.Read("empty value"u8, out value).Found, Is.True);
        Assert.That(value, Is.Empty);

        Assert.That(session.Delete(ReadOnlySpan<byte>.Empty).Found, Is.True);
        Assert.That(session.Read(ReadOnlySpan<byte>.Empty, out _).NotFound, Is.True);
        Assert.That(session.Read("empty value"u8, out _).Found, Is.True);
    }

    [Test]
    public void ValuesNearThePageSizeFitAndReadBack()
    {
        using var ts = new TestStore();
        var session = ts.Session;
        int largestRecord = ts.Log.PageSize - (int)LogAddress.FirstValidAddress;
        byte[] key = TestData.Key(0);
        int largestValue = largestRecord - RecordLayout.ValueOffset(key.Length);
        Assert.That(RecordLayout.UsedSize(key.Length, largestValue, false, false), Is.EqualTo(largestRecord));

        var values = new List<byte[]>();
        for (int i = 0; i < 8; i++)
        {
            values.Add(TestData.Value(i, largestValue - (i * 3)));
            Assert.That(session.Upsert(TestData.Key(i), values[i], default).IsCreatedRecord, Is.True);
        }
        for (int i = 0; i < values.Count; i++)
        {
            Assert.That(session.Read(TestData.Key(i), out var value).Found, Is.True);
            Assert.That(value, Is.EqualTo(values[i]));
        }
        // Values over a quarter of a page live out of line (see ExternalValueTests): the records are small.
        Assert.That(ts.Log.ExternalCount, Is.EqualTo(8));
        Assert.That(ts.Log.TailAddress, Is.LessThan(ts.Log.PageSize));
    }

    [Test]
    public void RecordLargerThanAPageThrowsAndTheStoreKeepsWorking()
    {
        using var ts = new TestStore();
        var session = ts.Session;
        session.Upsert("before"u8, "1"u8);

        // A value may be larger than a page (it goes out of line), a key may not.
        byte[] huge = new byte[ts.Log.PageSize];
        Assert.That(() => session.Upsert(huge, "v"u8), Throws.TypeOf<TsavoriteException>());
        var append = TestInput.Append("v"u8.ToArray());
        Assert.That(() => session.RMW(huge, append, out _), Throws.TypeOf<TsavoriteException>());

        Assert.That(session.Read(huge, out _).NotFound, Is.True);
        Assert.That(session.Read("before"u8, out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo("1"u8.ToArray()));
        Assert.That(session.Upsert("after"u8, "2"u8).IsCreatedRecord, Is.True);
        Assert.That(session.Upsert("huge"u8, "small now"u8).IsCreatedRecord, Is.True);
        Assert.That(session.Read("huge"u8, out value).Found, Is.True);
        Assert.That(value, Is.EqualTo("small now"u8.ToArray()));
    }

    [Test]
    public void StatusesSayWhatEachOperationDid()
    {
        using var ts = new TestStore();
        var session = ts.Session;
        byte[] key = "k"u8.ToArray();

        var status = session.Upsert(key, "v1"u8);
        Assert.That((status.NotFound, status.IsCreatedRecord, status.IsInPlaceUpdated, status.IsCopyUpdated), Is.EqualTo((true, true, false, false)), status.ToString());
        status = session.Upsert(key, "v2"u8);
        Assert.That((status.Found, status.IsCreatedRecord, status.IsInPlaceUpdated), Is.EqualTo((true, false, true)), status.ToString());
        status = session.Read(key, out _);
        Assert.That((status.Found, status.IsCreatedRecord, status.IsInPlaceUpdated), Is.EqualTo((true, false, false)), status.ToString());

        byte[] counter = "c"u8.ToArray();
        status = session.Increment(counter, 1);
        Assert.That((status.NotFound, status.IsCreatedRecord), Is.EqualTo((true, true)), status.ToString());
        status = session.Increment(counter, 1);
        Assert.That((status.Found, status.IsInPlaceUpdated), Is.EqualTo((true, true)), status.ToString());
        ts.Log.ShiftReadOnlyToTail();
        status = session.Increment(counter, 1);
        Assert.That((status.Found, status.IsCopyUpdated, status.IsInPlaceUpdated), Is.EqualTo((true, true, false)), status.ToString());
        Assert.That(session.ReadCounter(counter), Is.EqualTo(3));

        status = session.Upsert(key, "v3"u8);
        Assert.That((status.Found, status.IsCreatedRecord), Is.EqualTo((true, true)), "an upsert over a read-only record writes a new one: " + status);

        status = session.Delete(key);
        Assert.That((status.Found, status.IsCanceled, status.IsOutOfMemory, status.IsPending), Is.EqualTo((true, false, false, false)), status.ToString());
        status = session.Delete(key);
        Assert.That(status.NotFound, Is.True, status.ToString());
    }

    [Test]
    public void ReaderReturningFalseReportsNotFound()
    {
        using var ts = new TestStore();
        var session = ts.Session;
        session.Upsert("k"u8, "v"u8);

        var input = new TestInput { RefuseIn = Callback.Reader };
        var output = new TestOutput();
        var status = session.Read("k"u8, ref input, ref output);
        Assert.That(status.NotFound, Is.True, status.ToString());
        Assert.That(output.Value, Is.Null);
        Assert.That(ts.Counts.Of(Callback.Reader), Is.EqualTo(1));
        Assert.That(session.Read("k"u8, out _).Found, Is.True, "the record itself is untouched");
    }

    private static IEnumerable<TestCaseData> CancelCases()
    {
        // Callback that cancels, operation, whether the key exists first, whether it is read-only.
        yield return new TestCaseData(Callback.Reader, "read", true, false);
        yield return new TestCaseData(Callback.InitialWriter, "upsert", false, false);
        yield return new TestCaseData(Callback.InPlaceWriter, "upsert", true, false);
        yield return new TestCaseData(Callback.InitialWriter, "upsert", true, true);
        yield return new TestCaseData(Callback.NeedInitialUpdate, "rmw", false, false);
        yield return new TestCaseData(Callback.InitialUpdater, "rmw", false, false);
        yield return new TestCaseData(Callback.InPlaceUpdater, "rmw", true, false);
        yield return new TestCaseData(Callback.NeedCopyUpdate, "rmw", true, true);
        yield return new TestCaseData(Callback.CopyUpdater, "rmw", true, true);
        yield return new TestCaseData(Callback.InPlaceDeleter, "delete", true, false);
    }

    [TestCaseSource(nameof(CancelCases))]
    public void CancelingFromACallbackLeavesTheStoreUnchanged(Callback cancelIn, string operation, bool keyExists, bool readOnly)
    {
        using var ts = new TestStore();
        var session = ts.Session;
        for (int i = 0; i < 20; i++)
            session.Increment(TestData.Key(i), i);
        byte[] key = "target"u8.ToArray();
        if (keyExists)
            session.Increment(key, 42);
        if (readOnly)
            ts.Log.ShiftReadOnlyToTail();
        var before = session.Snapshot();
        ts.Counts.Reset();

        var input = TestInput.Increment(1);
        input.CancelIn = cancelIn;
        var output = new TestOutput();
        Status status;
        switch (operation)
        {
            case "read":
                status = session.Read(key, ref input, ref output);
                break;
            case "upsert":
                status = session.Upsert(key, new byte[8], ref input, ref output);
                break;
            case "rmw":
                status = session.RMW(key, ref input, ref output);
                break;
            case "delete":
                session.Functions = new TestFunctions(ts.Counts) { CancelDeletes = true };
                status = session.Delete(key);
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(operation));
        }

        Assert.That(status.IsCanceled, Is.True, status.ToString());
        Assert.That(ts.Counts.Of(cancelIn), Is.EqualTo(1));
        Assert.That(ts.Counts.Fired & (Callback.PostInitialWriter | Callback.PostInitialUpdater | Callback.PostCopyUpdater), Is.EqualTo(Callback.None));
        Assert.That(session.Snapshot(), Is.EqualTo(before));
        Assert.That(session.ReadCounter(key), Is.EqualTo(keyExists ? 42 : null));
    }
}
