using System.Collections.Generic;
using Garnet.server.Scripting;

namespace Garnet.server;

/// <summary>
/// The SCRIPT DEBUG YES sessions running now (Redis's forked debugging children): each holds a copy of the data, which
/// counts against none of the server's own figures (as a child's memory is not the parent's used_memory), so it is
/// reported here.
/// </summary>
public sealed class ForkedDebugSessions
{
    private readonly List<DebugFork> _sessions = new();

    /// <summary>How many forked debugging sessions are running.</summary>
    public int Count
    {
        get
        {
            lock (_sessions)
                return _sessions.Count;
        }
    }

    /// <summary>Bytes the copies of the data of the running forked debugging sessions hold.</summary>
    public long MemoryBytes
    {
        get
        {
            long total = 0;
            lock (_sessions)
            {
                foreach (var session in _sessions)
                    total += session.MemoryBytes;
            }
            return total;
        }
    }

    internal void Add(DebugFork session)
    {
        lock (_sessions)
            _sessions.Add(session);
    }

    internal void Remove(DebugFork session)
    {
        lock (_sessions)
            _sessions.Remove(session);
    }
}
