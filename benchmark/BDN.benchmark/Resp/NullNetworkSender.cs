using System;
using System.Runtime.InteropServices;
using Garnet.networking;

namespace BDN.benchmark.Resp;

/// <summary>
/// A connection with no socket behind it: replies are written into a native buffer and
/// <see cref="Send"/> only remembers their length, so a benchmark measures parsing and execution alone.
/// </summary>
internal sealed unsafe class NullNetworkSender : INetworkSender, IDisposable
{
    public NullNetworkSender(int bufferLength)
    {
        SendBufferLength = bufferLength;
        SendBufferStart = (byte*)NativeMemory.AlignedAlloc((nuint)bufferLength, 64);
    }

    public byte* SendBufferStart { get; private set; }

    public int SendBufferLength { get; }

    public long UnsentBytes => 0;

    public bool SendMayBlock => false;

    public ConnectionBuffers Buffers => new(-1, 0, 0, 0, SendBufferLength, 0, 0, false);

    public string RemoteEndpoint => "127.0.0.1:1";

    public string LocalEndpoint => "127.0.0.1:6379";

    /// <summary>Total bytes handed to <see cref="Send"/> since the last <see cref="Reset"/>.</summary>
    public long BytesSent { get; private set; }

    /// <summary>The bytes of the last <see cref="Send"/>, for checking replies during setup.</summary>
    public ReadOnlySpan<byte> LastSent => new(SendBufferStart, _lastLength);

    private int _lastLength;

    public bool Send(int length)
    {
        BytesSent += length;
        _lastLength = length;
        return true;
    }

    /// <summary>Replies are dropped as they are sent, so nothing is ever held against a limit.</summary>
    public void UseOutputLimit(OutputLimitClass limits)
    {
    }

    public void CloseAfterSend()
    {
    }

    // Nothing is ever left unsent here, so there is nothing to drop either.
    public void CloseDroppingUnsent()
    {
    }

    /// <summary>The buffer is this sender's own for its life: nothing to give back.</summary>
    public void ReleaseSendBuffer()
    {
    }

    public void ReleaseOtherConnections()
    {
    }

    public void Reset() => BytesSent = 0;

    public void Dispose()
    {
        if (SendBufferStart != null)
        {
            NativeMemory.AlignedFree(SendBufferStart);
            SendBufferStart = null;
        }
    }
}
