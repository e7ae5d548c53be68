using System;
using System.Text;

namespace Garnet.server;

/// <summary>
/// The classes of keyspace events of notify-keyspace-events, with Redis's bit values: K and E choose the
/// channels (__keyspace@db__:key, __keyevent@db__:event), the others which events are published.
/// </summary>
[Flags]
public enum KeyspaceEventClasses
{
    /// <summary>Notifications off.</summary>
    None = 0,
    /// <summary>K: published on __keyspace@&lt;db&gt;__:&lt;key&gt;, the event as message.</summary>
    Keyspace = 1 << 0,
    /// <summary>E: published on __keyevent@&lt;db&gt;__:&lt;event&gt;, the key as message.</summary>
    Keyevent = 1 << 1,
    /// <summary>g: commands of no one type (DEL, EXPIRE, RENAME...).</summary>
    Generic = 1 << 2,
    /// <summary>$: string commands.</summary>
    String = 1 << 3,
    /// <summary>l: list commands.</summary>
    List = 1 << 4,
    /// <summary>s: set commands.</summary>
    Set = 1 << 5,
    /// <summary>h: hash commands.</summary>
    Hash = 1 << 6,
    /// <summary>z: sorted set commands.</summary>
    SortedSet = 1 << 7,
    /// <summary>x: a key expired (found expired by an access, or deleted by active expiration).</summary>
    Expired = 1 << 8,
    /// <summary>e: a key was evicted for the memory budget.</summary>
    Evicted = 1 << 9,
    /// <summary>t: stream commands.</summary>
    Stream = 1 << 10,
    /// <summary>m: a read found no key (not part of A).</summary>
    KeyMiss = 1 << 11,
    /// <summary>d: module key types' events (Redis modules; no module types exist here, so none are published).</summary>
    Module = 1 << 13,
    /// <summary>n: a key was added to a database (not part of A).</summary>
    New = 1 << 14,
    /// <summary>A: g$lshzxetd.</summary>
    All = Generic | String | List | Set | Hash | SortedSet | Expired | Evicted | Stream | Module,
}

/// <summary>notify-keyspace-events values: the flag string to classes and back, as Redis reads and reports them.</summary>
public static class KeyspaceEventFlags
{
    /// <summary>CONFIG SET's complaint about a character that names no class (Redis's words).</summary>
    public const string InvalidClass = "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.";

    /// <summary>Reads a flag string ("KEA", "Elg"...); false if a character names no class (the letters are case-sensitive).</summary>
    public static bool TryParse(ReadOnlySpan<char> text, out KeyspaceEventClasses classes)
    {
        classes = KeyspaceEventClasses.None;
        foreach (char c in text)
        {
            var one = c switch
            {
                'A' => KeyspaceEventClasses.All,
                'g' => KeyspaceEventClasses.Generic,
                '$' => KeyspaceEventClasses.String,
                'l' => KeyspaceEventClasses.List,
                's' => KeyspaceEventClasses.Set,
                'h' => KeyspaceEventClasses.Hash,
                'z' => KeyspaceEventClasses.SortedSet,
                'x' => KeyspaceEventClasses.Expired,
                'e' => KeyspaceEventClasses.Evicted,
                'K' => KeyspaceEventClasses.Keyspace,
                'E' => KeyspaceEventClasses.Keyevent,
                't' => KeyspaceEventClasses.Stream,
                'm' => KeyspaceEventClasses.KeyMiss,
                'd' => KeyspaceEventClasses.Module,
                'n' => KeyspaceEventClasses.New,
                _ => (KeyspaceEventClasses)(-1),
            };
            if ((int)one == -1)
            {
                classes = KeyspaceEventClasses.None;
                return false;
            }
            classes |= one;
        }
        return true;
    }

    /// <summary>The canonical form CONFIG GET reports: "A" or the type classes in Redis's order, then K, E, m, n.</summary>
    public static string Format(KeyspaceEventClasses classes)
    {
        var text = new StringBuilder(16);
        if ((classes & KeyspaceEventClasses.All) == KeyspaceEventClasses.All)
        {
            text.Append('A');
        }
        else
        {
            Append(text, classes, KeyspaceEventClasses.Generic, 'g');
            Append(text, classes, KeyspaceEventClasses.String, '$');
            Append(text, classes, KeyspaceEventClasses.List, 'l');
            Append(text, classes, KeyspaceEventClasses.Set, 's');
            Append(text, classes, KeyspaceEventClasses.Hash, 'h');
            Append(text, classes, KeyspaceEventClasses.SortedSet, 'z');
            Append(text, classes, KeyspaceEventClasses.Expired, 'x');
            Append(text, classes, KeyspaceEventClasses.Evicted, 'e');
            Append(text, classes, KeyspaceEventClasses.Stream, 't');
            Append(text, classes, KeyspaceEventClasses.Module, 'd');
        }
        Append(text, classes, KeyspaceEventClasses.Keyspace, 'K');
        Append(text, classes, KeyspaceEventClasses.Keyevent, 'E');
        Append(text, classes, KeyspaceEventClasses.KeyMiss, 'm');
        Append(text, classes, KeyspaceEventClasses.New, 'n');
        return text.ToString();
    }

    private static void Append(StringBuilder text, KeyspaceEventClasses classes, KeyspaceEventClasses one, char letter)
    {
        if ((classes & one) != 0)
            text.Append(letter);
    }
}
