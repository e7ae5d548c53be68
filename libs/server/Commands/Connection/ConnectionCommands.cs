namespace Garnet.server;

public sealed unsafe partial class RespServerSession
{
    private void ExecuteConnectionCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.PING:
                if (_argCount == 1)
                    _writer.WriteRaw(Garnet.common.RespStrings.Pong);
                else if (_argCount == 2)
                    _writer.WriteBulk(_args[1].Span);
                else
                    WriteWrongArity("ping");
                break;
            case RespCommand.ECHO: _writer.WriteBulk(_args[1].Span); break;
            default: _writer.WriteError($"ERR '{CurrentCommand.LowerName}' is not available yet"); break;
        }
    }
}
