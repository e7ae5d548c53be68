using System;
using System.Buffers;
using System.Collections.Generic;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The hash commands that only read. They run under a shared latch, concurrently with other readers
/// (and on the shared empty hash for absent keys), so they change nothing.
/// </summary>
public sealed partial class HashObject
{
    /// <summary><see cref="ObjectInput.Flags"/> of HRANDFIELD: a count was given (in <see cref="ObjectInput.Number"/>).</summary>
    internal const int RandomFieldWithCount = 1;

    /// <summary><see cref="ObjectInput.Flags"/> of HRANDFIELD: WITHVALUES.</summary>
    internal const int RandomFieldWithValues = 2;

    /// <summary>
    /// Largest estimated reply of HRANDFIELD with a negative count. Redis streams any count; here a reply
    /// is built whole in the reply buffer first, so a count that would make gigabytes from a small hash
    /// is refused as out of range instead.
    /// </summary>
    private const long MaxRandomReplyBytes = 256L << 20;

    /// <summary>Hashes up to this size answer HSCAN from cursor 0 in one reply, as Redis's listpack hashes do.</summary>
    private const int SmallScanSize = 128;

    private const long DefaultScanCount = 10;

    /// <summary>HGET key field.</summary>
    private void HGet(ref ObjectInput input, ref ObjectOutput output)
    {
        int index = Find(input.Arg(0));
        if (index < 0)
            output.Writer.WriteNull();
        else
            output.Writer.WriteBulk(_entries[index].Value);
    }

    /// <summary>HMGET key field [field ...].</summary>
    private void HMGet(ref ObjectInput input, ref ObjectOutput output)
    {
        output.Writer.WriteArrayHeader(input.ArgCount);
        for (int i = 0; i < input.ArgCount; i++)
        {
            int index = Find(input.Arg(i));
            if (index < 0)
                output.Writer.WriteNull();
            else
                output.Writer.WriteBulk(_entries[index].Value);
        }
    }

    /// <summary>HSTRLEN key field.</summary>
    private void HStrLen(ref ObjectInput input, ref ObjectOutput output)
    {
        int index = Find(input.Arg(0));
        output.Writer.WriteInteger(index < 0 ? 0 : _entries[index].Value.Length);
    }

    /// <summary>HKEYS (an array of fields), HVALS (of values), HGETALL (a map).</summary>
    private void WriteAll(ref ObjectOutput output, bool fields, bool values)
    {
        if (fields && values)
            output.Writer.WriteMapHeader(_count);
        else
            output.Writer.WriteArrayHeader(_count);
        for (int i = 0; i < _used; i++)
        {
            ref var entry = ref _entries[i];
            if (entry.Field == null)
                continue;
            if (fields)
                output.Writer.WriteBulk(entry.Field);
            if (values)
                output.Writer.WriteBulk(entry.Value);
        }
    }

    /// <summary>A uniformly random live entry's index (the hash must not be empty).</summary>
    private int RandomIndex()
    {
        // Compaction keeps most of the array live, so few draws land on holes.
        while (true)
        {
            int index = Random.Shared.Next(_used);
            if (_entries[index].Field != null)
                return index;
        }
    }

    /// <summary>
    /// HRANDFIELD key [count [WITHVALUES]]: the session parsed the count into <see cref="ObjectInput.Number"/>
    /// and the options into <see cref="ObjectInput.Flags"/>.
    /// </summary>
    private void HRandField(ref ObjectInput input, ref ObjectOutput output)
    {
        if ((input.Flags & RandomFieldWithCount) == 0)
        {
            if (_count == 0)
                output.Writer.WriteNull();
            else
                output.Writer.WriteBulk(_entries[RandomIndex()].Field);
            return;
        }

        long count = input.Number;
        bool withValues = (input.Flags & RandomFieldWithValues) != 0;
        if (count == 0 || _count == 0)
        {
            output.Writer.WriteArrayHeader(0);
            return;
        }

        if (count < 0)
        {
            // Repeats allowed: exactly -count draws.
            long draws = -count;
            long bytesPerDraw = ((HeapSize - BaseHeapSize) / _count) - EntryOverhead + 32; // average field and value, and framing
            if (draws > MaxRandomReplyBytes / Math.Max(bytesPerDraw, 32))
            {
                output.Writer.WriteError(HashStrings.ErrValueOutOfRange);
                return;
            }
            WriteRandomHeader(ref output, (int)draws, withValues);
            for (long i = 0; i < draws; i++)
                WriteRandomEntry(ref output, RandomIndex(), withValues);
            return;
        }

        if (count >= _count)
        {
            // Every field, as Redis replies when the count covers the whole hash.
            WriteRandomHeader(ref output, _count, withValues);
            for (int i = 0; i < _used; i++)
            {
                if (_entries[i].Field != null)
                    WriteRandomEntry(ref output, i, withValues);
            }
            return;
        }

        int wanted = (int)count;
        WriteRandomHeader(ref output, wanted, withValues);
        if (wanted * 3L > _count)
        {
            // Many of the fields: a partial shuffle of the live indexes.
            var indexes = ArrayPool<int>.Shared.Rent(_count);
            int live = 0;
            for (int i = 0; i < _used; i++)
            {
                if (_entries[i].Field != null)
                    indexes[live++] = i;
            }
            for (int i = 0; i < wanted; i++)
            {
                int pick = Random.Shared.Next(i, live);
                (indexes[i], indexes[pick]) = (indexes[pick], indexes[i]);
                WriteRandomEntry(ref output, indexes[i], withValues);
            }
            ArrayPool<int>.Shared.Return(indexes);
        }
        else
        {
            // Few of the fields: draw until enough distinct ones came up.
            var picked = new HashSet<int>(wanted);
            while (picked.Count < wanted)
            {
                int index = RandomIndex();
                if (picked.Add(index))
                    WriteRandomEntry(ref output, index, withValues);
            }
        }
    }

    private static void WriteRandomHeader(ref ObjectOutput output, int entries, bool withValues)
        => output.Writer.WriteArrayHeader(withValues && !output.Writer.Resp3 ? entries * 2 : entries);

    /// <summary>A field, or with values a field and value (a 2-element array in RESP3, flat in RESP2).</summary>
    private void WriteRandomEntry(ref ObjectOutput output, int index, bool withValues)
    {
        ref var entry = ref _entries[index];
        if (withValues && output.Writer.Resp3)
            output.Writer.WriteArrayHeader(2);
        output.Writer.WriteBulk(entry.Field);
        if (withValues)
            output.Writer.WriteBulk(entry.Value);
    }

    /// <summary>
    /// HSCAN key cursor [MATCH pattern] [COUNT count] [NOVALUES]: the session parsed the cursor into
    /// <see cref="ObjectInput.Number"/> (an unsigned sequence number: the scan resumes at the first entry
    /// inserted at or after it). Options are checked here, after the type, as Redis does; an absent key
    /// answers an empty scan without looking at them.
    /// </summary>
    private void HScan(ref ObjectInput input, ref ObjectOutput output)
    {
        if (_count == 0)
        {
            output.Writer.WriteArrayHeader(2);
            output.Writer.WriteBulk("0"u8);
            output.Writer.WriteArrayHeader(0);
            return;
        }

        long count = DefaultScanCount;
        ReadOnlySpan<byte> pattern = default;
        bool matchAll = true;
        bool noValues = false;
        for (int i = 1; i < input.ArgCount;)
        {
            var option = input.Arg(i);
            bool hasValue = i + 1 < input.ArgCount;
            if (hasValue && Ascii.EqualsIgnoreCase(option, "COUNT"u8))
            {
                if (!NumberFormat.TryParseLong(input.Arg(i + 1), out count))
                {
                    output.Writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (count < 1)
                {
                    output.Writer.WriteError(RespStrings.ErrSyntax);
                    return;
                }
                i += 2;
            }
            else if (hasValue && Ascii.EqualsIgnoreCase(option, "MATCH"u8))
            {
                pattern = input.Arg(i + 1);
                matchAll = GlobPattern.MatchesEverything(pattern);
                i += 2;
            }
            else if (Ascii.EqualsIgnoreCase(option, "NOVALUES"u8))
            {
                noValues = true;
                i++;
            }
            else
            {
                output.Writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }

        ulong cursor = unchecked((ulong)input.Number);
        int start;
        int end;
        if (cursor == 0 && _count <= SmallScanSize)
        {
            start = 0;
            end = _used;
        }
        else
        {
            start = FirstAtOrAfter(cursor);
            end = start;
            for (long visited = 0; visited < count && end < _used; end++)
            {
                if (_entries[end].Field != null)
                    visited++;
            }
        }
        int next = NextLive(end);

        // First pass counts the matches (the reply header comes first), second writes them.
        int matches = 0;
        for (int i = start; i < end; i++)
        {
            ref var entry = ref _entries[i];
            if (entry.Field != null && (matchAll || GlobPattern.IsMatch(pattern, entry.Field)))
                matches++;
        }

        output.Writer.WriteArrayHeader(2);
        if (next >= _used)
            output.Writer.WriteBulk("0"u8);
        else
            output.Writer.WriteBulkInteger(_entries[next].Sequence);
        output.Writer.WriteArrayHeader(noValues ? matches : matches * 2);
        for (int i = start; i < end; i++)
        {
            ref var entry = ref _entries[i];
            if (entry.Field == null || !(matchAll || GlobPattern.IsMatch(pattern, entry.Field)))
                continue;
            output.Writer.WriteBulk(entry.Field);
            if (!noValues)
                output.Writer.WriteBulk(entry.Value);
        }
    }
}
