using System;
using System.Buffers.Binary;
using System.IO;

namespace Garnet.server;

/// <summary>What replaying the operation log found.</summary>
public sealed record OperationLogRecoveryReport(long Entries, long Commands, long FailedCommands, long LogBytes, long CutBytes, string? CutReason)
{
    /// <summary>Entries skipped because the checkpoint recovery started from already held their writes.</summary>
    public long SkippedEntries { get; init; }

    /// <summary>The highest checkpoint version an entry was logged in (0 if none).</summary>
    public long LastVersion { get; init; }

    /// <summary>
    /// Entries replayed that this server logged as its own writes, not as a replica applying its primary's (see
    /// <see cref="OperationLogEntry.FlagReplicated"/>): with none, what was replayed is the primary's stream alone.
    /// </summary>
    public long LocalEntries { get; init; }
}

/// <summary>
/// Replays the operation log at start-up, before the server listens: each entry's commands run in order through a session
/// with no connection, each in its database, at its logged clock and with its logged random seed, so they decide as
/// they did. A torn end (an entry the last write left incomplete, in the last file) is cut off; anything else unreadable
/// is an error, which fails the start when <c>failOnError</c>, and otherwise cuts the log there.
/// </summary>
internal static class OperationLogRecovery
{
    /// <summary>
    /// Replays the log from <paramref name="from"/> (an entry's start: the file offset a checkpoint noted, or where the kept
    /// files begin), skipping entries of versions up to <paramref name="skipThroughVersion"/> (the checkpoint's own).
    /// </summary>
    public static unsafe OperationLogRecoveryReport Replay(StoreWrapper server, OperationLogFiles files, long segmentSize, bool failOnError, long from = 0,
        long skipThroughVersion = 0)
    {
        long tail = files.Tail;
        long lastSegmentStart = tail == 0 ? 0 : ((tail - 1) / segmentSize) * segmentSize;
        // The files are read a window at a time (entries are small; two reads per entry made replay read-bound).
        var window = new ReadWindow(files, tail);
        long offset = Math.Max(from, files.Start), entries = 0, commands = 0, skipped = 0, lastVersion = 0, local = 0;
        string? problem = null;
        long problemEnd = 0;
        bool zeroEnd = false;

        using var sender = new DiscardingSender();
        var session = new RespServerSession(server, sender, replaying: true);
        try
        {
            while (offset < tail)
            {
                if (tail - offset < OperationLogEntry.HeaderSize)
                {
                    problem = "an incomplete entry header";
                    break;
                }
                var header = window.Get(offset, OperationLogEntry.HeaderSize);
                long word = BinaryPrimitives.ReadInt64LittleEndian(header);
                if (word == 0 && offset >= lastSegmentStart)
                {
                    // The end of the entries: the last file is filled with zeros ahead of them (see OperationLogFiles).
                    zeroEnd = true;
                    break;
                }
                int length = OperationLogEntry.LengthOf(word);
                problemEnd = offset + Math.Max(length, OperationLogEntry.HeaderSize);
                if (length < OperationLogEntry.HeaderSize + OperationLogEntry.BodyHeaderSize || (length & 7) != 0)
                {
                    problem = $"an entry of impossible length {length}";
                    break;
                }
                if (length > tail - offset)
                {
                    problem = $"an entry of {length} bytes with only {tail - offset} left";
                    break;
                }
                var span = window.Get(offset + OperationLogEntry.HeaderSize, length - OperationLogEntry.HeaderSize);
                if (OperationLogEntry.Checksum(span) != OperationLogEntry.ChecksumOf(word))
                {
                    problem = "an entry whose checksum does not match";
                    break;
                }
                problem = ReplayEntry(server, session, span, offset, skipThroughVersion, ref commands, out long version, out bool skippedEntry);
                if (problem != null)
                    break;
                lastVersion = Math.Max(lastVersion, version);
                if (skippedEntry)
                    skipped++;
                else
                    entries++;
                if (!skippedEntry && (OperationLogEntry.FlagsOf(span) & OperationLogEntry.FlagReplicated) == 0)
                    local++;
                offset += length;
            }
        }
        finally
        {
            session.Dispose();
        }

        // Zeros past the end are not entries, nor counted as cut.
        if (zeroEnd)
        {
            files.Truncate(offset);
            tail = offset;
        }
        long cut = tail - offset;
        if (problem != null)
        {
            // A crash in the middle of a write leaves its entries incomplete at the end of the last file; never acknowledged
            // (commit-before-ack waits for their fsync), so they are cut. Damage anywhere else is not a crash's.
            // An entry that reaches into the last file is the last write's too (it may have begun in the file before).
            bool torn = offset >= lastSegmentStart || problemEnd > lastSegmentStart;
            if (!torn && failOnError)
            {
                throw new InvalidDataException($"The AOF in {files.DirectoryPath} is damaged at offset {offset} of {tail} ({problem}). "
                    + "Start without --fail-on-recovery-error to recover what comes before it, or restore the files.");
            }
            files.Truncate(offset);
        }
        return new OperationLogRecoveryReport(entries, commands, session.ReplayFailures, offset, cut, problem) { SkippedEntries = skipped, LastVersion = lastVersion, LocalEntries = local };
    }

    /// <summary>
    /// Replays the commands of one entry's <paramref name="body"/> (checked against its checksum already) at
    /// <paramref name="offset"/>, unless its version is at most <paramref name="skipThroughVersion"/> (its writes are in
    /// the checkpoint loaded before). Returns what makes the entry unreadable, or null. Recovery and a replica's stream
    /// (<see cref="ReplicaStream"/>) replay with it.
    /// </summary>
    internal static string? ReplayEntry(StoreWrapper server, RespServerSession session, ReadOnlySpan<byte> body, long offset, long skipThroughVersion,
        ref long commands, out long version, out bool skipped)
    {
        version = 0;
        skipped = false;
        if (!LoggedCommandReader.TryStart(body, out var reader))
            return "an entry of unknown kind or format";
        version = reader.Version;
        if (reader.Version <= skipThroughVersion)
        {
            // Its writes are in the checkpoint replay started from (it was appended as the checkpoint began).
            skipped = true;
            return null;
        }
        while (reader.TryNext(out var command, out bool malformed))
        {
            if (command.Database >= server.DatabaseCount)
                throw new InvalidDataException($"The AOF holds a command for database {command.Database} at offset {offset}, but the server has {server.DatabaseCount} databases.");
            session.ReplayCommand(in command, offset);
            commands++;
        }
        if (reader.TryNext(out _, out bool bad) || bad)
            return "an entry whose commands do not fill it";
        return null;
    }

    /// <summary>The log's bytes read a window at a time; a span it gives is valid until the next call.</summary>
    private sealed class ReadWindow(OperationLogFiles files, long tail)
    {
        private const int Size = 8 << 20;

        private byte[] _buffer = new byte[Size];
        private long _start;
        private int _length;

        public ReadOnlySpan<byte> Get(long offset, int count)
        {
            if (offset < _start || offset + count > _start + _length)
            {
                if (count > _buffer.Length)
                    _buffer = new byte[count];
                _start = offset;
                int want = (int)Math.Min(_buffer.Length, tail - offset);
                _length = files.Read(offset, _buffer.AsSpan(0, want));
                if (_length < count)
                    throw new InvalidDataException($"The AOF in {files.DirectoryPath} could not be read at offset {offset}.");
            }
            return _buffer.AsSpan((int)(offset - _start), count);
        }
    }
}
