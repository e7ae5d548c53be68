using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The list commands, session side: argument checks that Redis makes before the key lookup (so they
/// win over WRONGTYPE and missing-key replies), then the operation on the <see cref="ListObject"/>.
/// Multi-key commands (LMOVE, RPOPLPUSH, LMPOP) run as several single-key operations.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteListCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.LPUSH:
            case RespCommand.RPUSH:
            case RespCommand.LPUSHX:
            case RespCommand.RPUSHX:
            case RespCommand.LSET:
                RunObjectCommand(GarnetObjectType.List, write: true);
                break;
            case RespCommand.LLEN:
            case RespCommand.LINDEX:
                RunListRead();
                break;
            case RespCommand.LPOP:
            case RespCommand.RPOP: ListPop(); break;
            case RespCommand.LRANGE:
                if (CheckListIntegers(2, 3))
                    RunListRead();
                break;
            case RespCommand.LTRIM:
                if (CheckListIntegers(2, 3))
                    RunObjectCommand(GarnetObjectType.List, write: true);
                break;
            case RespCommand.LREM:
                if (CheckListIntegers(2, 2))
                    RunObjectCommand(GarnetObjectType.List, write: true);
                break;
            case RespCommand.LINSERT: ListInsert(); break;
            case RespCommand.LPOS: ListPosition(); break;
            case RespCommand.LMOVE: ListMoveCommand(); break;
            case RespCommand.RPOPLPUSH: ListMove(fromLeft: false, toLeft: true); break;
            case RespCommand.LMPOP: ListMultiPop(); break;
            default: throw new InvalidOperationException($"{command} is not a list command.");
        }
    }

    /// <summary>Whether arguments <paramref name="first"/>..<paramref name="last"/> are integers; if not, the error is sent.</summary>
    private bool CheckListIntegers(int first, int last)
    {
        for (int i = first; i <= last; i++)
        {
            if (!NumberFormat.TryParseLong(_args[i].Span, out _))
            {
                _writer.WriteError(RespStrings.ErrNotInteger);
                return false;
            }
        }
        return true;
    }

    /// <summary>LPOP/RPOP key [count]: at most one count, which must be a non-negative integer.</summary>
    private void ListPop()
    {
        if (_argCount > 3)
        {
            WriteWrongArity(CurrentCommand.LowerName);
            return;
        }
        if (_argCount == 3 && !ListArguments.TryParsePopCount(_args[2].Span, out _))
        {
            _writer.WriteError(ListStrings.ErrMustBePositive);
            return;
        }
        RunObjectCommand(GarnetObjectType.List, write: true);
    }

    /// <summary>LINSERT key BEFORE|AFTER pivot element: a bad position is a syntax error before the lookup.</summary>
    private void ListInsert()
    {
        if (!ListArguments.TryParseWhere(_args[2].Span, out _))
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        RunObjectCommand(GarnetObjectType.List, write: true);
    }

    /// <summary>LPOS key element [RANK rank] [COUNT count] [MAXLEN len]: options are validated before the lookup.</summary>
    private void ListPosition()
    {
        var input = NewObjectInput(GarnetObjectType.List);
        if (!ListArguments.TryParseLposOptions(in input, 1, out _, out var error))
        {
            _writer.WriteError(error);
            return;
        }
        RunListRead();
    }

    /// <summary>A read-only list command on the key at argument 1, counted in the keyspace hits or misses as Redis counts reads.</summary>
    private void RunListRead()
    {
        var input = NewObjectInput(GarnetObjectType.List);
        var output = NewObjectOutput();
        var status = ObjectRead(_args[1].Span, ref input, ref output);
        CountLookup(status.Found);
        CompleteObjectReply(ref output, status);
    }

    /// <summary>LMOVE source destination LEFT|RIGHT LEFT|RIGHT.</summary>
    private void ListMoveCommand()
    {
        if (!ListArguments.TryParseSide(_args[3].Span, out bool fromLeft) || !ListArguments.TryParseSide(_args[4].Span, out bool toLeft))
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        ListMove(fromLeft, toLeft);
    }

    /// <summary>
    /// Moves one element from the source list to the destination list and replies it (nil when the
    /// source is missing). As in Redis, a destination of another type answers WRONGTYPE before anything
    /// is popped. The same key rotates within one operation.
    /// </summary>
    private void ListMove(bool fromLeft, bool toLeft)
    {
        var source = _args[1].Span;
        var destination = _args[2].Span;
        if (source.SequenceEqual(destination))
        {
            RunObjectCommand(GarnetObjectType.List, write: true);
            return;
        }

        // LMOVE may grow the destination, so it is refused over the memory budget before anything is
        // popped (the pop alone would be allowed, and the push then refused).
        if (Objects.OverBudget)
        {
            _writer.WriteError(RespStrings.ErrOutOfMemory);
            return;
        }

        var sourceKind = LookUpListKind(source);
        if (sourceKind == ListKeyKind.OtherType)
        {
            _writer.WriteError(RespStrings.WrongType);
            return;
        }
        if (sourceKind == ListKeyKind.Absent)
        {
            _writer.WriteNull();
            return;
        }
        if (LookUpListKind(destination) == ListKeyKind.OtherType)
        {
            _writer.WriteError(RespStrings.WrongType);
            return;
        }

        var popInput = new ObjectInput(fromLeft ? RespCommand.LPOP : RespCommand.RPOP, GarnetObjectType.List, _args, 2, 0);
        var popOutput = NewObjectOutput();
        // The pop's events wait for the push (Redis reports the push first) and are dropped if the pop is undone.
        var popStatus = ObjectRMWHeld(source, ref popInput, ref popOutput);
        var status = popStatus;
        if (status.IsOutOfMemory || popOutput.Result != ObjectResult.Ok)
        {
            CompleteObjectReply(ref popOutput, status);
            return;
        }
        var element = popOutput.Element;
        if (element == null)
        {
            _writer.WriteNull();
            return;
        }

        var pushInput = new ObjectInput(toLeft ? RespCommand.LPUSH : RespCommand.RPUSH, GarnetObjectType.List, _args, 3, 0) { Element = element };
        var pushOutput = NewObjectOutput();
        status = ObjectRMW(destination, ref pushInput, ref pushOutput);
        if (status.IsOutOfMemory || pushOutput.Result != ObjectResult.Ok)
        {
            // Not atomic yet: the destination changed type (or memory ran out) between the check and the
            // push. Put the element back where it came from rather than lose it.
            var restoreInput = new ObjectInput(fromLeft ? RespCommand.LPUSH : RespCommand.RPUSH, GarnetObjectType.List, _args, 3, 0) { Element = element };
            var restoreOutput = NewObjectOutput();
            ObjectRMWHeld(source, ref restoreInput, ref restoreOutput);
            ObjectReplies.Reset();
            CompleteObjectReply(ref pushOutput, status);
            return;
        }
        NotifyListMovePop(source, in popInput, ref popOutput, popStatus);
        ObjectReplies.Reset();
        _writer.WriteBulk(element);
    }

    private enum ListKeyKind : byte
    {
        Absent,
        List,
        OtherType,
    }

    /// <summary>Whether <paramref name="key"/> holds a list, another type, or nothing. Reads the record only; the object is not copied.</summary>
    private ListKeyKind LookUpListKind(ReadOnlySpan<byte> key)
    {
        var input = new ObjectInput(RespCommand.NONE, GarnetObjectType.List, _args, 0, 0) { Operation = ObjectOperation.Reference };
        var output = new ObjectOutput();
        var status = ObjectStore.Read(key, ref input, ref output);
        if (!status.Found)
            return ListKeyKind.Absent;
        return output.Result == ObjectResult.Ok ? ListKeyKind.List : ListKeyKind.OtherType;
    }

    /// <summary>LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count]: pops from the first non-empty list.</summary>
    private void ListMultiPop()
    {
        if (!NumberFormat.TryParseLong(_args[1].Span, out long numKeys) || numKeys < 1)
        {
            _writer.WriteError(ListStrings.ErrNumKeys);
            return;
        }
        if (numKeys >= _argCount - 2)
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        int whereIndex = 2 + (int)numKeys;
        if (!ListArguments.TryParseSide(_args[whereIndex].Span, out bool fromLeft))
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        long count = -1;
        for (int i = whereIndex + 1; i < _argCount; i++)
        {
            if (count == -1 && i + 1 < _argCount && _args[i].EqualsUpper("COUNT"u8))
            {
                i++;
                if (!NumberFormat.TryParseLong(_args[i].Span, out count) || count < 1)
                {
                    _writer.WriteError(ListStrings.ErrCountNotPositive);
                    return;
                }
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }
        if (count == -1)
            count = 1;

        for (int k = 0; k < numKeys; k++)
        {
            var key = _args[2 + k].Span;
            var input = new ObjectInput(RespCommand.LMPOP, GarnetObjectType.List, _args, whereIndex, 0)
            {
                Number = count,
                Flags = fromLeft ? 0 : 1,
            };
            var output = NewObjectOutput();
            var status = ObjectRMW(key, ref input, ref output);
            if (status.IsOutOfMemory || output.Result != ObjectResult.Ok)
            {
                CompleteObjectReply(ref output, status);
                return;
            }
            if (output.Number > 0)
            {
                _writer.WriteArrayHeader(2);
                _writer.WriteBulk(key);
                CompleteObjectReply(ref output, status);
                return;
            }
        }
        ObjectReplies.Reset();
        _writer.WriteNullArray();
    }
}
