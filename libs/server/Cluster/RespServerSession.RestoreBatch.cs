using System;
using System.Runtime.CompilerServices;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// RESTORE-BATCH payload: the target's side of a slot migration (<see cref="SlotMigration"/>). Restores every key of a
/// <see cref="SlotKeyBatch"/> as RESTORE-ASKING would one by one; in cluster mode each key's slot must be one this node
/// serves or imports. Stops at the first key it cannot restore (an existing key without REPLACE, out of memory) with that
/// error: the source then keeps the whole batch, so a key is never in neither node. With the operation log on, the
/// command is logged as given (with its clock, so the times to live replay alike).
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private static ReadOnlySpan<byte> ErrBadRestoreBatch => "ERR RESTORE-BATCH payload is not valid"u8;

    // How many keys ahead of the one restored RESTORE-BATCH loads hash buckets: enough loads in flight to cover a miss.
    private const int PrefetchDistance = 8;

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void RestoreBatch()
    {
        var reader = new SlotKeyBatchReader(_args[1].Span);
        bool replace = reader.Replace;
        if (reader.ExpectedKeys > 0)
            Store.Store.ExpectKeys(Store.Store.KeyCount + reader.ExpectedKeys);
        // Its keys are not declared, so the watch versions move here (as the transactions layer moves a declared key's).
        bool unarmed = _watchArming.TryBeginUnarmedWrite(_writesInFlight);
        // A second reader runs a few keys ahead, loading their hash buckets while the keys before them are restored.
        var store = Store.Store;
        var ahead = new SlotKeyBatchReader(_args[1].Span);
        for (int i = 0; i < PrefetchDistance && ahead.TryNext(out _, out var next, out _, out _); i++)
            store.PrefetchBucket(next);
        try
        {
            while (reader.TryNext(out byte type, out var key, out var value, out long ttlMs))
            {
                if (ahead.TryNext(out _, out var next, out _, out _))
                    store.PrefetchBucket(next);
                if (!RestoreBatchEntry(type, key, value, ttlMs, replace, unarmed))
                    return;
            }
        }
        finally
        {
            if (unarmed)
                WatchArming.EndUnarmedWrite(_writesInFlight);
        }
        if (!reader.Valid)
            _writer.WriteError(ErrBadRestoreBatch);
        else
            _writer.WriteOk();
    }

    /// <summary>Restores one key of a batch; false (with the error written) when it cannot.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private bool RestoreBatchEntry(byte type, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, long ttlMs, bool replace, bool unarmed)
    {
        if (_cluster != null)
        {
            int slot = HashSlot.Of(key);
            var route = _cluster.Route(slot, write: true);
            if (route is not (SlotRoute.Served or SlotRoute.Importing))
            {
                if (route is SlotRoute.Down or SlotRoute.Unbound)
                    _cluster.WriteRedirection(ref _writer, slot, route);
                else
                    _writer.WriteError($"ERR RESTORE-BATCH key of slot {slot}, which this node neither serves nor imports");
                return false;
            }
        }
        GarnetObject? obj = null;
        if (type != DumpPayload.StringType && !DumpPayload.TryDeserializeObject(type, value, out obj))
        {
            _writer.WriteError(KeyspaceStrings.ErrBadDataFormat);
            return false;
        }
        long expiresAt = 0;
        if (ttlMs != 0 && !Expiration.TryFromArgument(ttlMs, milliseconds: true, absolute: false, out expiresAt))
        {
            _writer.WriteError(ErrBadRestoreBatch);
            return false;
        }

        int versionSlot = unarmed ? 0 : WatchVersionTable.SlotOf(key);
        if (!unarmed)
            _server.WatchVersions.BeginWrite(versionSlot);
        CopyResult written;
        try
        {
            obj?.DecideEncoding(_server.Options.EncodingThresholds);
            written = obj != null
                ? InstallObject(ObjectStore, key, obj, expiresAt, replace)
                : WriteValue(Store, key, value, expiresAt, replace);
        }
        finally
        {
            if (!unarmed)
                _server.WatchVersions.EndWrite(versionSlot);
        }
        switch (written)
        {
            case CopyResult.OutOfMemory:
                _writer.WriteError(RespStrings.ErrOutOfMemory);
                return false;
            case CopyResult.DestinationExists:
                _writer.WriteError(KeyspaceStrings.ErrBusyKey);
                return false;
        }
        if (obj != null)
            NotifyObjectInstalled(_databaseIndex, key, obj);
        NotifyAdded(_databaseIndex, key);
        NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.Restore, key);
        if (_server.Tracking.Active)
            NoteWrittenKey(key);
        return true;
    }
}
