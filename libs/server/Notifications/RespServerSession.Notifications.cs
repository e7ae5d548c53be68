using System;
using System.Runtime.CompilerServices;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Keyspace notifications, session side: the command families call these after a write that changed data, with
/// the event Redis publishes for it, in the session's database. Each tests the server's active classes first
/// (one load and test), so with notifications off a command does no more.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>The server's keyspace notifications (notify-keyspace-events).</summary>
    private readonly KeyspaceNotifications _keyspaceEvents;

    /// <summary>Where this session builds channel names, reused from event to event (grown for a long key).</summary>
    private byte[]? _keyspaceChannel;

    /// <summary>Whether any class of keyspace events is published (a guard for work done only to find an event).</summary>
    internal bool KeyspaceEventsOn
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _keyspaceEvents.Active != 0;
    }

    /// <summary>Publishes <paramref name="name"/> on <paramref name="key"/> of the session's database if <paramref name="type"/> is on.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void NotifyKeyspaceEvent(KeyspaceEventClasses type, ReadOnlySpan<byte> name, ReadOnlySpan<byte> key)
    {
        if ((_keyspaceEvents.Active & type) != 0)
            _keyspaceEvents.Publish(type, name, key, _databaseIndex, ref _keyspaceChannel);
    }

    /// <summary>As <see cref="NotifyKeyspaceEvent"/>, for a key of database <paramref name="database"/> (MOVE, COPY ... DB).</summary>
    internal void NotifyKeyspaceEventIn(int database, KeyspaceEventClasses type, ReadOnlySpan<byte> name, ReadOnlySpan<byte> key)
    {
        if ((_keyspaceEvents.Active & type) != 0)
            _keyspaceEvents.Publish(type, name, key, database, ref _keyspaceChannel);
    }

    /// <summary>
    /// Set while a command runs object writes whose events it publishes itself, in Redis's order, once the whole
    /// command succeeded (LMOVE's pop after its push, SMOVE's two steps), and while it undoes a step (nothing published).
    /// </summary>
    private bool _objectEventsHeld;

    /// <summary>An object write whose events <see cref="ObjectRMW"/> does not publish (see <see cref="_objectEventsHeld"/>).</summary>
    internal Status ObjectRMWHeld(ReadOnlySpan<byte> key, ref ObjectInput input, ref ObjectOutput output)
    {
        bool held = _objectEventsHeld;
        _objectEventsHeld = true;
        try
        {
            return ObjectRMW(key, ref input, ref output);
        }
        finally
        {
            _objectEventsHeld = held;
        }
    }

    /// <summary>
    /// "new" when the write <paramref name="status"/> created <paramref name="key"/> (it was absent or expired); before
    /// it "expired" when the write replaced an expired record, as Redis's write lookup deletes the key first.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void NotifyIfNew(Status status, ReadOnlySpan<byte> key)
    {
        if (!status.NotFound || !status.IsCreatedRecord)
            return;
        if (status.IsExpired)
            NotifyExpired(key);
        NotifyKeyspaceEvent(KeyspaceEventClasses.New, KeyspaceEventNames.New, key);
    }

    /// <summary>"new" for a destination a command wrote by deleting it and adding it again (RENAME, COPY, MOVE, RESTORE, as Redis's dbAdd).</summary>
    internal void NotifyAdded(int database, ReadOnlySpan<byte> key) => NotifyKeyspaceEventIn(database, KeyspaceEventClasses.New, KeyspaceEventNames.New, key);

    /// <summary>A write's events: "new" if it created the key, then <paramref name="name"/>.</summary>
    internal void NotifyWrite(KeyspaceEventClasses type, ReadOnlySpan<byte> name, ReadOnlySpan<byte> key, Status status)
    {
        NotifyIfNew(status, key);
        NotifyKeyspaceEvent(type, name, key);
    }

    /// <summary>
    /// The events of an object write (its row's <see cref="RespCommandInfo.WriteEvent"/>): "new" if it created the key, the command's
    /// event if it changed data (or succeeded, for the commands Redis reports on success), and "del" if it emptied the key.
    /// </summary>
    private void NotifyObjectWrite(ReadOnlySpan<byte> key, in ObjectInput input, ref ObjectOutput output, Status status, bool failed)
    {
        bool created = status.NotFound && status.IsCreatedRecord;
        // A write that found the key expired: Redis's write lookup deletes it ("expired") before the command runs.
        if (status.IsExpired && !created && !_replaying && (_keyspaceEvents.Active & KeyspaceEventClasses.Expired) != 0)
            ExpireOnAccess(key);
        if (failed || output.Result != ObjectResult.Ok || status.IsOutOfMemory)
            return;
        if (input.Command is RespCommand.LMOVE or RespCommand.RPOPLPUSH)
        {
            if (output.Element != null)
                NotifyRotation(key, in input);
            return;
        }
        var evt = CommandTable.WriteEventOf(input.Command);
        if (evt == null)
            return;
        var name = evt.NameFor(in input);
        if (name.IsEmpty)
            return;
        bool keyHeld = status.Found || status.IsCreatedRecord;
        if (evt.OnSuccess ? !keyHeld : !output.Modified)
            return;
        NotifyIfNew(status, key);
        NotifyKeyspaceEvent(evt.Type, name, key);
        if (output.Trimmed)
            NotifyKeyspaceEvent(KeyspaceEventClasses.Stream, "xtrim"u8, key);
        if (output.Emptied)
            NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.Del, key);
    }

    /// <summary>
    /// The events of a *STORE command's result at <paramref name="key"/> (<see cref="StoreObject"/>): "new" and
    /// the command's event (its row's <see cref="RespCommandInfo.StoreEvent"/>) when a result was stored; "del" when an empty result deleted a key that was there.
    /// </summary>
    private void NotifyStored(ReadOnlySpan<byte> key, bool empty, Status status)
    {
        if (empty)
        {
            if (status.Found)
                NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.Del, key);
            return;
        }
        var evt = CurrentCommand.StoreEvent;
        if (!status.IsOutOfMemory && evt != null)
            NotifyWrite(evt.Type, evt.Name, key, status);
    }

    /// <summary>
    /// A read found no <paramref name="key"/>. If it found the key expired, the key is deleted now and "expired"
    /// published (as Redis's lookup expires it); then "keymiss". Only while notifications are on: off, an
    /// expired key waits for active expiration, as before.
    /// </summary>
    internal void NotifyReadMiss(ReadOnlySpan<byte> key, Status status)
    {
        var active = _keyspaceEvents.Active;
        if (active == 0)
            return;
        if (status.IsExpired && (active & KeyspaceEventClasses.Expired) != 0 && !_replaying)
            ExpireOnAccess(key);
        NotifyKeyspaceEvent(KeyspaceEventClasses.KeyMiss, KeyspaceEventNames.KeyMiss, key);
    }

    /// <summary>Deletes an expired <paramref name="key"/> found by an access and publishes "expired" if this call deleted it.</summary>
    private void ExpireOnAccess(ReadOnlySpan<byte> key)
    {
        if (!Store.Delete(key).IsExpired)
            return;
        _server.Statistics.AddExpiredKeys(1);
        NotifyKeyspaceEvent(KeyspaceEventClasses.Expired, KeyspaceEventNames.Expired, key);
    }

    /// <summary>"expired" for keys a command found expired and deleted (DEL of an expired key).</summary>
    internal void NotifyExpired(ReadOnlySpan<byte> key) => NotifyKeyspaceEvent(KeyspaceEventClasses.Expired, KeyspaceEventNames.Expired, key);

    /// <summary>LMOVE/RPOPLPUSH within one list: the push's event, then the pop's (Redis pushes before it reports the pop).</summary>
    private void NotifyRotation(ReadOnlySpan<byte> key, in ObjectInput input)
    {
        bool fromLeft = false, toLeft = true;
        if (input.Command == RespCommand.LMOVE)
        {
            ListArguments.TryParseSide(input.Arg(1), out fromLeft);
            ListArguments.TryParseSide(input.Arg(2), out toLeft);
        }
        NotifyKeyspaceEvent(KeyspaceEventClasses.List, toLeft ? "lpush"u8 : "rpush"u8, key);
        NotifyKeyspaceEvent(KeyspaceEventClasses.List, fromLeft ? "lpop"u8 : "rpop"u8, key);
    }

    /// <summary>
    /// The events of a move between two lists once the push succeeded, after the push's own ("new", "lpush"/"rpush"
    /// on the destination): the pop's event on the source, and "del" if it emptied the source, as Redis orders them.
    /// </summary>
    internal void NotifyListMovePop(ReadOnlySpan<byte> source, in ObjectInput pop, ref ObjectOutput popOutput, Status popStatus)
    {
        if (KeyspaceEventsOn)
            NotifyObjectWrite(source, in pop, ref popOutput, popStatus, failed: false);
    }
}
