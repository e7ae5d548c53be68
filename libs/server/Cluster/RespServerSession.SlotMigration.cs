using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// MIGRATE host port "" 0 timeout [REPLACE] [AUTH password | AUTH2 username password] SLOTS slot... | SLOTSRANGE start
/// end ... (Garnet's): starts a <see cref="SlotMigration"/> of whole slots to another node and answers OK; CLUSTER MTASKS
/// counts the ones running. The source's steps of each batch run here, on the migration's own session: the keys are
/// found by a scan, locked, read and sent, and deleted once the target has them (see <see cref="SlotMigration"/>).
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void MigrateSlots(in MigrateArguments arguments)
    {
        if (_cluster == null)
        {
            _writer.WriteError(ServerStrings.ErrClusterDisabled);
            return;
        }
        if (arguments.Copy)
        {
            _writer.WriteError("ERR COPY does not apply to MIGRATE SLOTS or SLOTSRANGE: the slots move"u8);
            return;
        }
        if (arguments.Database != 0)
        {
            _writer.WriteError("ERR MIGRATE SLOTS moves keys of database 0, the only one in cluster mode"u8);
            return;
        }
        var slotError = SlotArguments.Parse(new ReadOnlySpan<ArgSlice>(_args, arguments.SlotsAt, _argCount - arguments.SlotsAt), arguments.SlotRanges,
            out var slots, out var named);
        if (slotError != null)
        {
            _writer.WriteError(slotError);
            return;
        }

        string host = _args[1].ToString();
        int port = ParsePortAsRedis(_args[2].Span);
        string? error = _cluster.CheckSlotMigration(System.Runtime.InteropServices.CollectionsMarshal.AsSpan(slots), host, port, out string targetId);
        if (error == null)
        {
            var request = new SlotMigrationRequest(slots.ToArray(), named, host, port, targetId, arguments.TimeoutMs, arguments.Replace,
                arguments.UsernameAt != 0 ? _args[arguments.UsernameAt].Span.ToArray() : null,
                arguments.PasswordAt != 0 ? _args[arguments.PasswordAt].Span.ToArray() : null);
            error = _server.SlotMigrations.TryStart(_server, request);
        }
        if (error != null)
            _writer.WriteError(error);
        else
            _writer.WriteOk();
    }

    /// <summary>
    /// One batch of a slot migration, on its own session: finds up to <paramref name="maxKeys"/> keys of the slots marked
    /// in <paramref name="slots"/> from log address <paramref name="from"/> (below <paramref name="until"/>), locks them
    /// (other clients' commands on them wait), and adds those still live to <paramref name="batch"/>. Returns the address
    /// the next batch starts from. <see cref="FinishSlotBatch"/> must follow, whatever happens. A positive
    /// <paramref name="expectedKeys"/> (the first batch's) tells the target how many keys to expect in all.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    internal long PrepareSlotBatch(bool[] slots, long from, long until, int maxKeys, MigratedKeys keys, SlotKeyBatch batch, bool replace,
        long expectedKeys)
    {
        keys.Clear();
        batch.Begin(replace, expectedKeys);
        // The log turned on or off (CONFIG SET appendonly) is taken between batches, as a client's session takes it.
        if (_server.OperationLog != _oplog?.Log)
            FollowOperationLog(_server.OperationLog);
        BeginBatch();
        try
        {
            var collector = new SlotKeyCollector(slots, keys, maxKeys);
            long next = Store.Scan(ref collector, from, until, ScanFlags.IncludeMovedPastEnd);
            if (keys.Count == 0)
                return next;
            int count = 0;
            for (int i = 0; i < keys.Count; i++)
                AddLockRequest(ref count, KeyLockRequest.For(keys[i], exclusive: true));
            LockKeys(count, keyspace: false);
            for (int i = 0; i < keys.Count; i++)
                AddMigratedKey(keys[i], batch);
            return next;
        }
        finally
        {
            EndBatch();
        }
    }

    /// <summary>Adds <paramref name="key"/>'s value and time to live to <paramref name="batch"/>, unless it is gone or expired.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void AddMigratedKey(ReadOnlySpan<byte> key, SlotKeyBatch batch)
    {
        var output = default(StringOutput);
        if (!ReadKey(key, RespCommand.DUMP, ref output).Found)
            return;
        long ttl = 0;
        if (output.Number != 0)
        {
            ttl = output.Number - Expiration.NowUnixMs;
            if (ttl < 0)
                return;
            ttl = Math.Max(ttl, 1);
        }
        if (output.ObjectType == GarnetObjectType.None)
        {
            batch.Add(DumpPayload.StringType, key, Output.Span, ttl);
            return;
        }
        if (ReadObjectSnapshot(key, GarnetObjectType.None, out var obj) != ObjectResult.Ok || obj == null)
            return;
        batch.Add(DumpPayload.TypeOf(obj), key, DumpPayload.SerializeObject(obj), ttl);
    }

    /// <summary>
    /// Ends the batch <see cref="PrepareSlotBatch"/> began: when the target has its keys (<paramref name="delete"/>) they
    /// are deleted here, as one DEL in the operation log; then their locks are released.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    internal void FinishSlotBatch(MigratedKeys keys, bool delete)
    {
        if (_gateMode == 0)
            return;
        BeginBatch();
        try
        {
            if (delete && keys.Count > 0)
                DeleteMigratedKeys(keys);
        }
        finally
        {
            UnlockKeys();
            EndBatch();
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void DeleteMigratedKeys(MigratedKeys keys)
    {
        bool unarmed = _watchArming.TryBeginUnarmedWrite(_writesInFlight);
        try
        {
            for (int i = 0; i < keys.Count; i++)
            {
                var key = keys[i];
                int versionSlot = unarmed ? 0 : WatchVersionTable.SlotOf(key);
                if (!unarmed)
                    _server.WatchVersions.BeginWrite(versionSlot);
                bool found = Store.Delete(key).Found;
                if (!unarmed)
                    _server.WatchVersions.EndWrite(versionSlot);
                if (!found)
                    continue;
                NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.Del, key);
                if (_server.Tracking.Active)
                    NoteWrittenKey(key);
            }
        }
        finally
        {
            if (unarmed)
                WatchArming.EndUnarmedWrite(_writesInFlight);
        }
        // Logged under the keys' locks, appended as they are released (UnlockKeys), like any other logged write.
        if (_oplog is { } log)
            log.Entry.Add(_databaseIndex, Expiration.NowUnixMs, 0, (ushort)RespCommand.DEL, keys.AsDelArguments(), keys.Count + 1);
    }

    /// <summary>Keys of the marked slots met by a scan, up to a limit.</summary>
    private readonly struct SlotKeyCollector(bool[] slots, MigratedKeys keys, int limit) : IScanFunctions
    {
        [MethodImpl(MethodImplOptions.AggressiveOptimization)]
        public bool OnRecord(in LogRecord record, long address)
        {
            if (!slots[HashSlot.Of(record.Key)])
                return true;
            keys.Add(record.Key);
            return keys.Count < limit;
        }
    }
}

/// <summary>
/// The keys of one slot-migration batch, in pinned memory so that they can be handed to the operation log as the
/// arguments of a DEL without another copy.
/// </summary>
internal sealed unsafe class MigratedKeys
{
    private static readonly byte[] s_del = GC.AllocateArray<byte>(3, pinned: true);

    private byte[] _bytes = GC.AllocateUninitializedArray<byte>(256 << 10, pinned: true);
    private int[] _ends = new int[4096];
    private int _length;
    private ArgSlice[] _arguments = [];

    static MigratedKeys() => "DEL"u8.CopyTo(s_del);

    public int Count { get; private set; }

    public ReadOnlySpan<byte> this[int index]
    {
        get
        {
            int start = index == 0 ? 0 : _ends[index - 1];
            return new ReadOnlySpan<byte>(_bytes, start, _ends[index] - start);
        }
    }

    public void Clear()
    {
        _length = 0;
        Count = 0;
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public void Add(ReadOnlySpan<byte> key)
    {
        if (_length + key.Length > _bytes.Length)
        {
            var larger = GC.AllocateUninitializedArray<byte>((int)Math.Min(Array.MaxLength, Math.Max((long)_length + key.Length, (long)_bytes.Length * 2)), pinned: true);
            _bytes.AsSpan(0, _length).CopyTo(larger);
            _bytes = larger;
        }
        if (Count == _ends.Length)
            Array.Resize(ref _ends, _ends.Length * 2);
        key.CopyTo(_bytes.AsSpan(_length));
        _length += key.Length;
        _ends[Count++] = _length;
    }

    /// <summary>DEL and the keys, as arguments (valid until the keys change).</summary>
    public ArgSlice[] AsDelArguments()
    {
        if (_arguments.Length < Count + 1)
            _arguments = new ArgSlice[Math.Max(Count + 1, _arguments.Length * 2)];
        fixed (byte* del = s_del)
            _arguments[0] = new ArgSlice(del, 3);
        fixed (byte* bytes = _bytes)
        {
            int start = 0;
            for (int i = 0; i < Count; i++)
            {
                _arguments[i + 1] = new ArgSlice(bytes + start, _ends[i] - start);
                start = _ends[i];
            }
        }
        return _arguments;
    }
}
