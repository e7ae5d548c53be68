using System;
using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using System.Threading;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// One database's part of a checkpoint: told by the scan every record of the frozen version in log order, it writes
/// them to the file (see <see cref="CheckpointFile"/>); told by the engine of an object about to change under a frozen
/// record, it serializes it first, so each object is serialized once per checkpoint, as it was in that version.
/// </summary>
internal sealed class DatabaseSnapshot : IScanFunctions, ISnapshotCapture
{
    private readonly GarnetDatabase _database;
    private readonly ConcurrentDictionary<long, byte[]> _captured = new();
    private readonly long _now;
    private CheckpointBlockWriter? _file;

    // The address of the last record written: the scan goes in address order, so a record at or below it was written
    // already and an update of its object need not be captured (nothing would read the capture).
    private long _writtenThrough = -1;

    private readonly Checkpointer _owner;

    public DatabaseSnapshot(GarnetDatabase database, int index, Checkpointer owner)
    {
        _database = database;
        _owner = owner;
        Index = index;
        _now = Expiration.NowUnixMs;
    }

    /// <summary>The database number the records are written under (taken as the checkpoint began: SWAPDB may follow).</summary>
    public int Index { get; }

    public GarnetDatabase Database => _database;

    /// <summary>Called now and then while the scan runs: refreshes the checkpoint's protection on the other databases.</summary>
    public Action? RefreshOthers { get; set; }

    /// <summary>Records written.</summary>
    public long Records { get; private set; }

    /// <summary>Writes the database's records to <paramref name="file"/> (the scan of the frozen version).</summary>
    public void Write(CheckpointBlockWriter file, long frozenVersion)
    {
        _file = file;
        file.BeginItem(13);
        file.WriteByte(CheckpointFile.KindDatabase);
        file.WriteInt32(Index);
        // A hint for the loader, which sizes the hash index for it (growing it key by key took a quarter of a load).
        file.WriteInt64(_database.MainStore.KeyCount);
        var self = this;
        _database.MainStore.ScanSnapshot(ref self, frozenVersion);
        _file = null;
    }

    /// <inheritdoc/>
    public void Capture(long address, in LogRecord record)
    {
        if (address <= Volatile.Read(ref _writtenThrough) || _captured.ContainsKey(address))
            return;
        int handle = ObjectRecord.Handle(in record);
        var obj = handle == 0 ? null : _database.Objects.TryGet(handle);
        if (obj != null)
            _captured.TryAdd(address, Serialize(obj));
    }

    /// <inheritdoc/>
    /// <remarks>Called once per record, millions of times in one save, which tiered compilation would leave unoptimized for its first ones.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public bool OnRecord(in LogRecord record, long address)
    {
        WriteRecord(in record, address);
        // Under the record's shared latch when it holds an object, so a capture (under the exclusive one) sees it.
        Volatile.Write(ref _writtenThrough, address);
        return true;
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void WriteRecord(in LogRecord record, long address)
    {
        var file = _file!;
        if ((Records & 4095) == 4095)
        {
            if (_owner.Stopping)
                throw new OperationCanceledException("the server is stopping");
            RefreshOthers?.Invoke();
        }
        var info = record.Info;
        var key = record.Key;
        // A value that expired is written as gone, since a loader must not bring back an older value of the key; so is an
        // object let go of before its version ended (it has no value to keep).
        bool gone = info.Tombstone || (info.HasExpiration && record.Expiration <= _now);
        var value = gone || !info.ValueIsObject ? default : ObjectValue(in record, address);
        if (gone || (info.ValueIsObject && value.IsEmpty))
        {
            file.BeginItem(6 + key.Length);
            file.WriteByte(CheckpointFile.KindDeleted);
            file.WriteByte(0);
            file.WriteBytes(key);
            Records++;
            return;
        }
        bool hasETag = info.HasETag && !info.ValueIsObject;
        byte flags = (byte)((info.HasExpiration ? CheckpointFile.FlagExpiration : 0) | (hasETag ? CheckpointFile.FlagETag : 0) | (info.UserBits << 2));
        var bytes = info.ValueIsObject ? value : record.Value;
        int optionalBytes = (info.HasExpiration ? 8 : 0) + (hasETag ? 8 : 0);
        long length = 10L + key.Length + optionalBytes + bytes.Length;
        file.BeginItem(length);
        // One span for the whole item: kind, flags, key, expiration, value.
        var item = file.Reserve((int)length);
        item[0] = info.ValueIsObject ? CheckpointFile.KindObject : CheckpointFile.KindString;
        item[1] = flags;
        BinaryPrimitives.WriteInt32LittleEndian(item.Slice(2), key.Length);
        key.CopyTo(item.Slice(6));
        int at = 6 + key.Length;
        if (info.HasExpiration)
        {
            BinaryPrimitives.WriteInt64LittleEndian(item.Slice(at), record.Expiration);
            at += 8;
        }
        if (hasETag)
        {
            BinaryPrimitives.WriteInt64LittleEndian(item.Slice(at), record.ETag);
            at += 8;
        }
        BinaryPrimitives.WriteInt32LittleEndian(item.Slice(at), bytes.Length);
        bytes.CopyTo(item.Slice(at + 4));
        Records++;
    }

    /// <summary>The object's type byte and serialized bytes: as captured, as it is now, or as flushed to the object log (a record on the device).</summary>
    private ReadOnlySpan<byte> ObjectValue(in LogRecord record, long address)
    {
        if (_captured.TryRemove(address, out var captured))
            return captured;
        var store = _database.MainStore;
        if (!store.IsInMemory(address, in record))
        {
            long entry = ObjectRecord.ObjectLogAddress(in record);
            return entry == 0 || store.Log.ObjectLog == null ? default : FromObjectLog(store.Log.ObjectLog.ReadEntry(entry));
        }
        int handle = ObjectRecord.Handle(in record);
        var obj = handle == 0 ? null : _database.Objects.TryGet(handle);
        return obj == null ? default : Serialize(obj);
    }

    /// <summary>
    /// An object log entry (the object's own type byte, then its bytes) as DUMP carries it: a custom type's is named, since
    /// the type bytes servers give custom types depend on the order they were registered in.
    /// </summary>
    private static byte[] FromObjectLog(byte[] entry)
    {
        if (entry.Length == 0 || CustomObjectTypes.Factory((GarnetObjectType)entry[0]) is not { } factory)
            return entry;
        byte[] name = System.Text.Encoding.UTF8.GetBytes(factory.TypeName);
        var value = new byte[2 + name.Length + entry.Length - 1];
        value[0] = DumpPayload.CustomObjectType;
        value[1] = (byte)name.Length;
        name.CopyTo(value, 2);
        entry.AsSpan(1).CopyTo(value.AsSpan(2 + name.Length));
        return value;
    }

    /// <summary>An object as DUMP carries it: its payload type byte, then its bytes (a custom type's name first).</summary>
    private static byte[] Serialize(GarnetObject obj)
    {
        obj.EnterSerialization();
        try
        {
            byte[] bytes = DumpPayload.SerializeObject(obj);
            var value = new byte[bytes.Length + 1];
            value[0] = DumpPayload.TypeOf(obj);
            bytes.CopyTo(value, 1);
            return value;
        }
        finally
        {
            obj.ExitSerialization();
        }
    }
}
