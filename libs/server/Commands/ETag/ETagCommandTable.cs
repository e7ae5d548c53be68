using static Garnet.server.KeySpecFlagSets;
using A = Garnet.server.AclCategories;
using F = Garnet.server.CommandFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

public static partial class CommandTable
{
    /// <summary>Garnet's ETag commands' table entries (SET's WITHETAG option is SET's own entry).</summary>
    private static RespCommandInfo[] ETagCommands =>
    [
        new(RespCommand.GETWITHETAG, "GETWITHETAG", 2, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Read | A.String | A.Fast, "Returns the ETag and the string value of a key."),
        new(RespCommand.GETIFNOTMATCH, "GETIFNOTMATCH", 3, F.ReadOnly | F.Fast, [S.At(RoAccess, 1)], A.Read | A.String | A.Fast, "Returns the ETag of a key, and its string value if the ETag differs from the one given."),
        new(RespCommand.SETIFMATCH, "SETIFMATCH", -4, F.Write | F.DenyOom, [S.At(RwAccessUpdate, 1)], A.Write | A.String | A.Slow, "Sets the string value of a key if its ETag matches the one given, and advances the ETag."),
        new(RespCommand.SETIFGREATER, "SETIFGREATER", -4, F.Write | F.DenyOom, [S.At(RwAccessUpdate, 1)], A.Write | A.String | A.Slow, "Sets the string value and the ETag of a key if the ETag given is greater than the key's."),
        new(RespCommand.DELIFGREATER, "DELIFGREATER", 3, F.Write | F.Fast, [S.At(RwAccessDelete, 1)], A.Write | A.String | A.Fast, "Deletes a key if the ETag given is greater than the key's."),
    ];
}
