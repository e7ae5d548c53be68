using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Sockets;

namespace StreamConsumers;

/// <summary>
/// One blocking RESP connection: commands written into a buffer and sent with <see cref="Flush"/>, replies parsed from a
/// receive buffer as far as a consumer needs them (integers, and the IDs of XREADGROUP's entries).
/// </summary>
internal sealed class Connection : IDisposable
{
    private readonly Socket _socket;
    private readonly byte[] _out = new byte[1 << 16];
    private int _outLength;
    private byte[] _in = new byte[1 << 16];
    private int _start;
    private int _end;

    public Connection(int port)
    {
        _socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        _socket.Connect("127.0.0.1", port);
    }

    public void BeginCommand(int arguments) => Line((byte)'*', arguments);

    public void Argument(ReadOnlySpan<byte> argument)
    {
        Line((byte)'$', argument.Length);
        argument.CopyTo(_out.AsSpan(_outLength));
        _outLength += argument.Length;
        _out[_outLength++] = (byte)'\r';
        _out[_outLength++] = (byte)'\n';
    }

    private void Line(byte type, int number)
    {
        _out[_outLength++] = type;
        number.TryFormat(_out.AsSpan(_outLength), out int written);
        _outLength += written;
        _out[_outLength++] = (byte)'\r';
        _out[_outLength++] = (byte)'\n';
    }

    public void Flush()
    {
        for (int sent = 0; sent < _outLength;)
            sent += _socket.Send(_out, sent, _outLength - sent, SocketFlags.None);
        _outLength = 0;
    }

    /// <summary>
    /// Reads XREADGROUP's reply (null, or [[key, [[id, [field, value...]]...]]]) and adds the entries' IDs to
    /// <paramref name="ids"/>.
    /// </summary>
    public void ReadDeliveredIds(List<byte[]> ids)
    {
        var (type, length) = ReadHeader();
        if (length < 0 || type == '_')
            return;
        Expect(type == '*' && length == 1);
        (type, length) = ReadHeader();
        Expect(type == '*' && length == 2);
        SkipBulk();
        (type, int entries) = ReadHeader();
        Expect(type == '*');
        for (int i = 0; i < entries; i++)
        {
            (type, length) = ReadHeader();
            Expect(type == '*' && length == 2);
            ids.Add(ReadBulk());
            (type, int fields) = ReadHeader();
            Expect(type == '*');
            for (int f = 0; f < fields; f++)
                SkipBulk();
        }
    }

    public long ReadInteger()
    {
        var (type, value) = ReadHeader();
        Expect(type == ':');
        return value;
    }

    private byte[] ReadBulk()
    {
        var (type, length) = ReadHeader();
        Expect(type == '$' && length >= 0);
        Fill(length + 2);
        var bytes = _in.AsSpan(_start, length).ToArray();
        _start += length + 2;
        return bytes;
    }

    private void SkipBulk()
    {
        var (type, length) = ReadHeader();
        Expect(type == '$' && length >= 0);
        Fill(length + 2);
        _start += length + 2;
    }

    /// <summary>A type byte and the number after it up to CRLF (a length, a count or an integer).</summary>
    private (char Type, int Number) ReadHeader()
    {
        while (true)
        {
            int lf = Array.IndexOf(_in, (byte)'\n', _start, _end - _start);
            if (lf >= 0)
            {
                char type = (char)_in[_start];
                var digits = _in.AsSpan(_start + 1, lf - _start - 2);
                _start = lf + 1;
                if (type == '-')
                    throw new InvalidOperationException("the server answered " + System.Text.Encoding.UTF8.GetString(digits));
                if (type == '_')
                    return (type, -1);
                if (!System.Buffers.Text.Utf8Parser.TryParse(digits, out int number, out _))
                    throw new InvalidDataException("not a RESP header: " + System.Text.Encoding.UTF8.GetString(digits));
                return (type, number);
            }
            Receive();
        }
    }

    private void Fill(int bytes)
    {
        while (_end - _start < bytes)
            Receive();
    }

    private void Receive()
    {
        if (_start > 0)
        {
            Buffer.BlockCopy(_in, _start, _in, 0, _end - _start);
            _end -= _start;
            _start = 0;
        }
        if (_end == _in.Length)
            Array.Resize(ref _in, _in.Length * 2);
        int got = _socket.Receive(_in, _end, _in.Length - _end, SocketFlags.None);
        if (got == 0)
            throw new EndOfStreamException("the server closed the connection");
        _end += got;
    }

    private static void Expect(bool condition)
    {
        if (!condition)
            throw new InvalidDataException("an unexpected reply to XREADGROUP or XACK");
    }

    public void Dispose() => _socket.Dispose();
}
