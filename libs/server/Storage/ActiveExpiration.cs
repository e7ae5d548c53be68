using System;
using System.Threading;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The active expiration task: every <see cref="ServerOptions.ExpiredKeyDeletionScanFrequencySecs"/>
/// seconds (while <see cref="StoreWrapper.ActiveExpirationEnabled"/>) it walks the log of each
/// database in use and deletes the expired keys, so their space is reclaimed without anyone reading
/// them: the engine's Delete unlinks such a record and hands its space to revivification.
/// </summary>
/// <remarks>
/// <para>
/// Records in memory are deleted: in the mutable region their space goes to revivification; a read-only one gets a
/// tombstone at the tail (a few dozen bytes), which takes its key off the key count at once (DBSIZE and INFO
/// keyspace count expired keys until they are deleted, as Redis's do), and the head of the log drops both later.
/// Records on the device of a storage tier are left to reads and compaction: the walk never reads the device.
/// </para>
/// <para>
/// The walk collects a batch of expired keys with a scan, then deletes them (a scan holds bucket
/// latches, so it cannot delete as it goes). A key rewritten between the two steps must survive: the
/// deletion's callback cancels it unless the record it finds is still expired.
/// </para>
/// <para>
/// The task uses its own engine sessions, entering the database for one batch at a time
/// (<see cref="GarnetDatabase.TryEnter"/>), so a flush cannot free the store under a batch; it stops
/// walking a database that was flushed. A failure is counted and the task goes on.
/// </para>
/// </remarks>
internal sealed class ActiveExpiration : IDisposable
{
    /// <summary>Expired keys collected per scan before they are deleted.</summary>
    private const int KeysPerBatch = 256;

    private readonly StoreWrapper _server;
    private readonly PeriodicLoop _loop;
    private readonly KeyBuffer _keys = new();
    /// <summary>Where the task builds keyspace notifications' channel names ("expired" events).</summary>
    private byte[]? _channel;
    private long _failures;
    private long _passes;

    public ActiveExpiration(StoreWrapper server, TimeSpan interval)
    {
        _server = server;
        _loop = new PeriodicLoop(interval, SweepAllIfEnabled);
    }

    /// <summary>Walks that failed with an exception (the task carried on).</summary>
    public long Failures => Volatile.Read(ref _failures);

    /// <summary>Completed passes over all databases.</summary>
    public long Passes => Volatile.Read(ref _passes);

    /// <summary>Starts the periodic task.</summary>
    public void Start() => _loop.Start();

    private void SweepAllIfEnabled(CancellationToken token)
    {
        // As Redis, no key expires while clients are paused (CLIENT PAUSE): the data set stays as it was.
        if (_server.ActiveExpirationEnabled && !_server.ClientPause.PausesExpiry)
            SweepAll(token);
    }

    /// <summary>One pass over every database; returns the number of keys deleted.</summary>
    private long SweepAll(CancellationToken token)
    {
        long started = System.Diagnostics.Stopwatch.GetTimestamp();
        long deleted = 0;
        for (int i = 0; i < _server.DatabaseCount && !token.IsCancellationRequested; i++)
        {
            var database = _server.PeekDatabase(i);
            if (database == null)
                continue;
            try
            {
                if (!database.Retired)
                    deleted += Sweep(database, token);
            }
            catch (Exception) when (!token.IsCancellationRequested)
            {
                // A background task has nobody to report to; a bad pass must not end expiration for good.
                Interlocked.Increment(ref _failures);
            }
        }
        if (deleted > 0)
            _server.Statistics.AddExpiredKeys(deleted);
        _server.LatencyMonitor.AddIfSpike(LatencyMonitor.ExpireCycleEvent, (long)System.Diagnostics.Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        Interlocked.Increment(ref _passes);
        return deleted;
    }

    private long Sweep(GarnetDatabase database, CancellationToken token)
    {
        // Nothing was ever written with an expiration since the last walk found none: nothing to walk for.
        var store = database.MainStore;
        if (!store.MayHoldExpirations)
            return 0;
        store.ClearExpirationNote();
        bool walked = false;
        try
        {
            return Walk(database, token, out walked);
        }
        finally
        {
            // A walk cut short (shutdown, flush, failure) did not see every record: keep the store marked.
            if (!walked)
                store.NoteExpiration();
        }
    }

    /// <summary>Walks the records in memory once, deleting expired keys; <paramref name="completed"/> tells whether it reached the end.</summary>
    private long Walk(GarnetDatabase database, CancellationToken token, out bool completed)
    {
        completed = false;
        using var session = database.MainStore.NewSession<StringInput, StringOutput, ExpiredRecordDeleter>(new ExpiredRecordDeleter(database.Objects));
        long deleted = 0;
        // Only records in memory (see the remarks): the walk starts at the head, so it never reads the device.
        long from = database.MainStore.Log.HeadAddress;
        while (!token.IsCancellationRequested && !database.Retired)
        {
            _keys.Clear();
            var scan = new ExpiredKeyScan(_keys, database.MainStore, KeysPerBatch);
            if (!database.TryEnter(session))
                break;
            try
            {
                from = session.Scan(ref scan, from, -1, ScanFlags.IncludeExpired);
                for (int i = 0; i < _keys.Count; i++)
                {
                    // Not-found and expired: this call deleted an expired record. Canceled: it was rewritten meanwhile.
                    if (session.Delete(_keys[i]).IsExpired)
                    {
                        deleted++;
                        _server.KeyRemovals.OnRemoved(_keys[i], database.Index, ServerKeyRemoval.Expired, ref _channel);
                    }
                }
            }
            finally
            {
                session.EndUnsafe();
            }
            if (!scan.Full)
            {
                completed = true;
                break;
            }
        }
        _keys.Clear();
        return deleted;
    }

    /// <summary>Stops the task and waits for a pass in progress to end (it checks between batches).</summary>
    public void Dispose() => _loop.Dispose();

    /// <summary>Collects the keys of expired records in memory, up to a batch.</summary>
    private struct ExpiredKeyScan : IScanFunctions
    {
        private readonly KeyBuffer _keys;
        private readonly TsavoriteKV _store;
        private readonly int _limit;
        private readonly long _now;

        public ExpiredKeyScan(KeyBuffer keys, TsavoriteKV store, int limit)
        {
            _keys = keys;
            _store = store;
            _limit = limit;
            _now = Expiration.NowUnixMs;
            Full = false;
        }

        /// <summary>Whether the batch filled up (the scan stopped before the end).</summary>
        public bool Full { get; private set; }

        public bool OnRecord(in LogRecord record, long address)
        {
            if (!record.Info.HasExpiration)
                return true;
            // Became read-only since the walk started: not deletable here, and no later walk starts below it.
            if (address < _store.Log.ReadOnlyAddress)
                return true;
            // Expiring but not yet expired: a later walk has to come back for it.
            if (!record.IsExpired(_now))
            {
                _store.NoteExpiration();
                return true;
            }
            _keys.Add(record.Key);
            if (_keys.Count < _limit)
                return true;
            Full = true;
            return false;
        }
    }

    /// <summary>
    /// Engine callbacks of the task's sessions: only Delete is used, and it goes ahead only if the
    /// record it found is expired.
    /// </summary>
    private struct ExpiredRecordDeleter : ISessionFunctions<StringInput, StringOutput>
    {
        private readonly ObjectTable _objects;

        public ExpiredRecordDeleter(ObjectTable objects) => _objects = objects;

        private static InvalidOperationException NotUsed() => new("Active expiration only deletes.");

        public readonly void DisposeRecord(ref LogRecord record, DisposeReason reason)
            => _objects.Release(in record);

        public readonly bool InPlaceDeleter(ref LogRecord record, ref DeleteInfo deleteInfo) => record.IsExpired(Expiration.NowUnixMs);

        // The key may have been written again since the scan saw it expired, and the new record may already be
        // read-only (or on the device): it is not the one to delete.
        public readonly bool ShadowDeleter(in LogRecord record, ref DeleteInfo deleteInfo) => record.IsExpired(Expiration.NowUnixMs);

        public readonly bool Reader(in LogRecord record, ref StringInput input, ref StringOutput output, ref ReadInfo readInfo) => throw NotUsed();

        public readonly RecordFieldInfo GetUpsertFieldInfo(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ref StringInput input) => throw NotUsed();

        public readonly bool InPlaceWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref StringInput input, ref StringOutput output, ref UpsertInfo upsertInfo) => throw NotUsed();

        public readonly bool InitialWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref StringInput input, ref StringOutput output, ref UpsertInfo upsertInfo) => throw NotUsed();

        public readonly void PostInitialWriter(ref LogRecord record, ref StringInput input, ref StringOutput output, ref UpsertInfo upsertInfo) => throw NotUsed();

        public readonly bool NeedInitialUpdate(ReadOnlySpan<byte> key, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo) => throw NotUsed();

        public readonly RecordFieldInfo GetRMWInitialFieldInfo(ReadOnlySpan<byte> key, ref StringInput input) => throw NotUsed();

        public readonly bool InitialUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo) => throw NotUsed();

        public readonly void PostInitialUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo) => throw NotUsed();

        public readonly bool InPlaceUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo) => throw NotUsed();

        public readonly bool NeedCopyUpdate(in LogRecord source, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo) => throw NotUsed();

        public readonly RecordFieldInfo GetRMWModifiedFieldInfo(in LogRecord source, ref StringInput input) => throw NotUsed();

        public readonly bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo) => throw NotUsed();

        public readonly void PostCopyUpdater(in LogRecord source, ref LogRecord destination, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo) => throw NotUsed();
    }
}
