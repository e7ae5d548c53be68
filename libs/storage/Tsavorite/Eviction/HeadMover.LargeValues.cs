using System;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// Room for out-of-line values (<see cref="ExternalValue"/>) under the memory limit: the budget's, or without one the
/// log's own memory size. The head mover frees memory by passing pages, and a page of small descriptors of large
/// values hardly ever fills, so large values get their own admission and eviction.
/// </summary>
/// <remarks>
/// <para>
/// Admission: a write that needs a block larger than the room left asks the head mover for it (the log's page count
/// leaves room for the largest block a writer waits for, see <see cref="HybridLog.LargeValueDemand"/>) and waits, with
/// no latch held, for at most two of its rounds; if the room is still not there the write is refused with
/// out-of-memory. A writer thus never waits for room the head mover cannot make.
/// </para>
/// <para>
/// Eviction (evicting policies, no storage tier): a round that finds the limit exceeded, or a writer waiting, walks
/// the records in memory, oldest first, and drops the newest records of keys whose value is out of line (those
/// recently read last, for the LRU policies) until the demand fits. A record is dropped as DEL drops it in place:
/// under its bucket's exclusive latch, marked a tombstone with its block given up. With the storage tier blocks leave
/// memory with their pages, which the budget's page count (less the blocks' bytes) makes the head pass; when the
/// blocks a writer waits for are on the tail page, that page is ended early so the head can pass it too.
/// </para>
/// <para>
/// Pages: a writer that needs a page the limit does not allow while large values take the room waits for the head
/// mover like any writer; a round that leaves it without a page marks the log full (out-of-memory), and a later
/// round that finds room clears it.
/// </para>
/// </remarks>
public sealed unsafe partial class TsavoriteKV
{
    /// <summary>A waiting writer's rounds older than this are from an operation that gave up waiting: start again.</summary>
    private const long StaleLargeValueWaitMs = 30_000;

    private const int LargeValueLatchTries = 64;

    private long _moverRounds;
    private int _writersWaitingForPage;
    private bool _fullForLargeValues;

    /// <summary>The head mover round after which a writer waiting for room for a large value is refused (0: none).</summary>
    [ThreadStatic]
    private static long LargeValueRefuseAfterRound;

    [ThreadStatic]
    private static long LargeValueWaitStartedAt;

    /// <summary>
    /// Bytes by which holding <paramref name="extra"/> bytes more would exceed the limit large values count against:
    /// the budget's (everything its stores hold), or the log's memory size (its pages in memory and blocks).
    /// </summary>
    internal long LargeValueExcess(long extra)
    {
        long limit = Budget.Limit;
        if (limit > 0)
            return Budget.Used + extra - limit;
        return Log.InMemoryBytes + Log.ExternalBytes + extra - Log.MemorySizeBytes;
    }

    /// <summary>
    /// Whether a block of <paramref name="capacity"/> bytes may be allocated now: success, a retry after a pause (the
    /// head mover was asked for room) or out-of-memory (it could not make it, or the writer must not wait).
    /// </summary>
    private AllocationStatus AdmitLargeValue(long capacity, bool mustNotWait)
    {
        // Room for the block and for the pages writers and the reserve need, so a block never takes the log's last page.
        capacity += (long)(HybridLog.ReservePages + 1) << Log.PageSizeBits;
        if (LargeValueExcess(capacity) <= 0)
        {
            EndLargeValueWait(capacity);
            return AllocationStatus.Success;
        }
        if (mustNotWait)
            return AllocationStatus.OutOfMemory;
        long rounds = Volatile.Read(ref _moverRounds);
        long now = Environment.TickCount64;
        if (LargeValueRefuseAfterRound == 0 || now - LargeValueWaitStartedAt > StaleLargeValueWaitMs)
        {
            // The round running now may have looked before this request: two rounds end after one that saw it.
            LargeValueRefuseAfterRound = rounds + 2;
            LargeValueWaitStartedAt = now;
        }
        else if (rounds >= LargeValueRefuseAfterRound)
        {
            EndLargeValueWait(capacity);
            return AllocationStatus.OutOfMemory;
        }
        Log.RaiseLargeValueDemand(capacity);
        RequestHeadMove();
        WaitingForHead = true;
        return AllocationStatus.RetryNow;
    }

    /// <summary>This thread's wait for room for a block of <paramref name="capacity"/> bytes is over: its demand goes.</summary>
    private void EndLargeValueWait(long capacity)
    {
        if (LargeValueRefuseAfterRound == 0)
            return;
        LargeValueRefuseAfterRound = 0;
        Log.DropLargeValueDemand(capacity);
    }

    /// <summary>A writer was told to wait for a page: the head mover's round checks that one can be had.</summary>
    private void NoteWriterWaitingForPage() => Volatile.Write(ref _writersWaitingForPage, 1);

    /// <summary>The head mover's work for large values in one round, after it moved the head.</summary>
    private void MakeRoomForLargeValues()
    {
        long demand = Log.LargeValueDemand;
        bool forPage = Volatile.Read(ref _writersWaitingForPage) != 0;
        if (Log.ExternalCount > 0 && !Log.StorageTier && Budget.Policy.Evicts() && !RoomMade(demand, forPage))
            EvictLargeValues(demand, forPage);
        else if (Log.ExternalCount > 0 && Log.StorageTier && demand > 0 && !RoomMade(demand, forPage) && EndTailPage())
            MoveHeadWhileNeeded(); // the blocks of the ended page go to the device with it
        SettleFullness();
    }

    /// <summary>
    /// With the storage tier, a writer waits for room for a block that the blocks of the tail page take: the page ends
    /// early (see <see cref="HybridLog.TryEndTailPage"/>) so the head can pass it.
    /// </summary>
    private bool EndTailPage()
    {
        Epoch.Resume();
        try
        {
            return Log.TryEndTailPage();
        }
        finally
        {
            Epoch.Suspend();
        }
    }

    /// <summary>Whether <paramref name="demand"/> bytes more fit, and writers may open a page if <paramref name="forPage"/> they wait for one.</summary>
    private bool RoomMade(long demand, bool forPage) => LargeValueExcess(demand) <= 0 && (!forPage || Log.WritersMayOpenPage);

    /// <summary>
    /// Marks the log full when large values take the room a waiting writer needs for a page and nothing more can be
    /// freed this round, and clears that mark once a page can be opened again.
    /// </summary>
    private void SettleFullness()
    {
        bool waiting = Interlocked.Exchange(ref _writersWaitingForPage, 0) != 0;
        if (Log.WritersMayOpenPage)
        {
            if (_fullForLargeValues && Log.IsFull)
                Log.ClearFull();
            _fullForLargeValues = false;
            return;
        }
        if (waiting && Log.ExternalCount > 0 && !Log.IsFull && !Log.HeadMoveNeeded)
        {
            _fullForLargeValues = true;
            Log.MarkFull();
        }
    }

    /// <summary>
    /// Drops records holding out-of-line values, oldest first, until <paramref name="demand"/> more bytes fit (and a page
    /// can be opened, <paramref name="forPage"/>): a first
    /// pass spares those read since the head mover last passed them (LRU), a second takes any. Volatile policies drop
    /// only records with an expiration.
    /// </summary>
    private void EvictLargeValues(long demand, bool forPage)
    {
        bool volatileOnly = !Budget.Policy.EvictsAnyKey();
        bool spareAccessed = Budget.Policy is EvictionPolicy.AllKeysLru or EvictionPolicy.VolatileLru;
        FreePool?.BeginScan();
        Epoch.Resume();
        try
        {
            // Every record below this tail is fully written once the operations that reserved them have ended.
            long end = Log.TailAddress;
            Epoch.SpinWaitForSafeToReclaim(Epoch.BumpCurrentEpoch() - 1);
            int sinceRefresh = 0;
            for (int pass = spareAccessed ? 0 : 1; pass < 2; pass++)
            {
                long address = Log.HeadAddress;
                while (address < end)
                {
                    long pageEnd = Math.Min(end, Log.PageStart(address) + Log.PageSize);
                    if (!TryReadRecordOnPage(address, pageEnd, out var record, out int size))
                    {
                        address = Log.PageStart(address) + Log.PageSize;
                        continue;
                    }
                    var info = record.Info;
                    if (info.ValueIsExternal && info.Valid && !info.Tombstone && !info.Abandoned
                        && (!volatileOnly || info.HasExpiration)
                        && (pass == 1 || (record.Access & RecordAccess.AccessedBit) == 0)
                        && TryEvictLargeValue(address, ref record)
                        && RoomMade(demand, forPage))
                    {
                        return;
                    }
                    address += size;
                    RefreshNowAndThen(ref sinceRefresh);
                    if (_moverStopping)
                        return;
                }
            }
        }
        finally
        {
            Epoch.Suspend();
            FreePool?.EndScan();
        }
    }

    /// <summary>
    /// Drops the record at <paramref name="address"/> if it is still its key's newest and holds an out-of-line value,
    /// under its bucket's exclusive latch (given up after a few tries: a latch held long is skipped this round).
    /// </summary>
    private bool TryEvictLargeValue(long address, ref LogRecord record)
    {
        var key = record.Key;
        long hash = KeyHash.Hash(key);
        int tag = HashBucketEntry.TagOf(hash);
        int waits = 0;
        long* bucket = Index.Locate(hash).Pointer;
        while (!HashBucket.TryAcquireExclusive(bucket))
        {
            if (waits >= LargeValueLatchTries || _moverStopping)
                return false;
            Epoch.ProtectAndDrain();
            HybridLog.PauseForHead(waits++);
            bucket = Index.Locate(hash).Pointer;
        }
        try
        {
            long* entry = Index.FindTag(bucket, tag);
            if (entry == null || TraceBack(key, new HashBucketEntry(*entry).Address, out _) != address)
                return false;
            var info = record.Info;
            if (!info.ValueIsExternal || info.Tombstone || !info.Valid)
                return false;
            // A snapshot being taken needs the record as it is (see TsavoriteKV.Snapshot.cs): another is dropped instead.
            if (FrozenForSnapshot(address, info, Versions.State))
                return false;
            var reason = IsExpired(in record) ? DisposeReason.Expired : DisposeReason.Evicted;
            EvictionObserver?.OnDropped(ref record, reason);
            if (reason == DisposeReason.Evicted)
                Budget.CountEvicted();
            else
                Budget.CountExpired();
            // As DEL does in place: the chain keeps the record, which reads as deleted from now on.
            Log.ReleaseExternal(in record);
            record.Info.Tombstone = true;
            CountKeysInBackground(-1);
            return true;
        }
        finally
        {
            HashBucket.ReleaseExclusive(bucket);
        }
    }
}
