using System;
using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.IO;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// Writes a checkpoint file's blocks (see <see cref="CheckpointFile"/>): the scan fills one buffer while a thread of
/// its own writes the previous one, so the scan and the device work at the same time. Not thread-safe: one scanning
/// thread fills it.
/// </summary>
internal sealed class CheckpointBlockWriter : IDisposable
{
    private const int BlockSize = 4 << 20;
    private const int Buffers = 3;

    private readonly FileStream _file;
    private readonly BlockingCollection<(byte[] Buffer, int Length)> _full = new(Buffers - 1);
    private readonly BlockingCollection<byte[]> _free = new(Buffers);
    private readonly Thread _thread;
    private byte[] _buffer;
    private int _length;
    private Exception? _failure;

    public CheckpointBlockWriter(string path)
    {
        _file = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.None, bufferSize: 0, FileOptions.SequentialScan);
        for (int i = 0; i < Buffers - 1; i++)
            _free.Add(new byte[BlockSize]);
        _buffer = new byte[BlockSize];
        _length = CheckpointFile.BlockHeaderSize;
        _thread = new Thread(RunWriter) { IsBackground = true, Name = "Garnet checkpoint writer" };
        _thread.Start();
    }

    /// <summary>Bytes handed to the file so far (blocks ended).</summary>
    public long BytesWritten { get; private set; }

    /// <summary>
    /// Starts an item of <paramref name="length"/> bytes: items never span blocks (a loader checks and applies a block
    /// at a time), so the block ends first if the item does not fit, and an item larger than a block gets one of its own.
    /// </summary>
    public void BeginItem(long length)
    {
        if (length > int.MaxValue - CheckpointFile.BlockHeaderSize)
            throw new IOException($"A record of {length} bytes is too large for a checkpoint.");
        if (_length + length <= _buffer.Length)
            return;
        EndBlock();
        if (CheckpointFile.BlockHeaderSize + length > _buffer.Length)
            _buffer = new byte[CheckpointFile.BlockHeaderSize + length];
    }

    /// <summary>The next <paramref name="length"/> payload bytes of the current item (see <see cref="BeginItem"/>).</summary>
    public Span<byte> Reserve(int length)
    {
        if (_length + length > _buffer.Length)
            BeginItem(length);
        var span = _buffer.AsSpan(_length, length);
        _length += length;
        return span;
    }

    public void WriteByte(byte value) => Reserve(1)[0] = value;

    public void WriteInt32(int value) => BinaryPrimitives.WriteInt32LittleEndian(Reserve(4), value);

    public void WriteInt64(long value) => BinaryPrimitives.WriteInt64LittleEndian(Reserve(8), value);

    /// <summary>A length-prefixed byte string.</summary>
    public void WriteBytes(ReadOnlySpan<byte> bytes)
    {
        var span = Reserve(4 + bytes.Length);
        BinaryPrimitives.WriteInt32LittleEndian(span, bytes.Length);
        bytes.CopyTo(span.Slice(4));
    }

    /// <summary>Ends the current block (if it holds anything) and hands it to the writing thread.</summary>
    public void EndBlock()
    {
        if (_length == CheckpointFile.BlockHeaderSize)
            return;
        ThrowIfFailed();
        var payload = _buffer.AsSpan(CheckpointFile.BlockHeaderSize, _length - CheckpointFile.BlockHeaderSize);
        BinaryPrimitives.WriteInt32LittleEndian(_buffer, payload.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(_buffer.AsSpan(4), CheckpointFile.Checksum(payload));
        BytesWritten += _length;
        _full.Add((_buffer, _length));
        _buffer = _free.Take();
        if (_buffer.Length < BlockSize)
            _buffer = new byte[BlockSize];
        _length = CheckpointFile.BlockHeaderSize;
    }

    /// <summary>Writes what is left and makes the file durable (fsync); throws what the writing thread met.</summary>
    public void Complete()
    {
        EndBlock();
        _full.CompleteAdding();
        _thread.Join();
        ThrowIfFailed();
        _file.Flush(flushToDisk: true);
    }

    private void RunWriter()
    {
        foreach (var (buffer, length) in _full.GetConsumingEnumerable())
        {
            if (_failure == null)
            {
                try
                {
                    _file.Write(buffer, 0, length);
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException)
                {
                    _failure = e;
                }
            }
            // Oversized buffers (one large record) are not kept: EndBlock takes a regular one instead.
            _free.TryAdd(buffer.Length == BlockSize ? buffer : new byte[BlockSize]);
        }
    }

    private void ThrowIfFailed()
    {
        if (_failure != null)
            throw new IOException("Writing the checkpoint failed: " + _failure.Message, _failure);
    }

    public void Dispose()
    {
        if (!_full.IsAddingCompleted)
        {
            _full.CompleteAdding();
            _thread.Join();
        }
        _file.Dispose();
        _full.Dispose();
        _free.Dispose();
    }
}
