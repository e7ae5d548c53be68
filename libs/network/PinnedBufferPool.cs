using System.Collections.Concurrent;
using System.Threading;

namespace Garnet.networking;

/// <summary>
/// Recycles the connections' receive and send buffers, so connection churn does not allocate (and
/// pin) a fresh pair of large arrays per client. Only buffers of the server's standard sizes are
/// kept; grown receive buffers are left to the GC. A connection returns its buffers after it has
/// fully closed, when no socket operation or consumer can still touch them.
/// </summary>
internal sealed class PinnedBufferPool
{
    private readonly ConcurrentStack<byte[]> _receiveBuffers = new();
    private readonly ConcurrentStack<byte[]> _sendBuffers = new();
    private readonly int _receiveSize;
    private readonly int _sendSize;
    private readonly int _maxRetained;
    private int _retainedReceive;
    private int _retainedSend;

    public PinnedBufferPool(int receiveSize, int sendSize, int maxRetained)
    {
        _receiveSize = receiveSize;
        _sendSize = sendSize;
        _maxRetained = maxRetained;
    }

    /// <summary>Buffers waiting for reuse (for tests).</summary>
    public int Count => _receiveBuffers.Count + _sendBuffers.Count;

    public PinnedBuffer RentReceive() => Rent(_receiveBuffers, ref _retainedReceive, _receiveSize);

    public PinnedBuffer RentSend() => Rent(_sendBuffers, ref _retainedSend, _sendSize);

    public void ReturnReceive(PinnedBuffer buffer) => Return(_receiveBuffers, ref _retainedReceive, _receiveSize, buffer);

    public void ReturnSend(PinnedBuffer buffer) => Return(_sendBuffers, ref _retainedSend, _sendSize, buffer);

    private static PinnedBuffer Rent(ConcurrentStack<byte[]> stack, ref int retained, int size)
    {
        if (stack.TryPop(out var array))
        {
            Interlocked.Decrement(ref retained);
            return PinnedBuffer.Wrap(array);
        }
        return PinnedBuffer.Allocate(size);
    }

    private void Return(ConcurrentStack<byte[]> stack, ref int retained, int size, PinnedBuffer buffer)
    {
        if (buffer.Array is null || buffer.Length != size)
            return;
        if (Interlocked.Increment(ref retained) > _maxRetained)
        {
            Interlocked.Decrement(ref retained);
            return;
        }
        stack.Push(buffer.Array);
    }
}
