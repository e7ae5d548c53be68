using System;

namespace Garnet.server;

/// <summary>
/// A block of consecutive stream entries in one byte array, as Redis keeps them in a listpack per radix-tree
/// node: no object per entry. The array starts with the node's master fields (those of its first entry); then
/// each entry is a flags byte, its ID as deltas from the node's first ID, and either its values alone (when
/// its fields are the master fields, the usual case of a producer that always sends the same fields) or its
/// field count and field/value pairs. Lengths and numbers are LEB128 varints. Deleting an entry only sets its
/// flag; the node goes when its last live entry does.
/// Invariant: entries are in increasing ID order, <see cref="First"/> is the first entry's ID (deleted or
/// not) and <see cref="Last"/> the last one's.
/// </summary>
internal sealed class StreamNode
{
    /// <summary>Most entries in one node (Redis's stream-node-max-entries default).</summary>
    public const int MaxEntries = 100;

    /// <summary>Most bytes in one node before a new one is started (Redis's stream-node-max-bytes default).</summary>
    public const int MaxBytes = 4096;

    /// <summary>Estimated heap bytes of a node besides its array's contents (object and array headers, list slot).</summary>
    public const int Overhead = 80;

    public const byte DeletedFlag = 1;
    public const byte SameFieldsFlag = 2;

    public StreamId First;
    public StreamId Last;
    public byte[] Data;

    /// <summary>Bytes of <see cref="Data"/> in use.</summary>
    public int Used;

    /// <summary>Entries, deleted ones included.</summary>
    public int Count;

    /// <summary>Entries not deleted.</summary>
    public int Live;

    /// <summary>Bytes of the master field list at the start of <see cref="Data"/>.</summary>
    public int MasterLength;

    /// <summary>A node whose master fields are the fields of <paramref name="pairs"/> (field, value, field, value...).</summary>
    public StreamNode(StreamId first, ReadOnlySpan<ArgSlice> pairs, int entrySize)
    {
        First = first;
        Last = first;
        int fields = pairs.Length / 2;
        int size = VarintSize((ulong)fields);
        for (int i = 0; i < pairs.Length; i += 2)
            size += VarintSize((ulong)pairs[i].Length) + pairs[i].Length;
        Data = new byte[size + entrySize];
        int at = WriteVarint(Data, 0, (ulong)fields);
        for (int i = 0; i < pairs.Length; i += 2)
            at = WriteBytes(Data, at, pairs[i].Span);
        Used = at;
        MasterLength = at;
    }

    /// <summary>A node read back whole (deserialization, clone).</summary>
    public StreamNode(StreamId first, StreamId last, byte[] data, int count, int live, int masterLength)
    {
        First = first;
        Last = last;
        Data = data;
        Used = data.Length;
        Count = count;
        Live = live;
        MasterLength = masterLength;
    }

    /// <summary>Heap bytes this node takes.</summary>
    public long HeapSize => Data.Length + Overhead;

    /// <summary>Whether the fields of <paramref name="pairs"/> are the master fields, in order.</summary>
    public bool HasMasterFields(ReadOnlySpan<ArgSlice> pairs)
    {
        int at = ReadVarint(Data, 0, out ulong count);
        if ((int)count != pairs.Length / 2)
            return false;
        for (int i = 0; i < pairs.Length; i += 2)
        {
            at = ReadBytes(Data, at, out int start, out int length);
            if (!pairs[i].Span.SequenceEqual(Data.AsSpan(start, length)))
                return false;
        }
        return true;
    }

    /// <summary>Bytes an entry takes in a node, given whether it shares the master fields.</summary>
    public static int EntrySize(StreamId id, StreamId first, ReadOnlySpan<ArgSlice> pairs, bool sameFields)
    {
        ulong msDelta = id.Ms - first.Ms;
        int size = 1 + VarintSize(msDelta) + VarintSize(msDelta == 0 ? id.Seq - first.Seq : id.Seq);
        if (!sameFields)
            size += VarintSize((ulong)(pairs.Length / 2));
        for (int i = 0; i < pairs.Length; i++)
        {
            if (sameFields && (i & 1) == 0)
                continue;
            size += VarintSize((ulong)pairs[i].Length) + pairs[i].Length;
        }
        return size;
    }

    /// <summary>Whether an entry of <paramref name="size"/> bytes still goes in this node.</summary>
    public bool HasRoomFor(int size) => Count < MaxEntries && Used + size <= MaxBytes;

    /// <summary>Appends an entry (its ID above <see cref="Last"/>); returns the growth of <see cref="HeapSize"/>.</summary>
    public long Append(StreamId id, ReadOnlySpan<ArgSlice> pairs, bool sameFields, int size)
    {
        long grown = 0;
        if (Used + size > Data.Length)
        {
            int capacity = Math.Max(Used + size, Math.Min(MaxBytes, Data.Length * 2));
            var larger = new byte[capacity];
            Buffer.BlockCopy(Data, 0, larger, 0, Used);
            grown = capacity - Data.Length;
            Data = larger;
        }
        var data = Data;
        int at = Used;
        data[at++] = sameFields ? SameFieldsFlag : (byte)0;
        ulong msDelta = id.Ms - First.Ms;
        at = WriteVarint(data, at, msDelta);
        at = WriteVarint(data, at, msDelta == 0 ? id.Seq - First.Seq : id.Seq);
        if (!sameFields)
            at = WriteVarint(data, at, (ulong)(pairs.Length / 2));
        for (int i = 0; i < pairs.Length; i++)
        {
            if (sameFields && (i & 1) == 0)
                continue;
            at = WriteBytes(data, at, pairs[i].Span);
        }
        Used = at;
        Count++;
        Live++;
        Last = id;
        return grown;
    }

    /// <summary>Gives back unused array bytes once the node is full (a new node follows); returns the change of <see cref="HeapSize"/>.</summary>
    public long Seal()
    {
        if (Used == Data.Length)
            return 0;
        long shrunk = Used - Data.Length;
        Array.Resize(ref Data, Used);
        return shrunk;
    }

    /// <summary>The offset of the first entry.</summary>
    public int FirstEntry => MasterLength;

    /// <summary>Reads the entry header at <paramref name="at"/>: flags, ID and where its body starts.</summary>
    public void ReadHeader(int at, out byte flags, out StreamId id, out int body)
    {
        flags = Data[at];
        at = ReadVarint(Data, at + 1, out ulong msDelta);
        at = ReadVarint(Data, at, out ulong seqPart);
        id = msDelta == 0 ? new StreamId(First.Ms, First.Seq + seqPart) : new StreamId(First.Ms + msDelta, seqPart);
        body = at;
    }

    /// <summary>Number of fields of the entry whose body starts at <paramref name="body"/>.</summary>
    public int FieldCount(byte flags, int body)
    {
        ReadVarint(Data, (flags & SameFieldsFlag) != 0 ? 0 : body, out ulong count);
        return (int)count;
    }

    /// <summary>The offset after the entry whose body starts at <paramref name="body"/>.</summary>
    public int Skip(byte flags, int body)
    {
        int at = body;
        if ((flags & SameFieldsFlag) != 0)
        {
            ReadVarint(Data, 0, out ulong values);
            for (ulong i = 0; i < values; i++)
                at = ReadBytes(Data, at, out _, out _);
            return at;
        }
        at = ReadVarint(Data, at, out ulong fields);
        for (ulong i = 0; i < fields * 2; i++)
            at = ReadBytes(Data, at, out _, out _);
        return at;
    }

    /// <summary>Writes the entry's fields and values as a flat array (field, value...); returns the offset after it.</summary>
    public int WriteFields(byte flags, int body, ref Garnet.common.RespWriter writer)
    {
        int at = body;
        if ((flags & SameFieldsFlag) != 0)
        {
            int master = ReadVarint(Data, 0, out ulong count);
            writer.WriteArrayHeader((int)count * 2);
            for (ulong i = 0; i < count; i++)
            {
                master = ReadBytes(Data, master, out int fieldStart, out int fieldLength);
                at = ReadBytes(Data, at, out int valueStart, out int valueLength);
                writer.WriteBulk(Data.AsSpan(fieldStart, fieldLength));
                writer.WriteBulk(Data.AsSpan(valueStart, valueLength));
            }
            return at;
        }
        at = ReadVarint(Data, at, out ulong fields);
        writer.WriteArrayHeader((int)fields * 2);
        for (ulong i = 0; i < fields * 2; i++)
        {
            at = ReadBytes(Data, at, out int start, out int length);
            writer.WriteBulk(Data.AsSpan(start, length));
        }
        return at;
    }

    /// <summary>Marks the entry at <paramref name="at"/> deleted (it must be live).</summary>
    public void MarkDeleted(int at)
    {
        Data[at] |= DeletedFlag;
        Live--;
    }

    public static int VarintSize(ulong value)
    {
        int size = 1;
        while (value >= 0x80)
        {
            value >>= 7;
            size++;
        }
        return size;
    }

    public static int WriteVarint(byte[] data, int at, ulong value)
    {
        while (value >= 0x80)
        {
            data[at++] = (byte)(value | 0x80);
            value >>= 7;
        }
        data[at++] = (byte)value;
        return at;
    }

    public static int ReadVarint(byte[] data, int at, out ulong value)
    {
        value = 0;
        int shift = 0;
        while (true)
        {
            byte b = data[at++];
            value |= (ulong)(b & 0x7F) << shift;
            if (b < 0x80)
                return at;
            shift += 7;
        }
    }

    private static int WriteBytes(byte[] data, int at, ReadOnlySpan<byte> bytes)
    {
        at = WriteVarint(data, at, (ulong)bytes.Length);
        bytes.CopyTo(data.AsSpan(at));
        return at + bytes.Length;
    }

    private static int ReadBytes(byte[] data, int at, out int start, out int length)
    {
        at = ReadVarint(data, at, out ulong size);
        start = at;
        length = (int)size;
        return at + length;
    }
}
