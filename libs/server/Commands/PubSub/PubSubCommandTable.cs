using static Garnet.server.KeySpecFlagSets;
using A = Garnet.server.AclCategories;
using F = Garnet.server.CommandFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

public static partial class CommandTable
{
    /// <summary>The pub/sub commands' table entries.</summary>
    private static RespCommandInfo[] PubSubCommands =>
    [
        new(RespCommand.SUBSCRIBE, "SUBSCRIBE", -2, F.PubSub | F.NoScript | F.Loading | F.Stale, [], A.PubSub | A.Slow, "Listens for messages published to channels."),
        new(RespCommand.UNSUBSCRIBE, "UNSUBSCRIBE", -1, F.PubSub | F.NoScript | F.Loading | F.Stale, [], A.PubSub | A.Slow, "Stops listening to messages posted to channels."),
        new(RespCommand.PSUBSCRIBE, "PSUBSCRIBE", -2, F.PubSub | F.NoScript | F.Loading | F.Stale, [], A.PubSub | A.Slow, "Listens for messages published to channels that match one or more patterns."),
        new(RespCommand.PUNSUBSCRIBE, "PUNSUBSCRIBE", -1, F.PubSub | F.NoScript | F.Loading | F.Stale, [], A.PubSub | A.Slow, "Stops listening to messages published to channels that match one or more patterns."),
        // Sharded pub/sub (Redis 7.0): its own channels, delivered as "smessage". Redis gives the channel a key
        // specification flagged not_key (for cluster routing); here it has none, so ACL and GETKEYS pass it over alike.
        new(RespCommand.SSUBSCRIBE, "SSUBSCRIBE", -2, F.PubSub | F.NoScript | F.Loading | F.Stale, [S.At(NotKey, 1, -1)], A.PubSub | A.Slow, "Listens for messages published to shard channels."),
        new(RespCommand.SUNSUBSCRIBE, "SUNSUBSCRIBE", -1, F.PubSub | F.NoScript | F.Loading | F.Stale, [S.At(NotKey, 1, -1)], A.PubSub | A.Slow, "Stops listening to messages posted to shard channels."),
        new(RespCommand.SPUBLISH, "SPUBLISH", 3, F.PubSub | F.Loading | F.Stale | F.Fast | F.MayReplicate, [S.At(NotKey, 1)], A.PubSub | A.Fast, "Post a message to a shard channel"),
        new(RespCommand.PUBLISH, "PUBLISH", 3, F.PubSub | F.Loading | F.Stale | F.Fast | F.MayReplicate, [], A.PubSub | A.Fast, "Posts a message to a channel."),
        new(RespCommand.PUBSUB, "PUBSUB", -2, F.None, [], A.Slow, "A container for Pub/Sub commands."),
    ];
}
