using System;

namespace Garnet.server;

/// <summary>The stream commands that add, delete or trim entries, and XSETID.</summary>
public sealed partial class StreamObject
{
    /// <summary>The arguments of <paramref name="input"/>'s command, the name at 0 and the key at 1.</summary>
    private static ReadOnlySpan<ArgSlice> AllArgs(in ObjectInput input) => input.Args.AsSpan(0, input.FirstArg + input.ArgCount);

    /// <summary>Milliseconds since the Unix epoch, the clock of "*" IDs.</summary>
    private static ulong NowMs() => (ulong)Expiration.NowUnixMs;

    /// <summary>
    /// XADD key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT count]] *|id field value [field value ...]:
    /// replies the new entry's ID (nil with NOMKSTREAM on an absent key). An automatic ID takes the clock's
    /// milliseconds, or the last ID's plus one sequence while the clock is behind it, so IDs never go back.
    /// </summary>
    private void XAdd(ref ObjectInput input, ref ObjectOutput output)
    {
        var args = AllArgs(in input);
        if (!StreamArguments.TryParseAddOrTrim(args, input.FirstArg, xadd: true, out var options, out var error))
        {
            output.Writer.WriteError(error);
            return;
        }
        if (!_created && options.NoMkStream)
        {
            output.Writer.WriteNull();
            return;
        }
        if (_lastId == StreamId.Max)
        {
            output.Writer.WriteError(StreamStrings.ErrExhausted);
            return;
        }

        StreamId id;
        if (options.AutoId)
        {
            ulong now = NowMs();
            if (now > _lastId.Ms)
                id = new StreamId(now, 0);
            else
                _lastId.TryIncrement(out id);
        }
        else if (options.AutoSeq)
        {
            if (options.Id.Ms == _lastId.Ms)
            {
                if (_lastId.Seq == ulong.MaxValue)
                {
                    output.Writer.WriteError(StreamStrings.ErrIdNotGreater);
                    return;
                }
                id = new StreamId(_lastId.Ms, _lastId.Seq + 1);
            }
            else
            {
                id = options.Id;
            }
        }
        else
        {
            id = options.Id;
        }
        if (id <= _lastId)
        {
            output.Writer.WriteError(StreamStrings.ErrIdNotGreater);
            return;
        }

        Append(id, args.Slice(options.IdIndex + 1));
        WriteId(ref output.Writer, id);
        output.Trimmed = Trim(in options.Trim) > 0; // an "xtrim" event after the "xadd" one
    }

    /// <summary>XDEL key id [id ...]: IDs are checked once the key is found, as Redis does.</summary>
    private void XDel(ref ObjectInput input, ref ObjectOutput output)
    {
        if (!_created)
        {
            output.Writer.WriteInteger(0);
            return;
        }
        for (int i = 0; i < input.ArgCount; i++)
        {
            if (!StreamId.TryParseStrict(input.Arg(i), 0, out _, out bool autoSeq) || autoSeq)
            {
                output.Writer.WriteError(StreamStrings.ErrInvalidId);
                return;
            }
        }
        long deleted = 0;
        bool firstDeleted = false;
        for (int i = 0; i < input.ArgCount; i++)
        {
            StreamId.TryParseStrict(input.Arg(i), 0, out var id, out _);
            if (!Delete(id))
                continue;
            deleted++;
            firstDeleted |= id == _firstId;
            if (id > _maxDeletedId)
                _maxDeletedId = id;
        }
        if (firstDeleted)
            UpdateFirstId();
        output.Writer.WriteInteger(deleted);
    }

    /// <summary>XTRIM key MAXLEN|MINID [=|~] threshold [LIMIT count]: replies the number of entries removed.</summary>
    private void XTrim(ref ObjectInput input, ref ObjectOutput output)
    {
        if (!StreamArguments.TryParseAddOrTrim(AllArgs(in input), input.FirstArg, xadd: false, out var options, out var error))
        {
            output.Writer.WriteError(error);
            return;
        }
        output.Writer.WriteInteger(_created ? Trim(in options.Trim) : 0);
    }

    /// <summary>XSETID key last-id [ENTRIESADDED entries-added] [MAXDELETEDID max-deleted-id].</summary>
    private void XSetId(ref ObjectInput input, ref ObjectOutput output)
    {
        if (!StreamArguments.TryParseSetId(AllArgs(in input), out var id, out long entriesAdded, out var maxDeleted, out var error))
        {
            output.Writer.WriteError(error);
            return;
        }
        if (!_created)
        {
            output.Writer.WriteError(StreamStrings.ErrNoSuchKey);
            return;
        }
        if (_length > 0)
        {
            if (id < LastValidId())
            {
                output.Writer.WriteError(StreamStrings.ErrSetIdSmallerThanTop);
                return;
            }
            if (entriesAdded != -1 && _length > entriesAdded)
            {
                output.Writer.WriteError(StreamStrings.ErrEntriesAddedSmallerThanLength);
                return;
            }
        }
        _lastId = id;
        if (entriesAdded != -1)
            _entriesAdded = entriesAdded;
        if (!maxDeleted.IsZero)
            _maxDeletedId = maxDeleted;
        output.Writer.WriteOk();
    }

    /// <summary>Writes <paramref name="id"/> as a bulk string.</summary>
    private static void WriteId(ref Garnet.common.RespWriter writer, StreamId id)
    {
        Span<byte> text = stackalloc byte[StreamId.MaxTextLength];
        writer.WriteBulk(text.Slice(0, id.Format(text)));
    }
}
