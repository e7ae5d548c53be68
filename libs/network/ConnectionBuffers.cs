namespace Garnet.networking;

/// <summary>
/// What a connection holds in its buffers, as CLIENT LIST reports it (fd, qbuf, qbuf-free, rbs, rbp, oll, omem,
/// events). Read without locks from any thread, so it is a recent view of a connection that may be busy, not an
/// exact one.
/// </summary>
/// <param name="Descriptor">The socket's file descriptor (or handle).</param>
/// <param name="InputBytes">Bytes received and not yet consumed: a partial command, or the batch being run.</param>
/// <param name="InputCapacity">Size of the receive buffer the connection holds now: 0 when idle (buffers are lent per batch), larger for a command larger than it; while a batch runs in its thread's buffer, only the part it fills (the rest serves the thread's other connections).</param>
/// <param name="PeakInputBytes">The most bytes the receive buffer has held since it last went back to its normal size.</param>
/// <param name="SendBufferLength">Size of the send buffer the connection holds now: 0 between batches.</param>
/// <param name="UnsentBytes">Reply bytes waiting for a client that is not reading (see <see cref="INetworkSender.UnsentBytes"/>).</param>
/// <param name="UnsentBlocks">Number of separate blocks those bytes are kept in.</param>
/// <param name="WaitingToWrite">Whether the connection is waiting for the socket to take more output (it reads no input meanwhile).</param>
public readonly record struct ConnectionBuffers(
    long Descriptor,
    int InputBytes,
    int InputCapacity,
    int PeakInputBytes,
    int SendBufferLength,
    long UnsentBytes,
    int UnsentBlocks,
    bool WaitingToWrite);
