using System;
using System.Collections.Generic;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// SORT and SORT_RO over a list, set or sorted set:
/// <c>SORT key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC|DESC] [ALPHA] [STORE destination]</c>.
/// The elements are read from a snapshot of the key; BY and GET patterns are looked up one element
/// at a time (<see cref="LookupSortPattern"/>), as Redis does.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteSortCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.SORT:
                Sort(readOnly: false);
                break;
            case RespCommand.SORT_RO:
                Sort(readOnly: true);
                break;
            default:
                throw new InvalidOperationException($"{command} is not a sort command.");
        }
    }

    /// <summary>The options of one SORT command.</summary>
    private struct SortOptions
    {
        public bool Descending;
        public bool Alpha;
        public bool DontSort;
        public long LimitStart;
        public long LimitCount;
        /// <summary>Argument index of the BY pattern, or 0.</summary>
        public int By;
        /// <summary>Argument index of STORE's destination, or 0.</summary>
        public int Store;
        /// <summary>Argument indexes of the GET patterns.</summary>
        public List<int>? Gets;
    }

    /// <summary>One element being sorted, with what it sorts by.</summary>
    private struct SortEntry
    {
        public byte[] Element;
        public double Score;
        public byte[]? CompareBy;
        public int Index;
    }

    private void Sort(bool readOnly)
    {
        if (!TryParseSortOptions(readOnly, out var options))
            return;

        var key = _args[1].Span;
        var result = ReadObjectSnapshot(key, GarnetObjectType.None, out var snapshot);
        if (result == ObjectResult.WrongType || (snapshot != null && snapshot.Type is not (GarnetObjectType.List or GarnetObjectType.Set or GarnetObjectType.SortedSet)))
        {
            _writer.WriteError(RespStrings.WrongType);
            return;
        }

        var elements = new List<byte[]>();
        switch (snapshot)
        {
            case ListObject list:
                list.CopyElementsTo(elements);
                break;
            case SetObject set:
                set.CopyElementsTo(elements);
                break;
            case SortedSetObject sortedSet:
                sortedSet.CopyElementsTo(elements);
                break;
        }
        var type = snapshot?.Type ?? GarnetObjectType.List;

        // A set has no order of its own: stored (replicated) results must not depend on it.
        if (options.DontSort && type == GarnetObjectType.Set && options.Store != 0)
        {
            options.DontSort = false;
            options.Alpha = true;
            options.By = 0;
        }

        // LIMIT, clamped exactly as Redis does.
        long length = elements.Count;
        long start = Math.Min(Math.Max(options.LimitStart, 0), length);
        long limitCount = Math.Min(Math.Max(options.LimitCount, -1), length);
        long end = limitCount < 0 ? length - 1 : start + limitCount - 1;
        if (start >= length)
        {
            start = length - 1;
            end = length - 2;
        }
        if (end >= length)
            end = length - 1;

        var entries = new SortEntry[elements.Count];
        for (int i = 0; i < entries.Length; i++)
            entries[i] = new SortEntry { Element = elements[i], Index = i };

        if (options.DontSort)
        {
            // Lists and sorted sets keep their own order, reversed by DESC; sets their iteration order.
            if (options.Descending && type != GarnetObjectType.Set)
                Array.Reverse(entries);
        }
        else if (!TrySortEntries(entries, ref options))
        {
            _writer.WriteError("ERR One or more scores can't be converted into double"u8);
            return;
        }

        int getCount = options.Gets?.Count ?? 0;
        long selected = end - start + 1;
        long outputLength = getCount > 0 ? getCount * selected : selected;
        if (options.Store == 0)
        {
            _writer.WriteArrayHeader((int)outputLength);
            for (long j = start; j <= end; j++)
            {
                var element = entries[j].Element;
                if (getCount == 0)
                    _writer.WriteBulk(element);
                for (int g = 0; g < getCount; g++)
                {
                    var value = LookupSortPattern(_args[options.Gets![g]], element);
                    if (value == null)
                        _writer.WriteNull();
                    else
                        _writer.WriteBulk(value);
                }
            }
            return;
        }

        var stored = new List<byte[]>((int)Math.Max(outputLength, 0));
        for (long j = start; j <= end; j++)
        {
            var element = entries[j].Element;
            if (getCount == 0)
                stored.Add(element);
            for (int g = 0; g < getCount; g++)
                stored.Add(LookupSortPattern(_args[options.Gets![g]], element) ?? Array.Empty<byte>());
        }
        var status = StoreObject(_args[options.Store].Span, stored.Count == 0 ? null : ListObject.Create(stored));
        if (WriteIfOutOfMemory(status))
            return;
        _writer.WriteInteger(outputLength);
    }

    /// <summary>Parses the options after the key, in Redis's order and with its errors (SORT_RO has no STORE).</summary>
    private bool TryParseSortOptions(bool readOnly, out SortOptions options)
    {
        options = new SortOptions { LimitStart = 0, LimitCount = -1 };
        for (int j = 2; j < _argCount; j++)
        {
            int left = _argCount - j - 1;
            ref readonly var arg = ref _args[j];
            if (arg.EqualsUpper("ASC"u8))
            {
                options.Descending = false;
            }
            else if (arg.EqualsUpper("DESC"u8))
            {
                options.Descending = true;
            }
            else if (arg.EqualsUpper("ALPHA"u8))
            {
                options.Alpha = true;
            }
            else if (arg.EqualsUpper("LIMIT"u8) && left >= 2)
            {
                if (!NumberFormat.TryParseLong(_args[j + 1].Span, out options.LimitStart) || !NumberFormat.TryParseLong(_args[j + 2].Span, out options.LimitCount))
                {
                    _writer.WriteError(RespStrings.ErrNotInteger);
                    return false;
                }
                j += 2;
            }
            else if (!readOnly && arg.EqualsUpper("STORE"u8) && left >= 1)
            {
                options.Store = ++j;
            }
            else if (arg.EqualsUpper("BY"u8) && left >= 1)
            {
                options.By = ++j;
                // A pattern without '*' names no per-element key: nothing to sort by (BY nosort).
                if (_args[j].Span.IndexOf((byte)'*') < 0)
                    options.DontSort = true;
            }
            else if (arg.EqualsUpper("GET"u8) && left >= 1)
            {
                (options.Gets ??= new()).Add(++j);
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return false;
            }
        }
        return true;
    }

    /// <summary>
    /// Sorts numerically (ties by the element's bytes) or, with ALPHA, by bytes; by the element or
    /// by the BY pattern's value. False if a numeric sort met a value that is not a number.
    /// </summary>
    private bool TrySortEntries(SortEntry[] entries, ref SortOptions options)
    {
        bool byPattern = options.By != 0;
        for (int i = 0; i < entries.Length; i++)
        {
            byte[]? by = byPattern ? LookupSortPattern(_args[options.By], entries[i].Element) : entries[i].Element;
            if (options.Alpha)
            {
                entries[i].CompareBy = by;
            }
            else if (by != null)
            {
                if (!TryParseSortScore(by, out entries[i].Score))
                    return false;
            }
        }

        bool alpha = options.Alpha;
        int direction = options.Descending ? -1 : 1;
        Array.Sort(entries, (a, b) =>
        {
            int cmp;
            if (!alpha)
            {
                cmp = a.Score.CompareTo(b.Score);
                if (cmp == 0)
                    cmp = a.Element.AsSpan().SequenceCompareTo(b.Element);
            }
            else if (a.CompareBy == null || b.CompareBy == null)
            {
                // A missing BY value sorts first.
                cmp = a.CompareBy == b.CompareBy ? 0 : a.CompareBy == null ? -1 : 1;
            }
            else
            {
                cmp = a.CompareBy.AsSpan().SequenceCompareTo(b.CompareBy);
            }
            cmp = Math.Sign(cmp) * direction;
            // Equal keys keep their original order, so the result does not depend on the sort algorithm.
            return cmp != 0 ? cmp : a.Index.CompareTo(b.Index);
        });
        return true;
    }

    /// <summary>A sort score as Redis's strtod reads it: leading spaces allowed, empty text is 0, NaN refused.</summary>
    private static bool TryParseSortScore(byte[] text, out double score)
    {
        var span = text.AsSpan();
        int skip = 0;
        while (skip < span.Length && (span[skip] == ' ' || (span[skip] >= '\t' && span[skip] <= '\r')))
            skip++;
        if (skip == span.Length)
        {
            score = 0;
            return skip == 0;
        }
        return NumberFormat.TryParseDouble(span.Slice(skip), out score);
    }

    /// <summary>
    /// Redis's lookupKeyByPattern: "#" is the element itself; otherwise the first '*' is replaced by
    /// the element to name a key, whose string value is returned, or with "-&gt;field" after the '*'
    /// the field of the hash at that key. Null when the pattern has no '*', the key is missing or of
    /// another type, or the field is missing.
    /// </summary>
    private byte[]? LookupSortPattern(in ArgSlice pattern, byte[] element)
    {
        var text = pattern.Span;
        if (text.Length == 1 && text[0] == (byte)'#')
            return element;
        int star = text.IndexOf((byte)'*');
        if (star < 0)
            return null;

        int arrow = text.Slice(star + 1).IndexOf("->"u8);
        int fieldLength = 0;
        if (arrow >= 0)
        {
            arrow += star + 1;
            fieldLength = text.Length - arrow - 2;
        }
        int postfixEnd = fieldLength > 0 ? arrow : text.Length;
        var postfix = text.Slice(star + 1, postfixEnd - star - 1);

        var key = new byte[star + element.Length + postfix.Length];
        text.Slice(0, star).CopyTo(key);
        element.CopyTo(key.AsSpan(star));
        postfix.CopyTo(key.AsSpan(star + element.Length));

        if (fieldLength > 0)
            return ReadHashFieldForSort(key, new ArgSlice(pattern.Pointer + arrow + 2, fieldLength));
        return ReadStringForSort(key);
    }

    /// <summary>The string value at <paramref name="key"/>, or null if it is missing or holds an object.</summary>
    private byte[]? ReadStringForSort(ReadOnlySpan<byte> key)
    {
        var probe = new ObjectInput(RespCommand.NONE, GarnetObjectType.None, _args, 0, 0) { Operation = ObjectOperation.Reference };
        var probeOutput = new ObjectOutput();
        var probeStatus = ObjectStore.Read(key, ref probe, ref probeOutput);
        if (probeStatus.Found && probeOutput.Result == ObjectResult.Ok)
            return null;

        var output = default(StringOutput);
        var status = ReadString(key, RespCommand.GET, ref output);
        return status.Found && output.HasValue ? Output.Span.ToArray() : null;
    }

    /// <summary>The value of <paramref name="field"/> in the hash at <paramref name="key"/> (HGET), or null.</summary>
    private byte[]? ReadHashFieldForSort(ReadOnlySpan<byte> key, ArgSlice field)
    {
        var args = new[] { field };
        var input = new ObjectInput(RespCommand.HGET, GarnetObjectType.Hash, args, 0, 1);
        var output = NewObjectOutput();
        var status = ObjectRead(key, ref input, ref output);
        if (!status.Found || output.Result != ObjectResult.Ok)
            return null;
        output.Writer.Flush();
        var reply = ObjectReplies.Written;
        byte[]? value = null;
        // HGET replies a bulk string ("$3\r\nabc\r\n") or nil ("$-1\r\n", "_\r\n").
        if (reply.Length > 0 && reply[0] == (byte)'$')
        {
            int lineEnd = reply.IndexOf((byte)'\r');
            if (lineEnd > 1 && NumberFormat.TryParseInt(reply.Slice(1, lineEnd - 1), out int length) && length >= 0)
                value = reply.Slice(lineEnd + 2, length).ToArray();
        }
        ObjectReplies.Reset();
        return value;
    }
}
