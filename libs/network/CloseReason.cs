namespace Garnet.networking;

/// <summary>Why a connection ended; the single place a connection closes records it (and is where logging belongs).</summary>
internal enum CloseReason
{
    /// <summary>The client closed or reset the connection.</summary>
    ClientDisconnected,

    /// <summary>The consumer called <see cref="INetworkSender.CloseAfterSend"/>.</summary>
    CloseRequested,

    /// <summary>The consumer called <see cref="INetworkSender.CloseDroppingUnsent"/>; unsent replies were dropped.</summary>
    Dropped,

    /// <summary>A send failed; the connection is broken.</summary>
    SendFailed,

    /// <summary>The consumer threw, or returned an impossible byte count.</summary>
    ConsumerError,

    /// <summary>One message did not fit in the largest allowed receive buffer.</summary>
    MessageTooLarge,

    /// <summary>The TLS handshake failed.</summary>
    HandshakeFailed,

    /// <summary>Receiving failed for a reason other than a normal disconnect.</summary>
    ReceiveError,

    /// <summary>The server is shutting down.</summary>
    ServerShutdown,
}
