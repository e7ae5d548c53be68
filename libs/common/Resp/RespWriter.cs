using System;
using System.Buffers.Text;
using System.Runtime.CompilerServices;

namespace Garnet.common;

/// <summary>
/// Writes RESP replies into a sink's buffer, flushing when it fills, so call sites never check for
/// space. <see cref="Resp3"/> selects RESP3 encodings (null, map, double, boolean, push) over their
/// RESP2 equivalents.
/// </summary>
public unsafe struct RespWriter
{
    private IResponseSink? _sink;
    private byte* _start;
    private byte* _current;
    private byte* _end;
    private long _flushed;

    /// <summary>Whether replies use RESP3 types.</summary>
    public bool Resp3;

    /// <summary>Told of each error reply (the server's error statistics), when set.</summary>
    public IErrorReplyListener? ErrorListener;

    /// <summary>False once the sink reported its destination gone; later writes are dropped.</summary>
    public bool Healthy { get; private set; }

    /// <summary>
    /// Attaches the writer to <paramref name="sink"/>. Its buffer is taken at the first write, so a connection that
    /// writes nothing never holds one (see <see cref="ReleaseBuffer"/>).
    /// </summary>
    public void Attach(IResponseSink sink)
    {
        _sink = sink;
        _start = _current = _end = null;
        Healthy = true;
    }

    /// <summary>
    /// Sends what was written and gives the sink's buffer back (<see cref="IResponseSink.ReleaseBuffer"/>); the next
    /// write takes one again. For the end of a batch of replies, when nothing else holds a pointer into the buffer.
    /// </summary>
    public void ReleaseBuffer()
    {
        if (_start == null)
            return;
        Flush();
        _start = _current = _end = null;
        _sink!.ReleaseBuffer();
    }

    private void TakeBuffer()
    {
        _start = _sink!.BufferStart;
        _end = _start + _sink.BufferLength;
        _current = _start;
    }

    /// <summary>Whether the writer holds a buffer of its sink (until <see cref="ReleaseBuffer"/>).</summary>
    public readonly bool HoldsBuffer => _start != null;

    /// <summary>Bytes written since the last flush.</summary>
    public readonly int Pending => (int)(_current - _start);

    /// <summary>The byte written at <paramref name="position"/> (a <see cref="Position"/>), or -1 if it was flushed already or is not written yet.</summary>
    public readonly int ByteAt(long position)
        => position >= _flushed && position < Position ? _start[position - _flushed] : -1;

    /// <summary>Bytes written since <see cref="Attach"/>, sent or not: a mark for <see cref="TryRewind"/>.</summary>
    public readonly long Position => _flushed + (_current - _start);

    /// <summary>
    /// Drops what was written after <paramref name="position"/> (a <see cref="Position"/>), if none of it was sent
    /// yet; false if some was, and the client may have seen part of it.
    /// </summary>
    public bool TryRewind(long position)
    {
        if (position < _flushed || position > Position)
            return false;
        _current = _start + (position - _flushed);
        return true;
    }

    /// <summary>
    /// The free space left in the send buffer (<paramref name="room"/> bytes), taking one if none is held, without
    /// sending anything: for a callback that writes a reply in place while it holds a latch (see <see cref="Advance"/>).
    /// Null when no sink is attached.
    /// </summary>
    public byte* FreeSpace(out int room)
    {
        if (_start == null)
        {
            if (_sink == null)
            {
                room = 0;
                return null;
            }
            TakeBuffer();
        }
        room = (int)(_end - _current);
        return _current;
    }

    /// <summary>Counts <paramref name="bytes"/> written in place at <see cref="FreeSpace"/> as written.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Advance(int bytes)
    {
        if (bytes > _end - _current)
            throw new ArgumentOutOfRangeException(nameof(bytes));
        _current += bytes;
    }

    /// <summary>Sends what was written.</summary>
    public bool Flush()
    {
        if (_sink == null)
            return false;
        int pending = Pending;
        if (pending > 0)
        {
            _flushed += pending;
            if (!_sink.Flush(pending))
                Healthy = false;
            _start = _sink.BufferStart;
            _end = _start + _sink.BufferLength;
            _current = _start;
        }
        return Healthy;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Ensure(int bytes)
    {
        if (_current + bytes > _end)
            FlushForSpace(bytes);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void FlushForSpace(int bytes)
    {
        if (_start == null && _sink != null)
            TakeBuffer();
        else
            Flush();
        if (_current + bytes > _end)
            throw new InvalidOperationException("Reply element larger than the send buffer.");
    }

    /// <summary>Writes raw bytes, splitting across flushes when they exceed the buffer.</summary>
    /// <remarks>
    /// Inlined for the common case (the bytes fit), so short constant replies cost a copy and no call; taking a buffer
    /// and splitting are out of line.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteRaw(ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length <= _end - _current)
        {
            bytes.CopyTo(new Span<byte>(_current, bytes.Length));
            _current += bytes.Length;
            return;
        }
        WriteRawAcrossFlushes(bytes);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteRawAcrossFlushes(ReadOnlySpan<byte> bytes)
    {
        while (bytes.Length > 0)
        {
            long room = _end - _current;
            if (room == 0)
            {
                if (_start == null && _sink != null)
                    TakeBuffer();
                else
                    Flush();
                room = _end - _current;
                if (room == 0)
                    throw new InvalidOperationException("The reply sink has no buffer.");
            }
            int chunk = (int)Math.Min(room, bytes.Length);
            bytes.Slice(0, chunk).CopyTo(new Span<byte>(_current, chunk));
            _current += chunk;
            bytes = bytes.Slice(chunk);
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteCrlf()
    {
        *(ushort*)_current = 0x0A0D;
        _current += 2;
    }

    private void WritePrefixedNumber(byte prefix, long value)
    {
        Ensure(24);
        *_current++ = prefix;
        Utf8Formatter.TryFormat(value, new Span<byte>(_current, 20), out int written);
        _current += written;
        WriteCrlf();
    }

    /// <summary>+OK</summary>
    /// <remarks>The most frequent reply (SET, MSET, ...): two stores instead of a span copy.</remarks>
    public void WriteOk()
    {
        Ensure(5);
        *(uint*)_current = 0x0D4B4F2B; // "+OK\r", little-endian
        _current[4] = (byte)'\n';
        _current += 5;
    }

    /// <summary>A simple string: <c>+text\r\n</c> (text must not contain CR or LF).</summary>
    public void WriteSimpleString(ReadOnlySpan<byte> text)
    {
        Ensure(1);
        *_current++ = (byte)'+';
        WriteRaw(text);
        Ensure(2);
        WriteCrlf();
    }

    /// <summary>An error: <paramref name="message"/> without the leading '-' and trailing CRLF (e.g. "ERR syntax error").</summary>
    public void WriteError(ReadOnlySpan<byte> message)
    {
        ErrorListener?.OnErrorReply(message);
        WriteErrorLine(message);
    }

    /// <summary>An error already counted where it arose (see <see cref="IErrorReplyListener.OnRepeatedErrorReply"/>).</summary>
    public void WriteRepeatedError(ReadOnlySpan<byte> message)
    {
        ErrorListener?.OnRepeatedErrorReply();
        WriteErrorLine(message);
    }

    private void WriteErrorLine(ReadOnlySpan<byte> message)
    {
        Ensure(1);
        *_current++ = (byte)'-';
        WriteRaw(message);
        Ensure(2);
        WriteCrlf();
    }

    /// <summary>An error built from a string (for messages that include user input); CR and LF become spaces.</summary>
    public void WriteError(string message) => WriteError(message, repeated: false);

    /// <summary>An error built from a string, already counted where it arose when <paramref name="repeated"/>; CR and LF become spaces.</summary>
    public void WriteError(string message, bool repeated)
    {
        Span<byte> buffer = message.Length <= 256 ? stackalloc byte[message.Length * 3] : new byte[System.Text.Encoding.UTF8.GetMaxByteCount(message.Length)];
        int length = System.Text.Encoding.UTF8.GetBytes(message, buffer);
        var text = buffer.Slice(0, length);
        // Messages may quote user input: a newline in them would break the protocol (Redis replaces them too).
        text.Replace((byte)'\r', (byte)' ');
        text.Replace((byte)'\n', (byte)' ');
        if (repeated)
            WriteRepeatedError(text);
        else
            WriteError(text);
    }

    /// <summary>An integer: <c>:n\r\n</c>.</summary>
    public void WriteInteger(long value) => WritePrefixedNumber((byte)':', value);

    /// <summary>An array header: <c>*n\r\n</c>.</summary>
    public void WriteArrayHeader(int count) => WritePrefixedNumber((byte)'*', count);

    /// <summary>A set header: RESP3 <c>~n</c>, RESP2 an array.</summary>
    public void WriteSetHeader(int count) => WritePrefixedNumber(Resp3 ? (byte)'~' : (byte)'*', count);

    /// <summary>A map header of <paramref name="pairs"/> pairs: RESP3 <c>%n</c>, RESP2 an array of 2n.</summary>
    public void WriteMapHeader(int pairs)
    {
        if (Resp3)
            WritePrefixedNumber((byte)'%', pairs);
        else
            WritePrefixedNumber((byte)'*', pairs * 2);
    }

    /// <summary>A push header (RESP3 <c>&gt;n</c>), an array in RESP2.</summary>
    public void WritePushHeader(int count) => WritePrefixedNumber(Resp3 ? (byte)'>' : (byte)'*', count);

    /// <summary>A bulk string: <c>$len\r\nbytes\r\n</c>.</summary>
    public void WriteBulk(ReadOnlySpan<byte> value)
    {
        WritePrefixedNumber((byte)'$', value.Length);
        WriteRaw(value);
        Ensure(2);
        WriteCrlf();
    }

    /// <summary>
    /// Encodes the bulk string <paramref name="value"/> at <paramref name="destination"/> (a <see cref="FreeSpace"/> of
    /// <paramref name="room"/> bytes); returns the bytes written, or 0 when it does not fit.
    /// </summary>
    public static int TryEncodeBulk(byte* destination, int room, ReadOnlySpan<byte> value)
    {
        // '$', up to 10 digits, CRLF, the value, CRLF.
        if (room < value.Length + 15)
            return 0;
        *destination = (byte)'$';
        Utf8Formatter.TryFormat(value.Length, new Span<byte>(destination + 1, 10), out int digits);
        byte* at = destination + 1 + digits;
        *(ushort*)at = 0x0A0D;
        at += 2;
        value.CopyTo(new Span<byte>(at, value.Length));
        at += value.Length;
        *(ushort*)at = 0x0A0D;
        return (int)(at + 2 - destination);
    }

    /// <summary>A bulk string of the decimal text of <paramref name="value"/>.</summary>
    public void WriteBulkInteger(long value)
    {
        Span<byte> digits = stackalloc byte[20];
        Utf8Formatter.TryFormat(value, digits, out int written);
        WriteBulk(digits.Slice(0, written));
    }

    /// <summary>A bulk string from text.</summary>
    public void WriteBulk(string value)
    {
        int max = System.Text.Encoding.UTF8.GetMaxByteCount(value.Length);
        Span<byte> buffer = max <= 512 ? stackalloc byte[max] : new byte[max];
        int length = System.Text.Encoding.UTF8.GetBytes(value, buffer);
        WriteBulk(buffer.Slice(0, length));
    }

    /// <summary>A null: RESP3 <c>_</c>, RESP2 the null bulk string <c>$-1</c>.</summary>
    public void WriteNull() => WriteRaw(Resp3 ? "_\r\n"u8 : "$-1\r\n"u8);

    /// <summary>A null array: RESP3 <c>_</c>, RESP2 <c>*-1</c>.</summary>
    public void WriteNullArray() => WriteRaw(Resp3 ? "_\r\n"u8 : "*-1\r\n"u8);

    /// <summary>A double: RESP3 <c>,d</c>, RESP2 a bulk string of its Redis text form.</summary>
    public void WriteDouble(double value)
    {
        Span<byte> text = stackalloc byte[NumberFormat.MaxDoubleLength];
        int length = NumberFormat.FormatDouble(value, text);
        if (Resp3)
        {
            Ensure(1);
            *_current++ = (byte)',';
            WriteRaw(text.Slice(0, length));
            Ensure(2);
            WriteCrlf();
        }
        else
        {
            WriteBulk(text.Slice(0, length));
        }
    }

    /// <summary>A boolean: RESP3 <c>#t</c>/<c>#f</c>, RESP2 the integers 1/0.</summary>
    public void WriteBoolean(bool value)
    {
        if (Resp3)
            WriteRaw(value ? "#t\r\n"u8 : "#f\r\n"u8);
        else
            WriteInteger(value ? 1 : 0);
    }

    /// <summary>A verbatim string (RESP3 <c>=len\r\ntxt:...</c>), a bulk string in RESP2.</summary>
    public void WriteVerbatim(ReadOnlySpan<byte> text)
    {
        if (!Resp3)
        {
            WriteBulk(text);
            return;
        }
        WritePrefixedNumber((byte)'=', text.Length + 4);
        WriteRaw("txt:"u8);
        WriteRaw(text);
        Ensure(2);
        WriteCrlf();
    }
}
