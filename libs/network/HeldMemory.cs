using System.Threading;

namespace Garnet.networking;

/// <summary>
/// Bytes of large buffers one server's connections hold now (blocks of unsent replies, receive buffers grown for large
/// commands): the server's own account of memory that must go back when those connections drain or close.
/// </summary>
internal sealed class HeldMemory
{
    private long _bytes;

    public long Bytes => Interlocked.Read(ref _bytes);

    public void Add(long bytes) => Interlocked.Add(ref _bytes, bytes);
}
