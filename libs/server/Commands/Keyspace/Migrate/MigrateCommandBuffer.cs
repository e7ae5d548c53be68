using System;
using System.Buffers.Text;

namespace Garnet.server;

/// <summary>
/// Commands MIGRATE sends a target, encoded as RESP arrays of bulk strings into one growing buffer, so that a whole
/// pipeline (AUTH, SELECT, the RESTOREs) goes out in a few socket writes.
/// </summary>
internal sealed class MigrateCommandBuffer
{
    // A buffer that grew past this for a large migration is not kept for the next one.
    private const int KeptSize = 1 << 20;

    private byte[] _buffer = new byte[256];
    private int _length;

    /// <summary>The commands written so far.</summary>
    public ReadOnlySpan<byte> Written => _buffer.AsSpan(0, _length);

    /// <summary>Forgets what was written; a buffer grown large is given back.</summary>
    public void Clear()
    {
        _length = 0;
        if (_buffer.Length > KeptSize)
            _buffer = new byte[256];
    }

    /// <summary>Starts a command of <paramref name="arguments"/> arguments (its name included).</summary>
    public void BeginCommand(int arguments) => WriteHeader((byte)'*', arguments);

    /// <summary>One argument.</summary>
    public void WriteBulk(ReadOnlySpan<byte> value)
    {
        WriteHeader((byte)'$', value.Length);
        Append(value);
        Append("\r\n"u8);
    }

    /// <summary>One argument: an integer in decimal.</summary>
    public void WriteBulk(long value)
    {
        Span<byte> digits = stackalloc byte[20];
        Utf8Formatter.TryFormat(value, digits, out int length);
        WriteBulk(digits.Slice(0, length));
    }

    /// <summary>One argument made of three pieces (a DUMP payload: type byte, value, trailer), not joined first.</summary>
    public void WriteBulk(ReadOnlySpan<byte> first, ReadOnlySpan<byte> second, ReadOnlySpan<byte> third)
    {
        WriteHeader((byte)'$', first.Length + second.Length + third.Length);
        Append(first);
        Append(second);
        Append(third);
        Append("\r\n"u8);
    }

    private void WriteHeader(byte prefix, int count)
    {
        Span<byte> header = stackalloc byte[16];
        header[0] = prefix;
        Utf8Formatter.TryFormat(count, header.Slice(1), out int digits);
        header[1 + digits] = (byte)'\r';
        header[2 + digits] = (byte)'\n';
        Append(header.Slice(0, 3 + digits));
    }

    private void Append(ReadOnlySpan<byte> bytes)
    {
        if (_buffer.Length - _length < bytes.Length)
        {
            long wanted = Math.Max((long)_buffer.Length * 2, (long)_length + bytes.Length);
            if (wanted > Array.MaxLength)
            {
                if ((long)_length + bytes.Length > Array.MaxLength)
                    throw new InvalidOperationException("The keys are too large to migrate in one call.");
                wanted = Array.MaxLength;
            }
            Array.Resize(ref _buffer, (int)wanted);
        }
        bytes.CopyTo(_buffer.AsSpan(_length));
        _length += bytes.Length;
    }
}
