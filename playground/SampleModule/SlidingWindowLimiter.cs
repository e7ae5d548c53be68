using System;
using System.Collections.Generic;
using System.IO;
using Garnet.server;

namespace SampleModule;

/// <summary>The "ratelimiter" object type: a sliding-window log of the times of accepted calls.</summary>
public sealed class RateLimiterFactory : CustomObjectFactory
{
    /// <summary>The one factory every command of the type shares.</summary>
    public static readonly RateLimiterFactory Instance = new();

    public override string TypeName => "ratelimiter";

    public override CustomObject Create() => new RateLimiterObject(this);

    public override CustomObject Deserialize(BinaryReader reader)
    {
        var limiter = new RateLimiterObject(this);
        int count = reader.ReadInt32();
        for (int i = 0; i < count; i++)
            limiter.Add(reader.ReadInt64());
        return limiter;
    }
}

/// <summary>The accepted calls' times (Unix ms), oldest first.</summary>
public sealed class RateLimiterObject(CustomObjectFactory factory) : CustomObject(factory)
{
    private readonly Queue<long> _times = new();

    public override long Count => _times.Count;

    /// <summary>Drops the times older than the window, then the number left.</summary>
    public int CountSince(long now, long window)
    {
        while (_times.Count > 0 && now - _times.Peek() >= window)
            _times.Dequeue();
        SetHeapSize(64 + (_times.Count * 8L));
        return _times.Count;
    }

    /// <summary>The number of times inside the window, without changing anything (read-only commands).</summary>
    public int PeekSince(long now, long window)
    {
        int count = 0;
        foreach (long time in _times)
        {
            if (now - time < window)
                count++;
        }
        return count;
    }

    public void Add(long time)
    {
        _times.Enqueue(time);
        SetHeapSize(64 + (_times.Count * 8L));
    }

    public override GarnetObject Clone()
    {
        var copy = new RateLimiterObject(RateLimiterFactory.Instance);
        foreach (long time in _times)
            copy.Add(time);
        return copy;
    }

    public override void Serialize(BinaryWriter writer)
    {
        writer.Write(_times.Count);
        foreach (long time in _times)
            writer.Write(time);
    }
}

/// <summary>RLACQUIRE key limit window-ms: 1 and records the call when fewer than limit calls fall in the window, else 0.</summary>
public sealed class RateLimiterAcquire : CustomObjectCommand
{
    public override string Name => "RLACQUIRE";
    public override int Arity => 4;
    public override CustomObjectFactory Factory => RateLimiterFactory.Instance;

    public override void Operate(CustomObject obj, CustomArgs args, ICustomReply reply)
    {
        if (!args.TryGetLong(0, out long limit) || !args.TryGetLong(1, out long window) || limit <= 0 || window <= 0)
        {
            reply.WriteError("ERR limit and window must be positive integers");
            return;
        }
        var limiter = (RateLimiterObject)obj;
        long now = RateLimiter.Now();
        if (limiter.CountSince(now, window) >= limit)
        {
            reply.WriteInteger(0);
            return;
        }
        limiter.Add(now);
        reply.WriteInteger(1);
    }
}

/// <summary>RLCOUNT key window-ms: the number of accepted calls inside the window (read-only).</summary>
public sealed class RateLimiterCount : CustomObjectCommand
{
    public override string Name => "RLCOUNT";
    public override int Arity => 3;
    public override CommandFlags Flags => CommandFlags.ReadOnly;
    public override CustomObjectFactory Factory => RateLimiterFactory.Instance;

    public override void Operate(CustomObject obj, CustomArgs args, ICustomReply reply)
    {
        if (!args.TryGetLong(0, out long window) || window <= 0)
        {
            reply.WriteError("ERR window must be a positive integer");
            return;
        }
        reply.WriteInteger(((RateLimiterObject)obj).PeekSince(RateLimiter.Now(), window));
    }
}
