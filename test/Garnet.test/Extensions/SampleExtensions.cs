using System;
using Garnet.server;

namespace Garnet.test.Extensions;

/// <summary>SETIFPM key value prefix: sets the value only if the current one starts with prefix (missing keys are not created).</summary>
internal sealed class SetIfPrefixMatch : CustomRawStringCommand
{
    public override string Name => "SETIFPM";
    public override int Arity => 4;

    public override bool NeedInitialUpdate(ReadOnlySpan<byte> key, CustomArgs args, ICustomReply reply)
    {
        reply.WriteNull();
        return false;
    }

    public override InPlaceResult InPlaceUpdater(ReadOnlySpan<byte> key, CustomArgs args, Span<byte> value, ICustomReply reply)
    {
        if (!value.StartsWith(args[1]))
        {
            reply.WriteNull();
            return InPlaceResult.Unchanged;
        }
        if (args[0].Length != value.Length)
            return InPlaceResult.NeedsCopy;
        args[0].CopyTo(value);
        reply.WriteOk();
        return InPlaceResult.Updated;
    }

    public override int GetLength(ReadOnlySpan<byte> oldValue, CustomArgs args) => args[0].Length;

    public override bool CopyUpdater(ReadOnlySpan<byte> key, CustomArgs args, ReadOnlySpan<byte> oldValue, Span<byte> newValue, ICustomReply reply)
    {
        args[0].CopyTo(newValue);
        reply.WriteOk();
        return true;
    }
}

/// <summary>GETLEN key: a read-only raw-string command answering the value's length (0 when missing).</summary>
internal sealed class GetLength : CustomRawStringCommand
{
    public override string Name => "GETLEN";
    public override int Arity => 2;
    public override CommandFlags Flags => CommandFlags.ReadOnly;

    public override InPlaceResult InPlaceUpdater(ReadOnlySpan<byte> key, CustomArgs args, Span<byte> value, ICustomReply reply) => InPlaceResult.Unchanged;

    public override void Reader(ReadOnlySpan<byte> key, CustomArgs args, byte[]? value, ICustomReply reply) => reply.WriteInteger(value?.Length ?? 0);
}

/// <summary>MSETGET k1 v1 k2 v2 ...: sets every pair, then replies the values read back (a plain procedure).</summary>
internal sealed class SetAndReadBack : CustomProcedure
{
    public override string Name => "MSETGET";
    public override int Arity => -3;

    public override void Execute(IProcedureApi api, CustomArgs args, ICustomReply reply)
    {
        if (args.Count % 2 != 0)
        {
            reply.WriteError("ERR pairs expected");
            return;
        }
        for (int i = 0; i < args.Count; i += 2)
            api.Set(args[i], args[i + 1]);
        reply.WriteArrayHeader(args.Count / 2);
        for (int i = 0; i < args.Count; i += 2)
            reply.WriteBulk(api.Get(args[i]) ?? []);
    }
}

/// <summary>TRANSFER from to amount: moves amount between two integer keys atomically; fails without enough funds.</summary>
internal sealed class Transfer : CustomTransactionProcedure
{
    public int Finalized;

    public override string Name => "TRANSFER";
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
        long balance = long.Parse(api.Get(args[0]) ?? "0"u8.ToArray());
        if (balance < amount)
        {
            reply.WriteInteger(0);
            return;
        }
        api.Call("DECRBY", args.String(0), amount.ToString());
        api.Call("INCRBY", args.String(1), amount.ToString());
        reply.WriteInteger(1);
    }

    public override void Finalize(IProcedureApi api, CustomArgs args) => System.Threading.Interlocked.Increment(ref Finalized);
}

/// <summary>SNEAKY key: a transactional procedure that touches a key it did not declare.</summary>
internal sealed class Sneaky : CustomTransactionProcedure
{
    public override string Name => "SNEAKY";
    public override int Arity => 2;

    public override bool Prepare(CustomArgs args, KeyDeclarations keys, ICustomReply reply)
    {
        keys.Add(args[0], write: true);
        return true;
    }

    public override void Main(IProcedureApi api, CustomArgs args, ICustomReply reply)
    {
        var result = api.Call("SET", "other-" + args.String(0), "x");
        reply.WriteBulk(result.ToString());
    }
}
