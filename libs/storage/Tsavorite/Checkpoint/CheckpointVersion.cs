using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// The version every write of a group of stores (a server's databases) belongs to, and whether a snapshot of the
/// previous version is being taken. A checkpoint moves the group from version v to v+1 and writes out what v held;
/// records of v must then not change until it is written (see TsavoriteKV.Snapshot.cs).
/// </summary>
/// <remarks>
/// <para>
/// The state is one word: the version shifted left by one, and the <see cref="FreezingBit"/>. A write reads it once,
/// under its key's bucket latch, and that is the version it belongs to. This makes the move from v to v+1 a
/// linearizable cut without a barrier: a write that reads v+1 was latched after the move; any write that depends on
/// it (a later one on the same key, which must wait for the latch, or one by a client that saw its reply) starts
/// later still and so reads v+1 too. Once every thread that may have read v has left its operation (an epoch drain
/// of each store), nothing of v changes any more.
/// </para>
/// <para>
/// A transaction, script or other multi-key unit <see cref="Pin"/>s its version after taking its locks, so all its
/// writes are in one version; it may wait (for the device, for room in the log) with its epoch refreshed, so pins are
/// counted per version parity and the move waits for the old version's count to reach zero
/// (<see cref="HasPins"/>): a Dekker handshake, the pinner increments then reads the state, the mover
/// publishes the state then reads the count, both with full fences.
/// </para>
/// </remarks>
public sealed class CheckpointVersion
{
    /// <summary>Set in a state while the previous version's snapshot is being taken: its records are frozen.</summary>
    public const long FreezingBit = 1;

    private long _state = 1L << 1; // version 1, not freezing

    // Pins of even and odd versions, a cache line apart.
    private readonly long[] _pins = new long[32];

    [ThreadStatic]
    private static CheckpointVersion? PinnedOwner;

    [ThreadStatic]
    private static long PinnedState;

    [ThreadStatic]
    private static int PinDepth;

    /// <summary>The state word: version &lt;&lt; 1 | <see cref="FreezingBit"/>.</summary>
    public long State
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Volatile.Read(ref _state);
    }

    /// <summary>The current version (starts at 1).</summary>
    public long Version => State >> 1;

    /// <summary>Whether the previous version's records are frozen for a snapshot now.</summary>
    public bool Freezing => (State & FreezingBit) != 0;

    /// <summary>The version a state word names.</summary>
    public static long VersionOf(long state) => state >> 1;

    /// <summary>
    /// The state a write on this thread belongs to: the pinned one while the thread holds a pin of this group
    /// (see <see cref="Pin"/>), otherwise the current one.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal long OperationState()
    {
        long current = Volatile.Read(ref _state);
        if (!ReferenceEquals(PinnedOwner, this))
            return current;
        // The pin fixes the version only: while it is the current one, whether a snapshot freezes the previous one is
        // read now (a unit pinned during a snapshot that outlives it stops treating records as frozen).
        long pinned = PinnedState;
        return pinned >> 1 == current >> 1 ? current : pinned;
    }

    /// <summary>
    /// Puts the calling thread's writes into one version until <see cref="Unpin"/>, and returns that version. Pins nest
    /// (a transaction under the operation log's gate): only the outermost counts.
    /// </summary>
    public long Pin()
    {
        if (PinDepth > 0 && ReferenceEquals(PinnedOwner, this))
        {
            PinDepth++;
            return PinnedState >> 1;
        }
        while (true)
        {
            long seen = Volatile.Read(ref _state);
            int slot = SlotOf(seen >> 1);
            Interlocked.Increment(ref _pins[slot]);
            long now = Volatile.Read(ref _state);
            if (now >> 1 == seen >> 1)
            {
                PinnedOwner = this;
                PinnedState = now;
                PinDepth = 1;
                return now >> 1;
            }
            Interlocked.Decrement(ref _pins[slot]);
        }
    }

    /// <summary>Ends the calling thread's pin taken with <see cref="Pin"/> (the outermost one releases it).</summary>
    public void Unpin()
    {
        if (!ReferenceEquals(PinnedOwner, this) || PinDepth == 0)
            return;
        if (--PinDepth > 0)
            return;
        Interlocked.Decrement(ref _pins[SlotOf(PinnedState >> 1)]);
        PinnedOwner = null;
        PinnedState = 0;
    }

    /// <summary>The version the calling thread has pinned in this group, or 0 when it holds no pin.</summary>
    public long PinnedVersion => ReferenceEquals(PinnedOwner, this) && PinDepth > 0 ? PinnedState >> 1 : 0;

    /// <summary>Publishes a new state (full fence) and returns it.</summary>
    public long Publish(long version, bool freezing)
    {
        long state = version << 1 | (freezing ? FreezingBit : 0);
        Interlocked.Exchange(ref _state, state);
        return state;
    }

    /// <summary>Whether some thread holds a pin of <paramref name="version"/> (the mover waits, refreshing its epochs, until none does).</summary>
    public bool HasPins(long version) => Volatile.Read(ref _pins[SlotOf(version)]) != 0;

    /// <summary>Sets the version after recovery, before any write runs.</summary>
    public void Restore(long version) => Publish(version, freezing: false);

    private static int SlotOf(long version) => (int)(version & 1) * 16;
}
