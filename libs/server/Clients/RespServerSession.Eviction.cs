using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// This client's part in client eviction (<see cref="ClientEviction"/>, Redis's maxmemory-clients): what it holds, the
/// share of the server's total it has counted, and being evicted.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>Marks <see cref="_countedMemory"/> once the session left the total for good.</summary>
    private const long MemoryForgotten = long.MinValue;

    /// <summary>Bytes of this client in <see cref="ClientEviction"/>'s total (updated by compare-and-swap from any thread).</summary>
    private long _countedMemory;

    /// <summary>Whether CLIENT NO-EVICT ON keeps this client from being evicted.</summary>
    internal bool NoEvict => _noEvict;

    /// <summary>Bytes of this client in the eviction total, as last counted.</summary>
    internal long CountedMemory => Math.Max(0, Volatile.Read(ref _countedMemory));

    /// <summary>What this client holds now (CLIENT LIST's buffer fields, eviction's measure).</summary>
    internal ClientMemory MeasureMemory()
    {
        // Another session's transaction is read without a lock: the figures are informational, as in Redis.
        var transaction = _transaction;
        long queued = transaction is { InMulti: true } ? transaction.QueuedBytes : 0;
        long watched = transaction != null ? (long)transaction.Watched.Count * Unsafe.SizeOf<WatchedKey>() : 0;
        var buffers = Buffers;
        var outbox = _outbox;
        return new ClientMemory(buffers.InputCapacity, buffers.SendBufferLength,
            buffers.UnsentBytes + (outbox?.PendingBytes ?? 0), buffers.UnsentBlocks + (outbox?.PendingMessages ?? 0), queued, watched,
            Volatile.Read(ref _stash).Length);
    }

    /// <summary>
    /// Measures this client again and returns by how much its share of the eviction total changes (0 once it was
    /// forgotten: a closed client never comes back into the total).
    /// </summary>
    internal long RecountMemory()
    {
        long now = MeasureMemory().Total;
        while (true)
        {
            long before = Volatile.Read(ref _countedMemory);
            if (before == MemoryForgotten)
                return 0;
            if (Interlocked.CompareExchange(ref _countedMemory, now, before) == before)
                return now - before;
        }
    }

    /// <summary>Takes this client out of the eviction total for good; returns the change to the total.</summary>
    internal long ForgetMemory()
    {
        long before = Interlocked.Exchange(ref _countedMemory, MemoryForgotten);
        return before == MemoryForgotten ? 0 : -before;
    }

    /// <summary>
    /// The batch ended with client eviction on: this client's share is counted again and, past the limit, the largest
    /// clients go (this one among them). Out of line: the batch's end only tests <see cref="ClientEviction.IsOn"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void CountMemoryAfterBatch()
    {
        _eviction.Recount(this);
        _eviction.EvictAfterBatchIfOverLimit();
    }

    /// <summary>
    /// Ends this connection for client eviction: like CLIENT KILL, but the replies it holds for a client that does not
    /// read are dropped rather than sent first, since they are the memory to free.
    /// </summary>
    internal void Evict()
    {
        KillRequested = true;
        _server.Clients.Remove(this);
        CancelBlocking();
        _sender.CloseDroppingUnsent();
    }
}
