using System;
using System.Runtime.CompilerServices;

namespace Tsavorite;

/// <summary>
/// The 32-bit access word of a record (<see cref="LogRecord.Access"/>), kept as Redis keeps its 24-bit
/// <c>lru</c> field: under an LRU or non-evicting policy the low 24 bits are a clock in seconds; under an
/// LFU policy they are a 16-bit time in minutes above an 8-bit logarithmic counter. Bit 24 says the record
/// was accessed since it was written or last moved, which gives it a second chance under LRU eviction.
/// </summary>
/// <remarks>
/// Reads, in-place writes and TOUCH update the word; a record that replaces another keeps the old LFU
/// counter, as Redis keeps it across overwrites. Which reading applies follows the current policy, so a
/// policy change reinterprets words written under the old one, as in Redis.
/// </remarks>
public static class RecordAccess
{
    /// <summary>Set on access, cleared when the record is written anew or moved by the head of the log.</summary>
    public const uint AccessedBit = 1u << 24;

    /// <summary>Mask of the clock or the LFU time and counter.</summary>
    public const uint ValueMask = (1u << 24) - 1;

    /// <summary>The counter a new record starts with under LFU, so new keys are not the first evicted (Redis's LFU_INIT_VAL).</summary>
    public const int LfuInitialCounter = 5;

    private const int LfuMaxCounter = 255;

    [ThreadStatic]
    private static uint RandomState;

    /// <summary>The LRU clock: seconds, wrapping at 24 bits (about 194 days), as Redis's.</summary>
    public static uint LruClock
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => (uint)(CoarseClock.Milliseconds / 1000) & ValueMask;
    }

    /// <summary>The LFU time: minutes, wrapping at 16 bits.</summary>
    public static uint LfuMinutes => (uint)(CoarseClock.Milliseconds / 60000) & 0xFFFF;

    /// <summary>The word of a newly written record.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static uint ForNewRecord(bool tracksFrequency)
        => tracksFrequency ? (LfuMinutes << 8) | LfuInitialCounter : LruClock;

    /// <summary>
    /// The word of a record that replaces <paramref name="previous"/> (an overwrite or a copy): a fresh
    /// clock under LRU, the old counter counted once more under LFU. The accessed bit starts clear.
    /// </summary>
    public static uint ForReplacement(uint previous, bool tracksFrequency, int lfuLogFactor, int lfuDecayTime)
        => tracksFrequency ? Touched(previous, true, lfuLogFactor, lfuDecayTime) & ~AccessedBit : LruClock;

    /// <summary>
    /// The LRU word of a record last accessed <paramref name="seconds"/> ago (RESTORE ... IDLETIME); the clock
    /// wraps as Redis's does, so a span longer than the clock's period is taken modulo it.
    /// </summary>
    public static uint ForIdleSeconds(long seconds)
    {
        long then = LruClock - (seconds % ValueMask);
        if (then < 0)
            then += ValueMask;
        return (uint)then & ValueMask;
    }

    /// <summary>The LFU word of a record whose counter is <paramref name="counter"/> (0 to 255) now (RESTORE ... FREQ).</summary>
    public static uint ForFrequency(int counter) => (LfuMinutes << 8) | (uint)Math.Clamp(counter, 0, LfuMaxCounter);

    /// <summary>The word after one access.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static uint Touched(uint word, bool tracksFrequency, int lfuLogFactor, int lfuDecayTime)
    {
        if (!tracksFrequency)
            return LruClock | AccessedBit;
        int counter = LfuLogIncrement(DecayedCounter(word, lfuDecayTime), lfuLogFactor);
        return (LfuMinutes << 8) | (uint)counter | AccessedBit;
    }

    /// <summary>Seconds since the last access, from an LRU word (Redis's estimateObjectIdleTime).</summary>
    public static long IdleSeconds(uint word)
    {
        uint clock = LruClock;
        uint then = word & ValueMask;
        return clock >= then ? clock - then : (ValueMask - then) + clock;
    }

    /// <summary>
    /// The LFU counter of <paramref name="word"/> after decay: one less per <paramref name="lfuDecayTime"/>
    /// minutes since it was last updated (Redis's LFUDecrAndReturn). Reading does not change the word.
    /// </summary>
    public static int DecayedCounter(uint word, int lfuDecayTime)
    {
        uint then = (word >> 8) & 0xFFFF;
        int counter = (int)(word & 0xFF);
        if (lfuDecayTime <= 0)
            return counter;
        uint now = LfuMinutes;
        long elapsed = now >= then ? now - then : 65535 - then + now;
        long periods = elapsed / lfuDecayTime;
        return periods > counter ? 0 : counter - (int)periods;
    }

    /// <summary>Counts one access logarithmically: the higher the counter, the less likely it grows (Redis's LFULogIncr).</summary>
    private static int LfuLogIncrement(int counter, int lfuLogFactor)
    {
        if (counter >= LfuMaxCounter)
            return LfuMaxCounter;
        double baseValue = Math.Max(0, counter - LfuInitialCounter);
        double p = 1.0 / ((baseValue * lfuLogFactor) + 1);
        return NextUnitRandom() < p ? counter + 1 : counter;
    }

    /// <summary>A uniform number in [0, 1) from a per-thread xorshift generator: no lock, no allocation.</summary>
    private static double NextUnitRandom()
    {
        uint x = RandomState;
        if (x == 0)
            x = (uint)Environment.CurrentManagedThreadId * 2654435761u | 1;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        RandomState = x;
        return x / 4294967296.0;
    }
}
