using System;

namespace Garnet.server;

/// <summary>
/// Read and write access to a key's value: what an ACL key pattern grants (%R~, %W~, or both with ~), and what a
/// command needs of each of its keys (<see cref="KeyAccessSpec"/>).
/// </summary>
[Flags]
public enum KeyAccess : byte
{
    /// <summary>
    /// Asked of a key: no particular permission, any pattern that matches the key allows it (Redis's rule for a key
    /// spec with none of ACCESS, INSERT, DELETE, UPDATE, as EXISTS or TYPE, which only look at metadata).
    /// </summary>
    None = 0,

    /// <summary>The command returns, copies or uses the stored value (Redis's ACCESS key-spec flag).</summary>
    Read = 1,

    /// <summary>The command adds to, removes from or changes the stored value (INSERT, DELETE or UPDATE).</summary>
    Write = 2,

    /// <summary>Both.</summary>
    ReadWrite = Read | Write,
}

/// <summary>
/// The access each key of a command needs, derived from the command's key specs as Redis derives it
/// (<see cref="KeyPositions"/>): ACCESS needs read, INSERT, DELETE or UPDATE write, and RO/RW/OW/RM
/// alone decide nothing. Redis's key specs for the commands here come in at most two kinds per command, so a spec is
/// the first key's access and the others' (LMOVE: the source read and write, the destination write; SUNIONSTORE: the
/// destination write, the sources read). Keys found by the arguments (numkeys, STORE) follow the same order.
/// </summary>
/// <remarks>
/// Locking does not read this: a key's lock mode stays <see cref="KeyList.IsWrite"/> (exclusive for every key of a
/// write command), which is never weaker than what is declared here.
/// </remarks>
public readonly struct KeyAccessSpec
{
    private KeyAccessSpec(KeyAccess first, KeyAccess rest, bool variesWithArguments)
    {
        First = first;
        Rest = rest;
        HasKeys = true;
        VariesWithArguments = variesWithArguments;
    }

    /// <summary>The access the first key needs.</summary>
    public KeyAccess First { get; }

    /// <summary>The access every key after the first needs.</summary>
    public KeyAccess Rest { get; }

    /// <summary>Whether the command has keys; false for <see cref="NoKeys"/> (and for an undeclared default).</summary>
    public bool HasKeys { get; }

    /// <summary>
    /// Whether the access depends on the arguments (Redis's VARIABLE_FLAGS: SET ... GET reads, BITFIELD with only GET
    /// does not write). <see cref="First"/> and <see cref="Rest"/> are then the most it may need;
    /// <see cref="KeyExtraction.AccessByArguments"/> gives the access of one call.
    /// </summary>
    public bool VariesWithArguments { get; }

    /// <summary>The access key number <paramref name="ordinal"/> (0 for the first) needs.</summary>
    public KeyAccess Of(int ordinal) => ordinal == 0 ? First : Rest;

    /// <summary>Keys whose first needs <paramref name="first"/> and the others <paramref name="rest"/> (as derived from key specs).</summary>
    internal static KeyAccessSpec From(KeyAccess first, KeyAccess rest, bool variesWithArguments) => new(first, rest, variesWithArguments);

    /// <summary>A command without keys.</summary>
    public static KeyAccessSpec NoKeys => default;

    /// <summary>Every key is read (GET, MGET, SUNION).</summary>
    public static KeyAccessSpec Read => new(KeyAccess.Read, KeyAccess.Read, false);

    /// <summary>Every key is written without its value being returned or used (SETEX, MSET, DEL, LPUSH, APPEND).</summary>
    public static KeyAccessSpec Write => new(KeyAccess.Write, KeyAccess.Write, false);

    /// <summary>Every key is read and written (INCR, GETDEL, LPOP, BLPOP).</summary>
    public static KeyAccessSpec ReadWrite => new(KeyAccess.ReadWrite, KeyAccess.ReadWrite, false);

    /// <summary>Only the keys' metadata is looked at (EXISTS, TYPE, STRLEN, LLEN): any pattern matching the key allows it.</summary>
    public static KeyAccessSpec Any => new(KeyAccess.None, KeyAccess.None, false);

    /// <summary>A destination written, then sources read (SUNIONSTORE, ZUNIONSTORE, BITOP, ZRANGESTORE).</summary>
    public static KeyAccessSpec WriteThenRead => new(KeyAccess.Write, KeyAccess.Read, false);

    /// <summary>A source read, then destinations written (COPY, SORT ... STORE, GEORADIUS ... STORE).</summary>
    public static KeyAccessSpec ReadThenWrite => new(KeyAccess.Read, KeyAccess.Write, false);

    /// <summary>A source taken from (read and written), then a destination written (LMOVE, SMOVE, RENAME).</summary>
    public static KeyAccessSpec ReadWriteThenWrite => new(KeyAccess.ReadWrite, KeyAccess.Write, false);

    /// <summary>A destination merged into (read and written), then sources read (PFMERGE).</summary>
    public static KeyAccessSpec ReadWriteThenRead => new(KeyAccess.ReadWrite, KeyAccess.Read, false);

    /// <summary>At most read and write, decided per call by the arguments (SET, BITFIELD).</summary>
    public static KeyAccessSpec ReadWriteByArguments => new(KeyAccess.ReadWrite, KeyAccess.ReadWrite, true);
}
