using System;
using System.Buffers.Binary;
using System.IO;
using System.Runtime.InteropServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// Writes the object log entries of one flushed range: each entry is a 4-byte length followed by the bytes an
/// <see cref="IObjectSerializer"/> writes to <see cref="Stream"/> between <see cref="BeginEntry"/> and
/// <see cref="EndEntry"/>. The bytes pass through a staging buffer of a few megabytes that goes to the device
/// whenever it fills, so a flush of large values or large objects holds no more than that in memory; the last part
/// is written when the flush ends, before the range's pages are reported flushed.
/// </summary>
/// <remarks>
/// An entry's length is known only when it ends, after its first bytes may have reached the device; the sector
/// holding its length is kept aside then, patched and written again (<see cref="EndEntry"/>), or put back into the
/// staging buffer when the entry is abandoned (<see cref="CancelEntry"/>). An entry never starts within the last
/// bytes of a sector, so its length lies in one sector.
/// </remarks>
public sealed unsafe class ObjectLogWriter : IDisposable
{
    /// <summary>Bytes staged before they are written to the device.</summary>
    internal const int StagingBytes = 4 << 20;

    private readonly IDevice _device;
    private readonly int _sectorSize;
    private readonly EntryStream _stream;
    private byte* _staging;
    private byte* _lengthSector;
    private long _stagingAddress; // device address of the staging buffer's first byte, on a sector boundary
    private int _stagingLength;
    private long _entryStart = -1;
    private long _lengthSectorAddress = -1; // where the kept sector lies, once the open entry's length went out
    private LightEpoch? _protectingEpoch;

    internal ObjectLogWriter(IDevice device)
    {
        _device = device;
        _sectorSize = (int)Math.Max(8u, device.SectorSize);
        if (StagingBytes % _sectorSize != 0)
            throw new ArgumentException($"The object log device's sector size {_sectorSize} does not divide {StagingBytes}.", nameof(device));
        _stream = new EntryStream(this);
    }

    /// <summary>Where an entry's bytes are written.</summary>
    public Stream Stream => _stream;

    /// <summary>The address the next byte goes to.</summary>
    internal long Position => _stagingAddress + _stagingLength;

    /// <summary>Starts an entry and returns its object log address (never 0).</summary>
    public long BeginEntry()
    {
        if (_entryStart >= 0)
            throw new InvalidOperationException("The previous object log entry was not ended.");
        int inSector = (int)(Position % _sectorSize);
        if (inSector > _sectorSize - sizeof(int))
            WriteZeros(_sectorSize - inSector); // the length must not straddle two sectors
        _entryStart = Position;
        _lengthSectorAddress = -1;
        Span<byte> placeholder = stackalloc byte[sizeof(int)];
        Write(placeholder);
        return _entryStart;
    }

    /// <summary>Ends the entry begun last, recording its length.</summary>
    public void EndEntry()
    {
        if (_entryStart < 0)
            throw new InvalidOperationException("No object log entry was begun.");
        long length = Position - _entryStart - sizeof(int);
        if (length > int.MaxValue)
            throw new TsavoriteException("An object serializes to more than 2 GB.");
        if (_lengthSectorAddress < 0)
        {
            BinaryPrimitives.WriteInt32LittleEndian(new Span<byte>(_staging + (_entryStart - _stagingAddress), sizeof(int)), (int)length);
        }
        else
        {
            BinaryPrimitives.WriteInt32LittleEndian(new Span<byte>(_lengthSector + (_entryStart - _lengthSectorAddress), sizeof(int)), (int)length);
            WriteToDevice(_lengthSector, _lengthSectorAddress, _sectorSize);
        }
        _entryStart = -1;
        _lengthSectorAddress = -1;
    }

    /// <summary>Abandons the entry begun last (the object could not be written), keeping the earlier ones.</summary>
    public void CancelEntry()
    {
        if (_entryStart < 0)
            return;
        if (_lengthSectorAddress < 0)
        {
            _stagingLength = (int)(_entryStart - _stagingAddress);
        }
        else
        {
            // The entry's start went out with its sector: stage that sector's bytes before the entry again.
            _stagingAddress = _lengthSectorAddress;
            _stagingLength = (int)(_entryStart - _lengthSectorAddress);
            new ReadOnlySpan<byte>(_lengthSector, _stagingLength).CopyTo(new Span<byte>(_staging, _stagingLength));
        }
        _entryStart = -1;
        _lengthSectorAddress = -1;
    }

    /// <summary>Starts the entries of a range at <paramref name="baseAddress"/> (a sector boundary).</summary>
    internal void Reset(long baseAddress)
    {
        if (_staging == null)
        {
            _staging = (byte*)NativeMemory.AlignedAlloc(StagingBytes, (nuint)_sectorSize);
            _lengthSector = (byte*)NativeMemory.AlignedAlloc((nuint)_sectorSize, (nuint)_sectorSize);
        }
        _stagingAddress = baseAddress;
        _stagingLength = 0;
        _entryStart = -1;
        _lengthSectorAddress = -1;
        _protectingEpoch = null;
    }

    /// <summary>
    /// Sets (or clears) the epoch whose protection the caller holds while it writes entries: it is let go during the
    /// device writes of a full staging buffer.
    /// </summary>
    internal void SetProtectingEpoch(LightEpoch? epoch) => _protectingEpoch = epoch;

    /// <summary>Whether anything was written since <see cref="Reset"/>.</summary>
    internal bool IsEmpty(long baseAddress) => Position == baseAddress;

    /// <summary>
    /// The staged bytes not yet on the device, padded with zeros to whole sectors, and their address: the flush's
    /// last write. The buffer stays unchanged until the next <see cref="Reset"/>.
    /// </summary>
    internal (IntPtr Buffer, long Address, int Length) TakeRest()
    {
        int length = (int)Alignment.RoundUp(_stagingLength, _sectorSize);
        new Span<byte>(_staging + _stagingLength, length - _stagingLength).Clear();
        return ((IntPtr)_staging, _stagingAddress, length);
    }

    /// <summary>Bytes free in the staging buffer; when none are, writes it out first (see <see cref="SetProtectingEpoch"/>).</summary>
    internal int EnsureRoom()
    {
        if (_stagingLength == StagingBytes)
            Spill();
        return StagingBytes - _stagingLength;
    }

    /// <summary>Copies <paramref name="count"/> bytes, at most <see cref="EnsureRoom"/>'s, without any device write.</summary>
    internal void CopyIn(byte* source, int count)
    {
        if (count > StagingBytes - _stagingLength)
            throw new ArgumentOutOfRangeException(nameof(count));
        Buffer.MemoryCopy(source, _staging + _stagingLength, count, count);
        _stagingLength += count;
    }

    private void Write(ReadOnlySpan<byte> bytes)
    {
        while (!bytes.IsEmpty)
        {
            int room = EnsureRoom();
            int count = Math.Min(room, bytes.Length);
            bytes[..count].CopyTo(new Span<byte>(_staging + _stagingLength, count));
            _stagingLength += count;
            bytes = bytes[count..];
        }
    }

    private void WriteZeros(int count)
    {
        Span<byte> zeros = stackalloc byte[count];
        zeros.Clear();
        Write(zeros);
    }

    /// <summary>Writes the full staging buffer out; the open entry's length sector is kept if it went with it.</summary>
    private void Spill()
    {
        if (_entryStart >= _stagingAddress && _lengthSectorAddress < 0)
        {
            long sector = Alignment.RoundDown(_entryStart, _sectorSize);
            new ReadOnlySpan<byte>(_staging + (sector - _stagingAddress), _sectorSize).CopyTo(new Span<byte>(_lengthSector, _sectorSize));
            _lengthSectorAddress = sector;
        }
        WriteToDevice(_staging, _stagingAddress, _stagingLength);
        _stagingAddress += _stagingLength;
        _stagingLength = 0;
    }

    /// <summary>A blocking device write, with the caller's epoch protection let go meanwhile.</summary>
    private void WriteToDevice(byte* source, long address, int length)
    {
        var epoch = _protectingEpoch;
        epoch?.Suspend();
        try
        {
            using var done = new ManualResetEventSlim();
            uint error = 0;
            _device.WriteAsync((IntPtr)source, (ulong)address, (uint)length, (code, _, _) =>
            {
                error = code;
                done.Set();
            }, null);
            done.Wait();
            if (error != 0)
                throw new TsavoriteException($"Writing {length} bytes of object log entries at {address} of {_device.Name} failed with error {error}.");
        }
        finally
        {
            epoch?.Resume();
        }
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        if (_staging != null)
        {
            NativeMemory.AlignedFree(_staging);
            NativeMemory.AlignedFree(_lengthSector);
            _staging = null;
            _lengthSector = null;
        }
    }

    /// <summary>The write-only stream serializers write an entry's bytes to.</summary>
    private sealed class EntryStream(ObjectLogWriter writer) : Stream
    {
        public override bool CanRead => false;
        public override bool CanSeek => false;
        public override bool CanWrite => true;
        public override long Length => writer.Position;

        public override long Position
        {
            get => writer.Position;
            set => throw new NotSupportedException("Object log entries are written forward only.");
        }

        public override void Write(ReadOnlySpan<byte> buffer) => writer.Write(buffer);

        public override void Write(byte[] buffer, int offset, int count) => writer.Write(buffer.AsSpan(offset, count));

        public override void WriteByte(byte value) => writer.Write([value]);

        public override void Flush()
        {
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();
    }
}
