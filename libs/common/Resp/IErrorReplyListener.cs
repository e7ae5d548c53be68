using System;

namespace Garnet.common;

/// <summary>Told of every error reply a <see cref="RespWriter"/> writes (the server counts them by code for INFO errorstats).</summary>
public interface IErrorReplyListener
{
    /// <summary><paramref name="message"/> is the error without its leading '-' and trailing CRLF.</summary>
    void OnErrorReply(ReadOnlySpan<byte> message);
}
