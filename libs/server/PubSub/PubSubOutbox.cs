using System;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// One subscriber's queue of published messages not yet written to its connection, and the
/// scheduling of their delivery.
/// </summary>
/// <remarks>
/// Publishers run on their own sessions' threads and must never write to a subscriber's connection
/// themselves: it may be busy replying to its own commands, or slow to read. They only append the
/// encoded message here (a brief lock) and make sure a delivery is scheduled on the thread pool;
/// delivery takes the subscriber session's gate, so messages never interleave with its replies,
/// and the subscriber's own commands deliver what is queued before they reply. Order per
/// subscriber is the order of <see cref="Enqueue"/>. Bytes count against a limit until the
/// client has taken them (queued here, or delivered but still held by the connection: Redis's
/// client-output-buffer-limit for pubsub clients): past the hard
/// limit, or past the soft one for longer than its period, the subscriber is disconnected and its
/// queue dropped, and publishers carry on.
/// </remarks>
internal sealed class PubSubOutbox : IThreadPoolWorkItem
{
    private readonly RespServerSession _session;
    /// <summary>The pubsub class's limit, shared with the connection (CONFIG SET changes it for every subscriber).</summary>
    private readonly Garnet.networking.OutputLimitClass _limits;
    private readonly object _lock = new();
    private byte[][] _ring = new byte[16][];
    private int _head;
    private int _count;

    /// <summary>Bytes queued or taken for delivery and not yet sent.</summary>
    private long _pendingBytes;

    /// <summary>When the pending bytes first went over the soft limit (<see cref="Environment.TickCount64"/>), or 0.</summary>
    private long _overSoftSince;

    private bool _closed;
    private bool _monitoring;
    private int _deliveryScheduled;

    public PubSubOutbox(RespServerSession session, Garnet.networking.OutputLimitClass limits)
    {
        _session = session;
        _limits = limits;
    }

    /// <summary>Whether messages wait for delivery.</summary>
    public bool HasPending => Volatile.Read(ref _count) > 0;

    /// <summary>Messages queued for delivery.</summary>
    public int PendingMessages => Volatile.Read(ref _count);

    /// <summary>Bytes not yet sent.</summary>
    public long PendingBytes => Volatile.Read(ref _pendingBytes);

    /// <summary>
    /// Queues <paramref name="message"/> (RESP2-encoded, shared with other subscribers) and
    /// schedules its delivery. Returns false when this message overflowed the limit: the queue is
    /// dropped and the caller must <see cref="Disconnect"/> the subscriber.
    /// </summary>
    public bool Enqueue(byte[] message) => Enqueue(message, monitorLine: false);

    private bool Enqueue(byte[] message, bool monitorLine)
    {
        lock (_lock)
        {
            if (_closed || (monitorLine && !_monitoring))
                return true;
            // Delivered bytes still waiting in the connection (it does not block on a slow reader) count too.
            long pending = _pendingBytes + message.Length;
            long waiting = pending + _session.UnsentBytes;
            if (_limits.IsPassed(waiting, ref _overSoftSince))
            {
                _limits.CountDisconnection();
                CloseLocked();
                return false;
            }
            if (_count == _ring.Length)
                Grow();
            _ring[(_head + _count) % _ring.Length] = message;
            _count++;
            _pendingBytes = pending;
        }
        if (Interlocked.Exchange(ref _deliveryScheduled, 1) == 0)
            ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
        return true;
    }

    /// <summary>
    /// MONITOR on or off for this client. Off drops the monitor lines still queued, and lines fed after (a feeder may hold
    /// the list of monitors from before) are ignored: after RESET's reply no line may come that reads as a reply.
    /// </summary>
    public void SetMonitoring(bool monitoring)
    {
        lock (_lock)
        {
            _monitoring = monitoring;
            if (monitoring || _count == 0)
                return;
            int kept = 0;
            for (int i = 0; i < _count; i++)
            {
                var message = _ring[(_head + i) % _ring.Length];
                if (message[0] != (byte)'+')
                    _ring[(_head + kept++) % _ring.Length] = message;
                else
                    _pendingBytes -= message.Length;
            }
            for (int i = kept; i < _count; i++)
                _ring[(_head + i) % _ring.Length] = null!;
            _count = kept;
        }
    }

    /// <summary>Queues a MONITOR line (see <see cref="Enqueue"/>), unless monitoring stopped meanwhile.</summary>
    public bool EnqueueMonitorLine(byte[] line) => Enqueue(line, monitorLine: true);

    /// <summary>Disconnects the subscriber whose queue overflowed.</summary>
    public void Disconnect() => _session.DisconnectSlowSubscriber();

    /// <summary>
    /// Takes the next message to write, after recording that <paramref name="sentBytes"/> of those
    /// taken before were sent. Called only by whoever holds the subscriber's gate.
    /// </summary>
    public byte[]? TryDequeue(long sentBytes)
    {
        lock (_lock)
        {
            _pendingBytes = Math.Max(0, _pendingBytes - sentBytes);
            if (_count == 0)
                return null;
            var message = _ring[_head];
            _ring[_head] = null!;
            _head = (_head + 1) % _ring.Length;
            _count--;
            return message;
        }
    }

    /// <summary>Records that <paramref name="sentBytes"/> of the messages taken were sent.</summary>
    public void Sent(long sentBytes)
    {
        if (sentBytes == 0)
            return;
        lock (_lock)
            _pendingBytes = Math.Max(0, _pendingBytes - sentBytes);
    }

    /// <summary>Drops what is queued and ignores later messages (the subscriber is gone).</summary>
    public void Close()
    {
        lock (_lock)
            CloseLocked();
    }

    private void CloseLocked()
    {
        _closed = true;
        Array.Clear(_ring);
        _head = 0;
        _count = 0;
        _pendingBytes = 0;
    }

    private void Grow()
    {
        var grown = new byte[_ring.Length * 2][];
        for (int i = 0; i < _count; i++)
            grown[i] = _ring[(_head + i) % _ring.Length];
        _ring = grown;
        _head = 0;
    }

    /// <summary>The scheduled delivery, on a thread-pool thread.</summary>
    void IThreadPoolWorkItem.Execute()
    {
        while (true)
        {
            _session.DeliverQueuedMessages();
            Volatile.Write(ref _deliveryScheduled, 0);
            // A message queued after the delivery finished but before the flag was cleared found
            // the delivery still scheduled: pick it up here.
            if (!HasPending || Interlocked.Exchange(ref _deliveryScheduled, 1) != 0)
                return;
        }
    }
}
