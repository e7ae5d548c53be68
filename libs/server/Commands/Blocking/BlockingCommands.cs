using System;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The blocking commands: BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP, BZPOPMIN, BZPOPMAX, BZMPOP.
/// Each tries its keys in order with the list or sorted-set pop; if all are empty it blocks
/// (<see cref="BlockOnKeys"/>), and the same code runs again, on this session, when one of its keys
/// is written (see RespServerSession.Blocking.cs).
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteBlockingCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.BLPOP:
                BlockingPop(GarnetObjectType.List, RespCommand.LPOP);
                break;
            case RespCommand.WAIT:
            case RespCommand.WAITAOF:
            case RespCommand.COMMITAOF:
                // Waiting for a commit or for replicas: what ends the wait tells the session itself (see
                // BlockUntilCommitted, Replication.AddWaiter), or the timeout does.
                _retryFoundNothing = true;
                break;
            case RespCommand.BRPOP:
                BlockingPop(GarnetObjectType.List, RespCommand.RPOP);
                break;
            case RespCommand.BZPOPMIN:
                BlockingPop(GarnetObjectType.SortedSet, RespCommand.ZPOPMIN);
                break;
            case RespCommand.BZPOPMAX:
                BlockingPop(GarnetObjectType.SortedSet, RespCommand.ZPOPMAX);
                break;
            case RespCommand.BLMOVE:
                BlockingMove();
                break;
            case RespCommand.BRPOPLPUSH:
                BlockingRightPopLeftPush();
                break;
            case RespCommand.BLMPOP:
                BlockingMultiPop(GarnetObjectType.List, RespCommand.LMPOP);
                break;
            case RespCommand.BZMPOP:
                BlockingMultiPop(GarnetObjectType.SortedSet, RespCommand.ZMPOP);
                break;
            case RespCommand.XREAD:
            case RespCommand.XREADGROUP:
                // Streams (Commands/Stream): XREAD / XREADGROUP ... BLOCK run again here when a key they wait on is written.
                StreamRead();
                break;
            default:
                throw new InvalidOperationException($"{command} is not a blocking command.");
        }
    }

    /// <summary>
    /// BLPOP / BRPOP / BZPOPMIN / BZPOPMAX key [key ...] timeout: replies [key, element] for lists,
    /// [key, member, score] for sorted sets.
    /// </summary>
    private void BlockingPop(GarnetObjectType type, RespCommand pop)
    {
        if (!TryParseBlockingTimeout(_args[_argCount - 1].Span, out long deadline))
            return;
        int keyCount = _argCount - 2;
        for (int i = 1; i <= keyCount; i++)
        {
            var key = _args[i].Span;
            var input = new ObjectInput(pop, type, _args, 0, 0);
            var output = NewObjectOutput();
            var status = ObjectRMW(key, ref input, ref output);
            if (ChangedTypeWhileWaiting(ref output))
                continue;
            if (WriteBlockingObjectError(ref output, status))
                return;
            if (output.Element == null)
                continue;
            if (type == GarnetObjectType.List)
            {
                _writer.WriteArrayHeader(2);
                _writer.WriteBulk(key);
                _writer.WriteBulk(output.Element);
            }
            else
            {
                _writer.WriteArrayHeader(3);
                _writer.WriteBulk(key);
                _writer.WriteBulk(output.Element);
                _writer.WriteDouble(output.Double);
            }
            return;
        }
        BlockOnKeys(1, keyCount, deadline);
    }

    /// <summary>BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout.</summary>
    private void BlockingMove()
    {
        if (!TryParseBlockingListEnd(_args[3], out bool fromLeft) || !TryParseBlockingListEnd(_args[4], out bool toLeft))
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        if (!TryParseBlockingTimeout(_args[5].Span, out long deadline))
            return;
        BlockingMoveCore(fromLeft, toLeft, deadline);
    }

    /// <summary>BRPOPLPUSH source destination timeout (BLMOVE ... RIGHT LEFT).</summary>
    private void BlockingRightPopLeftPush()
    {
        if (!TryParseBlockingTimeout(_args[3].Span, out long deadline))
            return;
        BlockingMoveCore(fromLeft: false, toLeft: true, deadline);
    }

    /// <summary>
    /// Pops from the source (argument 1) and pushes onto the destination (argument 2), replying the
    /// element. The two keys are not updated atomically yet: if the destination changed type between
    /// the check and the push, the element goes back where it came from.
    /// </summary>
    private void BlockingMoveCore(bool fromLeft, bool toLeft, long deadline)
    {
        var source = _args[1].Span;
        // As Redis: a source of another type, then (if the source has elements) a destination of another type, is WRONGTYPE.
        var sourceKind = LookUpListKind(source);
        if (sourceKind == ListKeyKind.Absent || (sourceKind == ListKeyKind.OtherType && _blockingRetry))
        {
            BlockOnKeys(1, 1, deadline);
            return;
        }
        if (sourceKind == ListKeyKind.OtherType || LookUpListKind(_args[2].Span) == ListKeyKind.OtherType)
        {
            _writer.WriteError(RespStrings.WrongType);
            return;
        }

        var input = new ObjectInput(fromLeft ? RespCommand.LPOP : RespCommand.RPOP, GarnetObjectType.List, _args, 0, 0);
        var popOutput = NewObjectOutput();
        // The pop's events wait for the push (Redis reports the push first) and are dropped if the pop is undone.
        var popStatus = ObjectRMWHeld(source, ref input, ref popOutput);
        if (WriteBlockingObjectError(ref popOutput, popStatus))
            return;
        var element = popOutput.Element;
        if (element == null)
        {
            BlockOnKeys(1, 1, deadline);
            return;
        }

        // Within one list Redis rotates: a push and a pop, no "del" or "new" even when the list held one element.
        bool sameKey = source.SequenceEqual(_args[2].Span);
        var push = new ObjectInput(toLeft ? RespCommand.LPUSH : RespCommand.RPUSH, GarnetObjectType.List, _args, 0, 0) { Element = element };
        var output = NewObjectOutput();
        var status = sameKey ? ObjectRMWHeld(source, ref push, ref output) : ObjectRMW(_args[2].Span, ref push, ref output);
        if (output.Result != ObjectResult.Ok || status.IsOutOfMemory)
        {
            var giveBack = new ObjectInput(fromLeft ? RespCommand.LPUSH : RespCommand.RPUSH, GarnetObjectType.List, _args, 0, 0) { Element = element };
            var ignored = NewObjectOutput();
            ObjectRMWHeld(source, ref giveBack, ref ignored);
            WriteBlockingObjectError(ref output, status);
            return;
        }
        if (!sameKey)
            NotifyListMovePop(source, in input, ref popOutput, popStatus);
        else if (KeyspaceEventsOn)
        {
            NotifyKeyspaceEvent(KeyspaceEventClasses.List, toLeft ? "lpush"u8 : "rpush"u8, source);
            NotifyKeyspaceEvent(KeyspaceEventClasses.List, fromLeft ? "lpop"u8 : "rpop"u8, source);
        }
        _writer.WriteBulk(element);
    }

    /// <summary>
    /// BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count] and
    /// BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count]: replies [key, [popped...]] from the
    /// first non-empty key. Redis checks numkeys, the direction and COUNT before the timeout.
    /// </summary>
    private void BlockingMultiPop(GarnetObjectType type, RespCommand pop)
    {
        if (!NumberFormat.TryParseLong(_args[2].Span, out long numKeys) || numKeys < 1)
        {
            _writer.WriteError("ERR numkeys should be greater than 0"u8);
            return;
        }
        if (numKeys > _argCount - 4)
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        int keyCount = (int)numKeys;
        int whereAt = 3 + keyCount;
        bool fromStart;
        if (type == GarnetObjectType.List ? !TryParseBlockingListEnd(_args[whereAt], out fromStart) : !TryParseBlockingMinMax(_args[whereAt], out fromStart))
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        long count = -1;
        for (int i = whereAt + 1; i < _argCount; i++)
        {
            if (count == -1 && _args[i].EqualsUpper("COUNT"u8) && i + 1 < _argCount)
            {
                i++;
                if (!NumberFormat.TryParseLong(_args[i].Span, out count) || count < 1)
                {
                    _writer.WriteError("ERR count should be greater than 0"u8);
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
        if (!TryParseBlockingTimeout(_args[1].Span, out long deadline))
            return;

        for (int i = 3; i < whereAt; i++)
        {
            var key = _args[i].Span;
            var input = new ObjectInput(pop, type, _args, 0, 0) { Number = count, Flags = fromStart ? 0 : 1 };
            var output = NewObjectOutput();
            var status = ObjectRMW(key, ref input, ref output);
            if (ChangedTypeWhileWaiting(ref output))
                continue;
            if (WriteBlockingObjectError(ref output, status))
                return;
            if (output.Number == 0)
                continue;
            _writer.WriteArrayHeader(2);
            _writer.WriteBulk(key);
            output.Writer.Flush();
            _writer.WriteRaw(ObjectReplies.Written);
            ObjectReplies.Reset();
            return;
        }
        BlockOnKeys(3, keyCount, deadline);
    }

    /// <summary>
    /// As Redis 7.2: a key that became another type while the client waited on it (a transaction pushed, deleted and set
    /// it) does not end the wait with WRONGTYPE; the client goes on waiting, as for a key with nothing in it.
    /// </summary>
    private bool ChangedTypeWhileWaiting(ref ObjectOutput output) => _blockingRetry && output.Result == ObjectResult.WrongType;

    /// <summary>Writes -OOM or WRONGTYPE for an object operation that did not run; returns whether it did.</summary>
    private bool WriteBlockingObjectError(ref ObjectOutput output, Status status)
    {
        if (status.IsOutOfMemory || output.Result == ObjectResult.OutOfMemory)
        {
            _writer.WriteError(RespStrings.ErrOutOfMemory);
            return true;
        }
        if (output.Result == ObjectResult.WrongType)
        {
            _writer.WriteError(RespStrings.WrongType);
            return true;
        }
        return false;
    }

    /// <summary>LEFT (true) or RIGHT (false), any case.</summary>
    private static bool TryParseBlockingListEnd(in ArgSlice arg, out bool left)
    {
        left = arg.EqualsUpper("LEFT"u8);
        return left || arg.EqualsUpper("RIGHT"u8);
    }

    /// <summary>MIN (true) or MAX (false), any case.</summary>
    private static bool TryParseBlockingMinMax(in ArgSlice arg, out bool min)
    {
        min = arg.EqualsUpper("MIN"u8);
        return min || arg.EqualsUpper("MAX"u8);
    }
}
