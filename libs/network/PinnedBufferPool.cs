using System.Threading;

namespace Garnet.networking;

/// <summary>
/// Lends the connections' receive and send buffers for as long as they hold bytes. An idle connection holds none: its
/// send buffer comes back when the consumer has sent a batch's replies (<see cref="INetworkSender.ReleaseSendBuffer"/>)
/// and its receive buffer when a batch leaves no partial command. So the buffers in use are about as many as the
/// connections busy at once, however many are connected, and the same few stay warm in the cache.
/// </summary>
/// <remarks>
/// A fixed set of slots taken and filled with one interlocked exchange each: renting and returning happen once per
/// batch on the event loops' threads, so they must not allocate or lock. Only buffers of the server's standard sizes
/// come back; a buffer returned when every slot is full is left to the GC.
/// </remarks>
internal sealed class PinnedBufferPool
{
    // Slots are structs: an array of arrays would make every access by reference pay a covariance check.
    private readonly Slot[] _receiveBuffers;
    private readonly Slot[] _sendBuffers;
    private readonly int _receiveSize;
    private readonly int _sendSize;

    public PinnedBufferPool(int receiveSize, int sendSize, int slotsPerKind)
    {
        _receiveSize = receiveSize;
        _sendSize = sendSize;
        _receiveBuffers = new Slot[slotsPerKind];
        _sendBuffers = new Slot[slotsPerKind];
    }

    /// <summary>Buffers waiting to be lent (for tests).</summary>
    public int Count => CountIn(_receiveBuffers) + CountIn(_sendBuffers);

    public int ReceiveSize => _receiveSize;

    public PinnedBuffer RentReceive() => Rent(_receiveBuffers, _receiveSize);

    public PinnedBuffer RentSend() => Rent(_sendBuffers, _sendSize);

    public void ReturnReceive(PinnedBuffer buffer) => Return(_receiveBuffers, _receiveSize, buffer);

    public void ReturnSend(PinnedBuffer buffer) => Return(_sendBuffers, _sendSize, buffer);

    private static PinnedBuffer Rent(Slot[] slots, int size)
    {
        for (var i = 0; i < slots.Length; i++)
        {
            ref var slot = ref slots[i].Array;
            if (Volatile.Read(ref slot) is not null && Interlocked.Exchange(ref slot, null) is { } array)
                return PinnedBuffer.Wrap(array);
        }
        return PinnedBuffer.Allocate(size);
    }

    private static void Return(Slot[] slots, int size, PinnedBuffer buffer)
    {
        if (buffer.Array is not { } array || array.Length != size)
            return;
        for (var i = 0; i < slots.Length; i++)
        {
            ref var slot = ref slots[i].Array;
            if (Volatile.Read(ref slot) is null && Interlocked.CompareExchange(ref slot, array, null) is null)
                return;
        }
    }

    private static int CountIn(Slot[] slots)
    {
        var count = 0;
        for (var i = 0; i < slots.Length; i++)
        {
            if (Volatile.Read(ref slots[i].Array) is not null)
                count++;
        }
        return count;
    }

    /// <summary>One pooled buffer, or null.</summary>
    private struct Slot
    {
        public byte[]? Array;
    }
}
