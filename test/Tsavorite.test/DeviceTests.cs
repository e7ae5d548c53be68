using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Tsavorite.test;

[TestFixture]
public sealed unsafe class DeviceTests
{
    private const int PageSize = 4096;

    // Only a guard against a hung test; no assertion depends on how long an I/O takes.
    private static readonly TimeSpan HangGuard = TimeSpan.FromMinutes(1);

    private string _directory = null!;

    [SetUp]
    public void SetUp()
    {
        _directory = Path.Combine(Path.GetTempPath(), "tsavorite-device-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_directory);
    }

    [TearDown]
    public void TearDown()
    {
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    [Test]
    public void WrittenPagesReadBackAndLandInTheSegmentFile()
    {
        string basePath = Path.Combine(_directory, "log");
        long[] addresses = [0, PageSize, 3 * PageSize];
        using (var device = new LocalFileDevice(basePath, segmentSize: 1L << 20))
        {
            Assert.That(device.Name, Is.EqualTo(Path.GetFullPath(basePath)));
            Assert.That(device.SegmentSize, Is.EqualTo(1L << 20));

            var completions = new List<(uint ErrorCode, uint NumBytes, object? Context)>();
            using var pages = new AlignedBuffer(PageSize * addresses.Length);
            for (int i = 0; i < addresses.Length; i++)
            {
                Fill(pages.Span.Slice(i * PageSize, PageSize), seed: i + 1);
                device.WriteAsync((IntPtr)(pages.Pointer + (i * PageSize)), (ulong)addresses[i], PageSize, (e, n, c) =>
                {
                    lock (completions)
                    {
                        completions.Add((e, n, c));
                    }
                }, i);
            }

            device.WaitForPendingWrites();
            Assert.That(completions, Has.Count.EqualTo(addresses.Length));
            Assert.That(completions, Has.All.Matches<(uint ErrorCode, uint NumBytes, object? Context)>(c => c.ErrorCode == 0 && c.NumBytes == PageSize));
            Assert.That(completions.ConvertAll(c => (int)c.Context!), Is.EquivalentTo(new[] { 0, 1, 2 }));

            using var readBack = new AlignedBuffer(PageSize);
            for (int i = 0; i < addresses.Length; i++)
            {
                (uint errorCode, uint numBytes) = Read(device, addresses[i], readBack);
                Assert.That(errorCode, Is.Zero);
                Assert.That(numBytes, Is.EqualTo(PageSize));
                Assert.That(readBack.Span.SequenceEqual(pages.Span.Slice(i * PageSize, PageSize)), Is.True, $"page at {addresses[i]}");
            }
        }

        var file = new FileInfo(basePath + ".0");
        Assert.That(file.Exists, Is.True);
        Assert.That(file.Length, Is.EqualTo(4 * PageSize));
        Assert.That(File.Exists(basePath + ".1"), Is.False);
    }

    [Test]
    public void WriteSpanningSegmentBoundaryIsSplitAcrossFiles()
    {
        const long SegmentSize = 8192;
        string basePath = Path.Combine(_directory, "log");
        using var data = new AlignedBuffer(2 * PageSize);
        Fill(data.Span, seed: 7);

        using (var device = new LocalFileDevice(basePath, SegmentSize))
        {
            // Starts half-way through segment 0 and ends half-way through segment 1.
            (uint errorCode, uint numBytes, int callbacks) = WriteAndWait(device, PageSize, data);
            Assert.That(errorCode, Is.Zero);
            Assert.That(numBytes, Is.EqualTo(2 * PageSize));
            Assert.That(callbacks, Is.EqualTo(1));

            using var readBack = new AlignedBuffer(2 * PageSize);
            (errorCode, numBytes) = Read(device, PageSize, readBack);
            Assert.That(errorCode, Is.Zero);
            Assert.That(numBytes, Is.EqualTo(2 * PageSize));
            Assert.That(readBack.Span.SequenceEqual(data.Span), Is.True);
        }

        byte[] segment0 = File.ReadAllBytes(basePath + ".0");
        byte[] segment1 = File.ReadAllBytes(basePath + ".1");
        Assert.That(segment0, Has.Length.EqualTo(SegmentSize));
        Assert.That(segment1, Has.Length.EqualTo(PageSize));
        Assert.That(segment0.AsSpan(PageSize).SequenceEqual(data.Span[..PageSize]), Is.True);
        Assert.That(segment1.AsSpan().SequenceEqual(data.Span[PageSize..]), Is.True);
    }

    [Test]
    public void ConcurrentWritesToDistinctAddressesAllCompleteAndReadBack()
    {
        const int Threads = 8;
        const int PagesPerThread = 32;
        const int TotalPages = Threads * PagesPerThread;

        // Small segments so the threads race to open many segment files lazily.
        using var device = new LocalFileDevice(Path.Combine(_directory, "log"), segmentSize: 4 * PageSize);
        using var pages = new AlignedBuffer(TotalPages * PageSize);
        for (int page = 0; page < TotalPages; page++)
        {
            Fill(pages.Span.Slice(page * PageSize, PageSize), seed: page);
        }

        int completed = 0;
        int failed = 0;
        long bytes = 0;
        DeviceIOCompletionCallback callback = (errorCode, numBytes, _) =>
        {
            if (errorCode != 0)
            {
                Interlocked.Increment(ref failed);
            }

            Interlocked.Add(ref bytes, numBytes);
            Interlocked.Increment(ref completed);
        };

        byte* basePointer = pages.Pointer;
        var writers = new Thread[Threads];
        for (int t = 0; t < Threads; t++)
        {
            int thread = t;
            writers[t] = new Thread(() =>
            {
                // Interleave the threads' pages so neighbouring addresses come from different threads.
                for (int i = 0; i < PagesPerThread; i++)
                {
                    int page = (i * Threads) + thread;
                    device.WriteAsync((IntPtr)(basePointer + (page * PageSize)), (ulong)page * PageSize, PageSize, callback, null);
                }
            });
            writers[t].Start();
        }

        foreach (Thread writer in writers)
        {
            Assert.That(writer.Join(HangGuard), Is.True);
        }

        device.WaitForPendingWrites();
        Assert.That(Volatile.Read(ref completed), Is.EqualTo(TotalPages));
        Assert.That(Volatile.Read(ref failed), Is.Zero);
        Assert.That(Interlocked.Read(ref bytes), Is.EqualTo((long)TotalPages * PageSize));

        using var readBack = new AlignedBuffer(TotalPages * PageSize);
        (uint readError, uint readBytes) = Read(device, 0, readBack);
        Assert.That(readError, Is.Zero);
        Assert.That(readBytes, Is.EqualTo(TotalPages * PageSize));
        Assert.That(readBack.Span.SequenceEqual(pages.Span), Is.True);
    }

    [Test]
    public void TruncateUntilAddressDeletesOnlyWholeSegmentsBelowIt()
    {
        const long SegmentSize = 8192;
        string basePath = Path.Combine(_directory, "log");
        using var device = new LocalFileDevice(basePath, SegmentSize);
        using var data = new AlignedBuffer((int)(4 * SegmentSize));
        Fill(data.Span, seed: 3);
        Assert.That(WriteAndWait(device, 0, data).ErrorCode, Is.Zero);
        Assert.That(SegmentFiles(basePath), Is.EqualTo(new[] { 0, 1, 2, 3 }));

        // Segment 1 ends exactly at the address and goes; segment 2 contains it and stays.
        device.TruncateUntilAddress((2 * SegmentSize) + 100);
        Assert.That(SegmentFiles(basePath), Is.EqualTo(new[] { 2, 3 }));

        // An address below the truncation point changes nothing.
        device.TruncateUntilAddress(SegmentSize);
        Assert.That(SegmentFiles(basePath), Is.EqualTo(new[] { 2, 3 }));

        // One byte short of the end of segment 2 keeps it.
        device.TruncateUntilAddress((3 * SegmentSize) - 1);
        Assert.That(SegmentFiles(basePath), Is.EqualTo(new[] { 2, 3 }));

        using var readBack = new AlignedBuffer(PageSize);
        (uint errorCode, _) = Read(device, 0, readBack);
        Assert.That(errorCode, Is.EqualTo(LocalFileDevice.FileNotFoundErrorCode));

        (errorCode, uint numBytes) = Read(device, 2 * SegmentSize, readBack);
        Assert.That(errorCode, Is.Zero);
        Assert.That(numBytes, Is.EqualTo(PageSize));
        Assert.That(readBack.Span.SequenceEqual(data.Span.Slice((int)(2 * SegmentSize), PageSize)), Is.True);
    }

    [Test]
    public void ReadPastEndOfDataFillsZerosAndReportsBytesRead()
    {
        using var device = new LocalFileDevice(Path.Combine(_directory, "log"), segmentSize: 8192);
        using var data = new AlignedBuffer(PageSize);
        Fill(data.Span, seed: 11);
        Assert.That(WriteAndWait(device, 0, data).ErrorCode, Is.Zero);

        // Spans into segment 1, which was never written.
        using var readBack = new AlignedBuffer(4 * PageSize);
        readBack.Span.Fill(0xFF);
        (uint errorCode, uint numBytes) = Read(device, 0, readBack);
        Assert.That(errorCode, Is.Zero);
        Assert.That(numBytes, Is.EqualTo(PageSize));
        Assert.That(readBack.Span[..PageSize].SequenceEqual(data.Span), Is.True);
        Assert.That(readBack.Span[PageSize..].IndexOfAnyExcept((byte)0), Is.EqualTo(-1));
    }

    [Test]
    public void ReadOfNeverWrittenSegmentFails()
    {
        string basePath = Path.Combine(_directory, "log");
        using var device = new LocalFileDevice(basePath, segmentSize: 8192);
        using var readBack = new AlignedBuffer(PageSize);
        (uint errorCode, uint numBytes) = Read(device, 8192, readBack);
        Assert.That(errorCode, Is.EqualTo(LocalFileDevice.FileNotFoundErrorCode));
        Assert.That(numBytes, Is.Zero);
        Assert.That(File.Exists(basePath + ".1"), Is.False, "a read must not create a segment file");
    }

    [Test]
    public void PreallocatedSegmentsStoreData()
    {
        using var device = new LocalFileDevice(Path.Combine(_directory, "log"), segmentSize: 1L << 16, preallocate: true);
        using var data = new AlignedBuffer(PageSize);
        Fill(data.Span, seed: 5);
        Assert.That(WriteAndWait(device, 2 * PageSize, data).ErrorCode, Is.Zero);

        using var readBack = new AlignedBuffer(PageSize);
        (uint errorCode, _) = Read(device, 2 * PageSize, readBack);
        Assert.That(errorCode, Is.Zero);
        Assert.That(readBack.Span.SequenceEqual(data.Span), Is.True);

        // The reservation must not make unwritten space look like data.
        using var wholeSegment = new AlignedBuffer(1 << 16);
        (errorCode, uint numBytes) = Read(device, 0, wholeSegment);
        Assert.That(errorCode, Is.Zero);
        Assert.That(numBytes, Is.EqualTo(3 * PageSize));
    }

    [Test]
    public void FailedWriteReportsErrorThroughItsCallback()
    {
        string basePath = Path.Combine(_directory, "log");

        // A directory where segment 0's file should be makes opening it fail.
        Directory.CreateDirectory(basePath + ".0");
        using var device = new LocalFileDevice(basePath, segmentSize: 8192);
        using var data = new AlignedBuffer(PageSize);
        (uint errorCode, uint numBytes, int callbacks) = WriteAndWait(device, 0, data);
        Assert.That(callbacks, Is.EqualTo(1));
        Assert.That(errorCode, Is.Not.Zero);
        Assert.That(numBytes, Is.Zero);

        // The device stays usable for other segments.
        Assert.That(WriteAndWait(device, 8192, data).ErrorCode, Is.Zero);
    }

    [Test]
    public void DeleteOnCloseRemovesSegmentFilesOnDispose()
    {
        string basePath = Path.Combine(_directory, "log");
        var device = new LocalFileDevice(basePath, segmentSize: 8192, deleteOnClose: true);
        using (var data = new AlignedBuffer(4 * PageSize))
        {
            Assert.That(WriteAndWait(device, 0, data).ErrorCode, Is.Zero);
        }

        Assert.That(SegmentFiles(basePath), Is.EqualTo(new[] { 0, 1 }));
        device.Dispose();
        Assert.That(Directory.GetFiles(_directory), Is.Empty);
        Assert.That(() => device.WriteAsync(IntPtr.Zero, 0, 0, (_, _, _) => { }, null), Throws.TypeOf<ObjectDisposedException>());
    }

    [Test]
    public void DisposeWithoutDeleteOnCloseKeepsFiles()
    {
        string basePath = Path.Combine(_directory, "log");
        using (var device = new LocalFileDevice(basePath, segmentSize: 8192))
        using (var data = new AlignedBuffer(PageSize))
        {
            Assert.That(WriteAndWait(device, 0, data).ErrorCode, Is.Zero);
        }

        Assert.That(SegmentFiles(basePath), Is.EqualTo(new[] { 0 }));
    }

    [Test]
    public void SegmentSizeMustBeAPowerOfTwo()
    {
        string basePath = Path.Combine(_directory, "log");
        Assert.That(() => new LocalFileDevice(basePath, segmentSize: 10_000), Throws.TypeOf<ArgumentOutOfRangeException>());
        Assert.That(() => new LocalFileDevice(basePath, segmentSize: 0), Throws.TypeOf<ArgumentOutOfRangeException>());
    }

    [Test]
    public void NullDeviceCompletesWritesSynchronouslyAndFailsReads()
    {
        using var device = new NullDevice();
        Assert.That(device.Name, Is.EqualTo("null"));
        Assert.That(device.SectorSize, Is.EqualTo(1));
        Assert.That(device.SegmentSize, Is.EqualTo(-1));

        using var buffer = new AlignedBuffer(PageSize);
        object context = new();
        int writeCallbacks = 0;
        (uint ErrorCode, uint NumBytes, object? Context) write = default;
        device.WriteAsync((IntPtr)buffer.Pointer, 0, PageSize, (e, n, c) =>
        {
            writeCallbacks++;
            write = (e, n, c);
        }, context);

        // Checked right after the call returns: the callback must already have run.
        Assert.That(writeCallbacks, Is.EqualTo(1));
        Assert.That(write.ErrorCode, Is.Zero);
        Assert.That(write.NumBytes, Is.EqualTo(PageSize));
        Assert.That(write.Context, Is.SameAs(context));

        int readCallbacks = 0;
        (uint ErrorCode, uint NumBytes) read = default;
        device.ReadAsync(0, (IntPtr)buffer.Pointer, PageSize, (e, n, _) =>
        {
            readCallbacks++;
            read = (e, n);
        }, null);
        Assert.That(readCallbacks, Is.EqualTo(1));
        Assert.That(read.ErrorCode, Is.EqualTo(NullDevice.ReadErrorCode).And.Not.Zero);
        Assert.That(read.NumBytes, Is.Zero);

        device.TruncateUntilAddress(long.MaxValue);
        device.WaitForPendingWrites();
    }

    private static void Fill(Span<byte> span, int seed)
    {
        var random = new Random(seed);
        random.NextBytes(span);
    }

    private static int[] SegmentFiles(string basePath)
    {
        string prefix = Path.GetFileName(basePath) + ".";
        string[] files = Directory.GetFiles(Path.GetDirectoryName(basePath)!, prefix + "*");
        var segments = new int[files.Length];
        for (int i = 0; i < files.Length; i++)
        {
            segments[i] = int.Parse(Path.GetFileName(files[i])[prefix.Length..]);
        }

        Array.Sort(segments);
        return segments;
    }

    private static (uint ErrorCode, uint NumBytes, int Callbacks) WriteAndWait(IDevice device, long address, AlignedBuffer data)
    {
        int callbacks = 0;
        uint errorCode = 0;
        uint numBytes = 0;
        device.WriteAsync((IntPtr)data.Pointer, (ulong)address, (uint)data.Length, (e, n, _) =>
        {
            errorCode = e;
            numBytes = n;
            Interlocked.Increment(ref callbacks);
        }, null);
        device.WaitForPendingWrites();
        return (errorCode, numBytes, Volatile.Read(ref callbacks));
    }

    private static (uint ErrorCode, uint NumBytes) Read(IDevice device, long address, AlignedBuffer destination)
    {
        var completion = new TaskCompletionSource<(uint, uint)>(TaskCreationOptions.RunContinuationsAsynchronously);
        device.ReadAsync((ulong)address, (IntPtr)destination.Pointer, (uint)destination.Length, (e, n, _) => completion.SetResult((e, n)), null);
        Assert.That(completion.Task.Wait(HangGuard), Is.True, "the read callback never ran");
        return completion.Task.Result;
    }

    /// <summary>
    /// Page-aligned native memory, the kind the log hands to a device.
    /// </summary>
    private sealed class AlignedBuffer : IDisposable
    {
        public AlignedBuffer(int length)
        {
            Length = length;
            Pointer = (byte*)NativeMemory.AlignedAlloc((nuint)length, PageSize);
            Span.Clear();
        }

        public byte* Pointer { get; private set; }

        public int Length { get; }

        public Span<byte> Span => new(Pointer, Length);

        public void Dispose()
        {
            NativeMemory.AlignedFree(Pointer);
            Pointer = null;
        }
    }
}
