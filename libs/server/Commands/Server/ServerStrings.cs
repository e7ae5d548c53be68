using System;

namespace Garnet.server;

/// <summary>Replies and error texts of the server commands, as Redis words them (errors without '-' and CRLF).</summary>
internal static class ServerStrings
{
    /// <summary>The Redis version the server reports (HELLO, INFO) and is compatible with.</summary>
    public static ReadOnlySpan<byte> RedisVersion => "7.2.5"u8;

    /// <summary><see cref="RedisVersion"/> as text.</summary>
    public const string RedisVersionText = "7.2.5";

    public static ReadOnlySpan<byte> ErrDebugNotAllowed
        => "ERR DEBUG command not allowed. If the enable-debug-command option is set to \"local\", you can run it from a local connection, otherwise you need to set this option in the configuration file, and then restart the server."u8;
    public static ReadOnlySpan<byte> ErrNoShutdownInProgress => "ERR No shutdown in progress."u8;
    public static ReadOnlySpan<byte> ErrInvalidCommand => "ERR Invalid command specified"u8;
    public static ReadOnlySpan<byte> ErrNoKeyArguments => "ERR The command has no key arguments"u8;
    public static ReadOnlySpan<byte> ErrInvalidArgumentCount => "ERR Invalid number of arguments specified for command"u8;
    public static ReadOnlySpan<byte> ErrInvalidArguments => "ERR Invalid arguments specified for command"u8;
    public static ReadOnlySpan<byte> ErrClusterDisabled => "ERR This instance has cluster support disabled"u8;
    public static ReadOnlySpan<byte> ErrNoConfigFile => "ERR The server is running without a config file"u8;
}
