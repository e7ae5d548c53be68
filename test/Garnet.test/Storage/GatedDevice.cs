using System;
using System.Threading;
using Tsavorite;

namespace Garnet.test.Storage;

/// <summary>A device whose blocking reads wait while the test keeps its gate shut.</summary>
internal sealed class GatedDevice(IDevice inner) : IDevice
{
    private readonly ManualResetEventSlim _open = new(true);
    private readonly SemaphoreSlim _readers = new(0);

    /// <summary>How long each read takes at least.</summary>
    public TimeSpan ReadDelay { get; set; }

    public void Close() => _open.Reset();

    public void Open() => _open.Set();

    public bool WaitForAReader(TimeSpan timeout) => _readers.Wait(timeout);

    public string Name => "gated(" + inner.Name + ")";

    public uint SectorSize => inner.SectorSize;

    public long SegmentSize => inner.SegmentSize;

    public void WriteAsync(IntPtr source, ulong destinationAddress, uint length, DeviceIOCompletionCallback callback, object? context)
        => inner.WriteAsync(source, destinationAddress, length, callback, context);

    public void ReadAsync(ulong sourceAddress, IntPtr destination, uint length, DeviceIOCompletionCallback callback, object? context)
        => inner.ReadAsync(sourceAddress, destination, length, callback, context);

    public uint Read(ulong sourceAddress, Span<byte> destination)
    {
        if (!_open.IsSet)
        {
            _readers.Release();
            // Polled, not waited for: a thread-pool thread blocked in an event wait is seen by the pool, which adds
            // threads for it, while one blocked in a read system call is not. The deadline only guards a hung test.
            long deadline = Environment.TickCount64 + 60_000;
            while (!_open.IsSet && Environment.TickCount64 < deadline)
                Thread.Sleep(1);
        }
        if (ReadDelay > TimeSpan.Zero)
        {
            var until = System.Diagnostics.Stopwatch.GetTimestamp() + (long)(ReadDelay.TotalSeconds * System.Diagnostics.Stopwatch.Frequency);
            while (System.Diagnostics.Stopwatch.GetTimestamp() < until)
                Thread.Sleep(0);
        }
        return inner.Read(sourceAddress, destination);
    }

    public void TruncateUntilAddress(long address) => inner.TruncateUntilAddress(address);

    public void WaitForPendingWrites() => inner.WaitForPendingWrites();

    public void Dispose()
    {
        inner.Dispose();
        _open.Dispose();
        _readers.Dispose();
    }
}
