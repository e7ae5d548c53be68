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
    /// Reads <paramref name="destination"/>.Length bytes at device address <paramref name="address"/>, through a
    /// sector-aligned buffer of at most <see cref="ChunkBytes"/> (a large value is read a part at a time, not into a
    /// second copy of itself). Throws <see cref="TsavoriteException"/> when the device reports an error.
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
        int bufferLength = (int)Math.Min(end - start, Alignment.RoundUp(ChunkBytes, sector));
        byte* buffer = (byte*)NativeMemory.AlignedAlloc((nuint)bufferLength, (nuint)Math.Max(sector, 8));
        try
        {
            using var blocking = BlockingReads.Begin();
            long chunkStart = start;
            int copied = 0;
            while (copied < destination.Length)
            {
                int length = (int)Math.Min(bufferLength, end - chunkStart);
                uint error = device.Read((ulong)chunkStart, new Span<byte>(buffer, length));
                if (error != 0)
                    throw new TsavoriteException($"Reading {destination.Length} bytes at device address {address} of {device.Name} failed with error {error}.");
                long skip = Math.Max(0, address - chunkStart); // the first chunk starts at the sector before the bytes
                int count = (int)Math.Min(length - skip, destination.Length - copied);
                new ReadOnlySpan<byte>(buffer + skip, count).CopyTo(destination.Slice(copied, count));
                copied += count;
                chunkStart += length;
            }
        }
        finally
        {
            NativeMemory.AlignedFree(buffer);
        }
    }

    /// <summary>The most a read stages at once.</summary>
    public const int ChunkBytes = 4 << 20;
}
