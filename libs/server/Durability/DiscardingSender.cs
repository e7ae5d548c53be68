using System.Runtime.InteropServices;
using Garnet.networking;

namespace Garnet.server;

/// <summary>The connection of the session that replays the operation log at recovery: replies go nowhere.</summary>
internal sealed unsafe class DiscardingSender : INetworkSender, System.IDisposable
{
    private const int BufferLength = 1 << 16;

    private byte* _buffer = (byte*)NativeMemory.Alloc(BufferLength);

    public byte* SendBufferStart => _buffer;

    public int SendBufferLength => BufferLength;

    public void ReleaseSendBuffer()
    {
    }

    public string RemoteEndpoint => "recovery";

    public string LocalEndpoint => "recovery";

    public long UnsentBytes => 0;

    public ConnectionBuffers Buffers => default;

    public bool SendMayBlock => false;

    public void UseOutputLimit(OutputLimitClass limits)
    {
    }

    public bool Send(int length) => true;

    public void ReleaseOtherConnections()
    {
    }

    public void CloseAfterSend()
    {
    }

    public void CloseDroppingUnsent()
    {
    }

    public void Dispose()
    {
        NativeMemory.Free(_buffer);
        _buffer = null;
    }
}
