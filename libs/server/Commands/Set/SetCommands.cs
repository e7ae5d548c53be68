using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The set commands: argument checks Redis makes before the key lookup, then the engine operation.
/// Single-key commands run in <see cref="SetObject"/>; the multi-key ones are in SetCommands.Multi.cs.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteSetCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.SADD:
            case RespCommand.SREM:
                RunObjectCommand(GarnetObjectType.Set, write: true);
                break;
            case RespCommand.SCARD:
            case RespCommand.SISMEMBER:
            case RespCommand.SMISMEMBER:
            case RespCommand.SMEMBERS:
                RunObjectCommand(GarnetObjectType.Set, write: false);
                break;
            case RespCommand.SPOP: SetPop(); break;
            case RespCommand.SRANDMEMBER: SetRandomMember(); break;
            case RespCommand.SMOVE: SetMove(); break;
            case RespCommand.SSCAN: SetScan(); break;
            case RespCommand.SINTER: SetCombine(SetOperation.Intersect, store: false); break;
            case RespCommand.SINTERSTORE: SetCombine(SetOperation.Intersect, store: true); break;
            case RespCommand.SUNION: SetCombine(SetOperation.Union, store: false); break;
            case RespCommand.SUNIONSTORE: SetCombine(SetOperation.Union, store: true); break;
            case RespCommand.SDIFF: SetCombine(SetOperation.Difference, store: false); break;
            case RespCommand.SDIFFSTORE: SetCombine(SetOperation.Difference, store: true); break;
            case RespCommand.SINTERCARD: SetInterCard(); break;
            default: throw new InvalidOperationException($"{command} is not a set command.");
        }
    }

    /// <summary>SPOP key [count]: the count is checked (integer, not negative) before the key.</summary>
    private void SetPop()
    {
        var input = NewObjectInput(GarnetObjectType.Set);
        if (!TryParseSetCount(ref input, positive: true))
            return;
        var output = NewObjectOutput();
        var status = ObjectRMW(_args[1].Span, ref input, ref output);
        CompleteObjectReply(ref output, status);
    }

    /// <summary>SRANDMEMBER key [count]: the count is checked before the key.</summary>
    private void SetRandomMember()
    {
        var input = NewObjectInput(GarnetObjectType.Set);
        if (!TryParseSetCount(ref input, positive: false))
            return;
        var output = NewObjectOutput();
        var status = ObjectRead(_args[1].Span, ref input, ref output);
        CompleteObjectReply(ref output, status);
    }

    /// <summary>The optional count of SPOP and SRANDMEMBER into the input; false after replying an error.</summary>
    private bool TryParseSetCount(ref ObjectInput input, bool positive)
    {
        if (_argCount > 3)
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return false;
        }
        if (_argCount < 3)
            return true;
        if (!NumberFormat.TryParseLong(_args[2].Span, out long count))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return false;
        }
        if (positive && count < 0)
        {
            _writer.WriteError(SetStrings.ErrMustBePositive);
            return false;
        }
        if (count == long.MinValue)
        {
            _writer.WriteError(SetStrings.ErrCountOutOfRange);
            return false;
        }
        input.Flags = SetObject.FlagHasCount;
        input.Number = count;
        return true;
    }

    /// <summary>
    /// SMOVE source destination member. As in Redis: an absent source answers 0 whatever the
    /// destination holds; otherwise a destination of another type answers WRONGTYPE; the same key on
    /// both sides answers whether the member is there.
    /// </summary>
    private void SetMove()
    {
        var source = _args[1].Span;
        var destination = _args[2].Span;
        if (source.SequenceEqual(destination))
        {
            var check = NewObjectInput(GarnetObjectType.Set, firstArg: 3);
            check.Flags = SetObject.MoveCheck;
            var checkOutput = NewObjectOutput();
            var checkStatus = ObjectRead(source, ref check, ref checkOutput);
            CompleteObjectReply(ref checkOutput, checkStatus);
            return;
        }

        if (ProbeSetKey(destination, out _) == ObjectResult.WrongType)
        {
            bool sourceExists = ProbeSetKey(source, out bool exists) == ObjectResult.WrongType || exists;
            if (sourceExists)
                _writer.WriteError(RespStrings.WrongType);
            else
                _writer.WriteInteger(0);
            return;
        }

        var remove = NewObjectInput(GarnetObjectType.Set, firstArg: 3);
        remove.Flags = SetObject.MoveRemove;
        // Both steps' events wait for the command's success (and an undone removal publishes nothing); then
        // they go out in Redis's order: "srem" and maybe "del" on the source, "new" and "sadd" on the destination.
        var removeOutput = NewObjectOutput();
        var removeStatus = ObjectRMWHeld(source, ref remove, ref removeOutput);
        if (!CompleteObjectReply(ref removeOutput, removeStatus))
            return;
        if (removeOutput.Number == 0)
        {
            _writer.WriteInteger(0);
            return;
        }

        var member = _args[3].Span.ToArray();
        var add = NewObjectInput(GarnetObjectType.Set, firstArg: 3);
        add.Flags = SetObject.MoveAdd;
        add.Element = member;
        var output = NewObjectOutput();
        var status = ObjectRMWHeld(destination, ref add, ref output);
        if (status.IsOutOfMemory || output.Result != ObjectResult.Ok)
        {
            // The destination changed type since the probe (the two steps are not atomic yet): put the member back.
            var undo = NewObjectInput(GarnetObjectType.Set, firstArg: 3);
            undo.Flags = SetObject.MoveAdd;
            undo.Element = member;
            var undoOutput = NewObjectOutput();
            ObjectRMWHeld(source, ref undo, ref undoOutput);
            CompleteObjectReply(ref output, status);
            return;
        }
        if (KeyspaceEventsOn)
        {
            NotifyObjectWrite(source, in remove, ref removeOutput, removeStatus, failed: false);
            NotifyObjectWrite(destination, in add, ref output, status, failed: false);
        }
        _writer.WriteInteger(1);
    }

    /// <summary>Whether <paramref name="key"/> holds a set (Ok, <paramref name="exists"/>), nothing (Ok, not exists) or another type.</summary>
    private ObjectResult ProbeSetKey(ReadOnlySpan<byte> key, out bool exists)
    {
        var input = new ObjectInput(RespCommand.NONE, GarnetObjectType.Set, _args, 0, 0) { Operation = ObjectOperation.Reference };
        var output = new ObjectOutput();
        var status = ObjectStore.Read(key, ref input, ref output);
        exists = status.Found && output.Result == ObjectResult.Ok;
        return status.Found ? output.Result : ObjectResult.Ok;
    }

    /// <summary>SSCAN key cursor [MATCH pattern] [COUNT count]: the cursor is checked first; the options by the object.</summary>
    private void SetScan()
    {
        if (!ScanCursor.TryParse(_args[2].Span, out ulong cursor))
        {
            _writer.WriteError(RespStrings.ErrInvalidCursor);
            return;
        }
        var input = NewObjectInput(GarnetObjectType.Set);
        input.Number = (long)cursor;
        var output = NewObjectOutput();
        var status = ObjectRead(_args[1].Span, ref input, ref output);
        CompleteObjectReply(ref output, status);
    }
}
