using System;
using System.Collections.Generic;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// Pub/sub, session side: this client's subscriptions, the delivery of the messages queued for it
/// (under its gate, so they never interleave with its replies), RESP2's subscribe mode, and the
/// cleanup when the client resets or leaves. Messages are not replies: they are always written to
/// the connection (<see cref="ConnectionWriter"/>), even while replies are dropped or go to a script.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>Most messages written per hold of the gate by a delivery, so the client's own commands get their turn.</summary>
    private const int MessagesPerDelivery = 1024;

    /// <summary>This client's queue of published messages, from its first subscription on.</summary>
    private PubSubOutbox? _outbox;

    /// <summary>Channels subscribed to (made at the first subscription, see <see cref="Subscriptions"/>).</summary>
    private HashSet<byte[]>? _subscribedChannels;

    /// <summary>Patterns subscribed to (made at the first subscription).</summary>
    private HashSet<byte[]>? _subscribedPatterns;

    /// <summary>Shard channels subscribed to (made at the first shard subscription).</summary>
    private HashSet<byte[]>? _subscribedShardChannels;

    /// <summary>The channels, patterns or shard channels subscribed to.</summary>
    private HashSet<byte[]> Subscriptions(SubscriptionKind kind) => kind switch
    {
        SubscriptionKind.Pattern => _subscribedPatterns ??= new(MemberComparer.Instance),
        SubscriptionKind.ShardChannel => _subscribedShardChannels ??= new(MemberComparer.Instance),
        _ => _subscribedChannels ??= new(MemberComparer.Instance),
    };

    private int _channelSubscriptions;
    private int _patternSubscriptions;
    private int _shardChannelSubscriptions;

    /// <summary>Number of channels subscribed to (CLIENT LIST sub=).</summary>
    public int ChannelSubscriptions => Volatile.Read(ref _channelSubscriptions);

    /// <summary>Number of patterns subscribed to (CLIENT LIST psub=).</summary>
    public int PatternSubscriptions => Volatile.Read(ref _patternSubscriptions);

    /// <summary>Number of shard channels subscribed to (CLIENT LIST ssub=).</summary>
    public int ShardChannelSubscriptions => Volatile.Read(ref _shardChannelSubscriptions);

    /// <summary>Whether the client has any subscription (CLIENT LIST flag 'P').</summary>
    public bool IsSubscriber => ChannelSubscriptions + PatternSubscriptions + ShardChannelSubscriptions > 0;

    /// <summary>
    /// The count a (un)subscription confirmation carries: channels and patterns for those, shard channels for these
    /// (Redis 7 counts the two apart).
    /// </summary>
    private int SubscriptionCount(SubscriptionKind kind)
        => kind == SubscriptionKind.ShardChannel ? ShardChannelSubscriptions : ChannelSubscriptions + PatternSubscriptions;

    /// <summary>Whether the client is in RESP2's subscribe mode, where only the pub/sub commands, PING, QUIT and RESET run.</summary>
    internal bool InSubscribeMode => !_writer.Resp3 && IsSubscriber;

    private PubSubBroker Broker => _server.PubSub;

    private PubSubOutbox Outbox
    {
        get
        {
            // Another session may make it: an invalidation for a client that tracks through this one (Tracking/).
            if (_outbox == null)
                Interlocked.CompareExchange(ref _outbox, new PubSubOutbox(this, _server.ClientLimits.PubSub), null);
            return _outbox;
        }
    }

    /// <summary>
    /// Called before every command of a client that ever subscribed (or tracked keys): writes the messages queued for
    /// it first (they were published before this command ran), then applies RESP2's subscribe mode.
    /// Returns false, having written the error, when the command may not run.
    /// </summary>
    private bool PubSubAdmits(RespCommandInfo info)
    {
        if (_tracking != null)
            AdvanceCaching(info); // Tracking/: a tracking client has an outbox for its invalidations
        WriteQueuedMessagesBeforeReply();
        if (!InSubscribeMode)
            return true;
        switch (info.Command)
        {
            case RespCommand.SUBSCRIBE:
            case RespCommand.UNSUBSCRIBE:
            case RespCommand.PSUBSCRIBE:
            case RespCommand.PUNSUBSCRIBE:
            case RespCommand.SSUBSCRIBE:
            case RespCommand.SUNSUBSCRIBE:
            case RespCommand.PING:
            case RespCommand.QUIT:
            case RespCommand.RESET:
                return true;
        }
        _writer.WriteError($"ERR Can't execute '{FullCommandName(info)}': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context");
        return false;
    }

    /// <summary>The name Redis shows for the command: "get", or "client|list" for a container's subcommand.</summary>
    private string FullCommandName(RespCommandInfo info)
    {
        if (_argCount < 2)
            return info.LowerName;
        if (SubcommandTable.IsContainer(info.Command))
        {
            var subcommand = SubcommandTable.Find(info.Command, _args[1]);
            return subcommand?.Info.LowerName ?? info.LowerName;
        }
        if (info.Command == RespCommand.PUBSUB && FindPubSubSubcommand() is { } pubSubSubcommand)
            return "pubsub|" + pubSubSubcommand.Name;
        return info.LowerName;
    }

    /// <summary>PING in subscribe mode: <c>*2 $4 pong $0 ""</c>, or the argument in place of the empty string.</summary>
    internal bool TryWriteSubscribePong()
    {
        if (!InSubscribeMode || _argCount > 2)
            return false;
        _writer.WriteArrayHeader(2);
        _writer.WriteBulk("pong"u8);
        _writer.WriteBulk(_argCount == 2 ? _args[1].Span : ReadOnlySpan<byte>.Empty);
        return true;
    }

    /// <summary>
    /// Writes the messages queued so far ahead of the reply about to be written, except inside EXEC: there the
    /// reply is an element of EXEC's array, which a message must not split, so the messages wait for the
    /// delivery the publisher scheduled (or the next command), after EXEC's reply, as Redis 7.2 orders them.
    /// </summary>
    private void WriteQueuedMessagesBeforeReply()
    {
        if (_outbox is { HasPending: true } && !_inExec)
            WriteQueuedMessages(int.MaxValue);
    }

    /// <summary>
    /// Writes up to <paramref name="maxMessages"/> queued messages to the connection (which flushes as
    /// it fills). The caller holds the gate.
    /// </summary>
    private void WriteQueuedMessages(int maxMessages)
    {
        var outbox = _outbox!;
        ref var writer = ref ConnectionWriter;
        long sent = 0;
        for (int i = 0; i < maxMessages; i++)
        {
            var message = outbox.TryDequeue(sent);
            sent = 0;
            if (message == null)
                return;
            if (message[0] == (byte)'+')
            {
                // A MONITOR line (Monitor/MonitorFeed.cs): a simple string in either protocol, as Redis sends it.
                writer.WriteRaw(message);
            }
            else
            {
                // Encoded as a RESP2 array; a RESP3 client gets it as a push.
                writer.WriteRaw(writer.Resp3 ? ">"u8 : "*"u8);
                writer.WriteRaw(message.AsSpan(1));
            }
            sent = message.Length;
        }
        outbox.Sent(sent);
    }

    /// <summary>A delivery scheduled by a publisher: writes queued messages and sends them, under the gate.</summary>
    internal void DeliverQueuedMessages()
    {
        lock (_gate)
        {
            if (_disposed || _outbox == null)
                return;
            try
            {
                WriteQueuedMessages(MessagesPerDelivery);
                ConnectionWriter.ReleaseBuffer();
            }
            catch (Exception)
            {
                // Like a failing command, a failing delivery ends this connection only.
                _outbox.Close();
                _sender.CloseAfterSend();
            }
        }
    }

    /// <summary>The subscriber fell too far behind (its outbox overflowed): disconnect it; publishers carry on.</summary>
    internal void DisconnectSlowSubscriber() => RequestKill();

    /// <summary>SUBSCRIBE / PSUBSCRIBE / SSUBSCRIBE one channel, pattern or shard channel; writes the confirmation.</summary>
    private void Subscribe(ReadOnlySpan<byte> name, SubscriptionKind kind)
    {
        var set = Subscriptions(kind);
        var copy = name.ToArray();
        if (set.Add(copy))
        {
            switch (kind)
            {
                case SubscriptionKind.Pattern:
                    Broker.SubscribePattern(copy, Outbox);
                    Interlocked.Increment(ref _patternSubscriptions);
                    break;
                case SubscriptionKind.ShardChannel:
                    _server.ShardPubSub.SubscribeChannel(copy, Outbox);
                    Interlocked.Increment(ref _shardChannelSubscriptions);
                    break;
                default:
                    Broker.SubscribeChannel(copy, Outbox);
                    Interlocked.Increment(ref _channelSubscriptions);
                    break;
            }
            // While subscribed, the client is in Redis's pubsub class for output limits.
            if (ChannelSubscriptions + PatternSubscriptions + ShardChannelSubscriptions == 1)
                _sender.UseOutputLimit(_server.ClientLimits.PubSub);
        }
        WriteSubscriptionReply(SubscribeReplyKind(kind), name, SubscriptionCount(kind));
    }

    /// <summary>UNSUBSCRIBE / PUNSUBSCRIBE / SUNSUBSCRIBE one name; writes the confirmation when <paramref name="reply"/>.</summary>
    private void Unsubscribe(byte[] name, SubscriptionKind kind, bool reply)
    {
        var set = Subscriptions(kind);
        if (set.Remove(name))
        {
            switch (kind)
            {
                case SubscriptionKind.Pattern:
                    Broker.UnsubscribePattern(name, _outbox!);
                    Interlocked.Decrement(ref _patternSubscriptions);
                    break;
                case SubscriptionKind.ShardChannel:
                    _server.ShardPubSub.UnsubscribeChannel(name, _outbox!);
                    Interlocked.Decrement(ref _shardChannelSubscriptions);
                    break;
                default:
                    Broker.UnsubscribeChannel(name, _outbox!);
                    Interlocked.Decrement(ref _channelSubscriptions);
                    break;
            }
            if (!IsSubscriber)
                _sender.UseOutputLimit(_server.ClientLimits.Normal);
            // Messages published before the unsubscribe come before its confirmation.
            if (reply)
                WriteQueuedMessagesBeforeReply();
        }
        if (reply)
            WriteSubscriptionReply(UnsubscribeReplyKind(kind), name, SubscriptionCount(kind));
    }

    /// <summary>UNSUBSCRIBE / PUNSUBSCRIBE / SUNSUBSCRIBE without arguments: every name of the kind, or the nil confirmation when there is none.</summary>
    private void UnsubscribeAll(SubscriptionKind kind, bool reply)
    {
        var set = Subscriptions(kind);
        if (set.Count == 0)
        {
            if (reply)
            {
                _writer.WritePushHeader(3);
                _writer.WriteBulk(UnsubscribeReplyKind(kind));
                _writer.WriteNull();
                _writer.WriteInteger(SubscriptionCount(kind));
            }
            return;
        }
        foreach (var name in new List<byte[]>(set))
            Unsubscribe(name, kind, reply);
    }

    private static ReadOnlySpan<byte> SubscribeReplyKind(SubscriptionKind kind) => kind switch
    {
        SubscriptionKind.Pattern => "psubscribe"u8,
        SubscriptionKind.ShardChannel => "ssubscribe"u8,
        _ => "subscribe"u8,
    };

    private static ReadOnlySpan<byte> UnsubscribeReplyKind(SubscriptionKind kind) => kind switch
    {
        SubscriptionKind.Pattern => "punsubscribe"u8,
        SubscriptionKind.ShardChannel => "sunsubscribe"u8,
        _ => "unsubscribe"u8,
    };

    private void WriteSubscriptionReply(ReadOnlySpan<byte> kind, ReadOnlySpan<byte> name, int count)
    {
        _writer.WritePushHeader(3);
        _writer.WriteBulk(kind);
        _writer.WriteBulk(name);
        _writer.WriteInteger(count);
    }

    /// <summary>RESET and disconnect: drops every subscription, and with <paramref name="closing"/> the queued messages too.</summary>
    private void ResetPubSub(bool closing)
    {
        if (_outbox == null)
            return;
        UnsubscribeAll(SubscriptionKind.Channel, reply: false);
        UnsubscribeAll(SubscriptionKind.Pattern, reply: false);
        UnsubscribeAll(SubscriptionKind.ShardChannel, reply: false);
        if (closing)
            _outbox.Close();
    }
}

/// <summary>What a subscription is to: a channel, a pattern of channels, or a shard channel (sharded pub/sub).</summary>
internal enum SubscriptionKind : byte
{
    Channel,
    Pattern,
    ShardChannel,
}
