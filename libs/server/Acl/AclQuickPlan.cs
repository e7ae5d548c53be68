namespace Garnet.server;

/// <summary>
/// How the dispatcher checks one built-in command for one user without <see cref="AclChecker"/>: worked out once per
/// user definition (<see cref="AclUser.Freeze"/>) from the command table, so the check at dispatch is a byte read and,
/// for the usual restriction (one <c>prefix*</c> pattern), a prefix comparison.
/// </summary>
internal enum AclQuickStep : byte
{
    /// <summary>The full checker decides (and words a refusal): other selectors, subcommands, special key positions, a denied command.</summary>
    Checker = 0,

    /// <summary>Allowed whatever the arguments: the command is allowed and every key is.</summary>
    Allow,

    /// <summary>A one-key command whose most demanding access the only pattern grants: the key must start with the prefix.</summary>
    KeyPrefix,

    /// <summary>As <see cref="KeyPrefix"/>, but the pattern grants less than the most the command may need: the arguments decide what it needs.</summary>
    KeyPrefixByArguments,

    /// <summary>Every key at the table's positions is matched against the root selector's patterns.</summary>
    KeyPatterns,
}

/// <summary>Builds a user's <see cref="AclQuickStep"/> per command id.</summary>
internal static class AclQuickPlan
{
    /// <summary>The steps by command id for a user whose root selector alone decides; null when the full checker always does.</summary>
    public static AclQuickStep[]? Build(AclUser user)
    {
        if (!user.HasOnlyRoot || user.IsUnrestricted)
            return null;
        var root = user.Root;
        var steps = new AclQuickStep[CommandTable.IdCount];
        foreach (var info in CommandTable.All)
            steps[(int)info.Command] = StepFor(user, root, info);
        return steps;
    }

    private static AclQuickStep StepFor(AclUser user, AclSelector root, RespCommandInfo info)
    {
        // Channel restrictions (Redis 7's default for a new user is resetchannels) only concern the pub/sub commands,
        // which name channels, not keys: they are left to the checker.
        if (!KeyExtraction.HasTableKeys(info) || !root.AllowsBuiltIn(info.Command) || (!root.AllChannels && NamesChannels(info.Command)))
            return AclQuickStep.Checker;
        if (root.AllKeys)
            return AclQuickStep.Allow;
        if (user.OnlyKeyPrefix == null || info.LastKey != info.FirstKey)
            return AclQuickStep.KeyPatterns;
        var needed = info.KeyAccess.First;
        if ((user.OnlyKeyPrefixAccess & needed) == needed)
            return AclQuickStep.KeyPrefix;
        // Not granted the most it may need: with arguments that need less it may still run; otherwise it is refused,
        // and the checker words that.
        return info.KeyAccess.VariesWithArguments ? AclQuickStep.KeyPrefixByArguments : AclQuickStep.Checker;
    }

    private static bool NamesChannels(RespCommand command)
        => command is RespCommand.PUBLISH or RespCommand.SPUBLISH or RespCommand.SUBSCRIBE or RespCommand.SSUBSCRIBE or RespCommand.PSUBSCRIBE;
}
