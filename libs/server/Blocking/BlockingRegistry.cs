using System;
using System.Collections.Generic;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// The server's blocked clients (BLPOP, BZPOPMIN...), queued first-come first-served per key, and
/// the serving of them when their keys are written.
/// </summary>
/// <remarks>
/// A blocked session does not hold a thread: it registers a <see cref="BlockedWaiter"/> here and
/// returns from its receive call. A session that writes a list or sorted set calls
/// <see cref="Signal"/>; when the key has waiters it is queued as ready, and the writer serves the
/// ready keys right after its command (<see cref="Drain"/>, as Redis serves blocked clients before
/// the next command), re-running each waiter's command on the waiter's own session until one finds
/// the key empty. Each waiter's session is entered through its gate: the writer, which holds its
/// own gate, waits for it only a bounded moment (so two writers cannot deadlock) and hands whatever
/// it could not enter to a pump on the thread pool, which holds no gate and may wait. A key is served by one thread at a time, so the
/// per-key order is kept. Timeouts come from one timer armed for the earliest deadline.
/// Lock order: a session's gate, then this registry's lock; never the other way round.
/// </remarks>
public sealed class BlockingRegistry
{
    private readonly object _lock = new();
    private readonly Dictionary<WaitKey, KeyQueue> _queues = new();
    private readonly Queue<KeyQueue> _ready = new();
    private readonly PriorityQueue<BlockedWaiter, long> _deadlines = new();
    private readonly Timer _timer;
    private long _timerDue = long.MaxValue;
    private int _waiters;
    private int _groupReaders;
    private bool _pumpScheduled;

    /// <summary>
    /// How many waits are queued on keys whose hash falls in each of its slots (written under the lock): a key whose slot
    /// counts none has no queue, so its signal takes no lock while other keys have waiters.
    /// </summary>
    private readonly int[] _keySlotWaits = new int[KeySlots];
    private const int KeySlots = 1024;

    public BlockingRegistry()
    {
        _timer = new Timer(static state => ((BlockingRegistry)state!).OnTimer(), this, Timeout.Infinite, Timeout.Infinite);
    }

    /// <summary>Number of blocked clients (INFO blocked_clients).</summary>
    public int BlockedClients => Volatile.Read(ref _waiters);

    /// <summary>
    /// Notes that <paramref name="key"/> of database <paramref name="database"/> was written.
    /// Returns true if clients wait on it: the caller then serves them (<see cref="Drain"/>) once its
    /// command is done. Costs one fence and one read when nobody is blocked.
    /// </summary>
    internal bool Signal(int database, ReadOnlySpan<byte> key) => MarkKeyReady(database, key, pump: false);

    /// <summary>Marks the queue of <paramref name="key"/> ready if it has one; with <paramref name="pump"/> the pump serves it.</summary>
    private bool MarkKeyReady(int database, ReadOnlySpan<byte> key, bool pump)
    {
        // Pairs with the increment in Register: either this write's signal sees the new waiter, or
        // the waiter's own second attempt, made after registering, sees this write.
        Interlocked.MemoryBarrier();
        if (Volatile.Read(ref _waiters) == 0 || Volatile.Read(ref _keySlotWaits[KeySlotOf(key)]) == 0)
            return false;
        lock (_lock)
        {
            if (!_queues.TryGetValue(new WaitKey(database, key.ToArray()), out var queue))
                return false;
            MarkReady(queue);
            if (pump)
                SchedulePump();
            return true;
        }
    }

    /// <summary>
    /// Whether an XREADGROUP waits: then every write signals its keys, since a key whose type changes (SET over the
    /// stream) ends such a wait, as in Redis 7.2. Read after the write: a write that changes a key's type links a new
    /// record with an interlocked exchange, whose fence pairs with the one in <see cref="Register"/> (the count moves
    /// before <c>_waiters</c>' increment, and the waiter tries its command again after it).
    /// </summary>
    internal bool GroupReadersWaiting => Volatile.Read(ref _groupReaders) != 0;

    private static int KeySlotOf(ReadOnlySpan<byte> key) => (int)((ulong)Tsavorite.KeyHash.Hash(key) % KeySlots);

    /// <summary>
    /// Notes that <paramref name="key"/> was removed by the server itself (expired, evicted), on a thread that must not
    /// serve blocked clients (a sweep, or the engine evicting a page): its waiters are served by the pump on the thread
    /// pool. Costs one fence and one read when nobody is blocked.
    /// </summary>
    internal void SignalInBackground(int database, ReadOnlySpan<byte> key) => MarkKeyReady(database, key, pump: true);

    /// <summary>
    /// Notes that every key of database <paramref name="database"/> (every database: -1) was emptied (FLUSHDB, FLUSHALL).
    /// Returns true if clients wait on any: the caller then serves them, as after <see cref="Signal"/>.
    /// </summary>
    internal bool SignalDatabase(int database)
    {
        Interlocked.MemoryBarrier();
        if (Volatile.Read(ref _waiters) == 0)
            return false;
        bool any = false;
        lock (_lock)
        {
            foreach (var (key, queue) in _queues)
            {
                if (database >= 0 && key.Database != database)
                    continue;
                MarkReady(queue);
                any = true;
            }
        }
        return any;
    }

    /// <summary>The clients blocked on keys now, each once (for a sweep outside the lock: each may have stopped waiting since).</summary>
    internal List<BlockedWaiter> KeyWaiters()
    {
        var waiters = new List<BlockedWaiter>();
        lock (_lock)
        {
            foreach (var queue in _queues.Values)
            {
                foreach (var waiter in queue.Waiters)
                {
                    // Listed at the queue of its first key only.
                    if (ReferenceEquals(waiter.Queues[0], queue))
                        waiters.Add(waiter);
                }
            }
        }
        return waiters;
    }

    /// <summary>
    /// Queues <paramref name="waiter"/> on each of its keys and arms its timeout. The caller then
    /// tries its command once more, so a write that raced with the registration is not missed.
    /// </summary>
    internal void Register(BlockedWaiter waiter)
    {
        lock (_lock)
        {
            for (int i = 0; i < waiter.Keys.Length; i++)
            {
                var key = new WaitKey(waiter.Database, waiter.Keys[i]);
                if (!_queues.TryGetValue(key, out var queue))
                {
                    queue = new KeyQueue(key);
                    _queues.Add(key, queue);
                }
                waiter.Queues[i] = queue;
                waiter.Nodes[i] = queue.Waiters.AddLast(waiter);
                // Before the increment below, whose fence publishes it to signals that see the new count.
                _keySlotWaits[KeySlotOf(waiter.Keys[i])]++;
            }
            waiter.Registered = true;
            if (waiter.EndsOnAnyChange)
                _groupReaders++;
            Interlocked.Increment(ref _waiters);

            if (waiter.Deadline != 0)
            {
                _deadlines.Enqueue(waiter, waiter.Deadline);
                if (waiter.Deadline < _timerDue)
                    ArmTimer(waiter.Deadline);
            }
        }
    }

    /// <summary>Removes <paramref name="waiter"/> from its queues; false if it already was.</summary>
    internal bool Unregister(BlockedWaiter waiter)
    {
        lock (_lock)
        {
            if (!waiter.Registered)
                return false;
            waiter.Registered = false;
            Interlocked.Decrement(ref _waiters);
            if (waiter.EndsOnAnyChange)
                _groupReaders--;
            for (int i = 0; i < waiter.Queues.Length; i++)
            {
                var queue = waiter.Queues[i];
                queue.Waiters.Remove(waiter.Nodes[i]);
                _keySlotWaits[KeySlotOf(waiter.Keys[i])]--;
                ForgetIfIdle(queue);
            }
            // A waiter's deadline entry stays in the heap until it comes due and is skipped then,
            // unless stale entries pile up (clients with long timeouts served or gone): then rebuild.
            if (_deadlines.Count > 64 && _deadlines.Count > 2 * _waiters)
                PruneDeadlines();
            return true;
        }
    }

    /// <summary>
    /// Serves the ready keys. <paramref name="canWait"/> false (a writer that holds its own session's
    /// gate): a waiter whose session stays busy for a moment is left to the pump.
    /// </summary>
    internal void Drain(bool canWait)
    {
        while (true)
        {
            KeyQueue queue;
            lock (_lock)
            {
                if (_ready.Count == 0)
                    return;
                queue = _ready.Dequeue();
                queue.Queued = false;
                if (queue.Serving)
                {
                    // Another thread serves it and re-queues it when done.
                    queue.Ready = true;
                    continue;
                }
                queue.Serving = true;
                queue.Ready = false;
            }

            bool handedOff = !ServeQueue(queue, canWait);

            lock (_lock)
            {
                queue.Serving = false;
                if (handedOff || queue.Ready)
                {
                    queue.Ready = false;
                    if (queue.Waiters.Count > 0 && !queue.Queued)
                    {
                        queue.Queued = true;
                        _ready.Enqueue(queue);
                    }
                }
                ForgetIfIdle(queue);
                if (handedOff)
                {
                    SchedulePump();
                    return;
                }
            }
        }
    }

    /// <summary>
    /// Serves the waiters of one key in order; false if one's session was busy. A list or sorted set that one waiter found
    /// empty is empty for those after it, so the pass ends there; a stream reader that found nothing (an XREAD after a
    /// later ID, an XREADGROUP of a group another consumer just served) holds up nobody: the pass goes on past it, as Redis
    /// serves every client blocked on a stream; so does a waiter for another type than the key holds now.
    /// </summary>
    private bool ServeQueue(KeyQueue queue, bool canWait)
    {
        HashSet<BlockedWaiter>? passed = null;
        LinkedListNode<BlockedWaiter>? node;
        lock (_lock)
            node = queue.Waiters.First;
        while (true)
        {
            BlockedWaiter waiter;
            LinkedListNode<BlockedWaiter>? next;
            lock (_lock)
            {
                // A node taken out of the queue meanwhile (its waiter timed out or left): start again from the first,
                // skipping the readers already passed.
                if (node != null && node.List == null)
                    node = queue.Waiters.First;
                while (node != null && passed != null && passed.Contains(node.Value))
                    node = node.Next;
                if (node == null)
                    return true;
                waiter = node.Value;
                next = node.Next;
            }
            switch (waiter.Session.TryServeBlocked(waiter, queue.Key.Key, canWait))
            {
                case BlockedServeResult.Served:
                    break;
                case BlockedServeResult.NothingToServe:
                    if (waiter.Command.Command is not (RespCommand.XREAD or RespCommand.XREADGROUP))
                        return true;
                    (passed ??= []).Add(waiter);
                    break;
                case BlockedServeResult.OtherType:
                    // Waits for another type than the key holds now: not served, and holds up nobody who may be.
                    (passed ??= []).Add(waiter);
                    break;
                case BlockedServeResult.Busy:
                    return false;
                default:
                    // The session closed or moved on; its waiter must not hold up the queue.
                    Unregister(waiter);
                    break;
            }
            node = next;
        }
    }

    private void MarkReady(KeyQueue queue)
    {
        if (queue.Serving)
            queue.Ready = true;
        else if (!queue.Queued)
        {
            queue.Queued = true;
            _ready.Enqueue(queue);
        }
    }

    private void ForgetIfIdle(KeyQueue queue)
    {
        if (queue.Waiters.Count == 0 && !queue.Serving && _queues.TryGetValue(queue.Key, out var current) && current == queue)
            _queues.Remove(queue.Key);
    }

    /// <summary>Drops the deadline entries of waiters no longer registered (called under the lock).</summary>
    private void PruneDeadlines()
    {
        var live = new List<(BlockedWaiter, long)>(_waiters);
        foreach (var (waiter, deadline) in _deadlines.UnorderedItems)
        {
            if (waiter.Registered)
                live.Add((waiter, deadline));
        }
        _deadlines.Clear();
        _deadlines.EnqueueRange(live);
    }

    /// <summary>Runs <see cref="Drain"/> on the thread pool (called under the lock).</summary>
    private void SchedulePump()
    {
        if (_pumpScheduled)
            return;
        _pumpScheduled = true;
        ThreadPool.UnsafeQueueUserWorkItem(static registry => registry.Pump(), this, preferLocal: false);
    }

    private void Pump()
    {
        lock (_lock)
            _pumpScheduled = false;
        Drain(canWait: true);
    }

    private void ArmTimer(long deadline)
    {
        _timerDue = deadline;
        long due = Math.Max(0, deadline - Environment.TickCount64);
        _timer.Change(Math.Min(due, int.MaxValue - 1), Timeout.Infinite);
    }

    /// <summary>Times out the waiters whose deadline passed and re-arms the timer for the next one.</summary>
    private void OnTimer()
    {
        List<BlockedWaiter>? expired = null;
        lock (_lock)
        {
            long now = Environment.TickCount64;
            while (_deadlines.TryPeek(out var waiter, out long deadline) && (deadline <= now || !waiter.Registered))
            {
                _deadlines.Dequeue();
                if (waiter.Registered)
                    (expired ??= new()).Add(waiter);
            }
            _timerDue = long.MaxValue;
            if (_deadlines.TryPeek(out _, out long next))
                ArmTimer(next);
        }
        if (expired == null)
            return;
        foreach (var waiter in expired)
            waiter.Session.TimeOutBlocked(waiter);
    }

    /// <summary>A key of one database, compared by its bytes.</summary>
    internal readonly struct WaitKey : IEquatable<WaitKey>
    {
        public readonly int Database;
        public readonly byte[] Key;

        public WaitKey(int database, byte[] key)
        {
            Database = database;
            Key = key;
        }

        public bool Equals(WaitKey other) => Database == other.Database && Key.AsSpan().SequenceEqual(other.Key);

        public override bool Equals(object? obj) => obj is WaitKey other && Equals(other);

        public override int GetHashCode()
        {
            var hash = new HashCode();
            hash.Add(Database);
            hash.AddBytes(Key);
            return hash.ToHashCode();
        }
    }

    /// <summary>The waiters of one key, in arrival order, and its serving state (guarded by the registry's lock).</summary>
    internal sealed class KeyQueue
    {
        public KeyQueue(WaitKey key) => Key = key;

        public WaitKey Key { get; }

        public readonly LinkedList<BlockedWaiter> Waiters = new();

        /// <summary>In the ready queue.</summary>
        public bool Queued;

        /// <summary>A thread is serving its waiters.</summary>
        public bool Serving;

        /// <summary>Written again while being served: serve once more afterwards.</summary>
        public bool Ready;
    }
}
