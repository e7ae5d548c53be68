using System;

namespace Garnet.common;

/// <summary>Told of every error reply a <see cref="RespWriter"/> writes (the server counts them by code for INFO errorstats).</summary>
public interface IErrorReplyListener
{
    /// <summary><paramref name="message"/> is the error without its leading '-' and trailing CRLF.</summary>
    void OnErrorReply(ReadOnlySpan<byte> message);

    /// <summary>
    /// An error reply passing on one already counted where it arose (a script returning or raising the error of a
    /// command it called, as Redis's ERR_REPLY_FLAG_NO_STATS_UPDATE): the running command fails, the error is not counted again.
    /// </summary>
    void OnRepeatedErrorReply();
}
