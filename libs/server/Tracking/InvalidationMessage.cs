using System;
using System.Globalization;
using System.Text;

namespace Garnet.server;

/// <summary>
/// One invalidation, encoded once and shared by the clients it goes to: the key list (a RESP array, or a null for a
/// flush) and, made on first use, the two framings Redis sends it in. Both are kept RESP2-encoded, as the outbox
/// keeps messages: a RESP3 client gets the leading '*' as '>'.
/// </summary>
internal sealed class InvalidationMessage
{
    private static ReadOnlySpan<byte> PushHeader => "*2\r\n$10\r\ninvalidate\r\n"u8;

    private static ReadOnlySpan<byte> PubSubHeader => "*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n"u8;

    private readonly byte[] _keys;
    private byte[]? _push;
    private byte[]? _pubSub;

    /// <summary>An invalidation of the keys in <paramref name="keys"/>, an encoded RESP array (or null).</summary>
    public InvalidationMessage(byte[] keys) => _keys = keys;

    /// <summary>The flush's invalidation for a RESP2 client (the key list is RESP2's null bulk string, as Redis sends it).</summary>
    public static InvalidationMessage FlushResp2 { get; } = new("$-1\r\n"u8.ToArray());

    /// <summary>The flush's invalidation for a RESP3 client (RESP3's null).</summary>
    public static InvalidationMessage FlushResp3 { get; } = new("_\r\n"u8.ToArray());

    /// <summary>The push: <c>&gt;2 invalidate keys</c>.</summary>
    public byte[] Push => _push ??= Concat(PushHeader, _keys);

    /// <summary>The pub/sub message of a RESP2 redirection: <c>*3 message __redis__:invalidate keys</c>.</summary>
    public byte[] PubSubMessage => _pubSub ??= Concat(PubSubHeader, _keys);

    /// <summary>The invalidation of one key.</summary>
    public static InvalidationMessage ForKey(ReadOnlySpan<byte> key)
    {
        var writer = new KeyListWriter(key.Length + 16);
        writer.Begin(1);
        writer.Add(key);
        return new InvalidationMessage(writer.ToArray());
    }

    /// <summary>The push telling a RESP3 client its redirection's client is gone: <c>&gt;2 tracking-redir-broken id</c>.</summary>
    public static byte[] RedirectBroken(long clientId)
        => Encoding.ASCII.GetBytes(string.Create(CultureInfo.InvariantCulture, $"*2\r\n$21\r\ntracking-redir-broken\r\n:{clientId}\r\n"));

    private static byte[] Concat(ReadOnlySpan<byte> header, ReadOnlySpan<byte> keys)
    {
        var message = new byte[header.Length + keys.Length];
        header.CopyTo(message);
        keys.CopyTo(message.AsSpan(header.Length));
        return message;
    }
}

/// <summary>Encodes a RESP array of keys into a growable buffer, reused from one message to the next.</summary>
internal struct KeyListWriter
{
    private byte[] _buffer;
    private int _length;

    public KeyListWriter(int capacity)
    {
        _buffer = new byte[Math.Max(capacity, 32)];
        _length = 0;
    }

    public readonly int Length => _length;

    /// <summary>Starts over with the header of an array of <paramref name="count"/> keys.</summary>
    public void Begin(int count)
    {
        _length = 0;
        Append((byte)'*', count);
    }

    public void Add(ReadOnlySpan<byte> key)
    {
        Append((byte)'$', key.Length);
        Ensure(key.Length + 2);
        key.CopyTo(_buffer.AsSpan(_length));
        _length += key.Length;
        _buffer[_length++] = (byte)'\r';
        _buffer[_length++] = (byte)'\n';
    }

    public readonly byte[] ToArray() => _buffer.AsSpan(0, _length).ToArray();

    private void Append(byte prefix, int number)
    {
        Ensure(16);
        _buffer[_length++] = prefix;
        number.TryFormat(_buffer.AsSpan(_length), out int written, default, CultureInfo.InvariantCulture);
        _length += written;
        _buffer[_length++] = (byte)'\r';
        _buffer[_length++] = (byte)'\n';
    }

    private void Ensure(int more)
    {
        if (_length + more <= _buffer.Length)
            return;
        Array.Resize(ref _buffer, Math.Max(_buffer.Length * 2, _length + more));
    }
}
