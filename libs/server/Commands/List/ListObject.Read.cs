using System;
using System.Collections.Generic;
using Garnet.common;

namespace Garnet.server;

/// <summary>The command switch and the read-only list commands (LLEN, LRANGE, LINDEX, LPOS), which must not change anything.</summary>
public sealed partial class ListObject
{
    public override void Operate(ref ObjectInput input, ref ObjectOutput output)
    {
        switch (input.Command)
        {
            case RespCommand.LPUSH: PushCommand(ref input, ref output, toLeft: true, onlyIfExists: false); break;
            case RespCommand.RPUSH: PushCommand(ref input, ref output, toLeft: false, onlyIfExists: false); break;
            case RespCommand.LPUSHX: PushCommand(ref input, ref output, toLeft: true, onlyIfExists: true); break;
            case RespCommand.RPUSHX: PushCommand(ref input, ref output, toLeft: false, onlyIfExists: true); break;
            case RespCommand.LPOP: PopCommand(ref input, ref output, fromLeft: true); break;
            case RespCommand.RPOP: PopCommand(ref input, ref output, fromLeft: false); break;
            case RespCommand.LLEN: LengthCommand(ref output); break;
            case RespCommand.LRANGE: RangeCommand(ref input, ref output); break;
            case RespCommand.LINDEX: IndexCommand(ref input, ref output); break;
            case RespCommand.LSET: SetCommand(ref input, ref output); break;
            case RespCommand.LINSERT: InsertCommand(ref input, ref output); break;
            case RespCommand.LREM: RemoveCommand(ref input, ref output); break;
            case RespCommand.LTRIM: TrimCommand(ref input, ref output); break;
            case RespCommand.LPOS: PositionCommand(ref input, ref output); break;
            case RespCommand.LMOVE: RotateCommand(ref input, ref output); break;
            case RespCommand.RPOPLPUSH: RotateCommand(ref input, ref output); break;
            case RespCommand.LMPOP: MultiPopCommand(ref input, ref output); break;
            default: throw new InvalidOperationException($"{input.Command} is not a list command.");
        }
    }

    private void LengthCommand(ref ObjectOutput output)
    {
        output.Number = _count;
        output.Writer.WriteInteger(_count);
    }

    /// <summary>LRANGE key start stop (the session checked both are integers).</summary>
    private void RangeCommand(ref ObjectInput input, ref ObjectOutput output)
    {
        if (!NumberFormat.TryParseLong(input.Arg(0), out long start) || !NumberFormat.TryParseLong(input.Arg(1), out long stop))
        {
            output.Writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        if (!ResolveRange(start, stop, out int first, out int last))
        {
            output.Writer.WriteArrayHeader(0);
            return;
        }
        output.Writer.WriteArrayHeader(last - first + 1);
        for (int i = first; i <= last; i++)
            output.Writer.WriteBulk(At(i));
    }

    /// <summary>LINDEX key index: as in Redis the key is looked up before the index is parsed.</summary>
    private void IndexCommand(ref ObjectInput input, ref ObjectOutput output)
    {
        if (_count == 0)
        {
            output.Writer.WriteNull();
            return;
        }
        if (!NumberFormat.TryParseLong(input.Arg(0), out long index))
        {
            output.Writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        int position = ResolveIndex(index);
        if (position < 0)
            output.Writer.WriteNull();
        else
            output.Writer.WriteBulk(At(position));
    }

    /// <summary>LPOS key element [RANK rank] [COUNT count] [MAXLEN len] (the session validated the options).</summary>
    private void PositionCommand(ref ObjectInput input, ref ObjectOutput output)
    {
        if (!ListArguments.TryParseLposOptions(in input, 1, out var options, out var error))
        {
            output.Writer.WriteError(error);
            return;
        }
        var element = input.Arg(0);
        bool fromTail = options.Rank < 0;
        long skip = Math.Abs(options.Rank) - 1;
        long wanted = options.Count == -1 ? 1 : options.Count;
        long scanLimit = options.MaxLength == 0 ? _count : Math.Min(options.MaxLength, _count);

        int single = -1;
        List<int>? matches = options.Count == -1 ? null : new List<int>();
        long found = 0;
        for (int k = 0; k < scanLimit; k++)
        {
            int index = fromTail ? _count - 1 - k : k;
            if (!element.SequenceEqual(At(index)))
                continue;
            if (skip > 0)
            {
                skip--;
                continue;
            }
            if (matches == null)
                single = index;
            else
                matches.Add(index);
            if (++found == wanted)
                break;
        }

        if (matches == null)
        {
            if (single < 0)
                output.Writer.WriteNull();
            else
                output.Writer.WriteInteger(single);
            return;
        }
        output.Writer.WriteArrayHeader(matches.Count);
        foreach (int index in matches)
            output.Writer.WriteInteger(index);
    }
}
