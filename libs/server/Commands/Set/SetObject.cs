using System;
using System.Collections.Generic;
using System.IO;

namespace Garnet.server;

/// <summary>
/// A set value: a chained hash table whose entries live in dense arrays (member, hash, next link), so
/// a random member is one array read (SPOP, SRANDMEMBER), lookups by span allocate nothing, and
/// removal moves the last entry into the hole. Buckets are a power of two and a member always sits in
/// bucket <c>hash &amp; mask</c>, which lets SSCAN walk buckets in reverse-binary order and never miss
/// a member present for the whole iteration, even when the table grows or shrinks between calls.
/// The command implementations are in the other SetObject.*.cs files.
/// </summary>
public sealed partial class SetObject : GarnetObject
{
    private const int MinimumBuckets = 4;

    // Estimated bytes: the object and its arrays' headers, then each member's array (header + bytes)
    // and each entry's share of the dense arrays and buckets.
    private const long BaseHeapSize = 160;
    private const long MemberOverhead = 24;
    private const long EntryOverhead = 8 + 4 + 4;

    private byte[][] _members = [];
    private int[] _hashes = [];
    private int[] _next = []; // entry index + 1 of the next entry in the same bucket; 0 ends the chain
    private int[] _buckets = []; // entry index + 1 of the bucket's first entry; 0 when empty
    private int _count;
    private long _memberBytes;

    public SetObject() => UpdateHeapSize();

    public override GarnetObjectType Type => GarnetObjectType.Set;

    public override long Count => _count;

    /// <summary>A set holding <paramref name="members"/> (duplicates are kept once); the arrays are taken, not copied.</summary>
    public static SetObject Create(List<byte[]> members)
    {
        var set = new SetObject();
        set.EnsureCapacity(members.Count);
        foreach (var member in members)
            set.AddOwned(member);
        return set;
    }

    /// <summary>
    /// Appends the members (in no particular order) to <paramref name="destination"/>. The arrays are
    /// shared, not copied: a member's bytes never change once it is in a set, so they stay valid after
    /// the latch is released, but callers must not write to them.
    /// </summary>
    public void CopyElementsTo(List<byte[]> destination)
    {
        destination.EnsureCapacity(destination.Count + _count);
        for (int i = 0; i < _count; i++)
            destination.Add(_members[i]);
    }

    /// <summary>Whether <paramref name="member"/> is in the set.</summary>
    public bool Contains(ReadOnlySpan<byte> member) => _count != 0 && Find(member, Hash(member)) >= 0;

    /// <summary>Adds a copy of <paramref name="member"/>; false if it was already there.</summary>
    public bool Add(ReadOnlySpan<byte> member)
    {
        int hash = Hash(member);
        if (_count != 0 && Find(member, hash) >= 0)
            return false;
        Insert(member.ToArray(), hash);
        return true;
    }

    /// <summary>Adds <paramref name="member"/> itself (the caller gives up the array); false if it was already there.</summary>
    public bool AddOwned(byte[] member)
    {
        int hash = Hash(member);
        if (_count != 0 && Find(member, hash) >= 0)
            return false;
        Insert(member, hash);
        return true;
    }

    /// <summary>Removes <paramref name="member"/>; false if it was not there.</summary>
    public bool Remove(ReadOnlySpan<byte> member)
    {
        if (_count == 0)
            return false;
        int index = Find(member, Hash(member));
        if (index < 0)
            return false;
        RemoveAt(index);
        return true;
    }

    /// <summary>The member at dense position <paramref name="index"/> (0 ≤ index &lt; Count).</summary>
    private byte[] MemberAt(int index) => _members[index];

    /// <summary>A uniformly random dense position (the set must not be empty).</summary>
    private int RandomIndex() => CommandRandom.Next(_count);

    public override GarnetObject Clone()
    {
        var copy = new SetObject();
        if (_count == 0)
            return copy;
        copy._members = new byte[_members.Length][];
        for (int i = 0; i < _count; i++)
            copy._members[i] = (byte[])_members[i].Clone();
        copy._hashes = (int[])_hashes.Clone();
        copy._next = (int[])_next.Clone();
        copy._buckets = (int[])_buckets.Clone();
        copy._count = _count;
        copy._memberBytes = _memberBytes;
        copy._encoding = _encoding; // COPY keeps the encoding, as Redis's duplicate does
        copy.UpdateHeapSize();
        return copy;
    }

    public override void Serialize(BinaryWriter writer)
    {
        writer.Write(_count);
        for (int i = 0; i < _count; i++)
        {
            writer.Write(_members[i].Length);
            writer.Write(_members[i]);
        }
    }

    /// <summary>Reads an object written by <see cref="Serialize"/>.</summary>
    public static SetObject Deserialize(BinaryReader reader)
    {
        int count = reader.ReadInt32();
        if (count < 0)
            throw new InvalidDataException("Negative set size.");
        var set = new SetObject();
        set.EnsureCapacity(count);
        for (int i = 0; i < count; i++)
        {
            int length = reader.ReadInt32();
            if (length < 0)
                throw new InvalidDataException("Negative set member length.");
            var member = reader.ReadBytes(length);
            if (member.Length != length)
                throw new EndOfStreamException();
            set.AddOwned(member);
        }
        return set;
    }

    // ---- The table ----

    private static int Hash(ReadOnlySpan<byte> member)
    {
        // HashCode is seeded per process, so clients cannot aim members at one bucket.
        var hash = new HashCode();
        hash.AddBytes(member);
        return hash.ToHashCode();
    }

    private int Find(ReadOnlySpan<byte> member, int hash)
    {
        for (int i = _buckets[hash & (_buckets.Length - 1)] - 1; i >= 0; i = _next[i] - 1)
        {
            if (_hashes[i] == hash && member.SequenceEqual(_members[i]))
                return i;
        }
        return -1;
    }

    /// <summary>Makes room for <paramref name="count"/> entries in all, so bulk loads resize once.</summary>
    private void EnsureCapacity(int count)
    {
        if (count > _members.Length)
            ResizeEntries(count);
        int buckets = Math.Max(_buckets.Length, MinimumBuckets);
        while (buckets < count && buckets < (1 << 30))
            buckets <<= 1;
        if (buckets != _buckets.Length)
            Rehash(buckets);
        UpdateHeapSize();
    }

    private void Insert(byte[] member, int hash)
    {
        if (_count == _members.Length)
            ResizeEntries(Math.Max(MinimumBuckets, _members.Length * 2));
        if (_count >= _buckets.Length)
            Rehash(Math.Max(MinimumBuckets, _buckets.Length * 2));
        int index = _count++;
        int bucket = hash & (_buckets.Length - 1);
        _members[index] = member;
        _hashes[index] = hash;
        _next[index] = _buckets[bucket];
        _buckets[bucket] = index + 1;
        _memberBytes += member.Length + MemberOverhead;
        UpdateHeapSize();
    }

    /// <summary>Removes the entry at <paramref name="index"/>, moving the last entry into its place.</summary>
    private void RemoveAt(int index)
    {
        Unlink(index);
        _memberBytes -= _members[index].Length + MemberOverhead;
        int last = _count - 1;
        if (index != last)
        {
            // Point whatever linked to the last entry at its new position.
            ref int link = ref _buckets[_hashes[last] & (_buckets.Length - 1)];
            while (link != last + 1)
                link = ref _next[link - 1];
            link = index + 1;
            _members[index] = _members[last];
            _hashes[index] = _hashes[last];
            _next[index] = _next[last];
        }
        _members[last] = null!;
        _count = last;

        if (_count == 0)
        {
            _members = [];
            _hashes = [];
            _next = [];
            _buckets = [];
        }
        else if (_buckets.Length > MinimumBuckets && _count < _buckets.Length / 8)
        {
            Rehash(_buckets.Length / 4);
            if (_members.Length > _buckets.Length * 2)
                ResizeEntries(_buckets.Length);
        }
        UpdateHeapSize();
    }

    private void Unlink(int index)
    {
        ref int link = ref _buckets[_hashes[index] & (_buckets.Length - 1)];
        while (link != index + 1)
            link = ref _next[link - 1];
        link = _next[index];
    }

    private void ResizeEntries(int capacity)
    {
        Array.Resize(ref _members, capacity);
        Array.Resize(ref _hashes, capacity);
        Array.Resize(ref _next, capacity);
    }

    private void Rehash(int bucketCount)
    {
        var buckets = new int[bucketCount];
        int mask = bucketCount - 1;
        for (int i = 0; i < _count; i++)
        {
            int bucket = _hashes[i] & mask;
            _next[i] = buckets[bucket];
            buckets[bucket] = i + 1;
        }
        _buckets = buckets;
    }

    private void UpdateHeapSize()
        => HeapSize = BaseHeapSize + _memberBytes + (_members.Length * EntryOverhead) + (_buckets.Length * 4L);
}
