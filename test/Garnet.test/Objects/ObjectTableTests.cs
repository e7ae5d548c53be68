using System;
using System.Collections.Generic;
using System.IO;
using Garnet.server;
using NUnit.Framework;
using Tsavorite;

namespace Garnet.test.Objects;

/// <summary>
/// The object table: handles for heap objects, recycled when freed, and the live count and heap size
/// it keeps for INFO, MEMORY USAGE and the memory budget.
/// </summary>
public class ObjectTableTests
{
    /// <summary>The smallest object: a heap size the test sets, and an id to tell instances apart.</summary>
    private sealed class TestObject : GarnetObject
    {
        public TestObject(long heapSize, int id = 0)
        {
            HeapSize = heapSize;
            Id = id;
        }

        public int Id { get; }

        public override GarnetObjectType Type => GarnetObjectType.Set;

        public override long Count => 1;

        /// <summary>Changes the heap size as a command would; returns the delta to report to the table.</summary>
        public long Resize(long heapSize)
        {
            long delta = heapSize - HeapSize;
            HeapSize = heapSize;
            return delta;
        }

        public override void Operate(ref ObjectInput input, ref ObjectOutput output) => throw new NotSupportedException();

        public override GarnetObject Clone() => new TestObject(HeapSize, Id);

        public override void Serialize(BinaryWriter writer) => throw new NotSupportedException();
    }

    // Handles live in chunks of this many slots (ObjectTable.ChunkSize).
    private const int ChunkSize = 1 << 14;

    [Test]
    public void AddedObjectsAreFoundByTheirHandles()
    {
        var table = new ObjectTable();
        var a = new TestObject(10);
        var b = new TestObject(20);

        int ha = table.Add(a);
        int hb = table.Add(b);

        Assert.That(ha, Is.Not.Zero, "handle 0 is never used: a zeroed record value is no handle");
        Assert.That(hb, Is.Not.EqualTo(ha));
        Assert.That(table.Get(ha), Is.SameAs(a));
        Assert.That(table.Get(hb), Is.SameAs(b));
        Assert.That((table.Count, table.HeapSize), Is.EqualTo((2L, 30L)));
    }

    [Test]
    public void AFreedHandleNoLongerResolvesAndIsReused()
    {
        var table = new ObjectTable();
        int first = table.Add(new TestObject(10));
        int second = table.Add(new TestObject(20));

        table.Free(first);

        Assert.That(() => table.Get(first), Throws.InvalidOperationException);
        Assert.That(table.Get(second), Is.Not.Null);
        Assert.That((table.Count, table.HeapSize), Is.EqualTo((1L, 20L)));

        var replacement = new TestObject(5);
        Assert.That(table.Add(replacement), Is.EqualTo(first), "the freed handle is handed out again");
        Assert.That(table.Get(first), Is.SameAs(replacement));
        Assert.That((table.Count, table.HeapSize), Is.EqualTo((2L, 25L)));
    }

    [Test]
    public void FreedHandlesAreReusedBeforeNewOnesAreTaken()
    {
        var table = new ObjectTable();
        var handles = new List<int>();
        for (int i = 0; i < 1000; i++)
            handles.Add(table.Add(new TestObject(1)));
        var freed = new HashSet<int>();
        for (int i = 0; i < handles.Count; i += 3)
        {
            table.Free(handles[i]);
            freed.Add(handles[i]);
        }

        var reused = new HashSet<int>();
        for (int i = 0; i < freed.Count; i++)
            reused.Add(table.Add(new TestObject(1)));

        Assert.That(reused, Is.EquivalentTo(freed), "more than the free list's initial capacity, all reused");
        Assert.That(table.Add(new TestObject(1)), Is.EqualTo(handles[^1] + 1), "then new handles continue where they stopped");
        Assert.That(table.Count, Is.EqualTo(1001));
    }

    [Test]
    public void FreeingTwiceOrAnUnusedHandleChangesNothing()
    {
        var table = new ObjectTable();
        int handle = table.Add(new TestObject(10));
        int other = table.Add(new TestObject(20));

        table.Free(handle);
        table.Free(handle);
        table.Free(other + 1);

        Assert.That((table.Count, table.HeapSize), Is.EqualTo((1L, 20L)));
        int a = table.Add(new TestObject(1));
        int b = table.Add(new TestObject(1));
        Assert.That(a, Is.EqualTo(handle));
        Assert.That(b, Is.Not.EqualTo(handle), "a handle freed twice is still handed out once");
    }

    [Test]
    public void ReplacePutsANewObjectUnderTheSameHandle()
    {
        var table = new ObjectTable();
        int handle = table.Add(new TestObject(100));
        var replacement = new TestObject(30);

        table.Replace(handle, replacement);

        Assert.That(table.Get(handle), Is.SameAs(replacement));
        Assert.That((table.Count, table.HeapSize), Is.EqualTo((1L, 30L)), "the old object's size is taken off");

        table.Free(handle);
        Assert.That((table.Count, table.HeapSize), Is.EqualTo((0L, 0L)), "freeing takes off the replacement's size");
    }

    [Test]
    public void AddHeapSizeFollowsObjectsAsTheyChange()
    {
        var table = new ObjectTable();
        var obj = new TestObject(100);
        int handle = table.Add(obj);

        table.AddHeapSize(obj.Resize(250));
        Assert.That(table.HeapSize, Is.EqualTo(250));
        table.AddHeapSize(obj.Resize(40));
        Assert.That(table.HeapSize, Is.EqualTo(40));
        table.AddHeapSize(0);
        Assert.That(table.HeapSize, Is.EqualTo(40));

        table.Free(handle);
        Assert.That((table.Count, table.HeapSize), Is.EqualTo((0L, 0L)), "Free takes off the object's current size");
    }

    [Test]
    public void TheTableGrowsPastOneChunkOfHandles()
    {
        var table = new ObjectTable();
        int count = (2 * ChunkSize) + 10;
        var objects = new TestObject[count];
        var handles = new int[count];
        for (int i = 0; i < count; i++)
        {
            objects[i] = new TestObject(i % 7, i);
            handles[i] = table.Add(objects[i]);
        }

        Assert.That(handles[^1], Is.GreaterThan(2 * ChunkSize), "the handles span three chunks");
        Assert.That(handles, Is.Unique);
        for (int i = 0; i < count; i++)
            Assert.That(table.Get(handles[i]), Is.SameAs(objects[i]), $"handle {handles[i]}");
        long heap = 0;
        for (int i = 0; i < count; i++)
            heap += i % 7;
        Assert.That((table.Count, table.HeapSize), Is.EqualTo(((long)count, heap)));

        // Handles on both sides of a chunk boundary are freed and reused like any other.
        int boundary = Array.IndexOf(handles, ChunkSize);
        table.Free(handles[boundary - 1]);
        table.Free(handles[boundary]);
        Assert.That(new[] { table.Add(new TestObject(0)), table.Add(new TestObject(0)) }, Is.EquivalentTo(new[] { ChunkSize - 1, ChunkSize }));
    }

    [Test]
    public void ConcurrentAddAndFreeKeepTheCountExact()
    {
        const int threads = 4;
        const int rounds = 20_000;
        var table = new ObjectTable();
        var kept = new List<int>[threads];
        var failures = new List<string>();

        var workers = new System.Threading.Thread[threads];
        using var start = new System.Threading.Barrier(threads);
        for (int t = 0; t < threads; t++)
        {
            int thread = t;
            kept[t] = new List<int>();
            workers[t] = new System.Threading.Thread(() =>
            {
                start.SignalAndWait();
                var random = new Random(thread);
                var mine = new List<(int Handle, TestObject Obj)>();
                for (int i = 0; i < rounds; i++)
                {
                    if (mine.Count > 0 && random.Next(3) == 0)
                    {
                        int pick = random.Next(mine.Count);
                        var (handle, obj) = mine[pick];
                        if (!ReferenceEquals(table.Get(handle), obj))
                        {
                            lock (failures)
                                failures.Add($"thread {thread}: handle {handle} holds another object");
                        }
                        table.Free(handle);
                        mine[pick] = mine[^1];
                        mine.RemoveAt(mine.Count - 1);
                    }
                    else
                    {
                        var obj = new TestObject(3, (thread * rounds) + i);
                        mine.Add((table.Add(obj), obj));
                    }
                }
                foreach (var (handle, obj) in mine)
                {
                    if (!ReferenceEquals(table.Get(handle), obj))
                    {
                        lock (failures)
                            failures.Add($"thread {thread}: handle {handle} holds another object at the end");
                    }
                    kept[thread].Add(handle);
                }
            });
            workers[t].Start();
        }
        foreach (var worker in workers)
            Assert.That(worker.Join(TimeSpan.FromSeconds(60)), Is.True, "worker hung");

        Assert.That(failures, Is.Empty);
        var all = new List<int>();
        foreach (var list in kept)
            all.AddRange(list);
        Assert.That(all, Is.Unique, "no handle was given to two live objects");
        Assert.That(table.Count, Is.EqualTo(all.Count));
        Assert.That(table.HeapSize, Is.EqualTo(3L * all.Count));

        foreach (int handle in all)
            table.Free(handle);
        Assert.That((table.Count, table.HeapSize), Is.EqualTo((0L, 0L)));
    }

    [Test]
    public void OverBudgetCountsTheObjectsAndTheLogPages()
    {
        var budget = new MemoryBudget();
        using var store = new TsavoriteKV(new KVSettings { IndexSize = 1L << 13, PageSizeBits = 12, MemorySize = 1L << 20, Budget = budget });
        var table = new ObjectTable(store);
        store.ExternalMemorySize = () => table.HeapSize;
        Assert.That((store.Log.InMemoryBytes, store.IndexBytes), Is.EqualTo((0L, 0L)), "a store never written counts neither its first page nor its index");
        budget.Limit = store.IndexBytes + store.Log.InMemoryBytes + 50;

        int handle = table.Add(new TestObject(50));
        Assert.That(table.OverBudget, Is.False, "exactly at the budget is not over it");
        table.Add(new TestObject(1));
        Assert.That(table.OverBudget, Is.True, "the pages, the index and the objects share one budget");

        table.Free(handle);
        Assert.That(table.OverBudget, Is.False, "freeing objects brings the table back under");
        budget.Limit = 0;
        table.Add(new TestObject(1 << 20));
        Assert.That(table.OverBudget, Is.False, "no limit, no refusal");
        Assert.That(new ObjectTable().OverBudget, Is.False, "no store, no budget");
    }
}
