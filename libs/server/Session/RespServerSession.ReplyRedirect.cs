using Garnet.common;

namespace Garnet.server;

/// <summary>
/// Replies written somewhere other than the connection, one command at a time: into a sink that drops them
/// (CLIENT REPLY OFF | SKIP) or into a script's reply buffer (redis.call, custom procedures). Meanwhile the
/// connection's writer is parked rather than hidden in a local, so output that is not a reply (pub/sub messages)
/// still reaches the connection, after the replies written before the redirection and before those written after.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>The connection's writer while <see cref="_writer"/> writes elsewhere.</summary>
    private RespWriter _parkedConnectionWriter;
    private bool _connectionWriterParked;

    /// <summary>The writer to the connection, wherever replies go now: for output that is not a reply.</summary>
    private ref RespWriter ConnectionWriter => ref _connectionWriterParked ? ref _parkedConnectionWriter : ref _writer;

    /// <summary>
    /// Sends the replies written from now on to <paramref name="sink"/>, in RESP3 when <paramref name="resp3"/>, until
    /// <see cref="EndRedirect"/> is given what this returns. Redirections nest (a script's call of a command whose reply
    /// is dropped); only the outermost parks the connection's writer.
    /// </summary>
    private SavedWriter RedirectReplies(IResponseSink sink, bool resp3)
    {
        var saved = new SavedWriter(_writer, outermost: !_connectionWriterParked);
        if (saved.Outermost)
        {
            _parkedConnectionWriter = _writer;
            _connectionWriterParked = true;
        }
        _writer = default;
        _writer.Attach(sink);
        _writer.Resp3 = resp3;
        _writer.ErrorListener = this;
        return saved;
    }

    /// <summary>Writes replies where they went before <see cref="RedirectReplies"/> returned <paramref name="saved"/>.</summary>
    private void EndRedirect(in SavedWriter saved)
    {
        if (!saved.Outermost)
        {
            _writer = saved.Writer;
            return;
        }
        // The parked writer, not the copy saved, since messages may have been written to the connection meanwhile.
        _writer = _parkedConnectionWriter;
        _parkedConnectionWriter = default;
        _connectionWriterParked = false;
    }

    /// <summary>The writer a redirection replaced; only used as is when the connection's writer was parked before it.</summary>
    private readonly struct SavedWriter(RespWriter writer, bool outermost)
    {
        public readonly RespWriter Writer = writer;

        public readonly bool Outermost = outermost;
    }
}
