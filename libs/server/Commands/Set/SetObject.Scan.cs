using System;
using System.Collections.Generic;
using Garnet.common;

namespace Garnet.server;

/// <summary>SSCAN, and the set algebra the multi-key commands run on snapshots.</summary>
public sealed partial class SetObject
{
    /// <summary>
    /// Sets up to this size are returned whole by one SSCAN call with cursor 0, as Redis does for its
    /// compact (listpack) encoding of small sets.
    /// </summary>
    private const int ScanWholeSetMaximum = 128;

    private const long DefaultScanCount = 10;

    /// <summary>
    /// SSCAN key cursor [MATCH pattern] [COUNT count]: the cursor (parsed by the session) is in
    /// <see cref="ObjectInput.Number"/>; options start at argument 1.
    /// </summary>
    private void Scan(ref ObjectInput input, ref RespWriter writer)
    {
        if (_count == 0)
        {
            // Redis answers an absent key before it looks at the options.
            WriteScanReply(ref writer, 0, null);
            return;
        }

        long count = DefaultScanCount;
        ReadOnlySpan<byte> pattern = default;
        bool usePattern = false;
        for (int i = 1; i < input.ArgCount; i += 2)
        {
            var option = input.Args[input.FirstArg + i];
            bool hasValue = i + 1 < input.ArgCount;
            if (hasValue && option.EqualsUpper("COUNT"u8))
            {
                if (!NumberFormat.TryParseLong(input.Arg(i + 1), out count))
                {
                    writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (count < 1)
                {
                    writer.WriteError(RespStrings.ErrSyntax);
                    return;
                }
            }
            else if (hasValue && option.EqualsUpper("MATCH"u8))
            {
                pattern = input.Arg(i + 1);
                usePattern = !GlobPattern.MatchesEverything(pattern);
            }
            else
            {
                writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }

        var found = new List<byte[]>();
        ulong cursor = (ulong)input.Number;
        ulong next;
        if (_count <= ScanWholeSetMaximum)
        {
            CopyElementsTo(found);
            next = 0;
        }
        else
        {
            next = ScanBuckets(cursor, count, found);
        }

        if (usePattern)
        {
            int kept = 0;
            for (int i = 0; i < found.Count; i++)
            {
                if (GlobPattern.IsMatch(pattern, found[i]))
                    found[kept++] = found[i];
            }
            found.RemoveRange(kept, found.Count - kept);
        }
        WriteScanReply(ref writer, next, found);
    }

    /// <summary>
    /// Collects the members of whole buckets from <paramref name="cursor"/> on, in reverse-binary
    /// bucket order, until at least <paramref name="count"/> were found, ten times that many buckets
    /// were visited, or the walk wrapped around; returns the next cursor (0 when done).
    /// </summary>
    private ulong ScanBuckets(ulong cursor, long count, List<byte[]> found)
    {
        ulong mask = (ulong)_buckets.Length - 1;
        long visits = count > long.MaxValue / 10 ? long.MaxValue : count * 10;
        do
        {
            for (int i = _buckets[(int)(cursor & mask)] - 1; i >= 0; i = _next[i] - 1)
                found.Add(_members[i]);

            // Increment the cursor's bucket bits counting from the top, so buckets of a grown or
            // shrunk table that hold already visited members come before the cursor.
            cursor |= ~mask;
            cursor = ReverseBits(ReverseBits(cursor) + 1);
        }
        while (cursor != 0 && --visits > 0 && found.Count < count);
        return cursor;
    }

    private static ulong ReverseBits(ulong v)
    {
        v = ((v >> 1) & 0x5555555555555555UL) | ((v & 0x5555555555555555UL) << 1);
        v = ((v >> 2) & 0x3333333333333333UL) | ((v & 0x3333333333333333UL) << 2);
        v = ((v >> 4) & 0x0F0F0F0F0F0F0F0FUL) | ((v & 0x0F0F0F0F0F0F0F0FUL) << 4);
        return System.Buffers.Binary.BinaryPrimitives.ReverseEndianness(v);
    }

    private static void WriteScanReply(ref RespWriter writer, ulong cursor, List<byte[]>? members)
    {
        writer.WriteArrayHeader(2);
        Span<byte> digits = stackalloc byte[20];
        cursor.TryFormat(digits, out int length);
        writer.WriteBulk(digits.Slice(0, length));
        writer.WriteArrayHeader(members?.Count ?? 0);
        if (members == null)
            return;
        foreach (var member in members)
            writer.WriteBulk(member);
    }

    // ---- Set algebra on snapshots (the session owns these objects, so they may be changed) ----

    /// <summary>Keeps only the members that are also in <paramref name="other"/>.</summary>
    public void IntersectWith(SetObject other)
    {
        // Walking down from the end keeps every unvisited entry in place when one is removed.
        for (int i = _count - 1; i >= 0 && _count != 0; i--)
        {
            if (i < _count && !other.Contains(_members[i]))
                RemoveAt(i);
        }
    }

    /// <summary>Removes the members that are in <paramref name="other"/>.</summary>
    public void ExceptWith(SetObject other)
    {
        if (other._count < _count)
        {
            for (int i = 0; i < other._count && _count != 0; i++)
                Remove(other._members[i]);
            return;
        }
        for (int i = _count - 1; i >= 0 && _count != 0; i--)
        {
            if (i < _count && other.Contains(_members[i]))
                RemoveAt(i);
        }
    }

    /// <summary>Adds <paramref name="other"/>'s members, sharing their arrays (the other set must not change afterwards).</summary>
    public void UnionWith(SetObject other)
    {
        for (int i = 0; i < other._count; i++)
            AddOwned(other._members[i]);
    }

    /// <summary>How many members of this set are in every one of <paramref name="others"/>, stopping at <paramref name="limit"/> (0 = no limit).</summary>
    public long CountInAll(List<SetObject> others, long limit)
    {
        long found = 0;
        for (int i = 0; i < _count; i++)
        {
            bool inAll = true;
            foreach (var other in others)
            {
                if (!ReferenceEquals(other, this) && !other.Contains(_members[i]))
                {
                    inAll = false;
                    break;
                }
            }
            if (inAll && ++found == limit)
                break;
        }
        return found;
    }
}
