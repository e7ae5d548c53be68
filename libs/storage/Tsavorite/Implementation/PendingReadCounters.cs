using System.Threading;

namespace Tsavorite;

/// <summary>Counters of the reads operations made from the log device (the storage tier).</summary>
public sealed partial class TsavoriteKV
{
    private long _pendingReads;
    private long _deviceReadErrors;

    /// <summary>Whether pages that leave memory stay readable on the device (see <see cref="KVSettings.StorageTier"/>).</summary>
    public bool StorageTier => Log.StorageTier;

    /// <summary>Times an operation read its key's chain back from the device.</summary>
    public long PendingReads => Volatile.Read(ref _pendingReads);

    /// <summary>Reads from the device that failed (each failed its operation).</summary>
    public long DeviceReadErrors => Volatile.Read(ref _deviceReadErrors);

    internal void CountPendingRead() => Interlocked.Increment(ref _pendingReads);

    internal void CountDeviceReadError() => Interlocked.Increment(ref _deviceReadErrors);
}
