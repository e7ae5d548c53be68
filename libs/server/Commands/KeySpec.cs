using System;

namespace Garnet.server;

/// <summary>
/// Redis's key-spec flags, in the order COMMAND INFO and COMMAND GETKEYSANDFLAGS name them. RO/RW/OW/RM say what
/// happens to the key as a whole; ACCESS/UPDATE/INSERT/DELETE what happens to its value.
/// </summary>
[Flags]
public enum KeySpecFlags : ushort
{
    /// <summary>No flag.</summary>
    None = 0,

    /// <summary>Read-only (RO).</summary>
    RO = 1 << 0,

    /// <summary>Read and modified (RW).</summary>
    RW = 1 << 1,

    /// <summary>Overwritten without being read (OW).</summary>
    OW = 1 << 2,

    /// <summary>Removed (RM).</summary>
    RM = 1 << 3,

    /// <summary>The value is returned, copied or used (access).</summary>
    Access = 1 << 4,

    /// <summary>The value is replaced or changed in place (update).</summary>
    Update = 1 << 5,

    /// <summary>Data is added to the value (insert).</summary>
    Insert = 1 << 6,

    /// <summary>Data is removed from the value (delete).</summary>
    Delete = 1 << 7,

    /// <summary>The argument is not a key but is routed like one (sharded pub/sub channels).</summary>
    NotKey = 1 << 8,

    /// <summary>The spec may miss keys (SORT's BY/GET patterns and STORE).</summary>
    Incomplete = 1 << 9,

    /// <summary>The flags of a call depend on its arguments (SET ... GET, BITFIELD).</summary>
    VariableFlags = 1 << 10,
}

/// <summary>How a key spec finds where its keys begin.</summary>
public enum BeginSearch : byte
{
    /// <summary>Not described: the keys depend on the values or on arguments anywhere (SORT's BY/GET).</summary>
    Unknown,

    /// <summary>At a fixed argument index.</summary>
    Index,

    /// <summary>After a keyword, searched for from an index (forward when positive, backward from the end when negative).</summary>
    Keyword,
}

/// <summary>How a key spec finds its keys once it knows where they begin.</summary>
public enum FindKeys : byte
{
    /// <summary>Not described.</summary>
    Unknown,

    /// <summary>A range: the last key (relative to the first, or from the end when negative), a step and a limit.</summary>
    Range,

    /// <summary>A count argument (numkeys), then that many keys.</summary>
    KeyNum,
}

/// <summary>
/// One of Redis's key specifications (https://redis.io/docs/reference/key-specs/): flags, begin_search and find_keys,
/// and the notes Redis attaches to a few. Declared on each command's row of the command table.
/// </summary>
public sealed class KeySpec
{
    internal KeySpec(KeySpecFlags flags, BeginSearch begin, int index, string? keyword, FindKeys find, int a, int b, int c, string? notes = null)
    {
        Flags = flags;
        Begin = begin;
        Index = index;
        Keyword = keyword;
        KeywordBytes = keyword == null ? null : System.Text.Encoding.ASCII.GetBytes(keyword);
        Find = find;
        (A, B, C) = (a, b, c);
        Notes = notes;
    }

    /// <summary>Flags.</summary>
    public KeySpecFlags Flags { get; }

    /// <summary>How the first key is found.</summary>
    public BeginSearch Begin { get; }

    /// <summary>The index (<see cref="BeginSearch.Index"/>) or the index the keyword search starts from (startfrom).</summary>
    public int Index { get; }

    /// <summary>The keyword of a <see cref="BeginSearch.Keyword"/> search (upper case).</summary>
    public string? Keyword { get; }

    /// <summary><see cref="Keyword"/> as bytes.</summary>
    public byte[]? KeywordBytes { get; }

    /// <summary>How the keys are found from the first.</summary>
    public FindKeys Find { get; }

    /// <summary>Range: lastkey; keynum: keynumidx.</summary>
    public int A { get; }

    /// <summary>Range: keystep; keynum: firstkey.</summary>
    public int B { get; }

    /// <summary>Range: limit; keynum: keystep.</summary>
    public int C { get; }

    /// <summary>Redis's note on the spec, or null.</summary>
    public string? Notes { get; }

    /// <summary>The access ACL asks of keys this spec finds: ACCESS reads; UPDATE, INSERT or DELETE writes.</summary>
    public KeyAccess Access
        => ((Flags & KeySpecFlags.Access) != 0 ? KeyAccess.Read : KeyAccess.None)
            | ((Flags & (KeySpecFlags.Update | KeySpecFlags.Insert | KeySpecFlags.Delete)) != 0 ? KeyAccess.Write : KeyAccess.None);

    /// <summary>A spec at a fixed index with a range (GET: index 1, lastkey 0; MSET: lastkey -1, step 2).</summary>
    public static KeySpec At(KeySpecFlags flags, int index, int lastKey = 0, int step = 1, string? notes = null)
        => new(flags, BeginSearch.Index, index, null, FindKeys.Range, lastKey, step, 0, notes);

    /// <summary>A spec at a fixed index whose argument there counts the keys after it (numkeys, keynum 0 1 1).</summary>
    public static KeySpec NumKeysAt(KeySpecFlags flags, int index, string? notes = null)
        => new(flags, BeginSearch.Index, index, null, FindKeys.KeyNum, 0, 1, 1, notes);

    /// <summary>A spec after a keyword searched for from <paramref name="startFrom"/>, with a range.</summary>
    public static KeySpec AfterKeyword(KeySpecFlags flags, string keyword, int startFrom, int lastKey, int step, int limit)
        => new(flags, BeginSearch.Keyword, startFrom, keyword, FindKeys.Range, lastKey, step, limit);

    /// <summary>A spec Redis cannot describe (begin_search and find_keys unknown).</summary>
    public static KeySpec Unknown(KeySpecFlags flags, string? notes)
        => new(flags, BeginSearch.Unknown, 0, null, FindKeys.Unknown, 0, 0, 0, notes);
}
