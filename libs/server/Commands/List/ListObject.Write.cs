using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>The list commands that change the list; each keeps <see cref="GarnetObject.HeapSize"/> current.</summary>
public sealed partial class ListObject
{
    /// <summary>
    /// LPUSH/RPUSH/LPUSHX/RPUSHX key element...; with <see cref="ObjectInput.Element"/> set, pushes just
    /// that element (LMOVE's destination). Replies the new length.
    /// </summary>
    private void PushCommand(ref ObjectInput input, ref ObjectOutput output, bool toLeft, bool onlyIfExists)
    {
        if (onlyIfExists && _count == 0)
        {
            output.Writer.WriteInteger(0);
            return;
        }
        if (input.Element != null)
        {
            ConvertForGrowth(input.Element.Length, 1, input.Limits);
            Push(input.Element, toLeft);
        }
        else
        {
            long bytes = 0;
            for (int i = 0; i < input.ArgCount; i++)
                bytes += input.Arg(i).Length;
            ConvertForGrowth(bytes, input.ArgCount, input.Limits);
            EnsureRoom(input.ArgCount);
            for (int i = 0; i < input.ArgCount; i++)
                Push(input.Arg(i).ToArray(), toLeft);
        }
        UpdateHeapSize();
        output.Number = _count;
        output.Writer.WriteInteger(_count);
    }

    /// <summary>
    /// LPOP/RPOP key [count]. Without a count: a bulk or nil, and the element in
    /// <see cref="ObjectOutput.Element"/>. With one: an array, or a nil array for a missing key.
    /// </summary>
    private void PopCommand(ref ObjectInput input, ref ObjectOutput output, bool fromLeft)
    {
        if (input.ArgCount == 0)
        {
            if (_count == 0)
            {
                output.Element = null;
                output.Writer.WriteNull();
                return;
            }
            var element = Pop(fromLeft);
            ShrinkIfSparse();
            UpdateHeapSize();
            ConvertForShrinking(input.Limits);
            output.Element = element;
            output.Number = 1;
            output.Writer.WriteBulk(element);
            return;
        }

        if (!ListArguments.TryParsePopCount(input.Arg(0), out long count))
        {
            output.Writer.WriteError(ListStrings.ErrMustBePositive);
            return;
        }
        if (_count == 0)
        {
            output.Writer.WriteNullArray();
            return;
        }
        WritePopped(ref output, (int)Math.Min(count, _count), fromLeft);
        ConvertForShrinking(input.Limits);
    }

    /// <summary>Pops <paramref name="n"/> elements and writes them as an array; <see cref="ObjectOutput.Number"/> = n.</summary>
    private void WritePopped(ref ObjectOutput output, int n, bool fromLeft)
    {
        output.Writer.WriteArrayHeader(n);
        for (int i = 0; i < n; i++)
            output.Writer.WriteBulk(Pop(fromLeft));
        ShrinkIfSparse();
        UpdateHeapSize();
        output.Number = n;
    }

    /// <summary>
    /// LMPOP on one key: pops up to <see cref="ObjectInput.Number"/> elements from the left
    /// (<see cref="ObjectInput.Flags"/> 0) or right (1), writing only the inner array; nothing when empty.
    /// </summary>
    private void MultiPopCommand(ref ObjectInput input, ref ObjectOutput output)
    {
        output.Number = 0;
        if (_count == 0 || input.Number <= 0)
            return;
        WritePopped(ref output, (int)Math.Min(input.Number, _count), fromLeft: input.Flags == 0);
        ConvertForShrinking(input.Limits);
    }

    /// <summary>
    /// LMOVE key key from to / RPOPLPUSH key key with the same source and destination: moves one element
    /// between the ends (the session runs different keys as a pop and a push).
    /// </summary>
    private void RotateCommand(ref ObjectInput input, ref ObjectOutput output)
    {
        bool fromLeft = false, toLeft = true;
        if (input.Command == RespCommand.LMOVE
            && (!ListArguments.TryParseSide(input.Arg(1), out fromLeft) || !ListArguments.TryParseSide(input.Arg(2), out toLeft)))
        {
            output.Writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        if (_count == 0)
        {
            output.Writer.WriteNull();
            return;
        }
        // Redis pops, checks the push (which may convert), pushes, then checks the shrink.
        var element = Pop(fromLeft);
        ConvertForGrowth(element.Length, 1, input.Limits);
        Push(element, toLeft);
        ConvertForShrinking(input.Limits);
        output.Element = element;
        output.Writer.WriteBulk(element);
    }

    /// <summary>LSET key index element: as in Redis the key is looked up before the index is parsed.</summary>
    private void SetCommand(ref ObjectInput input, ref ObjectOutput output)
    {
        if (_count == 0)
        {
            output.Writer.WriteError(RespStrings.ErrNoSuchKey);
            return;
        }
        if (!NumberFormat.TryParseLong(input.Arg(0), out long index))
        {
            output.Writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        // Redis checks the growth before it knows whether the index is in range.
        ConvertForGrowth(input.Arg(1).Length, 1, input.Limits);
        int position = ResolveIndex(index);
        if (position < 0)
        {
            output.Writer.WriteError(ListStrings.ErrIndexOutOfRange);
            return;
        }
        var element = input.Arg(1).ToArray();
        _elementBytes += element.Length - At(position).Length;
        _listpackBytes += EntryBytes(element) - EntryBytes(At(position));
        SetAt(position, element);
        UpdateHeapSize();
        ConvertForShrinking(input.Limits);
        output.Writer.WriteOk();
    }

    /// <summary>LINSERT key BEFORE|AFTER pivot element: the new length, -1 without the pivot, 0 for a missing key.</summary>
    private void InsertCommand(ref ObjectInput input, ref ObjectOutput output)
    {
        if (!ListArguments.TryParseWhere(input.Arg(0), out bool before))
        {
            output.Writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        if (_count == 0)
        {
            output.Writer.WriteInteger(0);
            return;
        }
        // Redis converts before it looks for the pivot, so even an insert that finds none may convert.
        ConvertForGrowth(input.Arg(2).Length, 1, input.Limits);
        var pivot = input.Arg(1);
        for (int i = 0; i < _count; i++)
        {
            if (pivot.SequenceEqual(At(i)))
            {
                InsertAt(before ? i : i + 1, input.Arg(2).ToArray());
                UpdateHeapSize();
                output.Writer.WriteInteger(_count);
                return;
            }
        }
        output.Writer.WriteInteger(-1);
    }

    /// <summary>LREM key count element: removes the first count (from the tail if negative, all if 0) equal elements.</summary>
    private void RemoveCommand(ref ObjectInput input, ref ObjectOutput output)
    {
        if (!NumberFormat.TryParseLong(input.Arg(0), out long count))
        {
            output.Writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        var element = input.Arg(1);
        bool fromTail = count < 0;
        long limit = count == 0 ? long.MaxValue : count == long.MinValue ? long.MaxValue : Math.Abs(count);
        long removed = 0;

        // One compaction pass in the direction of removal: kept elements slide over removed ones.
        int kept = 0;
        for (int k = 0; k < _count; k++)
        {
            int index = fromTail ? _count - 1 - k : k;
            var current = At(index);
            if (removed < limit && element.SequenceEqual(current))
            {
                removed++;
                _elementBytes -= current.Length;
                _listpackBytes -= EntryBytes(current);
                continue;
            }
            SetAt(fromTail ? _count - 1 - kept : kept, current);
            kept++;
        }
        if (removed > 0)
        {
            // Clear the vacated slots (at the head when compacting toward the tail).
            for (int k = kept; k < _count; k++)
                SetAt(fromTail ? _count - 1 - k : k, null!);
            if (fromTail)
                _head = (_head + (_count - kept)) & Mask;
            _count = kept;
            ShrinkIfSparse();
            UpdateHeapSize();
            ConvertForShrinking(input.Limits);
        }
        output.Number = removed;
        output.Writer.WriteInteger(removed);
    }

    /// <summary>LTRIM key start stop: keeps only the range (a missing key answers OK).</summary>
    private void TrimCommand(ref ObjectInput input, ref ObjectOutput output)
    {
        if (!NumberFormat.TryParseLong(input.Arg(0), out long start) || !NumberFormat.TryParseLong(input.Arg(1), out long stop))
        {
            output.Writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        if (_count > 0)
        {
            if (ResolveRange(start, stop, out int first, out int last))
                Trim(first, _count - 1 - last);
            else
                Trim(_count, 0);
            UpdateHeapSize();
            ConvertForShrinking(input.Limits);
        }
        output.Writer.WriteOk();
    }
}
