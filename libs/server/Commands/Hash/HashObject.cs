using System;
using System.IO;

namespace Garnet.server;

/// <summary>
/// A hash value: fields and their values in an insertion-ordered entry array, indexed by an
/// open-addressing table (linear probing over entry indexes) that is searched with a span, so lookups
/// allocate nothing on every target framework. Deleting a field leaves a hole in the entry array that a
/// later compaction closes without reordering; every entry carries an increasing sequence number, which
/// is what HSCAN's cursor holds, so a scan resumes after the last entry it returned however the array
/// was compacted or grown in between, and never misses a field present throughout the scan.
/// Stored byte arrays are never changed in place: an update stores a new array.
/// The command implementations live in the partial files HashObject.Read.cs and HashObject.Write.cs.
/// </summary>
public sealed partial class HashObject : GarnetObject
{
    /// <summary>Estimated bytes of the object itself and its empty arrays.</summary>
    private const long BaseHeapSize = 128;

    /// <summary>Estimated bytes per field besides its field and value bytes: two array headers, the entry, its bucket.</summary>
    private const long EntryOverhead = 88;

    private const int MinimumBuckets = 8;

    private struct Entry
    {
        /// <summary>The field; null once deleted (a hole that compaction removes).</summary>
        public byte[]? Field;
        public byte[] Value;

        /// <summary>Order of insertion, increasing along the array; HSCAN cursors point at these.</summary>
        public long Sequence;
        public int Hash;
    }

    private Entry[] _entries;

    /// <summary>Entries in use at the start of <see cref="_entries"/>, holes included.</summary>
    private int _used;

    /// <summary>Live fields.</summary>
    private int _count;

    /// <summary>Open-addressing index: 0 for an empty slot, else the live entry's index + 1.</summary>
    private int[] _buckets;

    private long _nextSequence = 1;

    /// <summary>An empty hash.</summary>
    public HashObject()
        : this(0)
    {
    }

    private HashObject(int capacity)
    {
        _entries = capacity == 0 ? [] : new Entry[capacity];
        _buckets = new int[BucketCountFor(capacity)];
        HeapSize = BaseHeapSize;
    }

    /// <inheritdoc/>
    public override GarnetObjectType Type => GarnetObjectType.Hash;

    /// <inheritdoc/>
    public override long Count => _count;

    /// <summary>Estimated heap bytes of one field and value.</summary>
    private static long EntrySize(byte[] field, byte[] value) => field.Length + value.Length + EntryOverhead;

    private static int BucketCountFor(int count)
    {
        int buckets = MinimumBuckets;
        while (buckets < count * 2)
            buckets *= 2;
        return buckets;
    }

    private static int HashOf(ReadOnlySpan<byte> field)
    {
        // HashCode is seeded per process, so clients cannot choose colliding fields.
        var hash = new HashCode();
        hash.AddBytes(field);
        return hash.ToHashCode();
    }

    /// <summary>The index in <see cref="_entries"/> of <paramref name="field"/>, or -1.</summary>
    private int Find(ReadOnlySpan<byte> field) => Find(field, HashOf(field));

    private int Find(ReadOnlySpan<byte> field, int hash)
    {
        int mask = _buckets.Length - 1;
        for (int slot = hash & mask; ; slot = (slot + 1) & mask)
        {
            int bucket = _buckets[slot];
            if (bucket == 0)
                return -1;
            ref var entry = ref _entries[bucket - 1];
            if (entry.Hash == hash && field.SequenceEqual(entry.Field))
                return bucket - 1;
        }
    }

    /// <summary>Whether the hash has <paramref name="field"/>, and its value.</summary>
    public bool TryGetValue(ReadOnlySpan<byte> field, out byte[]? value)
    {
        int index = Find(field);
        value = index < 0 ? null : _entries[index].Value;
        return index >= 0;
    }

    /// <summary>
    /// Sets <paramref name="field"/> to <paramref name="value"/> (arrays the hash takes over and never
    /// changes); returns true if the field is new. Keeps <see cref="GarnetObject.HeapSize"/> current.
    /// </summary>
    public bool Set(ReadOnlySpan<byte> field, byte[] value)
    {
        int hash = HashOf(field);
        int index = Find(field, hash);
        if (index >= 0)
        {
            ref var entry = ref _entries[index];
            HeapSize += value.Length - entry.Value.Length;
            entry.Value = value;
            return false;
        }
        Add(field.ToArray(), value, hash);
        return true;
    }

    /// <summary>Replaces the value of the live entry at <paramref name="index"/>.</summary>
    private void SetValueAt(int index, byte[] value)
    {
        ref var entry = ref _entries[index];
        HeapSize += value.Length - entry.Value.Length;
        entry.Value = value;
    }

    /// <summary>Appends a field known to be absent.</summary>
    private void Add(byte[] field, byte[] value, int hash)
    {
        if (_used == _entries.Length)
            MakeRoom();
        if ((_count + 1) * 2 > _buckets.Length)
            RebuildBuckets(_buckets.Length * 2);
        int index = _used++;
        _entries[index] = new Entry { Field = field, Value = value, Sequence = _nextSequence++, Hash = hash };
        _count++;
        Link(index, hash);
        HeapSize += EntrySize(field, value);
    }

    private void Link(int index, int hash)
    {
        int mask = _buckets.Length - 1;
        int slot = hash & mask;
        while (_buckets[slot] != 0)
            slot = (slot + 1) & mask;
        _buckets[slot] = index + 1;
    }

    /// <summary>Room for one more entry: close the holes if they are many, else grow the array.</summary>
    private void MakeRoom()
    {
        if (_used - _count >= _used / 2 && _used > 0)
        {
            Compact(_entries.Length, _buckets.Length);
            return;
        }
        Array.Resize(ref _entries, Math.Max(4, _entries.Length * 2));
    }

    /// <summary>Deletes <paramref name="field"/>; returns whether it was there.</summary>
    public bool Remove(ReadOnlySpan<byte> field)
    {
        int hash = HashOf(field);
        int mask = _buckets.Length - 1;
        int slot = hash & mask;
        int index;
        while (true)
        {
            int bucket = _buckets[slot];
            if (bucket == 0)
                return false;
            ref var candidate = ref _entries[bucket - 1];
            if (candidate.Hash == hash && field.SequenceEqual(candidate.Field))
            {
                index = bucket - 1;
                break;
            }
            slot = (slot + 1) & mask;
        }
        Unlink(slot);

        ref var entry = ref _entries[index];
        HeapSize -= EntrySize(entry.Field!, entry.Value);
        entry.Field = null; // the hole keeps its sequence, so the array stays sorted by it
        entry.Value = null!;
        _count--;
        if (_count == 0)
        {
            Clear();
        }
        else if (_count < _used / 4 && _used > 64)
        {
            Compact(Math.Max(_count * 2, 4), BucketCountFor(_count));
        }
        return true;
    }

    /// <summary>Empties a bucket of the linear-probing table, moving later entries of its run back (no tombstones).</summary>
    private void Unlink(int slot)
    {
        int mask = _buckets.Length - 1;
        int hole = slot;
        int next = slot;
        while (true)
        {
            next = (next + 1) & mask;
            int bucket = _buckets[next];
            if (bucket == 0)
                break;
            int home = _entries[bucket - 1].Hash & mask;
            // The entry stays if its home slot lies cyclically in (hole, next].
            bool stays = hole <= next ? hole < home && home <= next : hole < home || home <= next;
            if (stays)
                continue;
            _buckets[hole] = bucket;
            hole = next;
        }
        _buckets[hole] = 0;
    }

    private void Clear()
    {
        _entries = [];
        _buckets = new int[MinimumBuckets];
        _used = 0;
        _count = 0;
        HeapSize = BaseHeapSize;
    }

    /// <summary>
    /// Moves the live entries to the front, in order, into an array of <paramref name="capacity"/>, and
    /// relinks them in <paramref name="bucketCount"/> buckets.
    /// </summary>
    private void Compact(int capacity, int bucketCount)
    {
        var entries = capacity == _entries.Length ? _entries : new Entry[capacity];
        int live = 0;
        for (int i = 0; i < _used; i++)
        {
            if (_entries[i].Field != null)
                entries[live++] = _entries[i];
        }
        if (entries == _entries)
            Array.Clear(entries, live, _used - live);
        _entries = entries;
        _used = live;
        RebuildBuckets(bucketCount);
    }

    private void RebuildBuckets(int bucketCount)
    {
        if (bucketCount == _buckets.Length)
            Array.Clear(_buckets);
        else
            _buckets = new int[bucketCount];
        for (int i = 0; i < _used; i++)
        {
            if (_entries[i].Field != null)
                Link(i, _entries[i].Hash);
        }
    }

    /// <summary>
    /// The index of the first live entry at or after <paramref name="index"/>, or <see cref="_used"/>.
    /// </summary>
    private int NextLive(int index)
    {
        while (index < _used && _entries[index].Field == null)
            index++;
        return index;
    }

    /// <summary>The index of the first entry whose sequence is at least <paramref name="sequence"/> (binary search).</summary>
    private int FirstAtOrAfter(ulong sequence)
    {
        int low = 0;
        int high = _used;
        while (low < high)
        {
            int middle = low + ((high - low) >> 1);
            if ((ulong)_entries[middle].Sequence < sequence)
                low = middle + 1;
            else
                high = middle;
        }
        return low;
    }

    /// <summary>Copies the fields and values, in insertion order, to <paramref name="destination"/>.</summary>
    public void CopyEntriesTo(System.Collections.Generic.List<(byte[] Field, byte[] Value)> destination)
    {
        for (int i = 0; i < _used; i++)
        {
            ref var entry = ref _entries[i];
            if (entry.Field != null)
                destination.Add((entry.Field, entry.Value));
        }
    }

    /// <inheritdoc/>
    public override GarnetObject Clone()
    {
        var clone = new HashObject(_count);
        for (int i = 0; i < _used; i++)
        {
            ref var entry = ref _entries[i];
            if (entry.Field != null)
                clone.Add((byte[])entry.Field.Clone(), (byte[])entry.Value.Clone(), entry.Hash);
        }
        clone._hashtable = _hashtable; // COPY keeps the encoding, as Redis's duplicate does
        return clone;
    }

    /// <inheritdoc/>
    public override void Serialize(BinaryWriter writer)
    {
        writer.Write(_count);
        for (int i = 0; i < _used; i++)
        {
            ref var entry = ref _entries[i];
            if (entry.Field == null)
                continue;
            writer.Write(entry.Field.Length);
            writer.Write(entry.Field);
            writer.Write(entry.Value.Length);
            writer.Write(entry.Value);
        }
    }

    /// <summary>Reads an object written by <see cref="Serialize"/>.</summary>
    public static HashObject Deserialize(BinaryReader reader)
    {
        int count = reader.ReadInt32();
        if (count < 0)
            throw new InvalidDataException("Negative hash length.");
        var hash = new HashObject(Math.Min(count, 1 << 20));
        for (int i = 0; i < count; i++)
        {
            var field = ReadBytes(reader);
            var value = ReadBytes(reader);
            int fieldHash = HashOf(field);
            if (hash.Find(field, fieldHash) >= 0)
                throw new InvalidDataException("Duplicate hash field.");
            hash.Add(field, value, fieldHash);
        }
        return hash;
    }

    private static byte[] ReadBytes(BinaryReader reader)
    {
        int length = reader.ReadInt32();
        if (length < 0)
            throw new InvalidDataException("Negative length.");
        var bytes = reader.ReadBytes(length);
        if (bytes.Length != length)
            throw new EndOfStreamException();
        return bytes;
    }

    /// <inheritdoc/>
    public override void Operate(ref ObjectInput input, ref ObjectOutput output)
    {
        switch (input.Command)
        {
            case RespCommand.HSET: HSet(ref input, ref output); break;
            case RespCommand.HMSET: HSet(ref input, ref output); break;
            case RespCommand.HSETNX: HSetNx(ref input, ref output); break;
            case RespCommand.HDEL: HDel(ref input, ref output); break;
            case RespCommand.HINCRBY: HIncrBy(ref input, ref output); break;
            case RespCommand.HINCRBYFLOAT: HIncrByFloat(ref input, ref output); break;
            case RespCommand.HGET: HGet(ref input, ref output); break;
            case RespCommand.HMGET: HMGet(ref input, ref output); break;
            case RespCommand.HLEN: output.Writer.WriteInteger(_count); break;
            case RespCommand.HSTRLEN: HStrLen(ref input, ref output); break;
            case RespCommand.HEXISTS: output.Writer.WriteInteger(Find(input.Arg(0)) >= 0 ? 1 : 0); break;
            case RespCommand.HKEYS: WriteAll(ref output, fields: true, values: false); break;
            case RespCommand.HVALS: WriteAll(ref output, fields: false, values: true); break;
            case RespCommand.HGETALL: WriteAll(ref output, fields: true, values: true); break;
            case RespCommand.HRANDFIELD: HRandField(ref input, ref output); break;
            case RespCommand.HSCAN: HScan(ref input, ref output); break;
            default: throw new InvalidOperationException($"{input.Command} is not a hash command.");
        }
    }
}
