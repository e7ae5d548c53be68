namespace Garnet.server;

public sealed unsafe partial class RespServerSession
{
    private void ExecuteServerCommand(RespCommand command) => _writer.WriteError($"ERR '{CurrentCommand.LowerName}' is not available yet");
}
