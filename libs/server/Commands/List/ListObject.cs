using System;
using System.Collections.Generic;
using System.IO;

namespace Garnet.server;

/// <summary>
/// A list value: a ring buffer of elements, so pushes and pops at either end are O(1) (amortized) and
/// an element at any index is one array read. Inserts and removals in the middle shift the shorter
/// side. The commands that run on it are in the partial files <c>ListObject.*.cs</c>.
/// </summary>
public sealed partial class ListObject : GarnetObject
{
    private const int MinimumCapacity = 8;

    // Estimated heap bytes: the object itself, each element array's header, each buffer slot.
    private const long ObjectOverhead = 64;
    private const long ElementOverhead = 24;
    private const long SlotSize = 8;

    private byte[][] _items;
    private int _head;
    private int _count;
    private long _elementBytes;

    /// <summary>An empty list.</summary>
    public ListObject()
    {
        _items = Array.Empty<byte[]>();
        UpdateHeapSize();
    }

    private ListObject(int capacity)
    {
        _items = capacity == 0 ? Array.Empty<byte[]>() : new byte[RoundUpCapacity(capacity)][];
        UpdateHeapSize();
    }

    public override GarnetObjectType Type => GarnetObjectType.List;

    public override long Count => _count;

    /// <summary>A list holding <paramref name="elements"/> in order (SORT ... STORE). The arrays are not copied.</summary>
    public static ListObject Create(List<byte[]> elements)
    {
        var list = new ListObject(elements.Count);
        foreach (var element in elements)
            list.PushBack(element);
        list.UpdateHeapSize();
        return list;
    }

    /// <summary>Appends the elements, head to tail, to <paramref name="destination"/> (the arrays are shared, not copied).</summary>
    public void CopyElementsTo(List<byte[]> destination)
    {
        destination.EnsureCapacity(destination.Count + _count);
        for (int i = 0; i < _count; i++)
            destination.Add(At(i));
    }

    public override GarnetObject Clone()
    {
        var copy = new ListObject(_count);
        for (int i = 0; i < _count; i++)
            copy.PushBack((byte[])At(i).Clone());
        copy._quicklist = _quicklist; // COPY keeps the encoding, as Redis's duplicate does
        copy.UpdateHeapSize();
        return copy;
    }

    public override void Serialize(BinaryWriter writer)
    {
        writer.Write(_count);
        for (int i = 0; i < _count; i++)
        {
            var element = At(i);
            writer.Write(element.Length);
            writer.Write(element);
        }
    }

    /// <summary>Reads an object written by <see cref="Serialize"/>.</summary>
    public static ListObject Deserialize(BinaryReader reader)
    {
        int count = reader.ReadInt32();
        if (count < 0)
            throw new InvalidDataException("Negative list length.");
        // The count comes from a payload: the buffer grows as elements actually arrive.
        var list = new ListObject(Math.Min(count, 1 << 16));
        for (int i = 0; i < count; i++)
        {
            int length = reader.ReadInt32();
            if (length < 0)
                throw new InvalidDataException("Negative list element length.");
            var element = reader.ReadBytes(length);
            if (element.Length != length)
                throw new EndOfStreamException("Truncated list element.");
            list.PushBack(element);
        }
        list.UpdateHeapSize();
        return list;
    }

    // ---- The ring buffer ----

    private static int RoundUpCapacity(int capacity)
    {
        int rounded = MinimumCapacity;
        while (rounded < capacity)
            rounded <<= 1;
        return rounded;
    }

    private int Mask => _items.Length - 1;

    /// <summary>The element at <paramref name="index"/> (0 = head), which must be in range.</summary>
    private byte[] At(int index) => _items[(_head + index) & Mask];

    private void SetAt(int index, byte[] value) => _items[(_head + index) & Mask] = value;

    private void Resize(int capacity)
    {
        var items = new byte[capacity][];
        for (int i = 0; i < _count; i++)
            items[i] = At(i);
        _items = items;
        _head = 0;
    }

    private void EnsureRoom(int additional)
    {
        long needed = (long)_count + additional;
        if (needed <= _items.Length)
            return;
        if (needed > 1 << 30)
            throw new InvalidOperationException("List too long.");
        Resize(RoundUpCapacity((int)needed));
    }

    /// <summary>
    /// Shrinks the buffer to twice the length once it is at most a quarter full, so a list that shrank
    /// does not keep its peak memory (and growing or shrinking again takes as many operations as it copies).
    /// </summary>
    private void ShrinkIfSparse()
    {
        if (_count == 0)
        {
            _items = Array.Empty<byte[]>();
            _head = 0;
            return;
        }
        if (_items.Length > MinimumCapacity && _count <= _items.Length / 4)
            Resize(RoundUpCapacity(_count * 2));
    }

    private void PushFront(byte[] element)
    {
        EnsureRoom(1);
        _head = (_head - 1) & Mask;
        _items[_head] = element;
        _count++;
        _elementBytes += element.Length;
        _listpackBytes += EntryBytes(element);
    }

    private void PushBack(byte[] element)
    {
        EnsureRoom(1);
        _items[(_head + _count) & Mask] = element;
        _count++;
        _elementBytes += element.Length;
        _listpackBytes += EntryBytes(element);
    }

    private byte[] PopFront()
    {
        var element = _items[_head];
        _items[_head] = null!;
        _head = (_head + 1) & Mask;
        _count--;
        _elementBytes -= element.Length;
        _listpackBytes -= EntryBytes(element);
        return element;
    }

    private byte[] PopBack()
    {
        int slot = (_head + _count - 1) & Mask;
        var element = _items[slot];
        _items[slot] = null!;
        _count--;
        _elementBytes -= element.Length;
        _listpackBytes -= EntryBytes(element);
        return element;
    }

    private byte[] Pop(bool fromLeft) => fromLeft ? PopFront() : PopBack();

    private void Push(byte[] element, bool toLeft)
    {
        if (toLeft)
            PushFront(element);
        else
            PushBack(element);
    }

    /// <summary>Inserts <paramref name="element"/> so that it ends up at <paramref name="index"/> (0..Count), shifting the shorter side.</summary>
    private void InsertAt(int index, byte[] element)
    {
        if (index == 0)
        {
            PushFront(element);
            return;
        }
        if (index == _count)
        {
            PushBack(element);
            return;
        }
        EnsureRoom(1);
        if (index < _count / 2)
        {
            // Move the head one slot left, then shift elements [0, index) left by one.
            _head = (_head - 1) & Mask;
            for (int i = 0; i < index; i++)
                SetAt(i, At(i + 1));
        }
        else
        {
            for (int i = _count; i > index; i--)
                SetAt(i, At(i - 1));
        }
        SetAt(index, element);
        _count++;
        _elementBytes += element.Length;
        _listpackBytes += EntryBytes(element);
    }

    /// <summary>Drops the first <paramref name="front"/> and the last <paramref name="back"/> elements.</summary>
    private void Trim(int front, int back)
    {
        for (int i = 0; i < front; i++)
            PopFront();
        for (int i = 0; i < back; i++)
            PopBack();
        ShrinkIfSparse();
    }

    private void UpdateHeapSize()
        => HeapSize = ObjectOverhead + (long)_items.Length * SlotSize + _count * ElementOverhead + _elementBytes;

    /// <summary>Turns a Redis index (negative counts from the tail) into a position, or -1 when out of range.</summary>
    private int ResolveIndex(long index)
    {
        if (index < 0)
            index += _count;
        return index < 0 || index >= _count ? -1 : (int)index;
    }

    /// <summary>Clamps a Redis start/stop pair to the list; false when the range is empty.</summary>
    private bool ResolveRange(long start, long stop, out int first, out int last)
    {
        first = last = 0;
        if (start < 0)
            start += _count;
        if (stop < 0)
            stop += _count;
        if (start < 0)
            start = 0;
        if (start > stop || start >= _count)
            return false;
        if (stop >= _count)
            stop = _count - 1;
        first = (int)start;
        last = (int)stop;
        return true;
    }
}
