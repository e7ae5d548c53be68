using System;
using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>What a <see cref="LedgerFunctions"/> operation does.</summary>
internal enum LedgerOp : byte
{
    /// <summary>Upsert and RMW on an absent key: a new value (a new handle). RMW on a live key: update in place.</summary>
    Write,

    /// <summary>RMW that refuses to update in place, so a live key is copy-updated (the copy takes over the handle).</summary>
    Copy,

    /// <summary>RMW that deletes the key from its updater.</summary>
    ExpireAndStop,
}

internal struct LedgerInput
{
    public LedgerOp Op;

    /// <summary>New values get an expiration in the past: they read as absent until a write replaces them.</summary>
    public bool Expired;
}

/// <summary>
/// The state of every handle the <see cref="LedgerFunctions"/> handed out, as an object store would
/// track its heap objects: written into a record, linked (reachable), then disposed exactly once.
/// </summary>
internal sealed class HandleLedger
{
    private const int Written = 1;
    private const int Linked = 2;
    private const int Disposed = 3;

    private readonly ConcurrentDictionary<long, int> _states = new();
    private readonly ConcurrentQueue<string> _errors = new();
    private long _next;
    private long _linked;

    /// <summary>Violations seen by the callbacks (they hold latches, so they record instead of asserting).</summary>
    public string[] Errors => _errors.ToArray();

    /// <summary>Handles linked and not yet disposed.</summary>
    public long LinkedCount => Volatile.Read(ref _linked);

    public long DisposedCount { get; private set; }

    public long NewHandle()
    {
        long handle = Interlocked.Increment(ref _next);
        _states[handle] = Written;
        return handle;
    }

    public void OnLinked(long handle)
    {
        if (!_states.TryUpdate(handle, Linked, Written))
            _errors.Enqueue($"handle {handle} linked from state {State(handle)}");
        else
            Interlocked.Increment(ref _linked);
    }

    public void OnDisposed(long handle, DisposeReason reason)
    {
        if (!_states.TryUpdate(handle, Disposed, Linked))
        {
            _errors.Enqueue($"handle {handle} disposed ({reason}) from state {State(handle)}");
            return;
        }
        Interlocked.Decrement(ref _linked);
        lock (_errors)
            DisposedCount++;
    }

    public bool IsLinked(long handle) => State(handle) == Linked;

    private int State(long handle) => _states.TryGetValue(handle, out int state) ? state : 0;
}

/// <summary>Callbacks whose values are 8-byte handles recorded in a <see cref="HandleLedger"/>.</summary>
internal readonly struct LedgerFunctions : ISessionFunctions<LedgerInput, long>
{
    private readonly HandleLedger _ledger;

    public LedgerFunctions(HandleLedger ledger) => _ledger = ledger;

    private static long Past => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() - 1000;

    private static RecordFieldInfo Fields(ref LedgerInput input) => new(sizeof(long)) { HasExpiration = input.Expired };

    private void WriteNew(ref LogRecord record, ref LedgerInput input)
    {
        BinaryPrimitives.WriteInt64LittleEndian(record.Value, _ledger.NewHandle());
        record.Info.ValueIsObject = true;
        if (input.Expired)
            record.TrySetExpiration(Past);
    }

    private static long Handle(in LogRecord record) => BinaryPrimitives.ReadInt64LittleEndian(record.Value);

    public bool Reader(in LogRecord record, ref LedgerInput input, ref long output, ref ReadInfo readInfo)
    {
        output = Handle(in record);
        return true;
    }

    public RecordFieldInfo GetUpsertFieldInfo(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ref LedgerInput input) => Fields(ref input);

    // Never in place: every Upsert over a live key writes a new record and supersedes the old one.
    public bool InPlaceWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref LedgerInput input, ref long output, ref UpsertInfo upsertInfo) => false;

    public bool InitialWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref LedgerInput input, ref long output, ref UpsertInfo upsertInfo)
    {
        WriteNew(ref record, ref input);
        return true;
    }

    public void PostInitialWriter(ref LogRecord record, ref LedgerInput input, ref long output, ref UpsertInfo upsertInfo) => _ledger.OnLinked(Handle(in record));

    public bool NeedInitialUpdate(ReadOnlySpan<byte> key, ref LedgerInput input, ref long output, ref RMWInfo rmwInfo) => input.Op != LedgerOp.ExpireAndStop;

    public RecordFieldInfo GetRMWInitialFieldInfo(ReadOnlySpan<byte> key, ref LedgerInput input) => Fields(ref input);

    public bool InitialUpdater(ref LogRecord record, ref LedgerInput input, ref long output, ref RMWInfo rmwInfo)
    {
        WriteNew(ref record, ref input);
        return true;
    }

    public void PostInitialUpdater(ref LogRecord record, ref LedgerInput input, ref long output, ref RMWInfo rmwInfo) => _ledger.OnLinked(Handle(in record));

    public bool InPlaceUpdater(ref LogRecord record, ref LedgerInput input, ref long output, ref RMWInfo rmwInfo)
    {
        switch (input.Op)
        {
            case LedgerOp.Copy:
                return false;
            case LedgerOp.ExpireAndStop:
                rmwInfo.Action = OperationAction.ExpireAndStop;
                return true;
            default:
                output = Handle(in record);
                return true;
        }
    }

    public bool NeedCopyUpdate(in LogRecord source, ref LedgerInput input, ref long output, ref RMWInfo rmwInfo)
    {
        if (input.Op != LedgerOp.ExpireAndStop)
            return true;
        rmwInfo.Action = OperationAction.ExpireAndStop;
        return false;
    }

    public RecordFieldInfo GetRMWModifiedFieldInfo(in LogRecord source, ref LedgerInput input) => new(sizeof(long)) { HasExpiration = source.Info.HasExpiration };

    public bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref LedgerInput input, ref long output, ref RMWInfo rmwInfo)
    {
        // The copy takes over the handle, as an object record's copy does.
        source.Value.CopyTo(destination.Value);
        destination.Info.ValueIsObject = true;
        if (source.Info.HasExpiration)
            destination.TrySetExpiration(source.Expiration);
        return true;
    }

    public void PostCopyUpdater(in LogRecord source, ref LogRecord destination, ref LedgerInput input, ref long output, ref RMWInfo rmwInfo)
    {
    }

    public bool InPlaceDeleter(ref LogRecord record, ref DeleteInfo deleteInfo) => true;

    public void DisposeRecord(ref LogRecord record, DisposeReason reason)
    {
        if (!record.Info.ValueIsObject)
            return; // never linked with a handle (cannot happen here; an object store would skip string records)
        _ledger.OnDisposed(Handle(in record), reason);
    }
}

/// <summary>
/// Every handle a write links is disposed exactly once by the time its key is gone, through retries
/// at page ends, copy updates, revivification and concurrent sessions: checked as an object store's
/// ledger would see it.
/// </summary>
[TestFixture]
public sealed class DisposeLedgerTests
{
    private const int KeyCount = 24;

    [Test]
    public void EveryLinkedHandleIsDisposedExactlyOnce([Values(1, 4)] int threadCount)
    {
        using var ts = new TestStore(new StoreOptions { IndexSize = 1L << 8, MemorySize = 1L << 26 });
        var ledger = new HandleLedger();
        const int opsPerThread = 6000;

        TestThreads.Run(threadCount, t =>
        {
            using var session = ts.Store.NewSession<LedgerInput, long, LedgerFunctions>(new LedgerFunctions(ledger));
            var random = new Random(t + 1);
            long output = 0;
            for (int i = 0; i < opsPerThread; i++)
            {
                var key = TestData.Key(random.Next(KeyCount));
                var input = new LedgerInput { Op = (LedgerOp)random.Next(3), Expired = random.Next(10) == 0 };
                switch (random.Next(5))
                {
                    case 0:
                    case 1:
                        session.Upsert(key, default, ref input, ref output);
                        break;
                    case 2:
                    case 3:
                        session.RMW(key, ref input, ref output);
                        break;
                    default:
                        session.Delete(key);
                        break;
                }
                if (t == 0 && i % 200 == 0)
                    ts.Log.ShiftReadOnlyToTail(); // so that updates copy and deletes append tombstones
            }
        });

        Assert.That(ledger.Errors, Is.Empty);
        Assert.That(ledger.DisposedCount, Is.GreaterThan(0));

        // Every key's visible handle is linked; deleting every key then disposes the rest, expired ones included.
        using var check = ts.Store.NewSession<LedgerInput, long, LedgerFunctions>(new LedgerFunctions(ledger));
        var readInput = default(LedgerInput);
        for (int k = 0; k < KeyCount; k++)
        {
            long handle = 0;
            if (check.Read(TestData.Key(k), ref readInput, ref handle).Found)
                Assert.That(ledger.IsLinked(handle), Is.True, $"key {k} holds handle {handle}");
            check.Delete(TestData.Key(k));
        }
        Assert.That(ledger.Errors, Is.Empty);
        Assert.That(ledger.LinkedCount, Is.Zero, "a linked handle was never disposed");
    }
}
