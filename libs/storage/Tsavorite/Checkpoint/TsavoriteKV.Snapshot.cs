using System;
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// Told by the engine that a frozen record's value is about to change or go (see <see cref="TsavoriteKV.BeginSnapshot"/>):
/// a value the engine cannot keep unchanged by itself — a heap object the store's user keeps — must be captured now
/// if the snapshot is to see it as it was.
/// </summary>
public interface ISnapshotCapture
{
    /// <summary>
    /// Fires under the record's exclusive bucket latch, at most once per record and snapshot, before a write of the new
    /// version updates the record's object where it is or lets go of it.
    /// </summary>
    void Capture(long address, in LogRecord record);
}

/// <summary>
/// The store's part of a checkpoint: the records of version v stay as they are while a snapshot of v is written,
/// whatever writes of v+1 do meanwhile (the paper's CPR, with a snapshot instead of a fold-over).
/// </summary>
/// <remarks>
/// <para>
/// Which records are v's: when the snapshot begins, the tail is the <i>boundary</i>; every record below it was written
/// in v or earlier. Records at or above it were written after, by writes of v still running or of v+1; each carries
/// the parity of its version (<see cref="RecordInfo.VersionParity"/>), which tells the two apart. While the snapshot is
/// taken (<see cref="CheckpointVersion.FreezingBit"/>), a write of v+1 updates a record in place only if it is its own
/// version's (at or above the boundary, its parity); any other it copies, deletes with a tombstone record, and never
/// reuses or frees, so v's records keep their values. Their out-of-line blocks are let go of only once the snapshot
/// ends, and heap objects are captured by the store's user first (<see cref="ISnapshotCapture"/>).
/// </para>
/// <para>
/// Nothing else moves v's records meanwhile: the head mover settles no page (the snapshot holds the
/// <see cref="ScanGate"/>), revivification is paused and compaction waits, from before the move to v+1 until the
/// snapshot ends. A key's records lie in its chain in ascending address order (reused space is only taken above the
/// chain's head), so the snapshot writes every record of v in address order and a loader applying them in that order,
/// the last one of a key winning and tombstones deleting, ends with v's state.
/// </para>
/// </remarks>
public sealed unsafe partial class TsavoriteKV
{
    private long _snapshotBoundary;
    private long _snapshotState;
    private ISnapshotCapture? _snapshotCapture;
    private readonly ConcurrentQueue<long> _deferredExternal = new();
    private bool _compactionHeld;

    /// <summary>The version of writes to this store (shared by a server's databases).</summary>
    public CheckpointVersion Versions { get; }

    /// <summary>The version state a write belongs to, read once under its bucket latch (see <see cref="CheckpointVersion"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal long OperationState() => Versions.State;

    /// <summary>
    /// Whether a write in <paramref name="state"/> may update the record at <paramref name="address"/> in place (or
    /// reuse or free its space): it is in the mutable region, and no snapshot needs it as it is.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal bool MayUpdateInPlace(long address, RecordInfo info, long state)
        => address >= Log.ReadOnlyAddress
           && ((state & CheckpointVersion.FreezingBit) == 0 || (address >= Volatile.Read(ref _snapshotBoundary) && info.VersionParity == ParityOf(state)));

    /// <summary>Whether, for a write in <paramref name="state"/>, the record at <paramref name="address"/> belongs to the snapshot being taken.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal bool FrozenForSnapshot(long address, RecordInfo info, long state)
        => (state & CheckpointVersion.FreezingBit) != 0
           && (address < Volatile.Read(ref _snapshotBoundary) || info.VersionParity != ParityOf(state));

    /// <summary>Marks a new or reused record with its writer's version.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static void StampVersion(ref LogRecord record, long state) => record.Info.VersionParity = ParityOf(state);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool ParityOf(long state) => (state & 2) != 0;

    /// <summary>
    /// Before a write of the new version replaces, deletes or updates by copy the record at <paramref name="address"/>:
    /// if the snapshot needs it, its heap object is captured. Returns whether it is frozen (its out-of-line block then
    /// stays until the snapshot ends, see <see cref="ReleaseSupersededExternal"/>).
    /// </summary>
    internal bool CaptureIfFrozen(long address, in LogRecord record, long state)
    {
        if (!FrozenForSnapshot(address, record.Info, state))
            return false;
        if (record.Info.ValueIsObject)
            _snapshotCapture?.Capture(address, in record);
        return true;
    }

    /// <summary>Lets go of a superseded record's out-of-line block, or, when the snapshot needs it, once the snapshot ends.</summary>
    internal void ReleaseSupersededExternal(long address, in LogRecord record, bool frozen)
    {
        if (!record.Info.ValueIsExternal)
            return;
        if (frozen)
            _deferredExternal.Enqueue(address);
        else
            Log.ReleaseExternal(in record);
    }

    /// <summary>
    /// First step of a checkpoint, before the version moves on: protects the calling thread on the store's epoch (until
    /// <see cref="EndSnapshot"/>, so the store stays whole even if a flush retires it meanwhile), holds back what would
    /// move or reclaim records (the head mover's settling, revivification, compaction) and sets the boundary at the
    /// tail. The caller then publishes the new version with freezing set, waits until the operations that may have read
    /// the old one have ended (<see cref="RequestDrain"/>, refreshing meanwhile with <see cref="RefreshEpoch"/>), scans (<see cref="ScanSnapshot"/>), publishes the end of freezing and
    /// ends with <see cref="EndSnapshot"/>, all on one thread.
    /// </summary>
    public void BeginSnapshot(ISnapshotCapture? capture)
    {
        if (!_compactionHeld)
            HoldForSnapshot();
        Epoch.Resume();
        _snapshotCapture = capture;
        Volatile.Write(ref _snapshotBoundary, Log.TailAddress);
    }

    /// <summary>
    /// The part of <see cref="BeginSnapshot"/> that may wait (for a compaction, for the head mover to finish a page), done
    /// first for every store while the calling thread is protected on none: a compaction or page being settled may itself
    /// wait for an epoch drain.
    /// </summary>
    public void HoldForSnapshot()
    {
        Monitor.Enter(_compactionLock);
        _compactionHeld = true;
        FreePool?.BeginScan();
        ScanGate.EnterScan(Epoch);
    }

    /// <summary>
    /// Runs <paramref name="onDrained"/> once every thread protected on the store's epoch now has moved on, so no
    /// operation still writes in a version read before this call. The caller refreshes (<see cref="RefreshEpoch"/>) while it waits.
    /// </summary>
    public void RequestDrain(Action onDrained) => Epoch.BumpCurrentEpoch(onDrained);

    /// <summary>Moves the calling (protected) thread to the current epoch and runs actions that became safe.</summary>
    public void RefreshEpoch() => Epoch.ProtectAndDrain();

    /// <summary>
    /// Reports every record of version <paramref name="frozenVersion"/> (live, superseded, deleted or expired) in address
    /// order, each under its key's shared bucket latch, to <paramref name="functions"/>. The caller is protected
    /// (<see cref="BeginSnapshot"/>).
    /// </summary>
    public void ScanSnapshot<TScanFunctions>(ref TScanFunctions functions, long frozenVersion)
        where TScanFunctions : IScanFunctions
    {
        Volatile.Write(ref _snapshotState, frozenVersion << 1 | CheckpointVersion.FreezingBit);
        InternalScan(ref functions, Log.BeginAddress, -1, ScanFlags.Snapshot);
    }

    /// <summary>
    /// Whether <paramref name="record"/>, handed to a scan's callback for <paramref name="address"/>, is the record in the
    /// log's memory (not a copy read from the device).
    /// </summary>
    public bool IsInMemory(long address, in LogRecord record)
        => address >= Log.HeadAddress && Log.GetRecord(address).PhysicalAddress == record.PhysicalAddress;

    /// <summary>Whether the snapshot being scanned holds the record at <paramref name="address"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool InSnapshot(long address, RecordInfo info)
        => address < _snapshotBoundary || info.VersionParity == ((_snapshotState & 2) != 0);

    /// <summary>
    /// Ends the snapshot once the version's freezing is over (published by the caller): lets go of the out-of-line
    /// blocks it kept and of what it held back.
    /// </summary>
    public void EndSnapshot()
    {
        if (!Epoch.ThisInstanceProtected())
            Epoch.Resume();
        try
        {
            while (_deferredExternal.TryDequeue(out long address))
            {
                // The head mover settled nothing since, so the record is still in memory.
                if (address >= Log.HeadAddress)
                    Log.ReleaseExternal(Log.GetRecord(address));
            }
        }
        finally
        {
            _snapshotCapture = null;
            Volatile.Write(ref _snapshotState, 0);
            ScanGate.ExitScan();
            FreePool?.EndScan();
            if (Epoch.ThisInstanceProtected())
                Epoch.Suspend();
            if (_compactionHeld)
            {
                _compactionHeld = false;
                Monitor.Exit(_compactionLock);
            }
        }
    }
}
