using System;
using System.Collections.Generic;
using Garnet.common;

namespace Garnet.server;

/// <summary>The single-key set commands run on the object (the session parses what must fail before the key lookup).</summary>
public sealed partial class SetObject
{
    /// <summary><see cref="ObjectInput.Flags"/> of SPOP and SRANDMEMBER: a count argument was given (in <see cref="ObjectInput.Number"/>).</summary>
    internal const int FlagHasCount = 1;

    /// <summary><see cref="ObjectInput.Flags"/> of SMOVE's steps: remove argument 0 from the source and reply 1/0.</summary>
    internal const int MoveRemove = 0;

    /// <summary>SMOVE's step on the destination: add <see cref="ObjectInput.Element"/>, reply nothing.</summary>
    internal const int MoveAdd = 1;

    /// <summary>SMOVE with the same source and destination: reply whether argument 0 is a member.</summary>
    internal const int MoveCheck = 2;

    public override void Operate(ref ObjectInput input, ref ObjectOutput output)
    {
        ref var writer = ref output.Writer;
        switch (input.Command)
        {
            case RespCommand.SADD: AddMembers(ref input, ref writer); break;
            case RespCommand.SREM: RemoveMembers(ref input, ref writer); break;
            case RespCommand.SCARD: writer.WriteInteger(_count); break;
            case RespCommand.SISMEMBER: writer.WriteInteger(Contains(input.Arg(0)) ? 1 : 0); break;
            case RespCommand.SMISMEMBER: AreMembers(ref input, ref writer); break;
            case RespCommand.SMEMBERS: WriteMembers(ref writer); break;
            case RespCommand.SPOP: Pop(ref input, ref output); break;
            case RespCommand.SRANDMEMBER: RandomMembers(ref input, ref writer); break;
            case RespCommand.SMOVE: Move(ref input, ref output); break;
            case RespCommand.SSCAN: Scan(ref input, ref writer); break;
            default: throw new InvalidOperationException($"{input.Command} is not a single-key set command.");
        }
    }

    /// <summary>Writes the members as a set reply (RESP3 <c>~</c>, RESP2 array).</summary>
    public void WriteMembers(ref RespWriter writer)
    {
        writer.WriteSetHeader(_count);
        for (int i = 0; i < _count; i++)
            writer.WriteBulk(_members[i]);
    }

    private void AddMembers(ref ObjectInput input, ref RespWriter writer)
    {
        var limits = input.Limits;
        PrepareForAdding(input.Arg(0), input.ArgCount, limits);
        if (_count == 0)
            EnsureCapacity(input.ArgCount);
        int added = 0;
        for (int i = 0; i < input.ArgCount; i++)
        {
            if (Add(input.Arg(i)))
            {
                added++;
                NoteAdded(input.Arg(i), limits);
            }
        }
        writer.WriteInteger(added);
    }

    private void RemoveMembers(ref ObjectInput input, ref RespWriter writer)
    {
        int removed = 0;
        for (int i = 0; i < input.ArgCount && _count != 0; i++)
        {
            if (Remove(input.Arg(i)))
                removed++;
        }
        writer.WriteInteger(removed);
    }

    private void AreMembers(ref ObjectInput input, ref RespWriter writer)
    {
        writer.WriteArrayHeader(input.ArgCount);
        for (int i = 0; i < input.ArgCount; i++)
            writer.WriteInteger(Contains(input.Arg(i)) ? 1 : 0);
    }

    /// <summary>SPOP: one member (bulk or nil, also in <see cref="ObjectOutput.Element"/>) or up to a count of them as a set.</summary>
    private void Pop(ref ObjectInput input, ref ObjectOutput output)
    {
        ref var writer = ref output.Writer;
        if ((input.Flags & FlagHasCount) == 0)
        {
            if (_count == 0)
            {
                writer.WriteNull();
                return;
            }
            int index = RandomIndex();
            var member = _members[index];
            writer.WriteBulk(member);
            output.Element = member;
            output.Number = 1;
            RemoveAt(index);
            return;
        }

        long count = input.Number;
        if (count == 0 || _count == 0)
        {
            writer.WriteSetHeader(0);
            return;
        }
        if (count >= _count)
        {
            output.Number = _count;
            WriteMembers(ref writer);
            Clear();
            return;
        }
        // Redis's strategy for a count close to the size rebuilds the set from the members left (see NoteRebuiltByPop).
        bool rebuilt = (_count - count) * 5 <= count;
        writer.WriteSetHeader((int)count);
        for (long i = 0; i < count; i++)
        {
            int index = RandomIndex();
            writer.WriteBulk(_members[index]);
            RemoveAt(index);
        }
        if (rebuilt)
            NoteRebuiltByPop(input.Limits);
        output.Number = count;
    }

    /// <summary>
    /// SRANDMEMBER: one member (bulk or nil); a positive count gives distinct members, all of them when
    /// the count reaches the size; a negative count gives exactly |count| independent picks.
    /// </summary>
    private void RandomMembers(ref ObjectInput input, ref RespWriter writer)
    {
        if ((input.Flags & FlagHasCount) == 0)
        {
            if (_count == 0)
                writer.WriteNull();
            else
                writer.WriteBulk(_members[RandomIndex()]);
            return;
        }

        long count = input.Number;
        if (count == 0 || _count == 0)
        {
            writer.WriteArrayHeader(0);
            return;
        }
        if (count < 0)
        {
            if (count < -int.MaxValue)
            {
                writer.WriteError(SetStrings.ErrValueOutOfRange); // a reply no client could take
                return;
            }
            writer.WriteArrayHeader((int)-count);
            for (long i = 0; i < -count; i++)
                writer.WriteBulk(_members[RandomIndex()]);
            return;
        }
        if (count >= _count)
        {
            writer.WriteArrayHeader(_count);
            for (int i = 0; i < _count; i++)
                writer.WriteBulk(_members[i]);
            return;
        }

        int wanted = (int)count;
        writer.WriteArrayHeader(wanted);
        if (wanted * 2L <= _count)
        {
            // Few of many: draw positions until enough distinct ones came up.
            var chosen = new HashSet<int>(wanted);
            while (chosen.Count < wanted)
            {
                int index = RandomIndex();
                if (chosen.Add(index))
                    writer.WriteBulk(_members[index]);
            }
            return;
        }

        // Most of the set: a partial Fisher-Yates shuffle of the positions.
        var positions = new int[_count];
        for (int i = 0; i < positions.Length; i++)
            positions[i] = i;
        for (int i = 0; i < wanted; i++)
        {
            int j = CommandRandom.Next(i, positions.Length);
            (positions[i], positions[j]) = (positions[j], positions[i]);
            writer.WriteBulk(_members[positions[i]]);
        }
    }

    /// <summary>SMOVE's steps on one key (see the Move* flags); <see cref="ObjectOutput.Number"/> says whether the member moved.</summary>
    private void Move(ref ObjectInput input, ref ObjectOutput output)
    {
        switch (input.Flags)
        {
            case MoveRemove:
                output.Number = Remove(input.Arg(0)) ? 1 : 0;
                break;
            case MoveAdd:
                if (_count == 0)
                    PrepareForAdding(input.Element, 1, input.Limits);
                output.Number = 0;
                if (AddOwned(input.Element!))
                {
                    output.Number = 1;
                    NoteAdded(input.Element, input.Limits);
                }
                break;
            case MoveCheck:
                output.Writer.WriteInteger(Contains(input.Arg(0)) ? 1 : 0);
                break;
            default:
                throw new InvalidOperationException($"Unknown SMOVE step {input.Flags}.");
        }
    }

    private void Clear()
    {
        _members = [];
        _hashes = [];
        _next = [];
        _buckets = [];
        _count = 0;
        _memberBytes = 0;
        UpdateHeapSize();
    }
}
