using System;
using Garnet.common;
using Garnet.networking;

namespace Garnet.server;

/// <summary>
/// Adapts a connection's send buffer to the reply writer. With the operation log holding replies (commit-before-ack), no
/// reply leaves before the writes logged ahead of it are durable: a flush while a logged write runs keeps the bytes aside,
/// and so does a flush before its commit — sent when the log's writer reports the commit, so the thread goes on serving
/// other connections meanwhile (group commit). A connection whose sends may block (TLS, asynchronous sockets) must not
/// be sent to from the log's writer: it waits for the commit on its own thread (see <see cref="SessionOperationLog"/>).
/// </summary>
internal sealed unsafe class NetworkResponseSink : IResponseSink
{
    private readonly INetworkSender _sender;
    // The session's log; its replies wait for commits while its policy says so (it may change between batches: CONFIG
    // SET appendfsync, and the log itself with CONFIG SET appendonly).
    private SessionOperationLog? _log;
    private readonly ICommitWaiter? _release;

    public NetworkResponseSink(INetworkSender sender, SessionOperationLog? log, ICommitWaiter? release)
    {
        _sender = sender;
        _log = log;
        // Only transports whose sends never block may be sent to from the log's notifier thread.
        _release = sender.SendMayBlock ? null : release;
    }

    /// <summary>The session's log, set by the session between its batches (<see cref="RespServerSession"/>'s FollowOperationLog).</summary>
    public SessionOperationLog? Log
    {
        set => _log = value;
    }

    public byte* BufferStart => _sender.SendBufferStart;

    public int BufferLength => _sender.SendBufferLength;

    public bool Flush(int length)
    {
        if (_log is not { HoldsReplies: true })
            return _sender.Send(length);
        if (_log.Depth > 0 || _log.Entry.Count > 0 || (!_log.Log.IsCommitted(_log.AppendedUntil) && TryDeferRelease()))
        {
            // A logged write runs, or its entry waits for its locks' release, or for its commit: its reply (and those after)
            // wait too.
            _log.Hold(_sender.SendBufferStart, length);
            return true;
        }
        if (!WaitForCommit())
            return false;
        if (!_log.HasHeldReplies)
            return _sender.Send(length);
        _log.Hold(_sender.SendBufferStart, length);
        return SendHeld();
    }

    /// <summary>At the end of a batch (or told of a commit): held replies go once their writes are durable.</summary>
    public bool FinishBatch()
    {
        if (_log is not { HoldsReplies: true, HasHeldReplies: true } || _log.Depth > 0 || _log.Entry.Count > 0)
            return true;
        if (!_log.Log.IsCommitted(_log.AppendedUntil) && TryDeferRelease())
            return true;
        return WaitForCommit() && SendHeld();
    }

    private bool TryDeferRelease()
    {
        if (_release == null)
            return false;
        if (!_log!.ReleasePending)
        {
            // Asked for at once: the fsync runs while the thread serves the other connections (asking once at the end of
            // the event loop's round, as Redis does, measured a tenth slower on one core). A log that failed or stopped
            // takes no waiter: the caller then finds the commit failed.
            if (!_log.Log.OnCommitted(_log.AppendedUntil, _release, _log.RequestsCommits))
                return false;
            _log.ReleasePending = true;
        }
        // The client waits for these replies, which wait for the commit: the event loop need not poll for it meanwhile.
        EventLoopHints.RepliesAwaitOtherWork();
        return true;
    }

    private bool WaitForCommit()
    {
        long until = _log!.AppendedUntil;
        if (_log.Log.IsCommitted(until) || _log.Log.WaitForCommit(until, _log.RequestsCommits))
            return true;
        // The log could not be written: the replies of writes it may have lost are never sent; the client sees the connection end.
        _log.ClearHeld();
        _sender.CloseAfterSend();
        return false;
    }

    private bool SendHeld()
    {
        var held = _log!.HeldReplies;
        try
        {
            foreach (var bytes in held)
            {
                for (int done = 0; done < bytes.Length;)
                {
                    int length = Math.Min(_sender.SendBufferLength, bytes.Length - done);
                    bytes.AsSpan(done, length).CopyTo(new Span<byte>(_sender.SendBufferStart, length));
                    if (!_sender.Send(length))
                        return false;
                    done += length;
                }
            }
            return true;
        }
        finally
        {
            _log.ClearHeld();
        }
    }

    public void ReleaseBuffer() => _sender.ReleaseSendBuffer();
}
