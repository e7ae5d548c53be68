using System;

namespace Garnet.server;

/// <summary>The blocking commands: argument parsing, the engine operation, and the reply. (Skeleton: the family fills this in.)</summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteBlockingCommand(RespCommand command)
    {
        switch (command)
        {
            default:
                _writer.WriteError("ERR " + command + " is not implemented yet");
                break;
        }
    }
}
