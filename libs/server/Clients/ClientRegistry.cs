using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;

namespace Garnet.server;

/// <summary>The connected clients, by id (CLIENT LIST, CLIENT KILL, INFO clients).</summary>
public sealed class ClientRegistry
{
    private readonly ConcurrentDictionary<long, RespServerSession> _sessions = new();
    private long _nextId;

    /// <summary>Number of connected clients.</summary>
    public int Count => _sessions.Count;

    internal long NextId() => Interlocked.Increment(ref _nextId);

    internal void Add(RespServerSession session) => _sessions[session.ClientId] = session;

    internal void Remove(RespServerSession session) => _sessions.TryRemove(session.ClientId, out _);

    /// <summary>A snapshot of the connected sessions.</summary>
    public List<RespServerSession> Snapshot() => new(_sessions.Values);

    /// <summary>
    /// The largest input buffer (peak since it last shrank) and the most unread output of any client now, as Redis's
    /// client_recent_max_input_buffer and client_recent_max_output_buffer report them.
    /// </summary>
    internal (long Input, long Output) LargestBuffers()
    {
        long input = 0, output = 0;
        foreach (var session in _sessions.Values)
        {
            var buffers = session.Buffers;
            input = Math.Max(input, buffers.InputCapacity);
            output = Math.Max(output, buffers.UnsentBytes);
        }
        return (input, output);
    }

    /// <summary>The memory all clients hold now, measured afresh (INFO memory's mem_clients_normal).</summary>
    internal long Memory()
    {
        long total = 0;
        foreach (var session in _sessions.Values)
            total += session.MeasureMemory().Total;
        return total;
    }

    /// <summary>The session with client id <paramref name="id"/>, if connected.</summary>
    public RespServerSession? Find(long id) => _sessions.GetValueOrDefault(id);
}
