namespace Garnet.server;

/// <summary>The sorted-set commands over several keys: ZRANGESTORE, ZMPOP, ZUNION/ZINTER/ZDIFF[STORE], ZINTERCARD.</summary>
public sealed unsafe partial class RespServerSession
{
    private void ZRangeStore() => _writer.WriteError("ERR ZRANGESTORE is not implemented yet");

    private void ZMPop() => _writer.WriteError("ERR ZMPOP is not implemented yet");

    private void ZSetAlgebra(RespCommand command) => _writer.WriteError("ERR " + command + " is not implemented yet");
}
