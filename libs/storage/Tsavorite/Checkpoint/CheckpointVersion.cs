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
/// A unit of several writes (a transaction, a script) must be wholly in one version: its user moves the version only
/// while no such unit runs (the server does so under its key-lock gate, which every such unit holds while it runs).
/// </para>
/// </remarks>
public sealed class CheckpointVersion
{
    /// <summary>Set in a state while the previous version's snapshot is being taken: its records are frozen.</summary>
    public const long FreezingBit = 1;

    private long _state = 1L << 1; // version 1, not freezing

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

    /// <summary>Publishes a new state (full fence) and returns it.</summary>
    public long Publish(long version, bool freezing)
    {
        long state = version << 1 | (freezing ? FreezingBit : 0);
        Interlocked.Exchange(ref _state, state);
        return state;
    }

    /// <summary>Sets the version after recovery, before any write runs.</summary>
    public void Restore(long version) => Publish(version, freezing: false);
}
