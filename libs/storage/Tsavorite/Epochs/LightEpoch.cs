using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// Epoch protection. A thread "protects" an epoch while it touches shared memory that others may
/// retire; <see cref="BumpCurrentEpoch(Action)"/> defers a retirement action until every thread that
/// was protected at the epoch it retired in has moved on (refreshed or suspended).
/// </summary>
/// <remarks>
/// <para>
/// Each protected thread announces its local epoch in a 64-byte entry of a native table, so threads
/// never share a cache line. A thread claims an entry per instance (by CAS of its owner id, probing
/// from a hash of that id) when it resumes and gives it back when it suspends, so many instances can
/// coexist, one thread can be protected on several at once, and an exiting thread leaks nothing as
/// long as it suspended. The thread remembers which entry it holds on which instance in a small
/// thread-static list, so the hot path (<see cref="Resume"/>, <see cref="ProtectAndDrain"/>,
/// <see cref="Suspend"/>) neither allocates nor locks.
/// </para>
/// <para>
/// <see cref="SafeToReclaimEpoch"/> is one less than the smallest local epoch of the protected
/// threads, or <c>CurrentEpoch - 1</c> when no thread is protected; it never decreases. Every thread
/// whose <see cref="Resume"/> has returned has a local epoch greater than it, so memory retired at
/// an epoch no greater than it is unreachable by every protected thread.
/// </para>
/// <para>
/// Deferred actions wait in a small fixed drain list of (epoch, action) pairs. Threads that refresh,
/// suspend or bump run the actions that have become safe, each exactly once (claimed by CAS before
/// it runs). Actions run on whichever thread drains them, which may or may not be protected; an
/// exception thrown by an action propagates to that thread's call and the action is not retried.
/// </para>
/// </remarks>
public sealed unsafe class LightEpoch : IDisposable
{
    /// <summary>Default number of table entries: the most threads that can be protected at once.</summary>
    internal const int DefaultTableSize = 256;

    /// <summary>Number of actions that can wait at once; a bump finding it full helps drain first.</summary>
    internal const int DrainListSize = 32;

    private const int CacheLineSize = 64;

    /// <summary>Drain-list epoch of an entry that holds no action.</summary>
    private const long FreeEntry = long.MaxValue;

    /// <summary>Drain-list epoch of an entry being filled or run; larger than any epoch, so never ready.</summary>
    private const long BusyEntry = long.MaxValue - 1;

    private static long NextInstanceId;
    private static int NextOwnerId;

    [ThreadStatic]
    private static ThreadRegistrations? Registrations;

    private readonly long _instanceId;
    private readonly Entry* _table;
    private readonly int _tableSize;
    private readonly int _hashShift;

    private readonly long[] _drainEpochs;
    private readonly Action?[] _drainActions;

    /// <summary>Actions reserved or waiting in the drain list; lets the hot path skip the table scan.</summary>
    private int _drainCount;

    private long _currentEpoch;

    /// <summary>
    /// Largest safe epoch computed so far; kept so <see cref="SafeToReclaimEpoch"/> never goes back
    /// and can skip the scan when nothing could have changed it.
    /// </summary>
    private long _safeToReclaimEpoch;

    private int _disposed;

    /// <summary>Creates an epoch with room for <see cref="DefaultTableSize"/> concurrently protected threads.</summary>
    public LightEpoch()
        : this(DefaultTableSize)
    {
    }

    /// <summary>Creates an epoch whose table holds <paramref name="tableSize"/> entries (a power of two).</summary>
    internal LightEpoch(int tableSize)
    {
        if (tableSize <= 0 || !BitOperations.IsPow2(tableSize))
            throw new ArgumentOutOfRangeException(nameof(tableSize), tableSize, "The epoch table size must be a positive power of two.");
        Debug.Assert(sizeof(Entry) == CacheLineSize);

        _instanceId = Interlocked.Increment(ref NextInstanceId);
        _tableSize = tableSize;
        _hashShift = 32 - BitOperations.Log2((uint)tableSize);
        nuint bytes = (nuint)tableSize * CacheLineSize;
        _table = (Entry*)NativeMemory.AlignedAlloc(bytes, CacheLineSize);
        NativeMemory.Clear(_table, bytes);

        _drainEpochs = new long[DrainListSize];
        _drainActions = new Action?[DrainListSize];
        Array.Fill(_drainEpochs, FreeEntry);

        // Epoch 0 marks an unprotected entry, so the first real epoch is 1.
        _currentEpoch = 1;
    }

    /// <summary>Frees the table if the owner forgot to dispose; pending actions are dropped.</summary>
    ~LightEpoch()
    {
        if (_disposed == 0)
            NativeMemory.AlignedFree(_table);
    }

    /// <summary>The epoch that newly protected or refreshed threads announce.</summary>
    public long CurrentEpoch => Volatile.Read(ref _currentEpoch);

    /// <summary>
    /// The largest epoch every protected thread has passed: one less than the smallest local epoch of
    /// the protected threads, or <c>CurrentEpoch - 1</c> when none is protected. It never decreases.
    /// </summary>
    /// <remarks>
    /// Reading it is cheap when the last computed value is already <c>CurrentEpoch - 1</c>, the most
    /// it can be; otherwise it scans the table.
    /// </remarks>
    public long SafeToReclaimEpoch
    {
        get
        {
            ThrowIfDisposed();
            long published = Volatile.Read(ref _safeToReclaimEpoch);
            return published == Volatile.Read(ref _currentEpoch) - 1 ? published : ComputeNewSafeToReclaimEpoch();
        }
    }

    /// <summary>Whether the calling thread is protected on this instance.</summary>
    public bool ThisInstanceProtected() => FindSlot() >= 0;

    /// <summary>
    /// Whether any thread is protected on this instance now. The scan follows a full fence, so together with
    /// <see cref="Resume"/>'s fenced announcement it settles a Dekker race: a caller that published a flag and then
    /// finds no thread protected knows that every thread protecting itself afterwards reads the flag.
    /// </summary>
    public bool AnyThreadProtected()
    {
        ThrowIfDisposed();
        Interlocked.MemoryBarrier();
        for (Entry* entry = _table, end = _table + _tableSize; entry < end; entry++)
        {
            if (Volatile.Read(ref entry->LocalEpoch) != 0)
                return true;
        }
        return false;
    }

    /// <summary>
    /// Protects the calling thread at the current epoch and runs any actions that are ready.
    /// </summary>
    /// <exception cref="InvalidOperationException">
    /// The thread is already protected on this instance, or every table entry is taken.
    /// </exception>
    public void Resume()
    {
        ThrowIfDisposed();
        ThreadRegistrations registrations = Registrations ?? CreateRegistrations();
        if (registrations.IndexOf(_instanceId) >= 0)
            ThrowAlreadyProtected();

        int slot = ClaimSlot(registrations.OwnerId);
        ref Entry entry = ref _table[slot];

        // Announce with a full fence, then confirm the epoch did not move meanwhile. A bump that
        // happened before the confirming read is ordered before our announcement became visible,
        // so announcing the older epoch could let an action run that we would then race with.
        long epoch = Volatile.Read(ref _currentEpoch);
        while (true)
        {
            Interlocked.Exchange(ref entry.LocalEpoch, epoch);
            long now = Volatile.Read(ref _currentEpoch);
            if (now == epoch)
                break;
            epoch = now;
        }

        registrations.Add(_instanceId, slot);
        if (Volatile.Read(ref _drainCount) > 0)
            Drain(ComputeNewSafeToReclaimEpoch());
    }

    /// <summary>
    /// Releases the calling thread's protection and its table entry, then runs actions that became
    /// ready, possibly because of this release.
    /// </summary>
    /// <exception cref="InvalidOperationException">The thread is not protected on this instance.</exception>
    public void Suspend()
    {
        ThreadRegistrations? registrations = Registrations;
        int index = registrations is null ? -1 : registrations.IndexOf(_instanceId);
        if (index < 0)
            ThrowNotProtected();

        int slot = registrations!.RemoveAt(index);
        ref Entry entry = ref _table[slot];

        // Full fence: if a concurrent bump still saw us protected, we must see its pending count.
        Interlocked.Exchange(ref entry.LocalEpoch, 0);
        Volatile.Write(ref entry.OwnerId, 0);

        if (Volatile.Read(ref _drainCount) > 0)
            Drain(ComputeNewSafeToReclaimEpoch());
    }

    /// <summary>
    /// Refreshes the calling thread: moves its local epoch to <see cref="CurrentEpoch"/> (it must not
    /// use memory reached before this call afterwards) and runs actions that became ready.
    /// </summary>
    /// <exception cref="InvalidOperationException">The thread is not protected on this instance.</exception>
    public void ProtectAndDrain()
    {
        int slot = FindSlot();
        if (slot < 0)
            ThrowNotProtected();

        // A plain release store suffices: until it is visible others see our older epoch, which
        // only holds actions back, and a pending count we miss now we see on our next call.
        Volatile.Write(ref _table[slot].LocalEpoch, Volatile.Read(ref _currentEpoch));

        if (Volatile.Read(ref _drainCount) > 0)
            Drain(ComputeNewSafeToReclaimEpoch());
    }

    /// <summary>Increments <see cref="CurrentEpoch"/>, runs actions that are ready and returns the new epoch.</summary>
    public long BumpCurrentEpoch()
    {
        ThrowIfDisposed();
        long next = Interlocked.Increment(ref _currentEpoch);
        if (Volatile.Read(ref _drainCount) > 0)
            Drain(ComputeNewSafeToReclaimEpoch());
        return next;
    }

    /// <summary>
    /// Increments <see cref="CurrentEpoch"/> and arranges for <paramref name="onDrain"/> to run exactly
    /// once, on some thread, when <see cref="SafeToReclaimEpoch"/> reaches the epoch before the bump.
    /// Retire memory by unlinking it first and freeing it in <paramref name="onDrain"/>.
    /// </summary>
    /// <remarks>
    /// If neither the caller nor any other thread is protected, the action runs before this returns.
    /// If the drain list is full, the caller helps drain and, when it is protected, refreshes itself
    /// (as <see cref="ProtectAndDrain"/> does) until an entry frees up.
    /// </remarks>
    public void BumpCurrentEpoch(Action onDrain)
    {
        ArgumentNullException.ThrowIfNull(onDrain);
        ThrowIfDisposed();

        long priorEpoch = Interlocked.Increment(ref _currentEpoch) - 1;
        int index = ReserveDrainEntry();
        _drainActions[index] = onDrain;
        Volatile.Write(ref _drainEpochs[index], priorEpoch);

        Drain(ComputeNewSafeToReclaimEpoch());
    }

    /// <summary>
    /// Waits until <see cref="SafeToReclaimEpoch"/> reaches <paramref name="epoch"/>, running ready
    /// actions meanwhile. A protected caller refreshes itself while it waits, so it does not hold
    /// the wait up; it must not use memory reached before the call afterwards.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">
    /// <paramref name="epoch"/> is not below <see cref="CurrentEpoch"/>, so nothing could ever make it safe.
    /// </exception>
    public void SpinWaitForSafeToReclaim(long epoch)
    {
        ThrowIfDisposed();
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(epoch, CurrentEpoch);

        int slot = FindSlot();
        SpinWait spinner = default;
        while (true)
        {
            if (slot >= 0)
                Volatile.Write(ref _table[slot].LocalEpoch, Volatile.Read(ref _currentEpoch));

            long safe = ComputeNewSafeToReclaimEpoch();
            if (Volatile.Read(ref _drainCount) > 0)
                Drain(safe);
            if (safe >= epoch)
                return;
            spinner.SpinOnce();
        }
    }

    /// <summary>
    /// Runs actions that are already safe and frees the table. No thread may be protected or use
    /// this instance afterwards; actions still waiting are dropped.
    /// </summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        GC.SuppressFinalize(this);
        try
        {
            if (Volatile.Read(ref _drainCount) > 0)
                Drain(ComputeNewSafeToReclaimEpoch());
        }
        finally
        {
            NativeMemory.AlignedFree(_table);
        }
    }

    /// <summary>The calling thread's local epoch on this instance, or 0 when it is not protected.</summary>
    internal long ThisThreadLocalEpoch()
    {
        int slot = FindSlot();
        return slot < 0 ? 0 : Volatile.Read(ref _table[slot].LocalEpoch);
    }

    /// <summary>
    /// Computes the safe epoch from the table and publishes it if it is larger than the last one.
    /// Returning the larger published value is sound: a thread that announced an older epoch after
    /// that value was computed announced after the memory it covers was unlinked.
    /// </summary>
    internal long ComputeNewSafeToReclaimEpoch()
    {
        // Order the scan after whatever unlinking and bumping this thread observed.
        Interlocked.MemoryBarrier();
        long oldest = Volatile.Read(ref _currentEpoch);
        for (Entry* entry = _table, end = _table + _tableSize; entry < end; entry++)
        {
            long local = Volatile.Read(ref entry->LocalEpoch);
            if (local != 0 && local < oldest)
                oldest = local;
        }

        long safe = oldest - 1;
        long published = Volatile.Read(ref _safeToReclaimEpoch);
        while (safe > published)
        {
            long seen = Interlocked.CompareExchange(ref _safeToReclaimEpoch, safe, published);
            if (seen == published)
                return safe;
            published = seen;
        }
        return published;
    }

    /// <summary>Runs every waiting action whose epoch is at most <paramref name="safeEpoch"/>.</summary>
    private void Drain(long safeEpoch)
    {
        for (int i = 0; i < DrainListSize; i++)
        {
            // Free and busy entries carry epochs above any safe epoch, so they are skipped here.
            long epoch = Volatile.Read(ref _drainEpochs[i]);
            if (epoch > safeEpoch)
                continue;
            if (Interlocked.CompareExchange(ref _drainEpochs[i], BusyEntry, epoch) != epoch)
                continue;

            Action action = _drainActions[i]!;
            _drainActions[i] = null;
            Volatile.Write(ref _drainEpochs[i], FreeEntry);
            Interlocked.Decrement(ref _drainCount);
            action();
        }
    }

    /// <summary>
    /// Reserves a drain-list entry, counting it as pending before it is published so that no
    /// drainer skips the scan while it waits.
    /// </summary>
    private int ReserveDrainEntry()
    {
        SpinWait spinner = default;
        while (true)
        {
            for (int i = 0; i < DrainListSize; i++)
            {
                if (Volatile.Read(ref _drainEpochs[i]) == FreeEntry
                    && Interlocked.CompareExchange(ref _drainEpochs[i], BusyEntry, FreeEntry) == FreeEntry)
                {
                    Interlocked.Increment(ref _drainCount);
                    return i;
                }
            }

            // Full. A protected caller may itself be what the waiting actions wait for, so it moves on.
            int slot = FindSlot();
            if (slot >= 0)
                Volatile.Write(ref _table[slot].LocalEpoch, Volatile.Read(ref _currentEpoch));
            Drain(ComputeNewSafeToReclaimEpoch());
            spinner.SpinOnce();
        }
    }

    /// <summary>Claims a free table entry for <paramref name="ownerId"/>, probing from a hash of it.</summary>
    private int ClaimSlot(int ownerId)
    {
        int mask = _tableSize - 1;
        int start = (int)((uint)ownerId * 0x9E3779B9u >> _hashShift) & mask;
        for (int i = 0; i < _tableSize; i++)
        {
            int slot = (start + i) & mask;
            ref int owner = ref _table[slot].OwnerId;
            if (Volatile.Read(ref owner) == 0 && Interlocked.CompareExchange(ref owner, ownerId, 0) == 0)
                return slot;
        }
        ThrowTableFull();
        return -1;
    }

    /// <summary>The table entry the calling thread holds on this instance, or -1 if it is not protected.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int FindSlot()
    {
        ThreadRegistrations? registrations = Registrations;
        if (registrations is null)
            return -1;
        int index = registrations.IndexOf(_instanceId);
        return index < 0 ? -1 : registrations.Items[index].Slot;
    }

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);

    private static ThreadRegistrations CreateRegistrations()
    {
        int ownerId;
        do
        {
            ownerId = Interlocked.Increment(ref NextOwnerId);
        }
        while (ownerId == 0); // 0 marks a free entry; only reachable after wrap-around.
        return Registrations = new ThreadRegistrations(ownerId);
    }

    [DoesNotReturn]
    private static void ThrowAlreadyProtected()
        => throw new InvalidOperationException("The thread is already protected on this epoch instance; Resume is not reentrant.");

    [DoesNotReturn]
    private void ThrowTableFull()
        => throw new InvalidOperationException($"The epoch table is full: more than {_tableSize} threads are protected at once.");

    [DoesNotReturn]
    private static void ThrowNotProtected()
        => throw new InvalidOperationException("The thread is not protected on this epoch instance; call Resume first.");

    /// <summary>One thread's announcement, alone on its cache line so threads do not false-share.</summary>
    [StructLayout(LayoutKind.Explicit, Size = CacheLineSize)]
    private struct Entry
    {
        /// <summary>The epoch the thread is protected at, or 0 when it is not.</summary>
        [FieldOffset(0)]
        public long LocalEpoch;

        /// <summary>The id of the thread holding the entry, or 0 when it is free.</summary>
        [FieldOffset(8)]
        public int OwnerId;
    }

    private struct Registration
    {
        public long InstanceId;
        public int Slot;
    }

    /// <summary>
    /// The instances the current thread is protected on and the entry it holds in each. Threads are
    /// protected on few instances at once, so a linear scan beats any hashing.
    /// </summary>
    private sealed class ThreadRegistrations
    {
        public readonly int OwnerId;
        public Registration[] Items = new Registration[4];
        public int Count;

        public ThreadRegistrations(int ownerId) => OwnerId = ownerId;

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int IndexOf(long instanceId)
        {
            Registration[] items = Items;
            for (int i = 0; i < Count; i++)
            {
                if (items[i].InstanceId == instanceId)
                    return i;
            }
            return -1;
        }

        public void Add(long instanceId, int slot)
        {
            if (Count == Items.Length)
                Array.Resize(ref Items, Count * 2);
            Items[Count++] = new Registration { InstanceId = instanceId, Slot = slot };
        }

        /// <summary>Removes the registration at <paramref name="index"/> and returns its slot.</summary>
        public int RemoveAt(int index)
        {
            int slot = Items[index].Slot;
            Items[index] = Items[--Count];
            return slot;
        }
    }
}
