using System;
using System.Collections.Generic;
using System.Text;

namespace StreamConsumers;

/// <summary>One consumer of the group on its own connection: the IDs it was given last, acknowledged with its next read.</summary>
internal sealed class Consumer(Connection connection, string key, string group, string name, int count) : IDisposable
{
    private readonly byte[] _key = Encoding.UTF8.GetBytes(key);
    private readonly byte[] _group = Encoding.UTF8.GetBytes(group);
    private readonly byte[] _name = Encoding.UTF8.GetBytes(name);
    private readonly byte[] _count = Encoding.ASCII.GetBytes(count.ToString(System.Globalization.CultureInfo.InvariantCulture));
    private readonly List<byte[]> _held = [];
    private bool _ackSent;

    /// <summary>Whether the stream had nothing more to give this consumer.</summary>
    public bool Done { get; private set; }

    /// <summary>Sends the acknowledgement of the entries held (if any) and the next read, in one write.</summary>
    public void SendAckAndRead()
    {
        _ackSent = _held.Count > 0;
        if (_ackSent)
            WriteAck();
        connection.BeginCommand(9);
        connection.Argument("XREADGROUP"u8);
        connection.Argument("GROUP"u8);
        connection.Argument(_group);
        connection.Argument(_name);
        connection.Argument("COUNT"u8);
        connection.Argument(_count);
        connection.Argument("STREAMS"u8);
        connection.Argument(_key);
        connection.Argument(">"u8);
        connection.Flush();
    }

    /// <summary>Reads the acknowledgement's reply and the read's; returns how many entries were acknowledged.</summary>
    public int ReceiveAckAndRead()
    {
        int acknowledged = _ackSent ? ReceiveAck() : 0;
        connection.ReadDeliveredIds(_held);
        Done = _held.Count == 0;
        return acknowledged;
    }

    /// <summary>Acknowledges the entries read last; returns how many.</summary>
    public int AcknowledgeLast()
    {
        if (_held.Count == 0)
            return 0;
        WriteAck();
        connection.Flush();
        return ReceiveAck();
    }

    private void WriteAck()
    {
        connection.BeginCommand(3 + _held.Count);
        connection.Argument("XACK"u8);
        connection.Argument(_key);
        connection.Argument(_group);
        foreach (var id in _held)
            connection.Argument(id);
    }

    private int ReceiveAck()
    {
        long acked = connection.ReadInteger();
        if (acked != _held.Count)
            throw new InvalidOperationException($"XACK acknowledged {acked} of {_held.Count} entries");
        int count = _held.Count;
        _held.Clear();
        return count;
    }

    public void Dispose() => connection.Dispose();
}
