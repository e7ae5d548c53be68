using System;
using System.Runtime.CompilerServices;

namespace Tsavorite;

/// <summary>
/// A session: the handle through which one thread at a time runs operations on a store with one set
/// of callbacks. Each operation protects the epoch for its duration, unless the caller has protected
/// a whole batch with <see cref="BeginUnsafe"/> (the server does so per network batch).
/// </summary>
public sealed class ClientSession<TInput, TOutput, TFunctions> : IDisposable
    where TFunctions : ISessionFunctions<TInput, TOutput>
{
    private readonly TsavoriteKV _store;
    private TFunctions _functions;
    private readonly EpochProtection _protection;
    private readonly PendingRecordRead _disk = new();
    private readonly KeyCountDelta _keys;

    internal ClientSession(TsavoriteKV store, TFunctions functions, EpochProtection? sharedProtection = null)
    {
        _store = store;
        _functions = functions;
        _protection = sharedProtection ?? new EpochProtection();
        _keys = store.NewKeyCountDelta();
    }

    /// <summary>
    /// Opens another session on the same store, for the same thread, with other callbacks (e.g. the
    /// object commands of a store that also holds strings). The two share epoch protection: a batch
    /// begun with <see cref="BeginUnsafe"/> on either covers operations on both.
    /// </summary>
    public ClientSession<TInput2, TOutput2, TFunctions2> NewLinkedSession<TInput2, TOutput2, TFunctions2>(TFunctions2 functions)
        where TFunctions2 : ISessionFunctions<TInput2, TOutput2>
        => new(_store, functions, _protection);

    /// <summary>The store this session works on.</summary>
    public TsavoriteKV Store => _store;

    /// <summary>The callbacks (a copy, when they are a struct).</summary>
    public ref TFunctions Functions => ref _functions;

    /// <summary>
    /// Protects the epoch until <see cref="EndUnsafe"/>, so a batch of operations pays for it once.
    /// Call <see cref="Refresh"/> now and then in long batches so the log can make progress.
    /// </summary>
    public void BeginUnsafe()
    {
        _store.Epoch.Resume();
        _protection.Protected = true;
    }

    /// <summary>Ends the protection begun by <see cref="BeginUnsafe"/>.</summary>
    public void EndUnsafe()
    {
        _protection.Protected = false;
        _store.Epoch.Suspend();
    }

    /// <summary>Moves this thread to the current epoch and runs actions that became safe.</summary>
    public void Refresh() => _store.Epoch.ProtectAndDrain();

    /// <summary>The latches held across operations by this session or its linked sessions, if any.</summary>
    private HeldLocks? Held => _protection.Locks.Count != 0 ? _protection.Locks : null;

    /// <summary>
    /// Latches the hash buckets of <paramref name="keys"/> until <see cref="UnlockKeys"/>, so the
    /// operations that follow on those keys (through this session or its linked sessions) run as one
    /// atomic unit: exclusive for keys that will be written, shared for keys only read. Buckets are
    /// taken in ascending bucket order, each once, so two sessions locking overlapping key sets
    /// cannot deadlock. Operations on the locked keys do not latch again; operations on other keys
    /// latch per operation as usual. While locks are held, only declared keys may be operated on
    /// for deadlock freedom: waiting for an undeclared key's latch while holding others can close a
    /// cycle with another session doing the same. Writing a key locked shared throws.
    /// The session may be epoch-protected (<see cref="BeginUnsafe"/>) or not; waits refresh the epoch,
    /// so they never hold back the log.
    /// </summary>
    public void LockKeys(ReadOnlySpan<KeyLockRequest> keys)
    {
        // Protected while acquiring even outside a batch: a resize may move buckets meanwhile, and
        // the old table is freed only once every protected thread has refreshed (see HeldLocks).
        if (_protection.Protected)
        {
            _protection.Locks.Acquire(_store, keys, _store.Epoch);
            return;
        }
        _store.Epoch.Resume();
        try
        {
            _protection.Locks.Acquire(_store, keys, _store.Epoch);
        }
        finally
        {
            _store.Epoch.Suspend();
        }
    }

    /// <summary>Releases the latches taken by <see cref="LockKeys"/>; does nothing if none are held.</summary>
    public void UnlockKeys()
    {
        if (_protection.Locks.Count != 0)
            _protection.Locks.Release();
    }

    /// <summary>Whether this session (or a linked one) holds latches taken by <see cref="LockKeys"/>.</summary>
    public bool HoldsKeyLocks => _protection.Locks.Count != 0;

    /// <summary>
    /// Whether <paramref name="key"/>'s bucket is latched by <see cref="LockKeys"/>, and whether
    /// exclusively (for tests and diagnostics; keys sharing a bucket share its latch).
    /// </summary>
    public unsafe bool IsKeyLocked(ReadOnlySpan<byte> key, out bool exclusive)
    {
        if (_protection.Protected)
            return _protection.Locks.TryGetMode(_store.Index.Locate(KeyHash.Hash(key)).Pointer, out exclusive);
        _store.Epoch.Resume();
        try
        {
            return _protection.Locks.TryGetMode(_store.Index.Locate(KeyHash.Hash(key)).Pointer, out exclusive);
        }
        finally
        {
            _store.Epoch.Suspend();
        }
    }

    /// <summary>Reads <paramref name="key"/>: the Reader callback fills <paramref name="output"/>.</summary>
    public Status Read(ReadOnlySpan<byte> key, ref TInput input, ref TOutput output)
    {
        if (_protection.Protected)
            return ReadCompleting(key, ref input, ref output);
        _store.Epoch.Resume();
        try
        {
            return ReadCompleting(key, ref input, ref output);
        }
        finally
        {
            _store.Epoch.Suspend();
        }
    }

    /// <summary>Reads <paramref name="key"/> with a default input.</summary>
    public Status Read(ReadOnlySpan<byte> key, ref TOutput output)
    {
        TInput input = default!;
        return Read(key, ref input, ref output);
    }

    /// <summary>Writes <paramref name="value"/> for <paramref name="key"/> through the Upsert callbacks.</summary>
    public Status Upsert(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ref TInput input, ref TOutput output)
    {
        if (_protection.Protected)
            return UpsertCompleting(key, value, ref input, ref output);
        _store.Epoch.Resume();
        try
        {
            return UpsertCompleting(key, value, ref input, ref output);
        }
        finally
        {
            _store.Epoch.Suspend();
        }
    }

    /// <summary>Writes <paramref name="value"/> for <paramref name="key"/> with a default input and output.</summary>
    public Status Upsert(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        TInput input = default!;
        TOutput output = default!;
        return Upsert(key, value, ref input, ref output);
    }

    /// <summary>Updates <paramref name="key"/> from its current value through the RMW callbacks.</summary>
    public Status RMW(ReadOnlySpan<byte> key, ref TInput input, ref TOutput output)
    {
        if (_protection.Protected)
            return RMWCompleting(key, ref input, ref output, onlyIfIndexed: false);
        _store.Epoch.Resume();
        try
        {
            return RMWCompleting(key, ref input, ref output, onlyIfIndexed: false);
        }
        finally
        {
            _store.Epoch.Suspend();
        }
    }

    /// <summary>
    /// An RMW for an update that never creates its key (NeedInitialUpdate would decline): a key the
    /// index holds no entry for is reported not found without calling back or touching the index.
    /// </summary>
    public Status RMWExisting(ReadOnlySpan<byte> key, ref TInput input, ref TOutput output)
    {
        if (_protection.Protected)
            return RMWCompleting(key, ref input, ref output, onlyIfIndexed: true);
        _store.Epoch.Resume();
        try
        {
            return RMWCompleting(key, ref input, ref output, onlyIfIndexed: true);
        }
        finally
        {
            _store.Epoch.Suspend();
        }
    }

    /// <summary>Updates <paramref name="key"/> with <paramref name="input"/>, discarding the output.</summary>
    public Status RMW(ReadOnlySpan<byte> key, ref TInput input)
    {
        TOutput output = default!;
        return RMW(key, ref input, ref output);
    }

    /// <summary>Deletes <paramref name="key"/>: found when a live record was deleted.</summary>
    public Status Delete(ReadOnlySpan<byte> key)
    {
        if (_protection.Protected)
            return DeleteCompleting(key);
        _store.Epoch.Resume();
        try
        {
            return DeleteCompleting(key);
        }
        finally
        {
            _store.Epoch.Suspend();
        }
    }

    // Pending operations. An operation that must read its key's chain back from the device (the storage tier)
    // reports itself pending; the session reads it on this thread, holding no latch, and runs the operation again
    // (see PendingRecordRead). Commands therefore stay synchronous, atomic under the caller's key locks, and in
    // order; reads of a chain the operating system has cached take microseconds. The epoch stays protected meanwhile,
    // as during any operation, so a batch's earlier operations keep their guarantees.

    private Status ReadCompleting(ReadOnlySpan<byte> key, ref TInput input, ref TOutput output)
    {
        var status = _store.InternalRead<TInput, TOutput, TFunctions>(ref _functions, key, ref input, ref output, Held, _disk);
        return status.IsPending ? ReadFromDevice(key, ref input, ref output) : status;
    }

    /// <summary>The rest of a read that went pending: apart so that a read in memory inlines one copy of the read.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private Status ReadFromDevice(ReadOnlySpan<byte> key, ref TInput input, ref TOutput output)
    {
        Status status;
        do
        {
            FetchPending(key);
            status = _store.InternalRead<TInput, TOutput, TFunctions>(ref _functions, key, ref input, ref output, Held, _disk);
        }
        while (status.IsPending);
        _disk.Clear();
        return status;
    }

    private Status UpsertCompleting(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ref TInput input, ref TOutput output)
    {
        var status = _store.InternalUpsert<TInput, TOutput, TFunctions>(ref _functions, key, value, ref input, ref output, Held, _disk, _keys);
        if (!status.IsPending)
            return status;
        do
        {
            FetchPending(key);
            status = _store.InternalUpsert<TInput, TOutput, TFunctions>(ref _functions, key, value, ref input, ref output, Held, _disk, _keys);
        }
        while (status.IsPending);
        _disk.Clear();
        return status;
    }

    private Status RMWCompleting(ReadOnlySpan<byte> key, ref TInput input, ref TOutput output, bool onlyIfIndexed)
    {
        var status = _store.InternalRMW<TInput, TOutput, TFunctions>(ref _functions, key, ref input, ref output, Held, onlyIfIndexed, _disk, _keys);
        if (!status.IsPending)
            return status;
        do
        {
            FetchPending(key);
            status = _store.InternalRMW<TInput, TOutput, TFunctions>(ref _functions, key, ref input, ref output, Held, onlyIfIndexed, _disk, _keys);
        }
        while (status.IsPending);
        _disk.Clear();
        return status;
    }

    private Status DeleteCompleting(ReadOnlySpan<byte> key)
    {
        var status = _store.InternalDelete<TInput, TOutput, TFunctions>(ref _functions, key, Held, _disk, _keys);
        if (!status.IsPending)
            return status;
        do
        {
            FetchPending(key);
            status = _store.InternalDelete<TInput, TOutput, TFunctions>(ref _functions, key, Held, _disk, _keys);
        }
        while (status.IsPending);
        _disk.Clear();
        return status;
    }

    /// <summary>Reads back the chain the pending operation asked for; a device error fails the operation.</summary>
    private void FetchPending(ReadOnlySpan<byte> key)
    {
        _store.CountPendingRead();
        uint error = _disk.Fetch(_store.Log, key);
        if (error == 0)
            return;
        long address = _disk.RequestedAddress;
        _disk.Clear();
        _store.CountDeviceReadError();
        throw new DeviceReadException(address, error);
    }

    /// <summary>
    /// Reports the live records in [<paramref name="fromAddress"/>, <paramref name="untilAddress"/>)
    /// (to the tail when negative) to <paramref name="scanFunctions"/>, and more as
    /// <paramref name="flags"/> asks. Returns the address to resume from, which is at least the tail
    /// when the scan ran to the end. <paramref name="fromAddress"/> may be any address (e.g. a
    /// client's cursor): one that is not a record start is stepped over safely.
    /// </summary>
    public long Scan<TScanFunctions>(ref TScanFunctions scanFunctions, long fromAddress = 0, long untilAddress = -1, ScanFlags flags = ScanFlags.None)
        where TScanFunctions : IScanFunctions
    {
        if (_protection.Protected)
            return _store.InternalScan(ref scanFunctions, fromAddress, untilAddress, flags, Held);
        _store.Epoch.Resume();
        try
        {
            return _store.InternalScan(ref scanFunctions, fromAddress, untilAddress, flags, Held);
        }
        finally
        {
            _store.Epoch.Suspend();
        }
    }

    /// <summary>Ends the session (its key locks and its epoch protection, if left open).</summary>
    public void Dispose()
    {
        UnlockKeys();
        if (_protection.Protected)
            EndUnsafe();
        _disk.Dispose();
        _store.ReleaseKeyCountDelta(_keys);
    }
}

/// <summary>
/// State shared by a session and its linked sessions: whether they are inside a batch begun with
/// BeginUnsafe, and the bucket latches they hold across operations (LockKeys).
/// </summary>
internal sealed class EpochProtection
{
    public bool Protected;
    public readonly HeldLocks Locks = new();
}
