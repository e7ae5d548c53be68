namespace Garnet.server;

public sealed unsafe partial class RespServerSession
{
    private void ExecuteConnectionCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.PING: _writer.WriteRaw(Garnet.common.RespStrings.Pong); break;
            default: _writer.WriteError($"ERR '{CurrentCommand.LowerName}' is not available yet"); break;
        }
    }
}
