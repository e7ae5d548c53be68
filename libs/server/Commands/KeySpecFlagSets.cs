namespace Garnet.server;

/// <summary>
/// The combinations of key-spec flags Redis's command table uses, named so that the command table's rows read as
/// Redis's specs do (<c>S.At(RoAccess, 1)</c>): RO/RW/OW/RM for the key, then what happens to its value.
/// </summary>
internal static class KeySpecFlagSets
{
    public const KeySpecFlags Ro = KeySpecFlags.RO;
    public const KeySpecFlags RoAccess = KeySpecFlags.RO | KeySpecFlags.Access;
    public const KeySpecFlags RwAccess = KeySpecFlags.RW | KeySpecFlags.Access;
    public const KeySpecFlags RwAccessUpdate = KeySpecFlags.RW | KeySpecFlags.Access | KeySpecFlags.Update;
    public const KeySpecFlags RwAccessInsert = KeySpecFlags.RW | KeySpecFlags.Access | KeySpecFlags.Insert;
    public const KeySpecFlags RwAccessDelete = KeySpecFlags.RW | KeySpecFlags.Access | KeySpecFlags.Delete;
    public const KeySpecFlags RwUpdate = KeySpecFlags.RW | KeySpecFlags.Update;
    public const KeySpecFlags RwInsert = KeySpecFlags.RW | KeySpecFlags.Insert;
    public const KeySpecFlags RwDelete = KeySpecFlags.RW | KeySpecFlags.Delete;
    public const KeySpecFlags OwUpdate = KeySpecFlags.OW | KeySpecFlags.Update;
    public const KeySpecFlags OwInsert = KeySpecFlags.OW | KeySpecFlags.Insert;
    public const KeySpecFlags RmDelete = KeySpecFlags.RM | KeySpecFlags.Delete;

    /// <summary>Added to a set: the value is also used (BITFIELD's GET).</summary>
    public const KeySpecFlags Access = KeySpecFlags.Access;

    /// <summary>Added to a set: the flags of a call depend on its arguments (SET ... GET).</summary>
    public const KeySpecFlags Variable = KeySpecFlags.VariableFlags;

    /// <summary>Sharded pub/sub channels: routed like keys, not keys.</summary>
    public const KeySpecFlags NotKey = KeySpecFlags.NotKey;
}
