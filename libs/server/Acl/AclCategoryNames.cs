using System;

namespace Garnet.server;

/// <summary>The ACL category names as Redis spells them (ACL CAT, +@name rules), in Redis's order.</summary>
internal static class AclCategoryNames
{
    private static readonly (string Name, AclCategories Category)[] s_all =
    [
        ("keyspace", AclCategories.Keyspace),
        ("read", AclCategories.Read),
        ("write", AclCategories.Write),
        ("set", AclCategories.Set),
        ("sortedset", AclCategories.SortedSet),
        ("list", AclCategories.List),
        ("hash", AclCategories.Hash),
        ("string", AclCategories.String),
        ("bitmap", AclCategories.Bitmap),
        ("hyperloglog", AclCategories.HyperLogLog),
        ("geo", AclCategories.Geo),
        ("stream", AclCategories.Stream),
        ("pubsub", AclCategories.PubSub),
        ("admin", AclCategories.Admin),
        ("fast", AclCategories.Fast),
        ("slow", AclCategories.Slow),
        ("blocking", AclCategories.Blocking),
        ("dangerous", AclCategories.Dangerous),
        ("connection", AclCategories.Connection),
        ("transaction", AclCategories.Transaction),
        ("scripting", AclCategories.Scripting),
    ];

    /// <summary>Every category with its name.</summary>
    public static ReadOnlySpan<(string Name, AclCategories Category)> All => s_all;

    /// <summary>The category named <paramref name="name"/> (any case), or <see cref="AclCategories.None"/>.</summary>
    public static AclCategories Find(string name)
    {
        foreach (var (candidate, category) in s_all)
        {
            if (string.Equals(candidate, name, StringComparison.OrdinalIgnoreCase))
                return category;
        }
        return AclCategories.None;
    }
}
