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

    /// <summary>The session with client id <paramref name="id"/>, if connected.</summary>
    public RespServerSession? Find(long id) => _sessions.GetValueOrDefault(id);
}
