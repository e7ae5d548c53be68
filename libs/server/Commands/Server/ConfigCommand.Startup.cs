using System;

namespace Garnet.server;

/// <summary>
/// CONFIG parameters given at start (<see cref="ServerOptions.ConfigParameters"/>, filled by the host from a config
/// file or the command line): checked as CONFIG SET checks them, then set. Immutable parameters that only this table
/// holds (daemonize, io-threads, tcp-backlog ...) are set here or never.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>Whether <paramref name="name"/> is a CONFIG parameter or one of its aliases (any case).</summary>
    public static bool IsConfigParameter(string name) => FindConfigParameter(name) != null;

    /// <summary>
    /// Why <paramref name="name"/> cannot be set to <paramref name="value"/> at start, in Redis's words, or null
    /// when it can. A parameter the server takes from its own options (port, databases ...) cannot be given here.
    /// </summary>
    public static string? StartupConfigError(string name, string value)
    {
        var parameter = FindConfigParameter(name);
        if (parameter == null)
            return "unknown parameter";
        if (parameter.Set == null && parameter.Kind != ConfigKind.Fixed)
            return "can't set immutable config";
        if ((ConfigValueError(parameter.Value, value) ?? ConfigRangeError(parameter, value) ?? parameter.Check?.Invoke(null, value)) is { } malformed)
            return malformed;
        // A fixed parameter's only value does not depend on a session.
        if (parameter.Kind == ConfigKind.Fixed && parameter.Get(null!) is var only && !string.Equals(value, only, StringComparison.OrdinalIgnoreCase))
            return $"this server only supports '{only}'";
        return null;
    }

    /// <summary>Throws <see cref="ArgumentException"/> for the first parameter of <paramref name="options"/> that cannot be set.</summary>
    internal static void CheckStartupConfig(ServerOptions options)
    {
        foreach (var (name, value) in options.ConfigParameters)
        {
            if (StartupConfigError(name, value) is { } error)
                throw new ArgumentException($"CONFIG parameter '{name}' cannot be '{value}': {error}", nameof(options));
        }
    }

    /// <summary>Sets the parameters of the server's options (already checked by <see cref="CheckStartupConfig"/>).</summary>
    internal static void ApplyStartupConfig(StoreWrapper server)
    {
        foreach (var (name, value) in server.Options.ConfigParameters)
            FindConfigParameter(name)!.Set?.Invoke(server, value);
    }

    private static ConfigParameter? FindConfigParameter(string name)
    {
        foreach (var parameter in s_configParameters)
        {
            if (parameter.Name.Equals(name, StringComparison.OrdinalIgnoreCase))
                return parameter;
        }
        return null;
    }
}
