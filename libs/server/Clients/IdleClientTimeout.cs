using System;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// Closes clients idle for longer than Redis's <c>timeout</c> (<see cref="ClientLimits.TimeoutSeconds"/>), looking once
/// a second as Redis's client cron does. As in Redis, clients blocked in a command (they have their own timeout) and
/// subscribers (they wait for messages by design) are left alone.
/// </summary>
internal sealed class IdleClientTimeout : IDisposable
{
    private static readonly TimeSpan Period = TimeSpan.FromSeconds(1);

    private readonly StoreWrapper _server;
    private readonly PeriodicLoop _loop;
    private long _closed;

    public IdleClientTimeout(StoreWrapper server)
    {
        _server = server;
        _loop = new PeriodicLoop(Period, _ => CloseIdleIfTimeoutSet());
        _loop.Start();
    }

    /// <summary>Clients closed for idling past the timeout.</summary>
    public long Closed => Interlocked.Read(ref _closed);

    private void CloseIdleIfTimeoutSet()
    {
        int timeout = _server.ClientLimits.TimeoutSeconds;
        if (timeout > 0)
            CloseIdle(TimeSpan.FromSeconds(timeout));
    }

    private void CloseIdle(TimeSpan timeout)
    {
        var now = DateTimeOffset.UtcNow;
        foreach (var session in _server.Clients.Snapshot())
        {
            if (session.IsBlocked || session.IsSubscriber || now - session.LastCommandAt <= timeout)
                continue;
            session.RequestKill();
            Interlocked.Increment(ref _closed);
        }
    }

    public void Dispose() => _loop.Dispose();
}
