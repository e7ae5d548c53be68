using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Garnet.server;

/// <summary>
/// One blocked client: the blocking command it is waiting to run (its arguments copied out of the
/// receive buffer, which moves on), the keys it waits on and when it gives up.
/// </summary>
internal sealed unsafe class BlockedWaiter
{
    private readonly byte[] _argumentBytes;

    /// <summary>Copies the command's arguments and names the keys (argument indexes) it waits on.</summary>
    public BlockedWaiter(RespServerSession session, int database, RespCommandInfo command, ArgSlice[] args, int argCount,
        int firstKey, int keyCount, long deadline)
    {
        Session = session;
        Database = database;
        Command = command;
        Deadline = deadline;

        int total = 0;
        for (int i = 0; i < argCount; i++)
            total += args[i].Length;
        // Pinned, so the copied arguments can be handed to the command as pointers like the receive buffer's.
        _argumentBytes = GC.AllocateUninitializedArray<byte>(Math.Max(total, 1), pinned: true);
        Args = new ArgSlice[argCount];
        byte* start = (byte*)Marshal.UnsafeAddrOfPinnedArrayElement(_argumentBytes, 0);
        int offset = 0;
        for (int i = 0; i < argCount; i++)
        {
            args[i].Span.CopyTo(new Span<byte>(start + offset, args[i].Length));
            Args[i] = new ArgSlice(start + offset, args[i].Length);
            offset += args[i].Length;
        }

        // A key named twice (BLPOP k k 0) is waited on once.
        var keys = new List<byte[]>(keyCount);
        for (int i = firstKey; i < firstKey + keyCount; i++)
        {
            var key = args[i].Span;
            bool seen = false;
            foreach (var existing in keys)
                seen |= key.SequenceEqual(existing);
            if (!seen)
                keys.Add(key.ToArray());
        }
        Keys = keys.ToArray();
        Queues = new BlockingRegistry.KeyQueue[Keys.Length];
        Nodes = new LinkedListNode<BlockedWaiter>[Keys.Length];
    }

    /// <summary>The blocked session.</summary>
    public RespServerSession Session { get; }

    /// <summary>The database the keys belong to.</summary>
    public int Database { get; }

    /// <summary>The blocking command, run again when one of its keys is written.</summary>
    public RespCommandInfo Command { get; }

    /// <summary>
    /// Whether any change to a key ends the wait, its type's included: an XREADGROUP, whose group goes with its stream
    /// (Redis 7.2 runs it again, and it answers NOGROUP or WRONGTYPE). The other commands wait for their own type.
    /// </summary>
    public bool EndsOnAnyChange => Command.Command == RespCommand.XREADGROUP;

    /// <summary>
    /// The type a written key must hold for this command to be run again (as Redis serves a blocked client only by a key
    /// of its type): lists for BLPOP and its kin, sorted sets for BZPOPMIN and its kin, streams for XREAD.
    /// </summary>
    public GarnetObjectType WaitsForType => Command.Command switch
    {
        RespCommand.BZPOPMIN or RespCommand.BZPOPMAX or RespCommand.BZMPOP => GarnetObjectType.SortedSet,
        RespCommand.XREAD or RespCommand.XREADGROUP => GarnetObjectType.Stream,
        _ => GarnetObjectType.List,
    };

    /// <summary>The command's arguments (name included), pointing into a pinned copy.</summary>
    public ArgSlice[] Args { get; }

    /// <summary>Number of arguments, the name included.</summary>
    public int ArgCount => Args.Length;

    /// <summary>The distinct keys waited on.</summary>
    public byte[][] Keys { get; }

    /// <summary>When the wait ends (<see cref="Environment.TickCount64"/> milliseconds), or 0 for never.</summary>
    public long Deadline { get; }

    /// <summary>Whether the waiter is in the registry's queues (guarded by the registry's lock).</summary>
    internal bool Registered;

    /// <summary>The queue of each key and this waiter's place in it (guarded by the registry's lock).</summary>
    internal readonly BlockingRegistry.KeyQueue[] Queues;

    /// <inheritdoc cref="Queues"/>
    internal readonly LinkedListNode<BlockedWaiter>[] Nodes;
}
