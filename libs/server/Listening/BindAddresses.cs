using System;
using System.Collections.Generic;
using System.Net;

namespace Garnet.server;

/// <summary>One address of Redis's <c>bind</c> list: <c>-addr</c> is optional (bound only where this host has it).</summary>
public readonly record struct BindAddress(IPAddress Address, bool Optional);

/// <summary>
/// Redis's <c>bind</c> value: up to 16 addresses separated by spaces; <c>*</c> is every IPv4 address, <c>::*</c> every
/// IPv6 one (IPv4 too, on a dual-mode socket), <c>localhost</c> the loopback address, and a leading <c>-</c> makes an
/// address optional.
/// </summary>
public static class BindAddresses
{
    /// <summary>Redis's limit on bind addresses (CONFIG_BINDADDR_MAX).</summary>
    public const int MaxCount = 16;

    /// <summary>The addresses of <paramref name="text"/>, or null with Redis's reason in <paramref name="error"/>.</summary>
    public static BindAddress[]? Parse(string text, out string? error)
    {
        var words = text.Split([' ', '\t'], StringSplitOptions.RemoveEmptyEntries);
        if (words.Length > MaxCount)
        {
            error = "Too many bind addresses specified.";
            return null;
        }
        if (words.Length == 0)
        {
            // An empty bind list listens on every address, as Redis does.
            error = null;
            return [new BindAddress(IPAddress.Any, false)];
        }
        var addresses = new List<BindAddress>(words.Length);
        foreach (string word in words)
        {
            bool optional = word.StartsWith('-');
            string name = optional ? word[1..] : word;
            IPAddress? address = name switch
            {
                "*" => IPAddress.Any,
                "::*" => IPAddress.IPv6Any,
                _ when name.Equals("localhost", StringComparison.OrdinalIgnoreCase) => IPAddress.Loopback,
                _ => IPAddress.TryParse(name, out var parsed) ? parsed : null,
            };
            if (address == null)
            {
                error = $"'{word}' is not an IP address";
                return null;
            }
            addresses.Add(new BindAddress(address, optional));
        }
        error = null;
        return [.. addresses];
    }

    /// <summary>
    /// <paramref name="addresses"/> written back as a bind list, each address in its plain form (<c>*</c> as 0.0.0.0,
    /// <c>localhost</c> as 127.0.0.1), optional ones with their <c>-</c>.
    /// </summary>
    public static string Format(IReadOnlyList<BindAddress> addresses)
    {
        var words = new string[addresses.Count];
        for (int i = 0; i < words.Length; i++)
            words[i] = (addresses[i].Optional ? "-" : "") + addresses[i].Address;
        return string.Join(' ', words);
    }

    /// <summary>Whether every address of <paramref name="addresses"/> is a loopback one (DEBUG "local", protected mode's warning).</summary>
    public static bool AllLoopback(IReadOnlyList<BindAddress> addresses)
    {
        foreach (var address in addresses)
        {
            if (!IPAddress.IsLoopback(address.Address))
                return false;
        }
        return true;
    }
}
