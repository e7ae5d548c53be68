using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.Threading;

namespace Tsavorite.test;

/// <summary>The engine callbacks, as flags so a test can name a set of them.</summary>
[Flags]
public enum Callback
{
    None = 0,
    Reader = 1 << 0,
    GetUpsertFieldInfo = 1 << 1,
    InPlaceWriter = 1 << 2,
    InitialWriter = 1 << 3,
    PostInitialWriter = 1 << 4,
    NeedInitialUpdate = 1 << 5,
    GetRMWInitialFieldInfo = 1 << 6,
    InitialUpdater = 1 << 7,
    PostInitialUpdater = 1 << 8,
    InPlaceUpdater = 1 << 9,
    NeedCopyUpdate = 1 << 10,
    GetRMWModifiedFieldInfo = 1 << 11,
    CopyUpdater = 1 << 12,
    PostCopyUpdater = 1 << 13,
    InPlaceDeleter = 1 << 14,
    DisposeRecord = 1 << 15,

    /// <summary>The sizing queries, which say nothing about the path an operation took.</summary>
    FieldInfo = GetUpsertFieldInfo | GetRMWInitialFieldInfo | GetRMWModifiedFieldInfo,
}

/// <summary>What an RMW with <see cref="TestInput"/> does to the value.</summary>
internal enum TestOp : byte
{
    /// <summary>Upsert writes the given value; RMW leaves the value as it is.</summary>
    None,

    /// <summary>The value is a little-endian 64-bit counter: add <see cref="TestInput.Delta"/> (created as Delta).</summary>
    Increment,

    /// <summary>Append <see cref="TestInput.Bytes"/> to the value (created as Bytes).</summary>
    Append,

    /// <summary>Give an existing record <see cref="TestInput.ExpirationUnixMs"/>; an absent key stays absent.</summary>
    SetExpiration,

    /// <summary>Delete the record from whichever updater sees it first (InPlaceUpdater, NeedCopyUpdate, CopyUpdater); an absent key stays absent.</summary>
    ExpireAndStop,
}

/// <summary>The input of the test callbacks: an RMW operation and knobs to steer the engine's paths.</summary>
internal struct TestInput
{
    public TestOp Op;
    public long Delta;
    public byte[]? Bytes;

    /// <summary>When non-zero, new records (and in-place writes) carry this expiration.</summary>
    public long ExpirationUnixMs;

    /// <summary>Slack to reserve in new records so values can grow in place.</summary>
    public int ExtraValueSpace;

    /// <summary>Callbacks that cancel the operation (set <see cref="OperationAction.CancelOperation"/> and return false).</summary>
    public Callback CancelIn;

    /// <summary>
    /// Callbacks that return false without an action: Reader reports not-found, InPlaceWriter and
    /// InPlaceUpdater send the engine to a new record, NeedCopyUpdate and NeedInitialUpdate write nothing.
    /// </summary>
    public Callback RefuseIn;

    /// <summary>InitialWriter and InitialUpdater set <see cref="RecordInfo.ValueIsObject"/> on the records they write.</summary>
    public bool MarkObject;

    public static TestInput Increment(long delta) => new() { Op = TestOp.Increment, Delta = delta };

    public static TestInput Append(byte[] bytes) => new() { Op = TestOp.Append, Bytes = bytes };
}

/// <summary>What the callbacks saw: a copy of the record's value after the operation, its address and expiration.</summary>
internal struct TestOutput
{
    public byte[]? Value;
    public long Address;
    public long Expiration;

    public readonly long AsLong => BinaryPrimitives.ReadInt64LittleEndian(Value);

    public void Capture(in LogRecord record, long address)
    {
        Value = record.Value.ToArray();
        Address = address;
        Expiration = record.Expiration;
    }
}

/// <summary>
/// One call of DisposeRecord: the record as the callback saw it (key, value, header bits) and the
/// address the key's hash entry held at that moment (0 when it had none), which tells whether a
/// replacing record was already linked.
/// </summary>
internal sealed record Disposal(byte[] Key, DisposeReason Reason, byte[] Value, bool Tombstone, bool ValueIsObject, long PhysicalAddress, long ChainHead);

/// <summary>How often each callback fired; shared by the copies of a <see cref="TestFunctions"/> struct.</summary>
internal sealed class CallbackCounts
{
    private const int CallbackKinds = 16;
    private readonly long[] _counts = new long[CallbackKinds];
    private readonly List<Disposal> _disposals = new();

    /// <summary>Reads the address a key's hash entry holds; set by the store the callbacks run on.</summary>
    public Func<byte[], long>? ChainHeadOf { get; set; }

    public void Add(Callback callback) => Interlocked.Increment(ref _counts[System.Numerics.BitOperations.Log2((uint)callback)]);

    public long Of(Callback callback) => Volatile.Read(ref _counts[System.Numerics.BitOperations.Log2((uint)callback)]);

    /// <summary>The callbacks that fired since the last <see cref="Reset"/>, sizing queries left out.</summary>
    public Callback Fired
    {
        get
        {
            var fired = Callback.None;
            for (int i = 0; i < CallbackKinds; i++)
            {
                if (Volatile.Read(ref _counts[i]) != 0)
                    fired |= (Callback)(1 << i);
            }
            return fired & ~Callback.FieldInfo;
        }
    }

    /// <summary>Records one DisposeRecord call (the callback holds the bucket latch; this takes only its own lock).</summary>
    public void AddDisposal(in LogRecord record, DisposeReason reason)
    {
        byte[] key = record.Key.ToArray();
        var info = record.Info;
        var disposal = new Disposal(key, reason, record.Value.ToArray(), info.Tombstone, info.ValueIsObject, record.PhysicalAddress, ChainHeadOf?.Invoke(key) ?? 0);
        lock (_disposals)
            _disposals.Add(disposal);
        Add(Callback.DisposeRecord);
    }

    /// <summary>The DisposeRecord calls since the last <see cref="Reset"/>, in order.</summary>
    public Disposal[] Disposals
    {
        get
        {
            lock (_disposals)
                return _disposals.ToArray();
        }
    }

    /// <summary>The reasons of <see cref="Disposals"/>, in order.</summary>
    public DisposeReason[] DisposeReasons => Array.ConvertAll(Disposals, d => d.Reason);

    public void Reset()
    {
        Array.Clear(_counts);
        lock (_disposals)
            _disposals.Clear();
    }
}

/// <summary>
/// Callbacks over byte values: Upsert writes the value (and an optional expiration), RMW applies
/// <see cref="TestInput.Op"/>, and every callback counts itself in <see cref="Counts"/>.
/// </summary>
internal readonly struct TestFunctions : ISessionFunctions<TestInput, TestOutput>
{
    public TestFunctions(CallbackCounts counts) => Counts = counts;

    public CallbackCounts Counts { get; }

    /// <summary>InPlaceDeleter cancels (Delete has no input to carry the knob).</summary>
    public bool CancelDeletes { get; init; }

    /// <summary>ShadowDeleter cancels: deletes of read-only or on-device records do not go ahead.</summary>
    public bool CancelShadowDeletes { get; init; }

    public bool Reader(in LogRecord record, ref TestInput input, ref TestOutput output, ref ReadInfo readInfo)
    {
        if (!Enter(Callback.Reader, in input, ref readInfo.Action))
            return false;
        output.Capture(in record, readInfo.Address);
        return true;
    }

    public RecordFieldInfo GetUpsertFieldInfo(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ref TestInput input)
    {
        Counts.Add(Callback.GetUpsertFieldInfo);
        return new RecordFieldInfo(value.Length) { HasExpiration = input.ExpirationUnixMs != 0, ExtraValueSpace = input.ExtraValueSpace };
    }

    public bool InPlaceWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref TestInput input, ref TestOutput output, ref UpsertInfo upsertInfo)
    {
        if (!Enter(Callback.InPlaceWriter, in input, ref upsertInfo.Action))
            return false;
        if (input.ExpirationUnixMs != 0)
        {
            if (!record.TrySetExpiration(input.ExpirationUnixMs))
                return false;
        }
        else
        {
            record.RemoveExpiration();
        }
        if (!SessionFunctionsDefaults.TryOverwrite(ref record, value))
            return false;
        output.Capture(in record, upsertInfo.Address);
        return true;
    }

    public bool InitialWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref TestInput input, ref TestOutput output, ref UpsertInfo upsertInfo)
    {
        if (!Enter(Callback.InitialWriter, in input, ref upsertInfo.Action))
            return false;
        value.CopyTo(record.Value);
        if (input.ExpirationUnixMs != 0)
            record.TrySetExpiration(input.ExpirationUnixMs);
        if (input.MarkObject)
            record.Info.ValueIsObject = true;
        output.Capture(in record, upsertInfo.Address);
        return true;
    }

    public void PostInitialWriter(ref LogRecord record, ref TestInput input, ref TestOutput output, ref UpsertInfo upsertInfo)
        => Counts.Add(Callback.PostInitialWriter);

    public bool NeedInitialUpdate(ReadOnlySpan<byte> key, ref TestInput input, ref TestOutput output, ref RMWInfo rmwInfo)
        => Enter(Callback.NeedInitialUpdate, in input, ref rmwInfo.Action) && input.Op is not (TestOp.SetExpiration or TestOp.ExpireAndStop);

    public RecordFieldInfo GetRMWInitialFieldInfo(ReadOnlySpan<byte> key, ref TestInput input)
    {
        Counts.Add(Callback.GetRMWInitialFieldInfo);
        int length = input.Op switch
        {
            TestOp.Increment => sizeof(long),
            TestOp.Append => input.Bytes!.Length,
            _ => 0,
        };
        return new RecordFieldInfo(length) { HasExpiration = input.ExpirationUnixMs != 0, ExtraValueSpace = input.ExtraValueSpace };
    }

    public bool InitialUpdater(ref LogRecord record, ref TestInput input, ref TestOutput output, ref RMWInfo rmwInfo)
    {
        if (!Enter(Callback.InitialUpdater, in input, ref rmwInfo.Action))
            return false;
        if (input.Op == TestOp.Increment)
            BinaryPrimitives.WriteInt64LittleEndian(record.Value, input.Delta);
        else if (input.Op == TestOp.Append)
            input.Bytes.CopyTo(record.Value);
        if (input.ExpirationUnixMs != 0)
            record.TrySetExpiration(input.ExpirationUnixMs);
        if (input.MarkObject)
            record.Info.ValueIsObject = true;
        output.Capture(in record, rmwInfo.Address);
        return true;
    }

    public void PostInitialUpdater(ref LogRecord record, ref TestInput input, ref TestOutput output, ref RMWInfo rmwInfo)
        => Counts.Add(Callback.PostInitialUpdater);

    public bool InPlaceUpdater(ref LogRecord record, ref TestInput input, ref TestOutput output, ref RMWInfo rmwInfo)
    {
        if (!Enter(Callback.InPlaceUpdater, in input, ref rmwInfo.Action))
            return false;
        switch (input.Op)
        {
            case TestOp.Increment:
                BinaryPrimitives.WriteInt64LittleEndian(record.Value, BinaryPrimitives.ReadInt64LittleEndian(record.Value) + input.Delta);
                break;
            case TestOp.Append:
                int oldLength = record.ValueLength;
                if (!record.TrySetValueLength(oldLength + input.Bytes!.Length))
                    return false;
                input.Bytes.CopyTo(record.Value[oldLength..]);
                break;
            case TestOp.SetExpiration:
                if (!record.TrySetExpiration(input.ExpirationUnixMs))
                    return false;
                break;
            case TestOp.ExpireAndStop:
                rmwInfo.Action = OperationAction.ExpireAndStop;
                return true;
        }
        output.Capture(in record, rmwInfo.Address);
        return true;
    }

    public bool NeedCopyUpdate(in LogRecord source, ref TestInput input, ref TestOutput output, ref RMWInfo rmwInfo)
    {
        if (!Enter(Callback.NeedCopyUpdate, in input, ref rmwInfo.Action))
            return false;
        if (input.Op == TestOp.ExpireAndStop)
        {
            rmwInfo.Action = OperationAction.ExpireAndStop;
            return false;
        }
        return true;
    }

    public RecordFieldInfo GetRMWModifiedFieldInfo(in LogRecord source, ref TestInput input)
    {
        Counts.Add(Callback.GetRMWModifiedFieldInfo);
        int length = input.Op switch
        {
            TestOp.Increment => sizeof(long),
            TestOp.Append => source.ValueLength + input.Bytes!.Length,
            _ => source.ValueLength,
        };
        bool hasExpiration = source.Info.HasExpiration || input.Op == TestOp.SetExpiration;
        return new RecordFieldInfo(length) { HasExpiration = hasExpiration, ExtraValueSpace = input.ExtraValueSpace };
    }

    public bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref TestInput input, ref TestOutput output, ref RMWInfo rmwInfo)
    {
        if (!Enter(Callback.CopyUpdater, in input, ref rmwInfo.Action))
            return false;
        if (input.Op == TestOp.ExpireAndStop)
        {
            rmwInfo.Action = OperationAction.ExpireAndStop;
            return false;
        }
        source.Value.CopyTo(destination.Value);
        if (source.Info.HasExpiration)
            destination.TrySetExpiration(source.Expiration);
        switch (input.Op)
        {
            case TestOp.Increment:
                BinaryPrimitives.WriteInt64LittleEndian(destination.Value, BinaryPrimitives.ReadInt64LittleEndian(source.Value) + input.Delta);
                break;
            case TestOp.Append:
                input.Bytes.CopyTo(destination.Value[source.ValueLength..]);
                break;
            case TestOp.SetExpiration:
                destination.TrySetExpiration(input.ExpirationUnixMs);
                break;
        }
        output.Capture(in destination, rmwInfo.Address);
        return true;
    }

    public void PostCopyUpdater(in LogRecord source, ref LogRecord destination, ref TestInput input, ref TestOutput output, ref RMWInfo rmwInfo)
        => Counts.Add(Callback.PostCopyUpdater);

    public bool InPlaceDeleter(ref LogRecord record, ref DeleteInfo deleteInfo)
    {
        Counts.Add(Callback.InPlaceDeleter);
        if (!CancelDeletes)
            return true;
        deleteInfo.Action = OperationAction.CancelOperation;
        return false;
    }

    public bool ShadowDeleter(in LogRecord record, ref DeleteInfo deleteInfo)
    {
        if (!CancelShadowDeletes)
            return true;
        deleteInfo.Action = OperationAction.CancelOperation;
        return false;
    }

    public void DisposeRecord(ref LogRecord record, DisposeReason reason)
        => Counts.AddDisposal(in record, reason);

    /// <summary>Counts the callback and applies the input's cancel and refuse knobs; false when the callback must return false.</summary>
    private bool Enter(Callback callback, in TestInput input, ref OperationAction action)
    {
        Counts.Add(callback);
        if ((input.CancelIn & callback) != 0)
        {
            action = OperationAction.CancelOperation;
            return false;
        }
        return (input.RefuseIn & callback) == 0;
    }
}
