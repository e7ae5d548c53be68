using System;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// Copy-on-write arrays of outboxes (a channel's subscribers, the monitors): changed under the owner's lock, read
/// without one by publishers, who iterate whichever array they read.
/// </summary>
internal static class OutboxList
{
    /// <summary>Adds <paramref name="outbox"/>; false if it is there already.</summary>
    public static bool TryAdd(ref PubSubOutbox[] outboxes, PubSubOutbox outbox)
    {
        var current = outboxes;
        if (Array.IndexOf(current, outbox) >= 0)
            return false;
        var grown = new PubSubOutbox[current.Length + 1];
        current.CopyTo(grown, 0);
        grown[^1] = outbox;
        Volatile.Write(ref outboxes, grown);
        return true;
    }

    /// <summary>Removes <paramref name="outbox"/>; false if it was not there.</summary>
    public static bool TryRemove(ref PubSubOutbox[] outboxes, PubSubOutbox outbox)
    {
        var current = outboxes;
        int index = Array.IndexOf(current, outbox);
        if (index < 0)
            return false;
        var shrunk = new PubSubOutbox[current.Length - 1];
        Array.Copy(current, 0, shrunk, 0, index);
        Array.Copy(current, index + 1, shrunk, index, current.Length - index - 1);
        Volatile.Write(ref outboxes, shrunk);
        return true;
    }
}
