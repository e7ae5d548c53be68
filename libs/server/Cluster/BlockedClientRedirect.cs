using System;

namespace Garnet.server;

/// <summary>
/// In cluster mode, looks every 100 ms (as Redis's client cron does) for clients blocked on keys whose slot this node no
/// longer serves, or while the cluster is down, and ends their waits with the redirection
/// (<see cref="RespServerSession.RedirectIfSlotGone"/>). Outside cluster mode, or with no client blocked, a look is two reads.
/// </summary>
internal sealed class BlockedClientRedirect : IDisposable
{
    private static readonly TimeSpan Period = TimeSpan.FromMilliseconds(100);

    private readonly StoreWrapper _server;
    private readonly PeriodicLoop _loop;

    public BlockedClientRedirect(StoreWrapper server)
    {
        _server = server;
        _loop = new PeriodicLoop(Period, _ => RedirectWaitersOfSlotsGone());
        _loop.Start();
    }

    private void RedirectWaitersOfSlotsGone()
    {
        if (_server.Cluster == null || _server.Blocking.BlockedClients == 0)
            return;
        foreach (var waiter in _server.Blocking.KeyWaiters())
            waiter.Session.RedirectIfSlotGone(waiter);
    }

    public void Dispose() => _loop.Dispose();
}
