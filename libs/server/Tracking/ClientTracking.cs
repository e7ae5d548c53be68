using System;
using System.Collections.Generic;
using System.Threading;

namespace Garnet.server;

/// <summary>The options of CLIENT TRACKING ON a client gave.</summary>
[Flags]
internal enum TrackingOptions
{
    None = 0,
    Broadcast = 1,
    OptIn = 2,
    OptOut = 4,
    NoLoop = 8,
}

/// <summary>Where a client stands with CLIENT CACHING: not given, given for the next command, or applying to the command running.</summary>
internal enum CachingState : byte
{
    None,
    Given,
    InEffect,
}

/// <summary>
/// One client's tracking while it is on: its mode and redirection (read by writers on other threads), the prefixes it
/// broadcasts on, CLIENT CACHING, and the table entries it was added to (so leaving takes it out of them at once).
/// </summary>
internal sealed class ClientTracking
{
    private volatile int _options;
    private long _redirect;
    private volatile bool _brokenRedirect;

    /// <summary>The entries this client was added to; some may have left the table since (touched only by the client's own thread).</summary>
    private List<TrackedKey>? _remembered;

    /// <summary>Entries this client is still in (others take it out when they invalidate).</summary>
    private int _items;

    public ClientTracking(RespServerSession session) => Session = session;

    /// <summary>The tracking client.</summary>
    public RespServerSession Session { get; }

    /// <summary>Cleared when tracking ends: invalidators skip the client from then on.</summary>
    public volatile bool Enabled = true;

    public TrackingOptions Options
    {
        get => (TrackingOptions)_options;
        set => _options = (int)value;
    }

    public bool Broadcast => (Options & TrackingOptions.Broadcast) != 0;

    public bool NoLoop => (Options & TrackingOptions.NoLoop) != 0;

    /// <summary>The client id invalidations go to, or 0 for this connection.</summary>
    public long Redirect
    {
        get => Volatile.Read(ref _redirect);
        set => Volatile.Write(ref _redirect, value);
    }

    /// <summary>Set when an invalidation found the redirection's client gone (CLIENT LIST flag R, TRACKINGINFO broken_redirect).</summary>
    public bool BrokenRedirect
    {
        get => _brokenRedirect;
        set => _brokenRedirect = value;
    }

    /// <summary>CLIENT CACHING (the client's own thread only).</summary>
    public CachingState Caching;

    /// <summary>The prefixes this client broadcasts on, in byte order as Redis lists them (the client's own thread only).</summary>
    public List<byte[]> Prefixes { get; } = new();

    /// <summary>Whether the command running (a read of a default-mode client) makes its keys tracked, given OPTIN / OPTOUT and CLIENT CACHING.</summary>
    public bool TracksThisCommand
    {
        get
        {
            var options = Options;
            if ((options & TrackingOptions.Broadcast) != 0)
                return false;
            bool given = Caching == CachingState.InEffect;
            if ((options & TrackingOptions.OptIn) != 0)
                return given;
            if ((options & TrackingOptions.OptOut) != 0)
                return !given;
            return true;
        }
    }

    /// <summary>Whether <paramref name="prefix"/> is one of this client's, or one of them starts the other (Redis refuses overlaps).</summary>
    public byte[]? Overlapping(ReadOnlySpan<byte> prefix)
    {
        foreach (var existing in Prefixes)
        {
            if (PrefixesOverlap(existing, prefix))
                return existing;
        }
        return null;
    }

    public static bool PrefixesOverlap(ReadOnlySpan<byte> first, ReadOnlySpan<byte> second)
    {
        int length = Math.Min(first.Length, second.Length);
        return first.Slice(0, length).SequenceEqual(second.Slice(0, length));
    }

    /// <summary>Adds a prefix to the list, in order; false when it is there already.</summary>
    public bool AddPrefix(byte[] prefix)
    {
        int at = 0;
        for (; at < Prefixes.Count; at++)
        {
            int order = Prefixes[at].AsSpan().SequenceCompareTo(prefix);
            if (order == 0)
                return false;
            if (order > 0)
                break;
        }
        Prefixes.Insert(at, prefix);
        return true;
    }

    /// <summary>The table added this client to <paramref name="entry"/> (under the entry's shard lock, on the client's thread).</summary>
    public void Remembered(TrackedKey entry)
    {
        var remembered = _remembered ??= new List<TrackedKey>();
        remembered.Add(entry);
        int live = Interlocked.Increment(ref _items);
        // Invalidated entries are dropped from the list once they are most of it, so it stays in proportion to the live ones.
        if (remembered.Count > 64 && remembered.Count > 2 * live)
            remembered.RemoveAll(static entry => entry.Removed);
    }

    /// <summary>An entry with this client left the table (invalidated or flushed).</summary>
    public void Forgotten() => Interlocked.Decrement(ref _items);

    /// <summary>Tracking ended: this client leaves every entry it is still in, and its list goes.</summary>
    public void ForgetKeys(TrackingTable table)
    {
        var remembered = _remembered;
        if (remembered == null)
            return;
        foreach (var entry in remembered)
        {
            if (!entry.Removed)
                table.Forget(entry, this);
        }
        _remembered = null;
    }

    /// <summary>
    /// Sends an invalidation as Redis does: to the redirection's client if there is one (a RESP3 push, or for RESP2 a
    /// message on __redis__:invalidate when it is subscribed), else to this client as a RESP3 push; a RESP2 client
    /// without a redirection gets nothing. A redirection whose client is gone is reported to a RESP3 client instead.
    /// </summary>
    public void Send(InvalidationMessage message, ClientRegistry clients)
    {
        var target = Session;
        long redirect = Redirect;
        bool redirected = redirect != 0;
        if (redirected)
        {
            var found = clients.Find(redirect);
            if (found == null)
            {
                BrokenRedirect = true;
                if (Session.ProtocolVersion == 3)
                    Session.EnqueueTrackingMessage(InvalidationMessage.RedirectBroken(redirect));
                return;
            }
            target = found;
        }
        if (target.ProtocolVersion == 3)
            target.EnqueueTrackingMessage(message.Push);
        else if (redirected && target.IsSubscriber)
            target.EnqueueTrackingMessage(message.PubSubMessage);
    }
}
