using System;
using System.Buffers.Binary;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// A replica's own operation log as a copy of its primary's stream: each entry the replica applies is appended to its
/// log with the same commands and length, flagged <see cref="OperationLogEntry.FlagReplicated"/> and tagged with the
/// replica's own checkpoint version (read under <see cref="ReplicaStream.ApplyLock"/>, without which no checkpoint moves
/// the version), so the replica's checkpoints and recovery work on it as on a primary's log. Nothing else appends on a
/// replica, so a file offset in this log and the primary's offset of the same entry differ by a constant
/// (<see cref="Delta"/>): after a restart, the end of the recovered log says where in the primary's stream it stands.
/// </summary>
internal sealed class ReplicaLogMirror
{
    // Entries up to this size are copied through one buffer kept for the next; a larger one gets a buffer of its own.
    private const int KeptBufferBytes = 1 << 20;

    private byte[] _copy = new byte[512];
    private long _ringTail;

    private ReplicaLogMirror(OperationLog log, long delta)
    {
        Log = log;
        Delta = delta;
        _ringTail = log.Tail;
    }

    /// <summary>The log the entries go to.</summary>
    public OperationLog Log { get; }

    /// <summary>The primary's offset of an entry minus its file offset in <see cref="Log"/>.</summary>
    public long Delta { get; }

    /// <summary>The log address past the last copy appended (for a commit request).</summary>
    public long RingTail => Volatile.Read(ref _ringTail);

    /// <summary>
    /// Starts mirroring into <paramref name="log"/> with the next entry at the primary's <paramref name="primaryOffset"/>;
    /// waits for the log to write out what it was given before. Throws <see cref="OperationLogFailedException"/> when the
    /// log failed.
    /// </summary>
    public static ReplicaLogMirror StartAt(OperationLog log, long primaryOffset) => new(log, primaryOffset - log.FileOffsetOfTail());

    /// <summary>Continues mirroring into a log whose files end at the primary's offset minus <paramref name="delta"/> (a recovered one).</summary>
    public static ReplicaLogMirror Resume(OperationLog log, long delta) => new(log, delta);

    /// <summary>
    /// Appends the copy of the entry whose <paramref name="body"/> (with its padding, as received) was applied in
    /// <paramref name="version"/>. False when something else appended to the log since the last copy: file offsets no
    /// longer match the primary's, and the mirror must end. Throws <see cref="OperationLogFailedException"/> when the log failed.
    /// </summary>
    public bool Append(ReadOnlySpan<byte> body, long version)
    {
        if (Log.Tail != _ringTail)
            return false;
        byte[] buffer = body.Length <= _copy.Length ? _copy : new byte[body.Length];
        if (body.Length > _copy.Length && body.Length <= KeptBufferBytes)
            _copy = buffer;
        var copy = buffer.AsSpan(0, body.Length);
        body.CopyTo(copy);
        BinaryPrimitives.WriteUInt16LittleEndian(copy.Slice(2), (ushort)(OperationLogEntry.FlagsOf(body) | OperationLogEntry.FlagReplicated));
        BinaryPrimitives.WriteInt64LittleEndian(copy.Slice(8), version);
        Volatile.Write(ref _ringTail, Log.Append(copy));
        return true;
    }
}
