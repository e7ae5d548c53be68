using Garnet.common;
using Garnet.networking;

namespace Garnet.server;

/// <summary>Adapts a connection's send buffer to the reply writer.</summary>
internal sealed unsafe class NetworkResponseSink : IResponseSink
{
    private readonly INetworkSender _sender;

    public NetworkResponseSink(INetworkSender sender) => _sender = sender;

    public byte* BufferStart => _sender.SendBufferStart;

    public int BufferLength => _sender.SendBufferLength;

    public bool Flush(int length) => _sender.Send(length);

    public void ReleaseBuffer() => _sender.ReleaseSendBuffer();
}
