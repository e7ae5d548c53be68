using System;

namespace Garnet.server;

/// <summary>Replies and error texts of the connection commands, as Redis words them (errors without '-' and CRLF).</summary>
internal static class ConnectionStrings
{
    public static ReadOnlySpan<byte> Reset => "+RESET\r\n"u8;

    public static ReadOnlySpan<byte> ErrNoPasswordConfigured
        => "ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?"u8;
    public static ReadOnlySpan<byte> ErrWrongPass => "WRONGPASS invalid username-password pair or user is disabled."u8;
    public static ReadOnlySpan<byte> ErrNoProto => "NOPROTO unsupported protocol version"u8;
    public static ReadOnlySpan<byte> ErrProtocolVersionNotInteger => "ERR Protocol version is not an integer or out of range"u8;
    public static ReadOnlySpan<byte> ErrHelloNoAuth
        => "NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and select the RESP protocol version at the same time"u8;
    public static ReadOnlySpan<byte> ErrInvalidFirstDbIndex => "ERR invalid first DB index"u8;
    public static ReadOnlySpan<byte> ErrInvalidSecondDbIndex => "ERR invalid second DB index"u8;

    public static ReadOnlySpan<byte> ErrClientNameInvalid => "ERR Client names cannot contain spaces, newlines or special characters."u8;
    public static ReadOnlySpan<byte> ErrNoSuchClient => "ERR No such client"u8;
    public static ReadOnlySpan<byte> ErrClientIdNotPositive => "ERR client-id should be greater than 0"u8;
    public static ReadOnlySpan<byte> ErrInvalidClientId => "ERR Invalid client ID"u8;

    /// <summary>The user AUTH with only a password logs in as.</summary>
    public static ReadOnlySpan<byte> DefaultUser => "default"u8;
}
