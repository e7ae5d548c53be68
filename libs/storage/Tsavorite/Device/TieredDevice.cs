using System;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// Several devices behind one: every write goes to all of them, and a read comes from the first (fastest) one that
/// still holds the range. A tier with a capacity keeps only the newest that many bytes of the log: once writes
/// reach past it, its oldest segments are deleted, and older reads go to the next tier.
/// </summary>
/// <remarks>
/// List the tiers fastest first, e.g. a local SSD with a capacity and then a large, slower device without one. A
/// write completes when every tier completed it, with the first error any of them reported (the log then counts the
/// flush as failed). A read that a tier fails is not retried on the next one: a tier that claims a range and cannot
/// read it is broken, and the error says so.
/// </remarks>
public sealed class TieredDevice : IDevice
{
    private readonly IDevice[] _tiers;
    private readonly long[] _capacities;
    private readonly bool _ownsTiers;
    private readonly long[] _keptFrom;
    private long _writtenUntil;

    /// <summary>
    /// Creates the device over <paramref name="tiers"/>, fastest first, each with the bytes it keeps
    /// (<paramref name="capacities"/>, -1 for all; the last tier must keep all). <paramref name="ownsTiers"/>: disposing
    /// this device disposes them.
    /// </summary>
    public TieredDevice(IDevice[] tiers, long[] capacities, bool ownsTiers = true)
    {
        ArgumentNullException.ThrowIfNull(tiers);
        ArgumentNullException.ThrowIfNull(capacities);
        if (tiers.Length == 0 || tiers.Length != capacities.Length)
            throw new ArgumentException("Give one capacity per tier, and at least one tier.", nameof(capacities));
        if (capacities[^1] != -1)
            throw new ArgumentException("The last tier must keep everything (capacity -1).", nameof(capacities));
        for (int i = 0; i < tiers.Length - 1; i++)
        {
            if (capacities[i] != -1 && capacities[i] < 2 * Math.Max(1, tiers[i].SegmentSize))
                throw new ArgumentException($"Tier {i} must keep at least two of its segments.", nameof(capacities));
        }
        _tiers = tiers;
        _capacities = capacities;
        _ownsTiers = ownsTiers;
        _keptFrom = new long[tiers.Length];
        uint sector = 1;
        foreach (var tier in tiers)
            sector = Math.Max(sector, tier.SectorSize);
        SectorSize = sector;
    }

    /// <inheritdoc/>
    public string Name => "tiered(" + string.Join(", ", Array.ConvertAll(_tiers, t => t.Name)) + ")";

    /// <inheritdoc/>
    public uint SectorSize { get; }

    /// <inheritdoc/>
    public long SegmentSize => _tiers[^1].SegmentSize;

    /// <summary>The lowest address tier <paramref name="tier"/> still holds.</summary>
    public long KeptFrom(int tier) => Volatile.Read(ref _keptFrom[tier]);

    /// <inheritdoc/>
    public void WriteAsync(IntPtr source, ulong destinationAddress, uint length, DeviceIOCompletionCallback callback, object? context)
    {
        ArgumentNullException.ThrowIfNull(callback);
        var write = new TieredWrite(_tiers.Length, length, callback, context);
        for (int i = 0; i < _tiers.Length; i++)
            _tiers[i].WriteAsync(source, destinationAddress, length, TieredWrite.OnTierCompleted, write);
        long end = (long)destinationAddress + length;
        long written;
        do
        {
            written = Volatile.Read(ref _writtenUntil);
            if (end <= written)
                return;
        }
        while (Interlocked.CompareExchange(ref _writtenUntil, end, written) != written);
        TrimBoundedTiers(end);
    }

    /// <summary>Tiers with a capacity let go of what lies more than their capacity behind the newest write.</summary>
    private void TrimBoundedTiers(long writtenUntil)
    {
        for (int i = 0; i < _tiers.Length - 1; i++)
        {
            if (_capacities[i] < 0)
                continue;
            long keepFrom = writtenUntil - _capacities[i];
            long segment = Math.Max(1, _tiers[i].SegmentSize);
            keepFrom -= keepFrom % segment; // whole segments go
            long kept = Volatile.Read(ref _keptFrom[i]);
            if (keepFrom <= kept || Interlocked.CompareExchange(ref _keptFrom[i], keepFrom, kept) != kept)
                continue;
            // Readers that chose this tier before the move finish first only if they are quick: a read racing the
            // deletion may fail, so a read checks the range again after an error (see Read).
            _tiers[i].TruncateUntilAddress(keepFrom);
        }
    }

    /// <summary>The first tier that holds [<paramref name="address"/>, +<paramref name="length"/>).</summary>
    private int TierFor(ulong address)
    {
        for (int i = 0; i < _tiers.Length - 1; i++)
        {
            if ((long)address >= Volatile.Read(ref _keptFrom[i]))
                return i;
        }
        return _tiers.Length - 1;
    }

    /// <inheritdoc/>
    public void ReadAsync(ulong sourceAddress, IntPtr destination, uint length, DeviceIOCompletionCallback callback, object? context)
        => _tiers[TierFor(sourceAddress)].ReadAsync(sourceAddress, destination, length, callback, context);

    /// <inheritdoc/>
    public uint Read(ulong sourceAddress, Span<byte> destination)
    {
        while (true)
        {
            int tier = TierFor(sourceAddress);
            uint error = _tiers[tier].Read(sourceAddress, destination);
            // A bounded tier trimmed the range while it was being read: the next tier has it.
            if (error == 0 || tier == _tiers.Length - 1 || (long)sourceAddress >= Volatile.Read(ref _keptFrom[tier]))
                return error;
        }
    }

    /// <inheritdoc/>
    public void TruncateUntilAddress(long address)
    {
        foreach (var tier in _tiers)
            tier.TruncateUntilAddress(address);
    }

    /// <inheritdoc/>
    public void WaitForPendingWrites()
    {
        foreach (var tier in _tiers)
            tier.WaitForPendingWrites();
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        if (!_ownsTiers)
            return;
        foreach (var tier in _tiers)
            tier.Dispose();
    }

    /// <summary>One write to every tier: completes once, when the last tier did, with the first error.</summary>
    private sealed class TieredWrite
    {
        private readonly uint _length;
        private readonly DeviceIOCompletionCallback _callback;
        private readonly object? _context;
        private int _remaining;
        private uint _error;

        public TieredWrite(int tiers, uint length, DeviceIOCompletionCallback callback, object? context)
        {
            _remaining = tiers;
            _length = length;
            _callback = callback;
            _context = context;
        }

        public static void OnTierCompleted(uint errorCode, uint numBytes, object? state)
        {
            var write = (TieredWrite)state!;
            if (errorCode != 0)
                Interlocked.CompareExchange(ref write._error, errorCode, 0);
            if (Interlocked.Decrement(ref write._remaining) == 0)
                write._callback(write._error, write._error == 0 ? write._length : 0, write._context);
        }
    }
}
