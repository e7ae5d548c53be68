using A = Garnet.server.AclCategories;
using F = Garnet.server.CommandFlags;

namespace Garnet.server;

public static partial class CommandTable
{
    /// <summary>The extensions commands' table entries.</summary>
    private static RespCommandInfo[] ExtensionsCommands =>
    [
        new(RespCommand.REGISTERCS, "REGISTERCS", -2, F.Admin | F.NoScript, [], A.Admin | A.Slow | A.Dangerous, "Registers custom C# commands, object types and procedures from assemblies in an allowed directory."),
        new(RespCommand.MODULE, "MODULE", -2, F.Admin | F.NoScript, [], A.Admin | A.Slow | A.Dangerous, "A container for module commands."),
    ];
}
