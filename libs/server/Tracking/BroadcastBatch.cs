using System;

namespace Garnet.server;

/// <summary>
/// The keys one session wrote during a batch while broadcasting clients listen (CLIENT TRACKING BCAST): at the end of
/// the batch each prefix's clients get one invalidation with all the keys it matches, as Redis gathers them per event
/// loop. The buffers are kept from batch to batch, so a write only copies its key.
/// </summary>
internal sealed class BroadcastBatch
{
    /// <summary>A batch that wrote this much sends what it has at once, so the buffer stays small.</summary>
    private const int SendAtBytes = 64 * 1024;

    private byte[] _keys = new byte[1024];
    private int _length;
    private int[] _ends = new int[64];
    private int _count;
    private KeyListWriter _message = new(1024);

    public bool IsEmpty => _count == 0;

    /// <summary>Whether the keys gathered should go now.</summary>
    public bool Full => _length >= SendAtBytes;

    public void Add(ReadOnlySpan<byte> key)
    {
        if (_length + key.Length > _keys.Length)
            Array.Resize(ref _keys, Math.Max(_keys.Length * 2, _length + key.Length));
        if (_count == _ends.Length)
            Array.Resize(ref _ends, _count * 2);
        key.CopyTo(_keys.AsSpan(_length));
        _length += key.Length;
        _ends[_count++] = _length;
    }

    private ReadOnlySpan<byte> KeyAt(int index)
    {
        int start = index == 0 ? 0 : _ends[index - 1];
        return _keys.AsSpan(start, _ends[index] - start);
    }

    /// <summary>Sends the gathered keys to the clients of every prefix they match (but not to <paramref name="writer"/> with NOLOOP) and starts over.</summary>
    public void Send(TrackingTable table, RespServerSession writer)
    {
        try
        {
            foreach (var group in table.Prefixes)
                SendToGroup(group, table, writer);
        }
        finally
        {
            _count = 0;
            _length = 0;
        }
    }

    private void SendToGroup(PrefixGroup group, TrackingTable table, RespServerSession writer)
    {
        var clients = group.Clients;
        bool anyone = false;
        foreach (var tracker in clients)
            anyone |= tracker.Enabled && !(tracker.NoLoop && ReferenceEquals(tracker.Session, writer));
        if (!anyone)
            return;
        var prefix = group.Prefix.AsSpan();
        int matching = _count;
        if (prefix.Length > 0)
        {
            matching = 0;
            for (int i = 0; i < _count; i++)
            {
                if (KeyAt(i).StartsWith(prefix))
                    matching++;
            }
            if (matching == 0)
                return;
        }
        _message.Begin(matching);
        for (int i = 0; i < _count; i++)
        {
            var key = KeyAt(i);
            if (key.StartsWith(prefix))
                _message.Add(key);
        }
        var message = new InvalidationMessage(_message.ToArray());
        foreach (var tracker in clients)
        {
            if (tracker.Enabled && !(tracker.NoLoop && ReferenceEquals(tracker.Session, writer)))
                tracker.Send(message, table.Clients);
        }
    }
}
