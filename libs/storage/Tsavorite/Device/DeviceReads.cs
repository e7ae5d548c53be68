using System;
using System.Runtime.InteropServices;

namespace Tsavorite;

/// <summary>
/// Blocking reads of arbitrary byte ranges from a device, on the calling thread (object log entries read back,
/// recovery and inspection). The device sees only sector-aligned requests, so it may do unbuffered I/O.
/// </summary>
public static unsafe class DeviceReads
{
    /// <summary>
    /// Reads <paramref name="destination"/>.Length bytes at device address <paramref name="address"/>.
    /// Throws <see cref="TsavoriteException"/> when the device reports an error.
    /// </summary>
    public static void Read(IDevice device, long address, Span<byte> destination)
    {
        ArgumentNullException.ThrowIfNull(device);
        ArgumentOutOfRangeException.ThrowIfNegative(address);
        if (destination.IsEmpty)
            return;
        long sector = Math.Max(1u, device.SectorSize);
        long start = Alignment.RoundDown(address, sector);
        long end = Alignment.RoundUp(address + destination.Length, sector);
        if (end - start > int.MaxValue)
            throw new ArgumentOutOfRangeException(nameof(destination), "The read is too large.");
        uint length = (uint)(end - start);
        byte* buffer = (byte*)NativeMemory.AlignedAlloc(length, (nuint)Math.Max(sector, 8));
        try
        {
            uint error;
            using (BlockingReads.Begin())
                error = device.Read((ulong)start, new Span<byte>(buffer, (int)length));
            if (error != 0)
                throw new TsavoriteException($"Reading {destination.Length} bytes at device address {address} of {device.Name} failed with error {error}.");
            new ReadOnlySpan<byte>(buffer + (address - start), destination.Length).CopyTo(destination);
        }
        finally
        {
            NativeMemory.AlignedFree(buffer);
        }
    }
}
