using System;

namespace Garnet.server;

/// <summary>Replies and error texts of ACL, as Redis 7.2 words them (errors without '-' and CRLF).</summary>
internal static class AclStrings
{
    public static ReadOnlySpan<byte> ErrDefaultUserCannotBeRemoved => "ERR The 'default' user cannot be removed"u8;
    public static ReadOnlySpan<byte> ErrUsernameSpaces => "ERR Usernames can't contain spaces or null characters"u8;
    public static ReadOnlySpan<byte> ErrNoAclFile
        => "ERR This Redis instance is not configured to use an ACL file. You may want to specify users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis configuration file set) in order to store users in the Redis configuration."u8;
    public static ReadOnlySpan<byte> ErrSaveFailed => "ERR There was an error trying to save the ACLs. Please check the server logs for more information"u8;
    public static ReadOnlySpan<byte> ErrGenPassBits
        => "ERR ACL GENPASS argument must be the number of bits for the output password, a positive number up to 4096"u8;
    public static ReadOnlySpan<byte> ErrLogCount => "ERR value is out of range, must be positive"u8;
    public static ReadOnlySpan<byte> ErrNoPermKey => "NOPERM No permissions to access a key"u8;
    public static ReadOnlySpan<byte> ErrNoPermChannel => "NOPERM No permissions to access a channel"u8;

    /// <summary>The reason Redis gives for a refused rule.</summary>
    public static string RuleErrorText(AclRuleError error) => error switch
    {
        AclRuleError.Syntax => "Syntax error",
        AclRuleError.UnknownCommand => "Unknown command or category name in ACL",
        AclRuleError.KeysAfterAllKeys => "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns",
        AclRuleError.ChannelsAfterAllChannels => "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels",
        AclRuleError.PasswordNotFound => "The password you are trying to remove from the user does not exist",
        AclRuleError.BadHash => "The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters",
        _ => throw new ArgumentOutOfRangeException(nameof(error)),
    };

    /// <summary>The lines of ACL HELP between its header and the HELP entry.</summary>
    public static readonly string[] Help =
    [
        "CAT [<category>]",
        "    List all commands that belong to <category>, or all command categories",
        "    when no category is specified.",
        "DELUSER <username> [<username> ...]",
        "    Delete a list of users.",
        "DRYRUN <username> <command> [<arg> ...]",
        "    Returns whether the user can execute the given command without executing the command.",
        "GETUSER <username>",
        "    Get the user's details.",
        "GENPASS [<bits>]",
        "    Generate a secure 256-bit user password. The optional `bits` argument can",
        "    be used to specify a different size.",
        "LIST",
        "    Show users details in config file format.",
        "LOAD",
        "    Reload users from the ACL file.",
        "LOG [<count> | RESET]",
        "    Show the ACL log entries.",
        "SAVE",
        "    Save the current config to the ACL file.",
        "SETUSER <username> <attribute> [<attribute> ...]",
        "    Create or modify a user with the specified attributes.",
        "USERS",
        "    List all the registered usernames.",
        "WHOAMI",
        "    Return the current connection username.",
    ];
}
