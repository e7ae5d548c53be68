using System;
using System.Buffers.Binary;
using Garnet.server;

namespace SampleModule;

/// <summary>
/// RATELIMIT key limit window-ms: a fixed-window rate limiter over a raw string value holding the
/// window's start (Unix ms) and the count in it (16 bytes). Replies 1 when the call is allowed,
/// 0 when the window's limit is reached.
/// </summary>
public sealed class RateLimiter : CustomRawStringCommand
{
    public override string Name => "RATELIMIT";
    public override int Arity => 4;

    /// <summary>The clock (Unix milliseconds); tests may replace it.</summary>
    public static Func<long> Now { get; set; } = () => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();

    public override bool NeedInitialUpdate(ReadOnlySpan<byte> key, CustomArgs args, ICustomReply reply)
    {
        if (TryParse(args, out long limit, out _) && limit > 0)
            return true;
        reply.WriteError(limit <= 0 && TryParse(args, out _, out _) ? "ERR limit must be positive" : "ERR limit and window must be integers");
        return false;
    }

    public override int GetInitialLength(CustomArgs args) => 16;

    public override bool InitialUpdater(ReadOnlySpan<byte> key, CustomArgs args, Span<byte> value, ICustomReply reply)
    {
        BinaryPrimitives.WriteInt64LittleEndian(value, Now());
        BinaryPrimitives.WriteInt64LittleEndian(value.Slice(8), 1);
        reply.WriteInteger(1);
        return true;
    }

    public override InPlaceResult InPlaceUpdater(ReadOnlySpan<byte> key, CustomArgs args, Span<byte> value, ICustomReply reply)
    {
        if (!TryParse(args, out long limit, out long window) || limit <= 0)
        {
            reply.WriteError("ERR limit and window must be positive integers");
            return InPlaceResult.Unchanged;
        }
        if (value.Length != 16)
        {
            reply.WriteError("ERR the key does not hold a rate limiter");
            return InPlaceResult.Unchanged;
        }
        long now = Now();
        long start = BinaryPrimitives.ReadInt64LittleEndian(value);
        long count = BinaryPrimitives.ReadInt64LittleEndian(value.Slice(8));
        if (now - start >= window)
        {
            start = now;
            count = 0;
        }
        if (count >= limit)
        {
            reply.WriteInteger(0);
            return InPlaceResult.Unchanged;
        }
        BinaryPrimitives.WriteInt64LittleEndian(value, start);
        BinaryPrimitives.WriteInt64LittleEndian(value.Slice(8), count + 1);
        reply.WriteInteger(1);
        return InPlaceResult.Updated;
    }

    private static bool TryParse(CustomArgs args, out long limit, out long window)
    {
        window = 0;
        return args.TryGetLong(0, out limit) & args.TryGetLong(1, out window) && window > 0;
    }
}
