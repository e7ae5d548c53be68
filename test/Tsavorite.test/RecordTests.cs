using System;
using System.Runtime.InteropServices;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>The record layout: fields move and slack is kept as values and optional fields change within the allocated space.</summary>
[TestFixture]
public sealed unsafe class RecordTests
{
    private const int BufferSize = 512;
    private byte* _buffer;

    [SetUp]
    public void SetUp() => _buffer = (byte*)NativeMemory.AlignedAlloc(BufferSize, 64);

    [TearDown]
    public void TearDown() => NativeMemory.AlignedFree(_buffer);

    /// <summary>Lays out a record for "key" in the buffer and fills its value with a pattern.</summary>
    private LogRecord NewRecord(RecordFieldInfo fields)
    {
        new Span<byte>(_buffer, BufferSize).Fill(0xCC);
        var record = new LogRecord(_buffer);
        record.Initialize("key"u8, in fields, RecordLayout.AllocatedSize(3, in fields), previousAddress: 4096);
        for (int i = 0; i < record.ValueLength; i++)
            record.Value[i] = (byte)(i + 1);
        return record;
    }

    [Test]
    public void NewRecordHoldsItsFieldsInItsAllocatedSize()
    {
        var record = NewRecord(new RecordFieldInfo(5) { HasETag = true, HasExpiration = true, ExtraValueSpace = 20 });

        Assert.Multiple(() =>
        {
            Assert.That(record.Key.ToArray(), Is.EqualTo("key"u8.ToArray()));
            Assert.That(record.ValueLength, Is.EqualTo(5));
            Assert.That(record.Info.PreviousAddress, Is.EqualTo(4096));
            Assert.That(record.Info.Valid, Is.False, "not valid until linked");
            Assert.That(record.ETag, Is.Zero);
            Assert.That(record.Expiration, Is.Zero);
            Assert.That(record.UsedSize, Is.EqualTo(RecordLayout.UsedSize(3, 5, true, true)));
            Assert.That(record.AllocatedSize, Is.EqualTo(record.UsedSize + 24), "slack rounded up to 8 bytes");
            Assert.That(record.AllocatedSize % 8, Is.Zero);
            Assert.That(record.Info.HasFiller, Is.True);
        });

        var tight = NewRecord(new RecordFieldInfo(5));
        Assert.That(tight.Info.HasFiller, Is.False);
        Assert.That(tight.AllocatedSize, Is.EqualTo(tight.UsedSize));
        Assert.That(tight.MaxValueLength, Is.EqualTo(8), "the value's padding is usable");
    }

    [Test]
    public void ValueLengthChangesKeepTheOptionalFields()
    {
        var record = NewRecord(new RecordFieldInfo(5) { HasETag = true, HasExpiration = true, ExtraValueSpace = 40 });
        Assert.That(record.TrySetETag(0x1111), Is.True);
        Assert.That(record.TrySetExpiration(0x2222), Is.True);
        int allocated = record.AllocatedSize;

        foreach (int length in new[] { 40, 3, 0, 17, record.MaxValueLength })
        {
            Assert.That(record.TrySetValueLength(length), Is.True, $"length {length}");
            Assert.That(record.ValueLength, Is.EqualTo(length));
            Assert.That(record.ETag, Is.EqualTo(0x1111), $"length {length}");
            Assert.That(record.Expiration, Is.EqualTo(0x2222), $"length {length}");
            Assert.That(record.AllocatedSize, Is.EqualTo(allocated), $"length {length}");
            if (length == 3)
                Assert.That(record.Value.ToArray(), Is.EqualTo(new byte[] { 1, 2, 3 }), "bytes up to the shorter length are kept");
        }
        Assert.That(record.TrySetValueLength(record.MaxValueLength + 1), Is.False);
        Assert.That(record.TrySetValueLength(-1), Is.False);
        Assert.That(record.AllocatedSize, Is.EqualTo(allocated));
    }

    [Test]
    public void OptionalFieldsAreAddedAndRemovedWithinTheSlack()
    {
        var record = NewRecord(new RecordFieldInfo(8) { ExtraValueSpace = 16 });
        int allocated = record.AllocatedSize;

        Assert.That(record.TrySetExpiration(0x2222), Is.True);
        Assert.That(record.TrySetETag(0x1111), Is.True, "the ETag goes before the expiration, which moves");
        Assert.That((record.ETag, record.Expiration), Is.EqualTo((0x1111L, 0x2222L)));
        Assert.That(record.Info.HasFiller, Is.False, "the slack is used up");
        Assert.That(record.MaxValueLength, Is.EqualTo(8));

        record.RemoveETag();
        Assert.That((record.Info.HasETag, record.ETag, record.Expiration), Is.EqualTo((false, 0L, 0x2222L)));
        Assert.That(record.AllocatedSize, Is.EqualTo(allocated));
        Assert.That(record.TrySetETag(0x3333), Is.True);
        record.RemoveExpiration();
        Assert.That((record.ETag, record.Info.HasExpiration, record.Expiration), Is.EqualTo((0x3333L, false, 0L)));
        Assert.That(record.AllocatedSize, Is.EqualTo(allocated));
        Assert.That(record.Value.ToArray(), Is.EqualTo(new byte[] { 1, 2, 3, 4, 5, 6, 7, 8 }));
    }

    [Test]
    public void OptionalFieldsThatDoNotFitAreRefused()
    {
        var record = NewRecord(new RecordFieldInfo(8));
        int allocated = record.AllocatedSize;

        Assert.That(record.TrySetExpiration(5), Is.False);
        Assert.That(record.TrySetETag(5), Is.False);
        Assert.That(record.TrySetValueLength(9), Is.False);
        Assert.That((record.Info.HasExpiration, record.Info.HasETag, record.ValueLength), Is.EqualTo((false, false, 8)));
        Assert.That(record.AllocatedSize, Is.EqualTo(allocated));
    }

    [Test]
    public void ReinitializeKeepsTheKeyAndTheAllocatedSize()
    {
        var record = NewRecord(new RecordFieldInfo(40) { HasETag = true });
        int allocated = record.AllocatedSize;
        record.Info.Valid = true;
        record.Info.Tombstone = true;

        record.Reinitialize(new RecordFieldInfo(10) { HasExpiration = true });

        Assert.That(record.Key.ToArray(), Is.EqualTo("key"u8.ToArray()));
        Assert.That((record.Info.Valid, record.Info.Tombstone, record.Info.HasETag, record.Info.HasExpiration), Is.EqualTo((true, false, false, true)));
        Assert.That(record.ValueLength, Is.EqualTo(10));
        Assert.That(record.Expiration, Is.Zero);
        Assert.That(record.AllocatedSize, Is.EqualTo(allocated));
        Assert.That(record.Info.PreviousAddress, Is.EqualTo(4096));
    }

    [Test]
    public void ReinitializeClearsValueIsObject()
    {
        var record = NewRecord(new RecordFieldInfo(8));
        record.Info.Valid = true;
        record.Info.ValueIsObject = true;

        record.Reinitialize(new RecordFieldInfo(8));

        Assert.That((record.Info.ValueIsObject, record.Info.Valid), Is.EqualTo((false, true)), "the reused space holds bytes until a callback says otherwise");
    }

    [Test]
    public void InitializeStartsWithoutValueIsObject()
    {
        // The buffer is filled with 0xCC first, so every header bit was set before the record was laid out.
        var record = NewRecord(new RecordFieldInfo(8));

        Assert.That(record.Info.ValueIsObject, Is.False);
    }

    [Test]
    public void ValueIsObjectIsABitOfItsOwn()
    {
        var info = default(RecordInfo);
        info.PreviousAddress = LogAddress.AddressMask;
        info.Tombstone = info.Valid = info.Sealed = info.Dirty = info.HasExpiration = info.HasETag = info.HasFiller = info.Abandoned = true;
        long others = info.Word;

        info.ValueIsObject = true;
        Assert.That(info.Word, Is.EqualTo(others | (1L << 56)));
        Assert.That(info.ToString(), Does.Contain("object=True"));

        info.ValueIsObject = false;
        Assert.That(info.Word, Is.EqualTo(others));
    }

    [Test]
    public void NegativeOrHugeFieldsAreRejected()
    {
        Assert.That(() => RecordLayout.AllocatedSize(-1, new RecordFieldInfo(1)), Throws.TypeOf<ArgumentOutOfRangeException>());
        Assert.That(() => RecordLayout.AllocatedSize(1, new RecordFieldInfo(-1)), Throws.TypeOf<ArgumentOutOfRangeException>());
        Assert.That(() => RecordLayout.AllocatedSize(1, new RecordFieldInfo(int.MaxValue - 100)), Throws.TypeOf<ArgumentOutOfRangeException>());
        Assert.That(RecordLayout.AllocatedSize(0, new RecordFieldInfo(0)), Is.EqualTo(RecordLayout.MinRecordSize));
    }
}
