using static Garnet.server.KeySpecFlagSets;
using A = Garnet.server.AclCategories;
using F = Garnet.server.CommandFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

public static partial class CommandTable
{
    /// <summary>The transactions commands' table entries.</summary>
    private static RespCommandInfo[] TransactionsCommands =>
    [
        new(RespCommand.MULTI, "MULTI", 1, F.NoScript | F.Loading | F.Stale | F.Fast | F.AllowBusy, [], A.Fast | A.Transaction, "Starts a transaction."),
        new(RespCommand.EXEC, "EXEC", 1, F.NoScript | F.Loading | F.Stale | F.SkipSlowlog, [], A.Slow | A.Transaction, "Executes all commands in a transaction."),
        new(RespCommand.DISCARD, "DISCARD", 1, F.NoScript | F.Loading | F.Stale | F.Fast | F.AllowBusy, [], A.Fast | A.Transaction, "Discards a transaction."),
        new(RespCommand.WATCH, "WATCH", -2, F.NoScript | F.Loading | F.Stale | F.Fast | F.AllowBusy, [S.At(Ro, 1, -1)], A.Fast | A.Transaction, "Monitors changes to keys to determine the execution of a transaction."),
        new(RespCommand.UNWATCH, "UNWATCH", 1, F.NoScript | F.Loading | F.Stale | F.Fast | F.AllowBusy, [], A.Fast | A.Transaction, "Forgets about watched keys of a transaction."),
    ];
}
