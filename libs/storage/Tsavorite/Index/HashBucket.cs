using System.Runtime.CompilerServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// A 64-byte, cache-line-aligned bucket of the hash index: seven <see cref="HashBucketEntry"/> words
/// and an eighth word holding the overflow-bucket number (low 47 bits) and, in the primary bucket,
/// a moved bit (bit 47) and a 16-bit latch (high bits): one exclusive bit and a 15-bit count of
/// shared holders. Operations take the latch of a key's primary bucket: shared to read records,
/// exclusive to change them. An operation waits for the latch with its epoch refreshing (see
/// <see cref="AcquireShared"/>).
/// </summary>
/// <remarks>
/// The moved bit is set, under the exclusive latch, when an index resize has copied the bucket into
/// the next, larger table (see <see cref="IndexResize"/>). It is never cleared, and the latch of a
/// moved bucket can no longer be taken: acquiring it fails, and the caller starts over in the new
/// table. So whoever holds the latch of a primary bucket knows the bucket is still the one in use.
/// </remarks>
internal static unsafe class HashBucket
{
    public const int Size = 64;
    public const int EntryCount = 7;
    public const int OverflowEntryIndex = 7;

    /// <summary>Bits of the eighth word that hold the overflow-bucket number.</summary>
    public const long OverflowNumberMask = (1L << 47) - 1;

    private const long MovedBit = 1L << 47;
    private const long ExclusiveBit = 1L << 63;
    private const long SharedUnit = 1L << 48;
    private const long SharedMask = 0x7FFFL << 48;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long* OverflowWord(long* bucket) => bucket + OverflowEntryIndex;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long OverflowBucketNumber(long* bucket) => Volatile.Read(ref *OverflowWord(bucket)) & OverflowNumberMask;

    /// <summary>Whether a resize has moved this primary bucket into the next table.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsMoved(long* bucket) => (Volatile.Read(ref *OverflowWord(bucket)) & MovedBit) != 0;

    /// <summary>Marks a primary bucket moved; the caller holds its latch exclusively and keeps it until done.</summary>
    public static void MarkMoved(long* bucket) => Interlocked.Or(ref *OverflowWord(bucket), MovedBit);

    /// <summary>
    /// Takes the latch shared; spins while an exclusive holder is in. A caller protected on
    /// <paramref name="epoch"/> refreshes it while it waits: the holder may itself be waiting for the
    /// epoch to move (opening a log page when the epoch's drain list is full), so a waiter that kept
    /// its old epoch would deadlock with it. Records reached before the wait may therefore be
    /// reused by the time it returns, unless nothing can free them meanwhile.
    /// Returns false, without the latch, when the bucket was moved by a resize or its
    /// <paramref name="table"/> was retired while the caller waited: the caller must look the
    /// bucket up again (and must not touch this one, whose memory may be gone after the refresh).
    /// </summary>
    public static bool AcquireShared(long* bucket, LightEpoch? epoch = null, BucketTable? table = null)
    {
        long* word = OverflowWord(bucket);
        var spinner = new SpinWait();
        while (true)
        {
            long current = Volatile.Read(ref *word);
            if ((current & MovedBit) != 0)
                return false;
            if ((current & ExclusiveBit) == 0 && (current & SharedMask) != SharedMask
                && Interlocked.CompareExchange(ref *word, current + SharedUnit, current) == current)
                return true;
            spinner.SpinOnce(-1);
            if (epoch != null && !Refresh(epoch, table))
                return false;
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void ReleaseShared(long* bucket) => Interlocked.Add(ref *OverflowWord(bucket), -SharedUnit);

    /// <summary>
    /// Takes the latch exclusive: first the exclusive bit, then waits for shared holders to leave.
    /// Refreshes <paramref name="epoch"/> while it waits and fails on a moved bucket or a retired
    /// table, as <see cref="AcquireShared"/> does.
    /// </summary>
    public static bool AcquireExclusive(long* bucket, LightEpoch? epoch = null, BucketTable? table = null)
    {
        long* word = OverflowWord(bucket);
        var spinner = new SpinWait();
        while (true)
        {
            long current = Volatile.Read(ref *word);
            if ((current & MovedBit) != 0)
                return false;
            if ((current & ExclusiveBit) == 0
                && Interlocked.CompareExchange(ref *word, current | ExclusiveBit, current) == current)
                break;
            spinner.SpinOnce(-1);
            if (epoch != null && !Refresh(epoch, table))
                return false;
        }
        // Holding the exclusive bit, nobody can move the bucket or retire its table: the wait is safe.
        while ((Volatile.Read(ref *word) & SharedMask) != 0)
        {
            spinner.SpinOnce(-1);
            epoch?.ProtectAndDrain();
        }
        return true;
    }

    /// <summary>Takes the latch exclusive if it is free right now and the bucket was not moved.</summary>
    public static bool TryAcquireExclusive(long* bucket)
    {
        long* word = OverflowWord(bucket);
        long current = Volatile.Read(ref *word);
        return (current & (ExclusiveBit | SharedMask | MovedBit)) == 0
            && Interlocked.CompareExchange(ref *word, current | ExclusiveBit, current) == current;
    }

    /// <summary>
    /// Sets the exclusive bit if no exclusive holder has it and the bucket was not moved, whether or
    /// not shared holders are in: new shared holders then wait. The latch is held once
    /// <see cref="HasSharedHolders"/> turns false; until then the caller may give up with <see cref="ReleaseExclusive"/>.
    /// </summary>
    public static bool TryTakeExclusiveBit(long* bucket)
    {
        long* word = OverflowWord(bucket);
        long current = Volatile.Read(ref *word);
        return (current & (ExclusiveBit | MovedBit)) == 0
            && Interlocked.CompareExchange(ref *word, current | ExclusiveBit, current) == current;
    }

    /// <summary>Whether shared holders are in the latch.</summary>
    public static bool HasSharedHolders(long* bucket) => (Volatile.Read(ref *OverflowWord(bucket)) & SharedMask) != 0;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void ReleaseExclusive(long* bucket) => Interlocked.And(ref *OverflowWord(bucket), ~ExclusiveBit);

    /// <summary>Whether anyone holds the latch (for tests and diagnostics).</summary>
    public static bool IsLatched(long* bucket) => (Volatile.Read(ref *OverflowWord(bucket)) & (ExclusiveBit | SharedMask)) != 0;

    /// <summary>
    /// Refreshes the epoch of a waiter; false when the table the waiter's bucket lives in was retired
    /// meanwhile. Retirement is published before the epoch bump that frees the table, so a waiter that
    /// refreshed past that bump sees it here, before it reads the bucket again.
    /// </summary>
    private static bool Refresh(LightEpoch epoch, BucketTable? table)
    {
        epoch.ProtectAndDrain();
        return table == null || !table.IsRetired;
    }
}
