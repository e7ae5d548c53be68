using System.Runtime.CompilerServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// A 64-byte, cache-line-aligned bucket of the hash index: seven <see cref="HashBucketEntry"/> words
/// and an eighth word holding the overflow-bucket number (low 48 bits) and, in the primary bucket,
/// a 16-bit latch (high bits): one exclusive bit and a 15-bit count of shared holders.
/// Operations take the latch of a key's primary bucket: shared to read records, exclusive to change them.
/// An operation waits for the latch with its epoch refreshing (see <see cref="AcquireShared"/>).
/// </summary>
internal static unsafe class HashBucket
{
    public const int Size = 64;
    public const int EntryCount = 7;
    public const int OverflowEntryIndex = 7;

    private const long ExclusiveBit = 1L << 63;
    private const long SharedUnit = 1L << 48;
    private const long SharedMask = 0x7FFFL << 48;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long* OverflowWord(long* bucket) => bucket + OverflowEntryIndex;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long OverflowBucketNumber(long* bucket) => Volatile.Read(ref *OverflowWord(bucket)) & LogAddress.AddressMask;

    /// <summary>
    /// Takes the latch shared; spins while an exclusive holder is in. A caller protected on
    /// <paramref name="epoch"/> refreshes it while it waits: the holder may itself be waiting for the
    /// epoch to move (opening a log page when the epoch's drain list is full), so a waiter that kept
    /// its old epoch would deadlock with it. Records reached before the wait may therefore be
    /// reused by the time it returns, unless nothing can free them meanwhile.
    /// </summary>
    public static void AcquireShared(long* bucket, LightEpoch? epoch = null)
    {
        long* word = OverflowWord(bucket);
        var spinner = new SpinWait();
        while (true)
        {
            long current = Volatile.Read(ref *word);
            if ((current & ExclusiveBit) == 0 && (current & SharedMask) != SharedMask
                && Interlocked.CompareExchange(ref *word, current + SharedUnit, current) == current)
                return;
            spinner.SpinOnce(-1);
            epoch?.ProtectAndDrain();
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void ReleaseShared(long* bucket) => Interlocked.Add(ref *OverflowWord(bucket), -SharedUnit);

    /// <summary>
    /// Takes the latch exclusive: first the exclusive bit, then waits for shared holders to leave.
    /// Refreshes <paramref name="epoch"/> while it waits, as <see cref="AcquireShared"/> does.
    /// </summary>
    public static void AcquireExclusive(long* bucket, LightEpoch? epoch = null)
    {
        long* word = OverflowWord(bucket);
        var spinner = new SpinWait();
        while (true)
        {
            long current = Volatile.Read(ref *word);
            if ((current & ExclusiveBit) == 0
                && Interlocked.CompareExchange(ref *word, current | ExclusiveBit, current) == current)
                break;
            spinner.SpinOnce(-1);
            epoch?.ProtectAndDrain();
        }
        while ((Volatile.Read(ref *word) & SharedMask) != 0)
        {
            spinner.SpinOnce(-1);
            epoch?.ProtectAndDrain();
        }
    }

    /// <summary>Takes the latch exclusive if it is free right now.</summary>
    public static bool TryAcquireExclusive(long* bucket)
    {
        long* word = OverflowWord(bucket);
        long current = Volatile.Read(ref *word);
        return (current & (ExclusiveBit | SharedMask)) == 0
            && Interlocked.CompareExchange(ref *word, current | ExclusiveBit, current) == current;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void ReleaseExclusive(long* bucket) => Interlocked.And(ref *OverflowWord(bucket), ~ExclusiveBit);

    /// <summary>Whether anyone holds the latch (for tests and diagnostics).</summary>
    public static bool IsLatched(long* bucket) => (Volatile.Read(ref *OverflowWord(bucket)) & (ExclusiveBit | SharedMask)) != 0;
}
