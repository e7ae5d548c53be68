using System;

namespace Garnet.server;

/// <summary>The sort commands: argument parsing, the engine operation, and the reply. (Skeleton: the family fills this in.)</summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteSortCommand(RespCommand command)
    {
        switch (command)
        {
            default:
                _writer.WriteError("ERR " + command + " is not implemented yet");
                break;
        }
    }
}
