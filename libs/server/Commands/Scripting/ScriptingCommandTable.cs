using static Garnet.server.KeySpecFlagSets;
using A = Garnet.server.AclCategories;
using F = Garnet.server.CommandFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

public static partial class CommandTable
{
    private const string RwNote = "We cannot tell how the keys will be used so we assume the worst, RW and UPDATE";
    private const string RoNote = "We cannot tell how the keys will be used so we assume the worst, RO and ACCESS";

    /// <summary>The scripting commands' table entries.</summary>
    private static RespCommandInfo[] ScriptingCommands =>
    [
        new(RespCommand.EVAL, "EVAL", -3, F.NoScript | F.SkipMonitor | F.MayReplicate | F.NoMandatoryKeys | F.Stale | F.MovableKeys, [S.NumKeysAt(RwAccessUpdate, 2, RwNote)], A.Slow | A.Scripting, "Executes a server-side Lua script."),
        new(RespCommand.EVALSHA, "EVALSHA", -3, F.NoScript | F.SkipMonitor | F.MayReplicate | F.NoMandatoryKeys | F.Stale | F.MovableKeys, [S.NumKeysAt(RwAccessUpdate, 2)], A.Slow | A.Scripting, "Executes a server-side Lua script by SHA1 digest."),
        new(RespCommand.EVAL_RO, "EVAL_RO", -3, F.NoScript | F.SkipMonitor | F.NoMandatoryKeys | F.Stale | F.ReadOnly | F.MovableKeys, [S.NumKeysAt(RoAccess, 2, RoNote)], A.Slow | A.Scripting, "Executes a read-only server-side Lua script."),
        new(RespCommand.EVALSHA_RO, "EVALSHA_RO", -3, F.NoScript | F.SkipMonitor | F.NoMandatoryKeys | F.Stale | F.ReadOnly | F.MovableKeys, [S.NumKeysAt(RoAccess, 2)], A.Slow | A.Scripting, "Executes a read-only server-side Lua script by SHA1 digest."),
        new(RespCommand.SCRIPT, "SCRIPT", -2, F.None, [], A.Slow, "A container for Lua scripts management commands."),
        new(RespCommand.FUNCTION, "FUNCTION", -2, F.None, [], A.Slow, "A container for function commands."),
        new(RespCommand.FCALL, "FCALL", -3, F.NoScript | F.SkipMonitor | F.MayReplicate | F.NoMandatoryKeys | F.Stale | F.MovableKeys, [S.NumKeysAt(RwAccessUpdate, 2, RwNote)], A.Slow | A.Scripting, "Invokes a function."),
        new(RespCommand.FCALL_RO, "FCALL_RO", -3, F.NoScript | F.SkipMonitor | F.NoMandatoryKeys | F.Stale | F.ReadOnly | F.MovableKeys, [S.NumKeysAt(RoAccess, 2, RoNote)], A.Slow | A.Scripting, "Invokes a read-only function."),
    ];
}
