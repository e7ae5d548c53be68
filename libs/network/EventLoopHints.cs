using System;

namespace Garnet.networking;

/// <summary>
/// What a consumer tells the event loop thread it runs on about the round it is dispatched in (the connections one poll
/// reported). An event loop keeps polling for a while after a round (busy polling, for clients that answer quickly); a
/// consumer whose replies wait for something other than the client — the commit of the operation log — tells it not to:
/// its clients cannot send again before those replies go, and the spinning thread would take the processor from the
/// work they wait for (on one core this costs commit-before-ack a fifth of its throughput, and batches of 64 half).
/// </summary>
public static class EventLoopHints
{
    [ThreadStatic]
    private static bool t_repliesAwaitOtherWork;

    /// <summary>Replies of the current round wait for other work: the loop sleeps in its next poll instead of spinning.</summary>
    public static void RepliesAwaitOtherWork() => t_repliesAwaitOtherWork = true;

    /// <summary>Whether a consumer said so during the calling thread's round; clears it.</summary>
    internal static bool TakeRepliesAwaitOtherWork()
    {
        // Read first: a round that was told nothing (nearly all) writes nothing.
        if (!t_repliesAwaitOtherWork)
            return false;
        t_repliesAwaitOtherWork = false;
        return true;
    }
}
