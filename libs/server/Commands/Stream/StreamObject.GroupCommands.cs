using System;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>XGROUP's subcommands, one key's part of XREADGROUP, XACK and XPENDING.</summary>
public sealed partial class StreamObject
{
    /// <summary><see cref="ObjectInput.Flags"/> of XGROUP: which subcommand.</summary>
    internal enum GroupSubcommand
    {
        Create = 1,
        SetId,
        Destroy,
        CreateConsumer,
        DelConsumer,
    }

    /// <summary><see cref="ObjectInput.Flags"/> bit of XREADGROUP: only check that the group exists (<see cref="ObjectOutput.Number"/> 1).</summary>
    internal const int ReadGroupCheckOnly = 1 << 30;

    /// <summary><see cref="ObjectInput.Flags"/> bit of XREADGROUP: NOACK.</summary>
    internal const int ReadGroupNoAck = 1 << 29;

    /// <summary>The bits of <see cref="ObjectInput.Flags"/> that hold XREADGROUP's COUNT (0: all).</summary>
    internal const int ReadGroupCountMask = (1 << 29) - 1;

    private static string Text(ReadOnlySpan<byte> bytes) => Encoding.UTF8.GetString(bytes);

    /// <summary>
    /// XGROUP CREATE|SETID|DESTROY|CREATECONSUMER|DELCONSUMER key group ...: the session checked the options; the group
    /// name is argument 0 after the key.
    /// </summary>
    private void XGroup(ref ObjectInput input, ref ObjectOutput output)
    {
        var subcommand = (GroupSubcommand)input.Flags;
        var key = input.Args[input.FirstArg - 1].Span;
        var groupName = input.Arg(0);
        StreamArguments.TryParseGroupOptions(AllArgs(in input), input.FirstArg + 2, subcommand == GroupSubcommand.Create, out bool mkStream, out long entriesRead, out _);
        if (!_created && !(subcommand == GroupSubcommand.Create && mkStream))
        {
            output.Writer.WriteError(StreamStrings.ErrMkStreamMissing);
            return;
        }
        int index = GroupIndex(groupName);
        if (index < 0 && subcommand is GroupSubcommand.SetId or GroupSubcommand.CreateConsumer or GroupSubcommand.DelConsumer)
        {
            output.Writer.WriteError($"NOGROUP No such consumer group '{Text(groupName)}' for key name '{Text(key)}'");
            return;
        }
        long now = NowMsSigned();
        switch (subcommand)
        {
            case GroupSubcommand.Create:
                {
                    StreamId id;
                    var idText = input.Arg(1);
                    if (idText.Length == 1 && idText[0] == '$')
                        id = _lastId;
                    else if (!StreamId.TryParseStrict(idText, 0, out id, out bool autoSeq) || autoSeq)
                    {
                        output.Writer.WriteError(StreamStrings.ErrInvalidId);
                        return;
                    }
                    _created = true;
                    if (index >= 0)
                    {
                        output.Writer.WriteError(StreamStrings.ErrGroupExists);
                        return;
                    }
                    AddGroup(new StreamConsumerGroup(groupName.ToArray(), id, entriesRead));
                    output.Modified = true; // the keyspace events of XGROUP: see ObjectWriteEvent.StreamGroup
                    output.Writer.WriteOk();
                    return;
                }
            case GroupSubcommand.SetId:
                {
                    StreamId id;
                    var idText = input.Arg(1);
                    if (idText.Length == 1 && idText[0] == '$')
                        id = _lastId;
                    else if (!StreamId.TryParse(idText, 0, out id))
                    {
                        output.Writer.WriteError(StreamStrings.ErrInvalidId);
                        return;
                    }
                    var group = _groups![index];
                    group.LastId = id;
                    group.EntriesRead = entriesRead;
                    output.Modified = true;
                    output.Writer.WriteOk();
                    return;
                }
            case GroupSubcommand.Destroy:
                {
                    if (index < 0)
                    {
                        output.Writer.WriteInteger(0);
                        return;
                    }
                    var group = _groups![index];
                    while (group.Consumers.Count > 0)
                        DeleteConsumer(group, group.Consumers.Count - 1);
                    _groups.RemoveAt(index);
                    HeapSize -= StreamConsumerGroup.Overhead + group.Name.Length;
                    output.Modified = true;
                    output.Writer.WriteInteger(1);
                    return;
                }
            case GroupSubcommand.CreateConsumer:
                GetOrCreateConsumer(_groups![index], input.Arg(1), now, out bool created);
                output.Modified = created;
                output.Writer.WriteInteger(created ? 1 : 0);
                return;
            case GroupSubcommand.DelConsumer:
                {
                    var group = _groups![index];
                    int consumer = group.IndexOf(input.Arg(1));
                    output.Modified = consumer >= 0;
                    output.Writer.WriteInteger(consumer < 0 ? 0 : DeleteConsumer(group, consumer));
                    return;
                }
            default:
                throw new InvalidOperationException($"Unknown XGROUP subcommand {subcommand}.");
        }
    }

    /// <summary>
    /// One key of XREADGROUP GROUP group consumer ... STREAMS ... id: the group name is at argument index
    /// <see cref="ObjectInput.Number"/> (the consumer after it), the key's ID at <see cref="ObjectInput.Number2"/>, and
    /// <see cref="ObjectInput.FirstArg"/> is just after the key.
    /// "&gt;" delivers entries after the group's last delivered ID (adding them to the pending lists unless NOACK) and
    /// writes nothing when there are none; another ID writes the consumer's pending entries after it, deleted ones as
    /// [id, nil]. <see cref="ObjectOutput.Number"/>: 1 written, 0 nothing to serve, -1 an error was written.
    /// </summary>
    private void XReadGroupKey(ref ObjectInput input, ref ObjectOutput output)
    {
        var groupName = input.Args[(int)input.Number].Span;
        var group = _created ? FindGroup(groupName) : null;
        if ((input.Flags & ReadGroupCheckOnly) != 0)
        {
            output.Number = group != null ? 1 : 0;
            return;
        }
        if (group == null)
        {
            var key = input.Args[input.FirstArg - 1].Span;
            output.Writer.WriteError($"NOGROUP No such key '{Text(key)}' or consumer group '{Text(groupName)}' in XREADGROUP with GROUP option");
            output.Number = -1;
            return;
        }
        var consumerName = input.Args[(int)input.Number + 1].Span;
        var idText = input.Args[(int)input.Number2].Span;
        long limit = (input.Flags & ReadGroupCountMask) == 0 ? long.MaxValue : input.Flags & ReadGroupCountMask;
        bool noAck = (input.Flags & ReadGroupNoAck) != 0;
        long now = NowMsSigned();
        ref var writer = ref output.Writer;

        if (idText.Length == 1 && idText[0] == '>')
        {
            if (_length == 0 || LastValidId() <= group.LastId)
            {
                output.Number = 0;
                return;
            }
            var consumer = GetOrCreateConsumer(group, consumerName, now, out bool created);
            output.Modified |= created; // an "xgroup-createconsumer" event
            consumer.ActiveTime = now;
            group.LastId.TryIncrement(out var start);
            long count = VisitRange(ref writer, start, StreamId.Max, limit, reverse: false, write: false);
            writer.WriteArrayHeader((int)count);
            var cursor = new EntryCursor(this, start);
            for (long written = 0; written < count && cursor.MoveNext(); written++)
            {
                var id = cursor.Id;
                WriteEntry(ref writer, cursor.Node, id, cursor.Flags, cursor.Body);
                if (id > group.LastId)
                {
                    if (group.EntriesRead != -1 && !HasTombstonesFrom(id))
                        group.EntriesRead++;
                    else if (_entriesAdded != 0)
                        group.EntriesRead = EstimateEntriesUpTo(id);
                    group.LastId = id;
                }
                if (noAck)
                    continue;
                var pending = group.Pending.Find(id);
                if (pending == null)
                {
                    AddPending(group, new StreamPendingEntry(id, consumer, now, 1));
                }
                else
                {
                    MovePending(pending, consumer);
                    pending.DeliveryTime = now;
                    pending.DeliveryCount = 1;
                }
            }
            output.Number = 1;
            return;
        }

        StreamId.TryParseStrict(idText, 0, out var after, out _);
        var owner = GetOrCreateConsumer(group, consumerName, now, out bool ownerCreated);
        output.Modified |= ownerCreated; // an "xgroup-createconsumer" event
        owner.ActiveTime = now;
        output.Number = 1;
        if (!after.TryIncrement(out var from))
        {
            writer.WriteArrayHeader(0);
            return;
        }
        var list = owner.Pending;
        int first = list.FirstAtOrAfter(from);
        int entries = (int)Math.Min(list.Count - first, limit);
        writer.WriteArrayHeader(entries);
        for (int i = first; i < first + entries; i++)
        {
            var pending = list[i];
            if (TryWriteEntry(ref writer, pending.Id))
            {
                pending.DeliveryTime = now;
                pending.DeliveryCount++;
            }
            else
            {
                writer.WriteArrayHeader(2);
                WriteId(ref writer, pending.Id);
                writer.WriteNullArray();
            }
        }
    }

    /// <summary>XACK key group id [id ...]: the IDs are checked before anything else counts.</summary>
    private void XAck(ref ObjectInput input, ref ObjectOutput output)
    {
        for (int i = 1; i < input.ArgCount; i++)
        {
            if (!StreamId.TryParseStrict(input.Arg(i), 0, out _, out bool autoSeq) || autoSeq)
            {
                output.Writer.WriteError(StreamStrings.ErrInvalidId);
                return;
            }
        }
        var group = _created ? FindGroup(input.Arg(0)) : null;
        long acknowledged = 0;
        for (int i = 1; group != null && i < input.ArgCount; i++)
        {
            StreamId.TryParseStrict(input.Arg(i), 0, out var id, out _);
            var pending = group.Pending.Find(id);
            if (pending == null)
                continue;
            RemovePending(group, pending);
            acknowledged++;
        }
        output.Writer.WriteInteger(acknowledged);
    }

    /// <summary>XPENDING key group [[IDLE min-idle-time] start end count [consumer]]: the session checked the arguments.</summary>
    private void XPending(ref ObjectInput input, ref ObjectOutput output)
    {
        var args = AllArgs(in input);
        StreamArguments.TryParsePending(args, out var start, out var end, out long count, out long minIdle, out int consumerAt, out _);
        var group = _created ? FindGroup(input.Arg(0)) : null;
        ref var writer = ref output.Writer;
        if (group == null)
        {
            writer.WriteError($"NOGROUP No such key '{Text(args[1].Span)}' or consumer group '{Text(args[2].Span)}'");
            return;
        }
        if (args.Length == 3)
        {
            writer.WriteArrayHeader(4);
            writer.WriteInteger(group.Pending.Count);
            if (group.Pending.Count == 0)
            {
                writer.WriteNull();
                writer.WriteNull();
                writer.WriteNullArray();
                return;
            }
            WriteId(ref writer, group.Pending[0].Id);
            WriteId(ref writer, group.Pending[group.Pending.Count - 1].Id);
            int owners = 0;
            foreach (var consumer in group.Consumers)
                owners += consumer.Pending.Count > 0 ? 1 : 0;
            writer.WriteArrayHeader(owners);
            foreach (var consumer in group.Consumers)
            {
                if (consumer.Pending.Count == 0)
                    continue;
                writer.WriteArrayHeader(2);
                writer.WriteBulk(consumer.Name);
                writer.WriteBulkInteger(consumer.Pending.Count);
            }
            return;
        }

        var list = group.Pending;
        if (consumerAt > 0)
        {
            var consumer = group.FindConsumer(args[consumerAt].Span);
            if (consumer == null)
            {
                writer.WriteArrayHeader(0);
                return;
            }
            list = consumer.Pending;
        }
        long now = NowMsSigned();
        int first = list.FirstAtOrAfter(start);
        int matches = 0;
        for (int i = first; i < list.Count && matches < count && list[i].Id <= end; i++)
        {
            if (minIdle == 0 || now - list[i].DeliveryTime >= minIdle)
                matches++;
        }
        writer.WriteArrayHeader(matches);
        for (int i = first, written = 0; written < matches; i++)
        {
            var pending = list[i];
            if (minIdle != 0 && now - pending.DeliveryTime < minIdle)
                continue;
            written++;
            writer.WriteArrayHeader(4);
            WriteId(ref writer, pending.Id);
            writer.WriteBulk(pending.Consumer.Name);
            writer.WriteInteger(Math.Max(0, now - pending.DeliveryTime));
            writer.WriteInteger(pending.DeliveryCount);
        }
    }

    /// <summary>Walks the live entries from an ID on, in order, without allocating.</summary>
    private struct EntryCursor
    {
        private readonly StreamObject _stream;
        private readonly StreamId _start;
        private int _node;
        private int _at;

        public EntryCursor(StreamObject stream, StreamId start)
        {
            _stream = stream;
            _start = start;
            _node = stream._nodes.Count == 0 ? 0 : stream.NodeFor(start);
            _at = -1;
            Node = null!;
            Id = default;
            Flags = 0;
            Body = 0;
        }

        public StreamNode Node;
        public StreamId Id;
        public byte Flags;
        public int Body;

        public bool MoveNext()
        {
            var nodes = _stream._nodes;
            while (_node < nodes.Count)
            {
                var node = nodes[_node];
                if (_at < 0)
                    _at = node.FirstEntry;
                while (_at < node.Used)
                {
                    node.ReadHeader(_at, out byte flags, out var id, out int body);
                    _at = node.Skip(flags, body);
                    if (id < _start || (flags & StreamNode.DeletedFlag) != 0)
                        continue;
                    Node = node;
                    Id = id;
                    Flags = flags;
                    Body = body;
                    return true;
                }
                _node++;
                _at = -1;
            }
            return false;
        }
    }
}
