using System;
using System.Collections.Generic;
using System.Text;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// Error replies counted by their code, the message's first word (INFO errorstats: <c>errorstat_ERR:count=3</c>), and
/// in all (INFO stats total_error_replies). As in Redis, at most <see cref="MaxCodes"/> codes are kept apart (a client
/// sending arbitrary error text through a script cannot grow the table); later new codes count only in the total.
/// </summary>
/// <remarks>
/// Counting an error takes no lock: the codes live in a table whose slots are filled once, in order, and published by
/// its count, so a reader scans the published slots and increments the one that matches atomically. Only a code seen
/// for the first time takes the lock, to claim the next slot. CONFIG RESETSTAT swaps in an empty table; an increment
/// racing with it may land in the old one, as an error counted just before the reset would.
/// </remarks>
public sealed class ErrorStatistics
{
    /// <summary>Redis's ERROR_STATS_NUMBER.</summary>
    public const int MaxCodes = 128;

    private readonly object _addLock = new();
    private CodeTable _table = new();
    private long _total;

    /// <summary>Every error reply since start or the last reset.</summary>
    public long Total => Volatile.Read(ref _total);

    /// <summary>Counts an error reply; <paramref name="message"/> is the error without its leading '-' and trailing CRLF.</summary>
    public void Add(ReadOnlySpan<byte> message)
    {
        // As Redis: the code is the first word when a space comes within 32 bytes, else ERR.
        int space = message.Slice(0, Math.Min(message.Length, 32)).IndexOf((byte)' ');
        var code = space < 0 ? "ERR"u8 : message.Slice(0, space);
        Interlocked.Increment(ref _total);
        var table = Volatile.Read(ref _table);
        var counter = table.Find(code, Volatile.Read(ref table.Count)) ?? AddCode(table, code);
        if (counter != null)
            Interlocked.Increment(ref counter.Count);
    }

    /// <summary>The counter of a code not found among the published ones: found again under the lock, or claimed; null when the table is full.</summary>
    private CodeCounter? AddCode(CodeTable table, ReadOnlySpan<byte> code)
    {
        lock (_addLock)
        {
            int count = table.Count;
            var counter = table.Find(code, count);
            if (counter != null || count == MaxCodes)
                return counter;
            counter = new CodeCounter(code.ToArray());
            table.Slots[count] = counter;
            // The slot is written before the count that publishes it.
            Volatile.Write(ref table.Count, count + 1);
            return counter;
        }
    }

    /// <summary>The codes seen and their counts, in the order first seen.</summary>
    public List<(string Code, long Count)> Snapshot()
    {
        var table = Volatile.Read(ref _table);
        int count = Volatile.Read(ref table.Count);
        var list = new List<(string, long)>(count);
        for (int i = 0; i < count; i++)
        {
            var counter = table.Slots[i]!;
            list.Add((Encoding.UTF8.GetString(counter.Code), Volatile.Read(ref counter.Count)));
        }
        return list;
    }

    /// <summary>CONFIG RESETSTAT.</summary>
    public void Reset()
    {
        lock (_addLock)
        {
            Volatile.Write(ref _table, new CodeTable());
            Interlocked.Exchange(ref _total, 0);
        }
    }

    private sealed class CodeCounter(byte[] code)
    {
        public readonly byte[] Code = code;
        public long Count;
    }

    private sealed class CodeTable
    {
        public readonly CodeCounter?[] Slots = new CodeCounter?[MaxCodes];

        /// <summary>Slots published so far (each written before the count covers it).</summary>
        public int Count;

        public CodeCounter? Find(ReadOnlySpan<byte> code, int count)
        {
            for (int i = 0; i < count; i++)
            {
                var counter = Slots[i]!;
                if (code.SequenceEqual(counter.Code))
                    return counter;
            }
            return null;
        }
    }
}
