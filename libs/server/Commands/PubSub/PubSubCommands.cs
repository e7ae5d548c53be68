using System;

namespace Garnet.server;

/// <summary>The pub/sub commands. (Skeleton: the family fills this in.)</summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecutePubSubCommand(RespCommand command)
    {
        switch (command)
        {
            default:
                _writer.WriteError("ERR " + command + " is not implemented yet");
                break;
        }
    }
}
