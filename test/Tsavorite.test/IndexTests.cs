using System;
using System.Collections.Generic;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

[TestFixture]
public sealed unsafe class IndexTests
{
    [Test]
    public void OneBucketHoldsHundredsOfKeys()
    {
        using var ts = new TestStore(new StoreOptions { IndexSize = 64 });
        var session = ts.Session;
        const int keyCount = 600;
        Assert.That(ts.Store.IndexBucketCount, Is.EqualTo(1));

        var tags = new HashSet<int>();
        for (int i = 0; i < keyCount; i++)
        {
            tags.Add(HashBucketEntry.TagOf(KeyHash.Hash(TestData.Key(i))));
            session.Upsert(TestData.Key(i), TestData.Value(i, 10));
        }
        Assert.That(tags, Has.Count.LessThan(keyCount), "some keys share a tag, so chains hold several keys");
        Assert.That(ts.Store.OverflowBucketCount, Is.GreaterThanOrEqualTo((tags.Count / HashBucket.EntryCount) - 1));

        for (int i = 0; i < keyCount; i++)
        {
            Assert.That(session.Read(TestData.Key(i), out var value).Found, Is.True, $"key {i}");
            Assert.That(value, Is.EqualTo(TestData.Value(i, 10)), $"key {i}");
        }

        for (int i = 0; i < keyCount; i += 3)
            Assert.That(session.Delete(TestData.Key(i)).Found, Is.True, $"key {i}");
        for (int i = 0; i < keyCount; i++)
            session.Increment(TestData.Key(i + keyCount), i);
        for (int i = 0; i < keyCount; i++)
        {
            Assert.That(session.Read(TestData.Key(i), out var value).Found, Is.EqualTo(i % 3 != 0), $"key {i}");
            Assert.That(session.ReadCounter(TestData.Key(i + keyCount)), Is.EqualTo(i), $"counter {i}");
        }
        Assert.That(session.ScanAll(), Has.Count.EqualTo(keyCount + keyCount - ((keyCount + 2) / 3)));
    }

    [Test]
    public void KeysWithExtremeTagBitsCanBeStored()
    {
        // Keys whose hash has all tag bits clear or all set. A new entry has address 0; with tag bits
        // of 0 its word must still differ from a free entry's.
        byte[]? lowest = null;
        byte[]? highest = null;
        for (int i = 0; i < 10_000_000 && (lowest == null || highest == null); i++)
        {
            byte[] key = TestData.Key(i);
            ulong tagBits = (ulong)KeyHash.Hash(key) >> (64 - HashBucketEntry.TagBits);
            if (tagBits == 0)
                lowest ??= key;
            else if (tagBits == HashBucketEntry.TagMask)
                highest ??= key;
        }
        Assert.That(lowest, Is.Not.Null);
        Assert.That(highest, Is.Not.Null);

        using var ts = new TestStore();
        var session = ts.NewSession();
        TestThreads.Run(1, thread =>
        {
            session.Upsert(lowest, "low"u8);
            session.Upsert(highest, "high"u8);
            session.RMW(lowest, TestInput.Append("er"u8.ToArray()), out _);
        });
        Assert.That(ts.Session.Read(highest, out var value).Found, Is.True);
        Assert.That(value, Is.EqualTo("high"u8.ToArray()));
        Assert.That(ts.Session.Read(lowest, out value).Found, Is.True);
        Assert.That(value, Is.EqualTo("lower"u8.ToArray()));
        Assert.That(ts.Session.Delete(lowest).Found, Is.True);
        Assert.That(ts.Session.Read(lowest, out _).NotFound, Is.True);
    }

    [Test]
    public void ConcurrentFindOrCreateTagMakesOneEntryPerTag([Values(1, 30)] int tagCount)
    {
        const int threadCount = 8;
        for (int round = 0; round < 50; round++)
        {
            using var index = new HashIndex(HashBucket.Size);
            long* bucket = index.Bucket(0);
            var found = new long[threadCount, tagCount];
            TestThreads.Run(threadCount, self =>
            {
                // Threads visit the tags in different orders so they race on different entries.
                for (int j = 0; j < tagCount; j++)
                {
                    int tag = 1 + ((self % 2 == 0 ? j + (self * 7) : tagCount - 1 - j) % tagCount);
                    found[self, tag - 1] = (long)index.FindOrCreateTag(bucket, tag);
                }
            });

            var entries = new HashSet<long>();
            for (int tag = 1; tag <= tagCount; tag++)
            {
                long entry = found[0, tag - 1];
                for (int t = 1; t < threadCount; t++)
                    Assert.That(found[t, tag - 1], Is.EqualTo(entry), $"round {round}: threads got different entries for tag {tag}");
                Assert.That(entries.Add(entry), Is.True, "each tag has an entry of its own");
                Assert.That(HashIndex.EntryHoldsTag((long*)entry, tag), Is.True, "the entry is final (not tentative) and holds the tag");
                Assert.That((long)index.FindTag(bucket, tag), Is.EqualTo(entry));
            }

            // Every used entry of the chain is the final entry of one tag: no duplicates, no tentative leftovers.
            var entriesPerTag = new int[tagCount + 1];
            int usedEntries = 0;
            for (long* b = bucket; b != null; b = index.NextBucket(b))
            {
                for (int i = 0; i < HashBucket.EntryCount; i++)
                {
                    var word = new HashBucketEntry(b[i]);
                    if (word.IsFree)
                        continue;
                    usedEntries++;
                    Assert.That(word.Tentative, Is.False, $"round {round}: tentative entry left for tag {word.Tag}");
                    entriesPerTag[word.Tag]++;
                }
            }
            Assert.That(usedEntries, Is.EqualTo(tagCount), $"round {round}");
            Assert.That(entriesPerTag[1..], Is.All.EqualTo(1), $"round {round}");
        }
    }

    [Test]
    public void BucketLatchesExcludeEachOther()
    {
        using var index = new HashIndex(HashBucket.Size);
        long* bucket = index.Bucket(0);
        const long overflowNumber = 12345;
        *HashBucket.OverflowWord(bucket) = overflowNumber;

        const int threadCount = 6;
        const int iterations = 20_000;
        int exclusiveIn = 0;
        int sharedIn = 0;
        int violations = 0;
        long unprotectedCounter = 0;
        TestThreads.Run(threadCount, t =>
        {
            bool writer = t % 2 == 0;
            for (int i = 0; i < iterations; i++)
            {
                if (writer)
                {
                    HashBucket.AcquireExclusive(bucket);
                    if (Interlocked.Increment(ref exclusiveIn) != 1 || Volatile.Read(ref sharedIn) != 0)
                        Interlocked.Increment(ref violations);
                    unprotectedCounter++;
                    Interlocked.Decrement(ref exclusiveIn);
                    HashBucket.ReleaseExclusive(bucket);
                }
                else
                {
                    HashBucket.AcquireShared(bucket);
                    Interlocked.Increment(ref sharedIn);
                    if (Volatile.Read(ref exclusiveIn) != 0)
                        Interlocked.Increment(ref violations);
                    Interlocked.Decrement(ref sharedIn);
                    HashBucket.ReleaseShared(bucket);
                }
            }
        });

        Assert.That(violations, Is.Zero);
        Assert.That(unprotectedCounter, Is.EqualTo((long)iterations * ((threadCount + 1) / 2)), "exclusive holders never overlap");
        Assert.That(HashBucket.IsLatched(bucket), Is.False);
        Assert.That(HashBucket.OverflowBucketNumber(bucket), Is.EqualTo(overflowNumber), "the latch bits leave the overflow link alone");
        *HashBucket.OverflowWord(bucket) = 0;
    }

    [Test]
    public void TryAcquireExclusiveFailsWhileTheLatchIsHeld()
    {
        using var index = new HashIndex(HashBucket.Size);
        long* bucket = index.Bucket(0);

        HashBucket.AcquireShared(bucket);
        HashBucket.AcquireShared(bucket);
        Assert.That(HashBucket.TryAcquireExclusive(bucket), Is.False);
        HashBucket.ReleaseShared(bucket);
        Assert.That(HashBucket.TryAcquireExclusive(bucket), Is.False);
        HashBucket.ReleaseShared(bucket);
        Assert.That(HashBucket.IsLatched(bucket), Is.False);

        Assert.That(HashBucket.TryAcquireExclusive(bucket), Is.True);
        Assert.That(HashBucket.TryAcquireExclusive(bucket), Is.False);
        Assert.That(HashBucket.IsLatched(bucket), Is.True);

        bool sharedAcquired = false;
        var reader = new Thread(() =>
        {
            HashBucket.AcquireShared(bucket);
            Volatile.Write(ref sharedAcquired, true);
            HashBucket.ReleaseShared(bucket);
        });
        reader.Start();
        Assert.That(reader.Join(TimeSpan.FromMilliseconds(50)), Is.False, "a reader waits for the exclusive holder");
        Assert.That(Volatile.Read(ref sharedAcquired), Is.False);
        HashBucket.ReleaseExclusive(bucket);
        Assert.That(reader.Join(TestThreads.HangGuard), Is.True);
        Assert.That(sharedAcquired, Is.True);
    }
}
