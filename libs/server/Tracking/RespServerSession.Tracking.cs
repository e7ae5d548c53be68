using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// Client-side caching, session side: CLIENT TRACKING / CACHING / GETREDIR / TRACKINGINFO, the keys a tracking client's
/// reads make tracked, and the invalidations this session's writes cause. While no client tracks, a command pays one
/// look at <see cref="TrackingTable.Active"/> (see RunCommandCore).
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private static ReadOnlySpan<byte> ErrCachingNotTracking => "ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or OPTOUT mode enabled"u8;
    private static ReadOnlySpan<byte> ErrCachingYes => "ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode."u8;
    private static ReadOnlySpan<byte> ErrCachingNo => "ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode."u8;
    private static ReadOnlySpan<byte> ErrSingleRedirect => "ERR A client can only redirect to a single other client"u8;
    private static ReadOnlySpan<byte> ErrNoRedirectClient => "ERR The client ID you want redirect to does not exist"u8;

    /// <summary>This client's tracking while it is on, else null.</summary>
    private ClientTracking? _tracking;

    /// <summary>Keys this session wrote in the batch, for broadcasting clients (made at the first such write).</summary>
    private BroadcastBatch? _broadcastBatch;

    /// <summary>The keys of the command being tracked (apart from the lock's key list, which the command itself may use).</summary>
    private KeyList? _trackedKeys;

    /// <summary>CLIENT GETREDIR and CLIENT LIST's redir: -1 while not tracking, 0 for no redirection, else the client id.</summary>
    internal long TrackingRedirect => _tracking?.Redirect ?? -1;

    /// <summary>CLIENT LIST's tracking flags: t (tracking), R (its redirection's client is gone), B (broadcasting).</summary>
    private string TrackingFlags()
    {
        var tracking = _tracking;
        if (tracking == null)
            return "";
        return "t" + (tracking.BrokenRedirect ? "R" : "") + (tracking.Broadcast ? "B" : "");
    }

    /// <summary>CLIENT TRACKING ON|OFF [REDIRECT id] [PREFIX prefix ...] [BCAST] [OPTIN] [OPTOUT] [NOLOOP], checked as Redis checks it.</summary>
    private void SetClientTracking()
    {
        long redirect = 0;
        var options = TrackingOptions.None;
        List<byte[]>? prefixes = null;
        for (int i = 3; i < _argCount; i++)
        {
            bool more = i + 1 < _argCount;
            ref readonly var option = ref _args[i];
            if (option.EqualsUpper("REDIRECT"u8) && more)
            {
                i++;
                if (redirect != 0)
                {
                    _writer.WriteError(ErrSingleRedirect);
                    return;
                }
                if (!NumberFormat.TryParseLong(_args[i].Span, out redirect))
                {
                    _writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (_server.Clients.Find(redirect) == null)
                {
                    _writer.WriteError(ErrNoRedirectClient);
                    return;
                }
            }
            else if (option.EqualsUpper("BCAST"u8))
                options |= TrackingOptions.Broadcast;
            else if (option.EqualsUpper("OPTIN"u8))
                options |= TrackingOptions.OptIn;
            else if (option.EqualsUpper("OPTOUT"u8))
                options |= TrackingOptions.OptOut;
            else if (option.EqualsUpper("NOLOOP"u8))
                options |= TrackingOptions.NoLoop;
            else if (option.EqualsUpper("PREFIX"u8) && more)
                (prefixes ??= new()).Add(_args[++i].Span.ToArray());
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }

        if (_args[2].EqualsUpper("OFF"u8))
        {
            StopTracking();
            _writer.WriteOk();
            return;
        }
        if (!_args[2].EqualsUpper("ON"u8))
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        if (TrackingOptionsError(options, prefixes) is { } error)
        {
            _writer.WriteError(error);
            return;
        }
        StartTracking(redirect, options, prefixes);
        _writer.WriteOk();
    }

    /// <summary>Redis's objection to these options given the client's tracking now, in Redis's order, or null.</summary>
    private string? TrackingOptionsError(TrackingOptions options, List<byte[]>? prefixes)
    {
        bool broadcast = (options & TrackingOptions.Broadcast) != 0;
        if (!broadcast && prefixes != null)
            return "ERR PREFIX option requires BCAST mode to be enabled";
        var current = _tracking;
        if (current != null && current.Broadcast != broadcast)
            return "ERR You can't switch BCAST mode on/off before disabling tracking for this client, and then re-enabling it with a different mode.";
        if (broadcast && (options & (TrackingOptions.OptIn | TrackingOptions.OptOut)) != 0)
            return "ERR OPTIN and OPTOUT are not compatible with BCAST";
        if ((options & TrackingOptions.OptIn) != 0 && (options & TrackingOptions.OptOut) != 0)
            return "ERR You can't use both OPTIN and OPTOUT";
        if (current != null
            && (((options & TrackingOptions.OptIn) != 0 && (current.Options & TrackingOptions.OptOut) != 0)
                || ((options & TrackingOptions.OptOut) != 0 && (current.Options & TrackingOptions.OptIn) != 0)))
            return "ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, and then re-enabling it with a different mode.";
        if (broadcast && prefixes != null)
        {
            for (int i = 0; i < prefixes.Count; i++)
            {
                if (current?.Overlapping(prefixes[i]) is { } existing)
                    return $"ERR Prefix '{Latin1(prefixes[i])}' overlaps with an existing prefix '{Latin1(existing)}'. Prefixes for a single client must not overlap.";
                for (int j = i + 1; j < prefixes.Count; j++)
                {
                    if (ClientTracking.PrefixesOverlap(prefixes[i], prefixes[j]))
                        return $"ERR Prefix '{Latin1(prefixes[i])}' overlaps with another provided prefix '{Latin1(prefixes[j])}'. Prefixes for a single client must not overlap.";
                }
            }
        }
        return null;

        static string Latin1(byte[] bytes) => System.Text.Encoding.Latin1.GetString(bytes);
    }

    /// <summary>
    /// Turns tracking on, or changes it (as Redis's enableTracking: the redirection and flags are replaced, prefixes
    /// added). The client counts as tracking before its next read, so writers after it see it.
    /// </summary>
    private void StartTracking(long redirect, TrackingOptions options, List<byte[]>? prefixes)
    {
        var table = _server.Tracking;
        var tracking = _tracking;
        bool fresh = tracking == null;
        tracking ??= new ClientTracking(this);
        tracking.Redirect = redirect;
        tracking.BrokenRedirect = false;
        tracking.Options = options;
        if ((options & TrackingOptions.Broadcast) != 0)
        {
            if (prefixes == null)
                AddTrackingPrefix(table, tracking, []);
            else
            {
                foreach (var prefix in prefixes)
                    AddTrackingPrefix(table, tracking, prefix);
            }
        }
        if (fresh)
        {
            _ = Outbox; // invalidations for this connection go through its outbox, like pub/sub messages
            _tracking = tracking;
            table.Register(tracking);
        }
    }

    private static void AddTrackingPrefix(TrackingTable table, ClientTracking tracking, byte[] prefix)
    {
        if (tracking.AddPrefix(prefix))
            table.AddPrefix(tracking, prefix);
    }

    /// <summary>CLIENT TRACKING OFF, RESET and disconnect: the client leaves its prefixes and the keys it tracked.</summary>
    private void StopTracking()
    {
        var tracking = _tracking;
        if (tracking == null)
            return;
        tracking.Enabled = false;
        _tracking = null;
        _server.Tracking.Unregister(tracking);
    }

    /// <summary>CLIENT CACHING YES|NO: whether the next command's reads are tracked, in OPTIN / OPTOUT mode.</summary>
    private void ClientCaching()
    {
        var tracking = _tracking;
        if (tracking == null)
        {
            _writer.WriteError(ErrCachingNotTracking);
            return;
        }
        if (_args[2].EqualsUpper("YES"u8))
        {
            if ((tracking.Options & TrackingOptions.OptIn) == 0)
            {
                _writer.WriteError(ErrCachingYes);
                return;
            }
        }
        else if (_args[2].EqualsUpper("NO"u8))
        {
            if ((tracking.Options & TrackingOptions.OptOut) == 0)
            {
                _writer.WriteError(ErrCachingNo);
                return;
            }
        }
        else
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        // Inside EXEC it applies to the rest of the transaction, and ends with it.
        tracking.Caching = _inExec ? CachingState.InEffect : CachingState.Given;
        _writer.WriteOk();
    }

    /// <summary>
    /// Before each command of a tracking client (from <see cref="PubSubAdmits"/>: such a client has an outbox): CLIENT
    /// CACHING covers the next command, or the next transaction, and other CLIENT subcommands in between, as Redis
    /// clears it after any command but CLIENT outside MULTI.
    /// </summary>
    private void AdvanceCaching(RespCommandInfo info)
    {
        var tracking = _tracking;
        if (tracking == null || tracking.Caching == CachingState.None || InMulti)
            return;
        if (tracking.Caching == CachingState.InEffect)
            tracking.Caching = CachingState.None;
        else if (info.Command != RespCommand.CLIENT)
            tracking.Caching = CachingState.InEffect;
    }

    /// <summary>CLIENT GETREDIR.</summary>
    private void ClientGetRedir() => _writer.WriteInteger(TrackingRedirect);

    /// <summary>CLIENT TRACKINGINFO: a map of flags (a set), redirect and prefixes, as Redis replies.</summary>
    private void ClientTrackingInfo()
    {
        var tracking = _tracking;
        _writer.WriteMapHeader(3);
        _writer.WriteBulk("flags"u8);
        if (tracking == null)
        {
            _writer.WriteSetHeader(1);
            _writer.WriteBulk("off"u8);
        }
        else
        {
            var options = tracking.Options;
            bool caching = tracking.Caching != CachingState.None;
            bool optIn = (options & TrackingOptions.OptIn) != 0;
            bool optOut = (options & TrackingOptions.OptOut) != 0;
            bool noLoop = (options & TrackingOptions.NoLoop) != 0;
            bool broken = tracking.BrokenRedirect;
            int count = 1 + (tracking.Broadcast ? 1 : 0) + (optIn ? 1 : 0) + (optOut ? 1 : 0) + (caching && (optIn || optOut) ? 1 : 0)
                + (noLoop ? 1 : 0) + (broken ? 1 : 0);
            _writer.WriteSetHeader(count);
            _writer.WriteBulk("on"u8);
            if (tracking.Broadcast)
                _writer.WriteBulk("bcast"u8);
            if (optIn)
            {
                _writer.WriteBulk("optin"u8);
                if (caching)
                    _writer.WriteBulk("caching-yes"u8);
            }
            if (optOut)
            {
                _writer.WriteBulk("optout"u8);
                if (caching)
                    _writer.WriteBulk("caching-no"u8);
            }
            if (noLoop)
                _writer.WriteBulk("noloop"u8);
            if (broken)
                _writer.WriteBulk("broken_redirect"u8);
        }
        _writer.WriteBulk("redirect"u8);
        _writer.WriteInteger(TrackingRedirect);
        _writer.WriteBulk("prefixes"u8);
        if (tracking == null)
        {
            _writer.WriteArrayHeader(0);
            return;
        }
        _writer.WriteArrayHeader(tracking.Prefixes.Count);
        foreach (var prefix in tracking.Prefixes)
            _writer.WriteBulk(prefix);
    }

    /// <summary>
    /// Before a command while some client tracks: a default-mode tracking client's read-only command remembers its keys
    /// first (see <see cref="TrackingTable"/> for why before). Scripts' own keys are not remembered, the commands they
    /// run are, as in Redis. Returns the error count, so <see cref="EndTrackedCommand"/> can tell a failed command.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private int BeginTrackedCommand(RespCommandInfo info)
    {
        var tracking = _tracking;
        if (tracking != null
            && (info.Flags & (CommandFlags.ReadOnly | CommandFlags.PubSub)) == CommandFlags.ReadOnly
            && (info.AclCategories & AclCategories.Scripting) == 0
            && tracking.TracksThisCommand)
        {
            RememberReadKeys(info, tracking);
        }
        return _errorReplies;
    }

    /// <summary>After a command while some client tracks: a write that did not fail invalidates the keys it writes; a flush, every key.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void EndTrackedCommand(RespCommandInfo info, int errorsBefore)
    {
        if (_errorReplies != errorsBefore)
            return;
        if (info.Command is RespCommand.FLUSHDB or RespCommand.FLUSHALL)
        {
            _server.Tracking.InvalidateAll();
            return;
        }
        if ((info.Flags & CommandFlags.Write) != 0)
            InvalidateWrittenKeys(info);
    }

    private void RememberReadKeys(RespCommandInfo info, ClientTracking tracking)
    {
        var table = _server.Tracking;
        if (info.FirstKey > 0 && info.FirstKey == info.LastKey && KeyExtraction.HasTableKeys(info))
        {
            if (info.FirstKey < _argCount)
                table.Remember(tracking, _args[info.FirstKey].Span);
        }
        else
        {
            var keys = _trackedKeys ??= new KeyList();
            KeyExtraction.Extract(info, _args, _argCount, keys);
            for (int i = 0; i < keys.Count; i++)
                table.Remember(tracking, _args[keys.Position(i)].Span);
        }
        table.EnforceLimit();
    }

    /// <summary>The keys a write changes, from the command table's key access (a key only read, as SUNIONSTORE's sources, is not invalidated).</summary>
    private void InvalidateWrittenKeys(RespCommandInfo info)
    {
        var access = KeyExtraction.AccessOf(info, _args, _argCount);
        if (info.FirstKey > 0 && info.FirstKey == info.LastKey && KeyExtraction.HasTableKeys(info))
        {
            if (info.FirstKey < _argCount && KeyExtraction.Modifies(access, 0))
                NoteWrittenKey(_args[info.FirstKey].Span);
            return;
        }
        var keys = _trackedKeys ??= new KeyList();
        KeyExtraction.Extract(info, _args, _argCount, keys);
        for (int i = 0; i < keys.Count; i++)
        {
            if (KeyExtraction.Modifies(access, i))
                NoteWrittenKey(_args[keys.Position(i)].Span);
        }
    }

    /// <summary>A key this session modified: its default-mode clients are told now, broadcasting ones at the end of the batch.</summary>
    private void NoteWrittenKey(ReadOnlySpan<byte> key)
    {
        var table = _server.Tracking;
        if (table.HasPrefixes)
        {
            var batch = _broadcastBatch ??= new BroadcastBatch();
            batch.Add(key);
            if (batch.Full)
                batch.Send(table, this);
        }
        table.Invalidate(key, this);
    }

    /// <summary>At the end of a batch (<see cref="EndBatch"/>): the keys written go to the broadcasting clients.</summary>
    private void SendBroadcastInvalidations()
    {
        if (_broadcastBatch is { IsEmpty: false } batch)
            batch.Send(_server.Tracking, this);
    }

    /// <summary>Queues an invalidation (or a tracking-redir-broken push) for this connection; it is written between replies.</summary>
    internal void EnqueueTrackingMessage(byte[] message)
    {
        var outbox = Outbox;
        if (!outbox.Enqueue(message))
            outbox.Disconnect();
    }
}
