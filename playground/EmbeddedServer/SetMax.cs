using System;
using System.Buffers.Text;
using Garnet.server;

namespace EmbeddedServer;

/// <summary>
/// SETMAX key n: keeps the larger of the key's integer and n (the key is created holding n) and
/// replies with the value it holds afterwards. The value is stored as decimal text, so GET reads it.
/// </summary>
public sealed class SetMax : CustomRawStringCommand
{
    public override string Name => "SETMAX";
    public override int Arity => 3;

    public override bool NeedInitialUpdate(ReadOnlySpan<byte> key, CustomArgs args, ICustomReply reply)
    {
        if (args.TryGetLong(0, out _))
            return true;
        reply.WriteError("ERR value is not an integer or out of range");
        return false;
    }

    public override int GetInitialLength(CustomArgs args) => args[0].Length;

    public override bool InitialUpdater(ReadOnlySpan<byte> key, CustomArgs args, Span<byte> value, ICustomReply reply)
    {
        args.TryGetLong(0, out long n);
        return Store(n, value, reply);
    }

    public override InPlaceResult InPlaceUpdater(ReadOnlySpan<byte> key, CustomArgs args, Span<byte> value, ICustomReply reply)
    {
        if (!args.TryGetLong(0, out long n) || !Utf8Parser.TryParse(value, out long current, out int read) || read != value.Length)
        {
            reply.WriteError("ERR value is not an integer or out of range");
            return InPlaceResult.Unchanged;
        }
        if (n <= current)
        {
            reply.WriteInteger(current);
            return InPlaceResult.Unchanged;
        }
        // Digits of another length need a record of another size: the copy updater writes it.
        if (args[0].Length != value.Length)
            return InPlaceResult.NeedsCopy;
        return Store(n, value, reply) ? InPlaceResult.Updated : InPlaceResult.Unchanged;
    }

    public override int GetLength(ReadOnlySpan<byte> oldValue, CustomArgs args) => args[0].Length;

    public override bool CopyUpdater(ReadOnlySpan<byte> key, CustomArgs args, ReadOnlySpan<byte> oldValue, Span<byte> newValue, ICustomReply reply)
    {
        args.TryGetLong(0, out long n);
        return Store(n, newValue, reply);
    }

    /// <summary>Writes n as the value, in the canonical form the length was taken from, and replies with it.</summary>
    private static bool Store(long n, Span<byte> value, ICustomReply reply)
    {
        if (!Utf8Formatter.TryFormat(n, value, out int written) || written != value.Length)
        {
            // "+5" or "007": store only canonical integers, so the length always matches the digits.
            reply.WriteError("ERR value is not an integer or out of range");
            return false;
        }
        reply.WriteInteger(n);
        return true;
    }
}
