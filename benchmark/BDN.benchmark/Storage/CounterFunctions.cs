using System;
using System.Buffers.Binary;
using Tsavorite;

namespace BDN.benchmark.Storage;

/// <summary>
/// Callbacks for 8-byte values: Upsert stores the value, Read copies it out as a long, and RMW adds
/// the input to it (the shape of INCRBY).
/// </summary>
public struct CounterFunctions : ISessionFunctions<long, long>
{
    public bool Reader(in LogRecord record, ref long input, ref long output, ref ReadInfo readInfo)
    {
        output = BinaryPrimitives.ReadInt64LittleEndian(record.Value);
        return true;
    }

    public RecordFieldInfo GetUpsertFieldInfo(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ref long input) => new(value.Length);

    public bool InPlaceWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref long input, ref long output, ref UpsertInfo upsertInfo)
        => SessionFunctionsDefaults.TryOverwrite(ref record, value);

    public bool InitialWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref long input, ref long output, ref UpsertInfo upsertInfo)
    {
        value.CopyTo(record.Value);
        return true;
    }

    public void PostInitialWriter(ref LogRecord record, ref long input, ref long output, ref UpsertInfo upsertInfo)
    {
    }

    public bool NeedInitialUpdate(ReadOnlySpan<byte> key, ref long input, ref long output, ref RMWInfo rmwInfo) => true;

    public RecordFieldInfo GetRMWInitialFieldInfo(ReadOnlySpan<byte> key, ref long input) => new(sizeof(long));

    public bool InitialUpdater(ref LogRecord record, ref long input, ref long output, ref RMWInfo rmwInfo)
    {
        BinaryPrimitives.WriteInt64LittleEndian(record.Value, input);
        output = input;
        return true;
    }

    public void PostInitialUpdater(ref LogRecord record, ref long input, ref long output, ref RMWInfo rmwInfo)
    {
    }

    public unsafe bool InPlaceUpdater(ref LogRecord record, ref long input, ref long output, ref RMWInfo rmwInfo)
    {
        long* value = (long*)record.ValuePointer;
        output = *value += input;
        return true;
    }

    public bool NeedCopyUpdate(in LogRecord source, ref long input, ref long output, ref RMWInfo rmwInfo) => true;

    public RecordFieldInfo GetRMWModifiedFieldInfo(in LogRecord source, ref long input) => new(sizeof(long));

    public bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref long input, ref long output, ref RMWInfo rmwInfo)
    {
        output = BinaryPrimitives.ReadInt64LittleEndian(source.Value) + input;
        BinaryPrimitives.WriteInt64LittleEndian(destination.Value, output);
        return true;
    }

    public void PostCopyUpdater(in LogRecord source, ref LogRecord destination, ref long input, ref long output, ref RMWInfo rmwInfo)
    {
    }

    public bool InPlaceDeleter(ref LogRecord record, ref DeleteInfo deleteInfo) => true;

    public void DisposeRecord(ref LogRecord record, DisposeReason reason)
    {
    }
}
