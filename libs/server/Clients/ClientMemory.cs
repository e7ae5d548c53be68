namespace Garnet.server;

/// <summary>
/// What one client holds, in the terms of CLIENT LIST (rbs, omem, oll, multi-mem, tot-mem) and of client eviction
/// (maxmemory-clients counts <see cref="Total"/>). Measured from any thread without locks: a recent view of a busy
/// client, not an exact one.
/// </summary>
/// <param name="InputCapacity">The receive buffer the connection holds (0 when idle, larger while a big command arrives).</param>
/// <param name="SendBuffer">The send buffer it holds (0 between batches).</param>
/// <param name="WaitingOutput">Replies and pub/sub messages waiting for a client that does not read.</param>
/// <param name="WaitingBlocks">How many blocks and messages those are kept in.</param>
/// <param name="QueuedCommands">Arguments of the commands queued by MULTI.</param>
/// <param name="WatchedKeys">Bookkeeping of the keys WATCHed (the entries, not the keys, as Redis counts them).</param>
/// <param name="HeldInput">The buffer keeping input received while the client is blocked or paused.</param>
internal readonly record struct ClientMemory(long InputCapacity, long SendBuffer, long WaitingOutput, long WaitingBlocks, long QueuedCommands, long WatchedKeys, long HeldInput)
{
    /// <summary>All of it: CLIENT LIST's tot-mem without the running command's arguments, and what eviction counts.</summary>
    public long Total => InputCapacity + SendBuffer + WaitingOutput + QueuedCommands + WatchedKeys + HeldInput;
}
