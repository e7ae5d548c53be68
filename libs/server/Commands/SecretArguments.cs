using System;

namespace Garnet.server;

/// <summary>
/// Which arguments of a command hold secrets, declared in its command table entry (<see cref="RespCommandInfo.Secrets"/>):
/// the slow log and MONITOR both show them as "(redacted)", as Redis redacts them for both.
/// </summary>
public enum SecretArguments : byte
{
    /// <summary>Nothing to hide.</summary>
    None,

    /// <summary>Every argument after the name (AUTH: the password, or the user and password).</summary>
    All,

    /// <summary>The user and password after each AUTH option (HELLO protover [AUTH user pass] [SETNAME name]).</summary>
    HelloAuth,

    /// <summary>The values of sensitive parameters (CONFIG SET requirepass, masterauth, tls-key-file-pass, tls-client-key-file-pass).</summary>
    SensitiveConfigValues,

    /// <summary>Everything after the user's name (ACL SETUSER: rules may hold passwords).</summary>
    AclRules,

    /// <summary>The values of MIGRATE's AUTH password and AUTH2 username password options (before KEYS).</summary>
    MigrateAuth,
}

/// <summary>Reads <see cref="SecretArguments"/> against a command's arguments.</summary>
internal static class ArgumentRedaction
{
    /// <summary>What a secret argument is shown as.</summary>
    public static ReadOnlySpan<byte> Redacted => "(redacted)"u8;

    /// <summary>Whether argument <paramref name="index"/> of <paramref name="args"/> (the command's name first) is a secret under <paramref name="secrets"/>.</summary>
    public static bool IsSecret(SecretArguments secrets, ReadOnlySpan<ArgSlice> args, int index)
    {
        switch (secrets)
        {
            case SecretArguments.None:
                return false;
            case SecretArguments.All:
                return index >= 1;
            case SecretArguments.AclRules:
                return index >= 3;
            case SecretArguments.SensitiveConfigValues:
                // CONFIG SET name value [name value ...]: a value sits at an odd distance after SET.
                return index >= 3 && (index - 3) % 2 == 0 && IsSensitiveParameter(args[index - 1]);
            case SecretArguments.HelloAuth:
                return IsHelloAuthValue(args, index);
            case SecretArguments.MigrateAuth:
                return MigrateArguments.IsSecret(args, index);
            default:
                throw new ArgumentOutOfRangeException(nameof(secrets), secrets, null);
        }
    }

    /// <summary>HELLO's options are read as Redis reads them, from after the protocol version until one is not understood.</summary>
    private static bool IsHelloAuthValue(ReadOnlySpan<ArgSlice> args, int index)
    {
        for (int i = 2; i < args.Length && i < index; i++)
        {
            int following = args.Length - 1 - i;
            if (following >= 2 && args[i].EqualsUpper("AUTH"u8))
            {
                if (index == i + 1 || index == i + 2)
                    return true;
                i += 2;
            }
            else if (following >= 1 && args[i].EqualsUpper("SETNAME"u8))
            {
                i++;
            }
            else
            {
                return false;
            }
        }
        return false;
    }

    private static bool IsSensitiveParameter(ArgSlice name)
        => name.EqualsUpper("REQUIREPASS"u8) || name.EqualsUpper("MASTERAUTH"u8)
            || name.EqualsUpper("TLS-KEY-FILE-PASS"u8) || name.EqualsUpper("TLS-CLIENT-KEY-FILE-PASS"u8);
}
