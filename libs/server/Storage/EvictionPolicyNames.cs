using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>Redis's names of the eviction policies (maxmemory-policy), in the order Redis lists them.</summary>
public static class EvictionPolicyNames
{
    private static readonly (string Name, EvictionPolicy Policy)[] s_names =
    [
        ("volatile-lru", EvictionPolicy.VolatileLru),
        ("volatile-lfu", EvictionPolicy.VolatileLfu),
        ("volatile-random", EvictionPolicy.VolatileRandom),
        ("volatile-ttl", EvictionPolicy.VolatileTtl),
        ("allkeys-lru", EvictionPolicy.AllKeysLru),
        ("allkeys-lfu", EvictionPolicy.AllKeysLfu),
        ("allkeys-random", EvictionPolicy.AllKeysRandom),
        ("noeviction", EvictionPolicy.NoEviction),
    ];

    /// <summary>Every name, comma-separated, as Redis lists them in its error.</summary>
    public static string All { get; } = string.Join(", ", Array.ConvertAll(s_names, n => n.Name));

    /// <summary>The policy called <paramref name="name"/> (any case).</summary>
    public static bool TryParse(string name, out EvictionPolicy policy)
    {
        foreach (var (candidate, value) in s_names)
        {
            if (string.Equals(candidate, name, StringComparison.OrdinalIgnoreCase))
            {
                policy = value;
                return true;
            }
        }
        policy = default;
        return false;
    }

    /// <summary>Redis's name of <paramref name="policy"/>.</summary>
    public static string NameOf(EvictionPolicy policy)
    {
        foreach (var (name, value) in s_names)
        {
            if (value == policy)
                return name;
        }
        throw new ArgumentOutOfRangeException(nameof(policy), policy, "Not an eviction policy.");
    }
}
