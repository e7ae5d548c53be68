using System;

namespace Garnet.networking;

/// <summary>
/// The protocol side of a connection: the only seam between the network layer and the protocol it carries.
/// The network layer knows nothing about message framing; it hands every batch of received bytes to the consumer
/// and keeps whatever the consumer did not consume.
/// </summary>
/// <remarks>
/// <see cref="IDisposable.Dispose"/> is called exactly once, when the connection closes (client disconnect,
/// <see cref="INetworkSender.CloseAfterSend"/>, an error, or server shutdown), and never concurrently with
/// <see cref="TryConsumeMessages"/>.
/// </remarks>
public unsafe interface IMessageConsumer : IDisposable
{
    /// <summary>
    /// Parses and executes the complete messages at the start of [<paramref name="buffer"/>, <paramref name="buffer"/> + <paramref name="bytesRead"/>)
    /// and returns how many bytes it consumed. An incomplete trailing message is left unconsumed and is offered again,
    /// with more bytes appended, on the next call. The buffer is only valid for the duration of the call.
    /// Called on the thread that received the bytes, and never concurrently for one connection.
    /// An exception thrown from here closes this connection only.
    /// </summary>
    /// <param name="buffer">Start of the received bytes; unconsumed bytes of the previous call come first.</param>
    /// <param name="bytesRead">Number of valid bytes at <paramref name="buffer"/>.</param>
    /// <returns>The number of bytes consumed, between 0 and <paramref name="bytesRead"/>.</returns>
    int TryConsumeMessages(byte* buffer, int bytesRead);
}
