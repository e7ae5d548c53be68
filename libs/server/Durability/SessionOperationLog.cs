using System;
using System.Collections.Generic;

namespace Garnet.server;

/// <summary>
/// A session's part of the operation log: the entry it gathers (the write running, or the writes of a transaction or
/// script until its locks are released), where its last entry ended, and — when replies wait for commits — the replies
/// that had to leave the send buffer while a logged write was still running, held until that write's entry is durable.
/// </summary>
internal sealed class SessionOperationLog
{
    private readonly bool _waitForCommit;
    private int _policyFrequency;

    public SessionOperationLog(OperationLog log, bool waitForCommit)
    {
        Log = log;
        _waitForCommit = waitForCommit;
        TakePolicy(log.CommitFrequencyMs);
    }

    public OperationLog Log { get; }

    public OperationLogEntryBuilder Entry { get; } = new();

    /// <summary>Whether replies are sent only once the writes before them are durable.</summary>
    public bool HoldsReplies { get; private set; }

    /// <summary>Whether the session asks for the commit its replies wait for (frequency 0) rather than waiting for the periodic one.</summary>
    public bool RequestsCommits { get; private set; }

    /// <summary>
    /// At a batch's start: takes the log's commit frequency if CONFIG SET changed it, once nothing of this session waits
    /// under the old policy (held replies go in order, so a new reply never overtakes them).
    /// </summary>
    public void RefreshPolicy()
    {
        int frequency = Log.CommitFrequencyMs;
        if (frequency != _policyFrequency && !HasHeldReplies && !ReleasePending && Depth == 0 && Entry.Count == 0)
            TakePolicy(frequency);
    }

    private void TakePolicy(int frequency)
    {
        _policyFrequency = frequency;
        // Commit-before-ack: at frequency 0 each batch's replies wait for their writes' commit, which they ask for;
        // with --aof-commit-wait at a frequency N they wait for the next periodic commit.
        HoldsReplies = frequency == 0 || (_waitForCommit && frequency > 0);
        RequestsCommits = frequency == 0;
    }

    /// <summary>Logged commands running (a logged command's own inner commands are not logged again).</summary>
    public int Depth;

    /// <summary>The log address just past this session's last entry.</summary>
    public long AppendedUntil;

    /// <summary>The log's writer will tell the session when the held replies may go (see <see cref="OperationLog.OnCommitted"/>).</summary>
    public volatile bool ReleasePending;

    private readonly List<byte[]> _heldReplies = [];

    /// <summary>Whether replies are held back (see <see cref="Hold"/>).</summary>
    public bool HasHeldReplies => _heldReplies.Count > 0;

    /// <summary>Keeps reply bytes that must not be sent before a running write's entry is durable.</summary>
    public unsafe void Hold(byte* bytes, int length) => _heldReplies.Add(new ReadOnlySpan<byte>(bytes, length).ToArray());

    /// <summary>The replies held, oldest first; the caller sends and then clears them (<see cref="ClearHeld"/>).</summary>
    public List<byte[]> HeldReplies => _heldReplies;

    public void ClearHeld() => _heldReplies.Clear();
}
