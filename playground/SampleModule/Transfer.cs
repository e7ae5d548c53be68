using Garnet.server;

namespace SampleModule;

/// <summary>
/// BANKTRANSFER from to amount: a transactional procedure moving an integer amount between two keys
/// atomically (both keys locked in Main). Replies 1 when done, 0 on insufficient funds. Finalize
/// counts completed calls into the key "banktransfer:calls" after the locks are released.
/// </summary>
public sealed class BankTransfer : CustomTransactionProcedure
{
    public override string Name => "BANKTRANSFER";
    public override int Arity => 4;

    public override bool Prepare(CustomArgs args, KeyDeclarations keys, ICustomReply reply)
    {
        if (!args.TryGetLong(2, out long amount) || amount < 0)
        {
            reply.WriteError("ERR amount must be a non-negative integer");
            return false;
        }
        keys.Add(args[0], write: true);
        keys.Add(args[1], write: true);
        return true;
    }

    public override void Main(IProcedureApi api, CustomArgs args, ICustomReply reply)
    {
        args.TryGetLong(2, out long amount);
        var from = api.Get(args[0]);
        long balance = from == null ? 0 : long.Parse(from);
        if (balance < amount)
        {
            reply.WriteInteger(0);
            return;
        }
        var result = api.Call("DECRBY", args.String(0), amount.ToString());
        if (result.IsError)
        {
            reply.WriteError(result.ToString());
            return;
        }
        api.Call("INCRBY", args.String(1), amount.ToString());
        reply.WriteInteger(1);
    }

    public override void Finalize(IProcedureApi api, CustomArgs args) => api.Call("INCR", "banktransfer:calls");
}
