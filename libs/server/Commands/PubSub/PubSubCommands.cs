using System;

namespace Garnet.server;

/// <summary>
/// The pub/sub commands: SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE, PUBLISH, sharded pub/sub's SSUBSCRIBE,
/// SUNSUBSCRIBE and SPUBLISH, and PUBSUB CHANNELS / NUMSUB / NUMPAT / SHARDCHANNELS / SHARDNUMSUB / HELP. Subscriptions and delivery live in libs/server/PubSub.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private static readonly string[] s_pubSubHelp =
    [
        "CHANNELS [<pattern>]",
        "    Return the currently active channels matching a <pattern> (default: '*').",
        "NUMPAT",
        "    Return number of subscriptions to patterns.",
        "NUMSUB [<channel> ...]",
        "    Return the number of subscribers for the specified channels, excluding",
        "    pattern subscriptions(default: no channels).",
        "SHARDCHANNELS [<pattern>]",
        "    Return the currently active shard level channels matching a <pattern> (default: '*').",
        "SHARDNUMSUB [<shardchannel> ...]",
        "    Return the number of subscribers for the specified shard level channel(s)",
    ];

    private void ExecutePubSubCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.SUBSCRIBE:
            case RespCommand.PSUBSCRIBE:
            case RespCommand.SSUBSCRIBE:
                var kind = KindOf(command);
                for (int i = 1; i < _argCount; i++)
                    Subscribe(_args[i].Span, kind);
                break;
            case RespCommand.UNSUBSCRIBE:
            case RespCommand.PUNSUBSCRIBE:
            case RespCommand.SUNSUBSCRIBE:
                var unsubscribed = KindOf(command);
                if (_argCount == 1)
                    UnsubscribeAll(unsubscribed, reply: true);
                for (int i = 1; i < _argCount; i++)
                    Unsubscribe(_args[i].Span.ToArray(), unsubscribed, reply: true);
                break;
            case RespCommand.PUBLISH:
                Publish(Broker);
                break;
            case RespCommand.SPUBLISH:
                Publish(_server.ShardPubSub);
                break;
            case RespCommand.PUBSUB:
                PubSub();
                break;
            default:
                throw new InvalidOperationException($"{command} is not a pub/sub command.");
        }
    }

    private static SubscriptionKind KindOf(RespCommand command) => command switch
    {
        RespCommand.PSUBSCRIBE or RespCommand.PUNSUBSCRIBE => SubscriptionKind.Pattern,
        RespCommand.SSUBSCRIBE or RespCommand.SUNSUBSCRIBE => SubscriptionKind.ShardChannel,
        _ => SubscriptionKind.Channel,
    };

    private void Publish(PubSubBroker broker)
    {
        int receivers = broker.Publish(_args[1].Span, _args[2].Span);
        // A RESP3 client publishing to itself gets the message before the reply, as from Redis before 7.2.
        WriteQueuedMessagesBeforeReply();
        _writer.WriteInteger(receivers);
    }

    /// <summary>The PUBSUB subcommand in argument 1 and its arity (counting PUBSUB itself; negative: at least), or null.</summary>
    private (string Name, int Arity)? FindPubSubSubcommand()
    {
        ref readonly var name = ref _args[1];
        if (name.EqualsUpper("CHANNELS"u8))
            return ("channels", -2);
        if (name.EqualsUpper("NUMSUB"u8))
            return ("numsub", -2);
        if (name.EqualsUpper("NUMPAT"u8))
            return ("numpat", 2);
        if (name.EqualsUpper("SHARDCHANNELS"u8))
            return ("shardchannels", -2);
        if (name.EqualsUpper("SHARDNUMSUB"u8))
            return ("shardnumsub", -2);
        if (name.EqualsUpper("HELP"u8))
            return ("help", 2);
        return null;
    }

    private void PubSub()
    {
        var found = FindPubSubSubcommand();
        if (found == null)
        {
            WriteUnknownSubcommand("PUBSUB");
            return;
        }
        var (name, arity) = found.Value;
        if (arity > 0 ? _argCount != arity : _argCount < -arity)
        {
            WriteWrongArity("pubsub|" + name);
            return;
        }
        switch (name)
        {
            case "channels":
            case "shardchannels":
                if (_argCount > 3)
                {
                    WriteSubcommandSyntaxError("PUBSUB");
                    return;
                }
                var registry = name == "channels" ? Broker : _server.ShardPubSub;
                var channels = registry.Channels(_argCount == 3 ? _args[2].Span.ToArray() : null);
                _writer.WriteArrayHeader(channels.Count);
                foreach (var channel in channels)
                    _writer.WriteBulk(channel);
                break;
            case "numsub":
            case "shardnumsub":
                var counted = name == "numsub" ? Broker : _server.ShardPubSub;
                _writer.WriteArrayHeader((_argCount - 2) * 2);
                for (int i = 2; i < _argCount; i++)
                {
                    _writer.WriteBulk(_args[i].Span);
                    _writer.WriteInteger(counted.SubscriberCount(_args[i].Span));
                }
                break;
            case "numpat":
                _writer.WriteInteger(Broker.PatternCount);
                break;
            default:
                WriteHelp(s_pubSubHelp);
                break;
        }
    }
}
