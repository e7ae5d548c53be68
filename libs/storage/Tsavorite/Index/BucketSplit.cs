using System.Threading;

namespace Tsavorite;

/// <summary>
/// Splits one bucket of a table being doubled: each entry's chain is divided between the two new
/// buckets its keys can map to, number b (hash bit of the old size clear) and b + oldCount (set).
/// </summary>
/// <remarks>
/// <para>
/// Records are not rewritten. A chain of the old bucket can interleave keys of both halves, so each
/// new bucket gets an entry pointing at the newest record of its half and shares the rest of the old
/// chain with the other half: traversals compare keys, so records of the other half (or of buckets
/// split apart by earlier resizes) are passed over. A half with no record in memory gets no entry.
/// </para>
/// <para>
/// The invariant that keeps shared chains safe: <b>a record that more than one hash entry reaches is
/// frozen (marked <see cref="RecordInfo.SplitShared"/>, or read-only), or every entry
/// reaches it only through a frozen record</b>; so it is never unlinked and its space never reused.
/// Operations unlink (and free) only the record an entry points at directly, and only a mutable,
/// unmarked one (see <see cref="TsavoriteKV.HeadsChainAlone"/>); an entry moves below its record only
/// by unlinking it, so it never gets past a frozen record, and what lies below one never heads a chain
/// again. A split keeps the invariant by marking every new head other than the old entry's own target:
/// such a head is also reached through the records above it in the old chain (the other half's head,
/// or records no entry of this bucket reaches any more but another bucket's may). The old target had
/// the old entry as its only referrer and now has the new one, so updates still replace it in place.
/// </para>
/// <para>
/// The caller holds the old bucket's latch exclusively and is epoch-protected: no operation changes
/// the bucket's chains meanwhile, and no record at or above the head address read here is evicted.
/// Nobody reads the two new buckets before the old one is marked moved, so they are filled with
/// plain writes. Records of other buckets met on the way are only read (their key and previous
/// address, which never change in a record that stays linked).
/// </para>
/// <para>
/// Read cache records at the front of a chain (see TsavoriteKV's ReadCache) are left behind: each new entry leads
/// into the log, the copies are unreachable once the old bucket is marked moved, and their memory stays readable
/// until every thread refreshed its epoch, as the old table's does.
/// </para>
/// </remarks>
internal static unsafe class BucketSplit
{
    /// <summary>Splits bucket <paramref name="number"/> of <paramref name="old"/> into <paramref name="next"/>.</summary>
    public static void Split(HashIndex index, HybridLog log, BucketTable old, BucketTable next, long number)
    {
        var context = new Context
        {
            Index = index,
            Log = log,
            NewMask = next.Mask,
            LowNumber = number,
            HighNumber = number + old.Count,
            Low = next.Bucket(number),
            High = next.Bucket(number + old.Count),
            HeadAddress = log.HeadAddress,
            ReadOnlyAddress = log.ReadOnlyAddress,
        };
        for (long* bucket = old.Bucket(number); bucket != null; bucket = index.NextBucket(bucket))
        {
            for (int i = 0; i < HashBucket.EntryCount; i++)
            {
                var entry = new HashBucketEntry(Volatile.Read(ref bucket[i]));
                // Free, being created, or created by an operation that has not linked a record yet:
                // that operation finds the bucket moved when it comes to latch it and starts over in
                // the new table; the entry is uncounted when the old table is released.
                if (entry.IsFree || entry.Tentative || entry.Address == 0)
                    continue;
                // Read cache records in front of the chain stay with the old table: they are copies, and the new
                // entries lead straight into the log (the read cache then finds them unlinked when it empties their page).
                long address = entry.Address;
                if (ReadCacheLog.IsCacheAddress(address))
                    address = index.ReadCache!.SkipPrefix(address);
                SplitChain(ref context, entry.Tag, address);
            }
        }
    }

    private static void SplitChain(ref Context context, int tag, long address)
    {
        var log = context.Log;
        long lowHead = 0;
        long highHead = 0;
        long current = address;
        while (current >= context.HeadAddress && (lowHead == 0 || highHead == 0))
        {
            var record = log.GetRecord(current);
            var info = record.Info;
            if (!info.Abandoned)
            {
                long bucket = KeyHash.Hash(record.Key) & context.NewMask;
                if (bucket == context.LowNumber && lowHead == 0)
                    lowHead = current;
                else if (bucket == context.HighNumber && highHead == 0)
                    highHead = current;
            }
            current = info.PreviousAddress;
        }

        // Below the head address records have left memory. Without the storage tier the chain ends there, as it
        // does for TraceBack, and a half with no record in memory gets no entry; with it, the chain goes on on the
        // device, where its keys cannot be told apart without reading it, so such a half points where the chain
        // leaves memory (both halves may share that rest of the chain; traversals compare keys).
        // Entries that lead only to that shared rest are counted once between them: growing the index never splits
        // them (each later split copies them into both halves again), so counting each copy would read as a fuller
        // index after every growth and grow it again, up to its maximum.
        int counted = 0;
        if (current >= LogAddress.FirstValidAddress && log.StorageTier && current >= log.BeginAddress)
        {
            if (lowHead == 0)
                lowHead = current;
            else
                counted++;
            if (highHead == 0)
                highHead = current;
            else
                counted++;
            if (lowHead == current || highHead == current)
                counted++;
        }
        else
        {
            counted = (lowHead != 0 ? 1 : 0) + (highHead != 0 ? 1 : 0);
        }
        MarkIfShared(ref context, lowHead, address);
        MarkIfShared(ref context, highHead, address);
        if (lowHead != 0)
            Insert(context.Index, context.Low, HashBucketEntry.Make(tag, lowHead, tentative: false));
        if (highHead != 0)
            Insert(context.Index, context.High, HashBucketEntry.Make(tag, highHead, tentative: false));
        // The old entry goes with its table; the new ones are counted in the same stripe.
        context.Index.Entries.Add(tag, counted - 1);
    }

    /// <summary>
    /// Marks a new head that other records of the old chain lead to (it is not the old entry's
    /// target), when it is a mutable record in memory: see the invariant in the type's remarks.
    /// </summary>
    private static void MarkIfShared(ref Context context, long head, long oldEntryAddress)
    {
        if (head == 0 || head == oldEntryAddress || head < context.ReadOnlyAddress)
            return;
        context.Log.GetRecord(head).Info.SplitShared = true;
    }

    /// <summary>Puts an entry word in the first free slot of a new bucket's chain, adding an overflow bucket when all are taken.</summary>
    private static void Insert(HashIndex index, long* primary, long word)
    {
        long* bucket = primary;
        while (true)
        {
            for (int i = 0; i < HashBucket.EntryCount; i++)
            {
                if (bucket[i] == 0)
                {
                    Volatile.Write(ref bucket[i], word);
                    return;
                }
            }
            long number = HashBucket.OverflowBucketNumber(bucket);
            if (number == 0)
            {
                number = index.Overflow.Allocate();
                Volatile.Write(ref *HashBucket.OverflowWord(bucket), number);
            }
            bucket = index.Overflow.Get(number);
        }
    }

    /// <summary>What the split of one bucket needs, read once for all its chains.</summary>
    private struct Context
    {
        public HashIndex Index;
        public HybridLog Log;
        public long NewMask;
        public long LowNumber;
        public long HighNumber;
        public long* Low;
        public long* High;
        public long HeadAddress;
        public long ReadOnlyAddress;
    }
}
