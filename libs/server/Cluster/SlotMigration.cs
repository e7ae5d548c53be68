using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Text;

namespace Garnet.server;

/// <summary>What MIGRATE ... SLOTS asked for: the slots (listed and marked), the target, and MIGRATE's options.</summary>
internal sealed record SlotMigrationRequest(int[] Slots, bool[] Marked, string Host, int Port, string TargetId, int TimeoutMs, bool Replace,
    byte[]? Username, byte[]? Password);

/// <summary>
/// One slot migration started by MIGRATE ... SLOTS, on a thread of its own while both nodes keep serving, as the Garnet
/// paper's Algorithm 1 runs it:
/// <list type="number">
/// <item>the target imports the slots (CLUSTER SETSLOTSRANGE IMPORTING), then this node migrates them;</item>
/// <item>an epoch bump and drain: every command routed by the old state has finished (commands run inside the epoch), so
/// from here no command creates a key of these slots on this node (a missing key is sent on with -ASK), and the log's
/// tail now bounds every key they hold;</item>
/// <item>one scan of the log up to that tail, a batch of keys at a time (no record is copied forward meanwhile, which
/// would carry it past that tail: see ScanHold): the batch is locked (commands on its keys wait;
/// a command on a migrating slot checks whether its keys are here under the same locks, see
/// RespServerSession.Cluster.cs), read, sent as one RESTORE-BATCH, and deleted here once the target has it;</item>
/// <item>the target takes the slots (SETSLOTSRANGE NODE, with a new configuration epoch), then this node gives them up.</item>
/// </list>
/// A failure stops it where it is, as a failed redis-cli reshard does: the slots stay migrating and importing, every key
/// on exactly one node (a batch the target refused stays here), for the operator to retry (with REPLACE if the target
/// already holds some of the keys) or end with SETSLOT STABLE. The error is kept for INFO's cluster section.
/// </summary>
internal sealed class SlotMigration
{
    // Keys per batch: enough that a batch's round trip is small against its work, few enough that its locks are short.
    private const int BatchKeys = 4096;

    private readonly StoreWrapper _server;
    private readonly SlotMigrationRequest _request;

    public SlotMigration(StoreWrapper server, SlotMigrationRequest request)
    {
        _server = server;
        _request = request;
    }

    /// <summary>Keys moved so far.</summary>
    public long KeysMoved { get; private set; }

    /// <summary>Runs the migration; returns null when every slot moved, else the error it stopped at.</summary>
    public string? Run()
    {
        var cluster = _server.Cluster ?? throw new InvalidOperationException("Slot migration needs cluster mode.");
        var request = _request;
        using var connection = MigrateConnection.TryConnect($"{request.Host}:{request.Port}", request.Host, request.Port, request.TimeoutMs, _server.Options.Address);
        if (connection == null)
            return Encoding.ASCII.GetString(MigrateStrings.ErrConnecting);
        var commands = new MigrateCommandBuffer();
        if (request.Password != null)
        {
            commands.BeginCommand(request.Username != null ? 3 : 2);
            commands.WriteBulk(MigrateStrings.Auth);
            if (request.Username != null)
                commands.WriteBulk(request.Username);
            commands.WriteBulk(request.Password);
            if (Exchange(connection, commands, out string? authError) is { } failed)
                return failed;
            if (authError != null)
                return authError;
        }

        var ranges = Ranges(request.Slots);
        if (SetTargetSlots(connection, commands, "IMPORTING", cluster.Id, ranges) is { } importError)
            return importError;
        if (cluster.SetSlots(SlotAction.Migrating, request.Slots, request.TargetId) is { } migrateError)
        {
            SetTargetSlots(connection, commands, "STABLE", null, ranges);
            return migrateError;
        }

        if (MoveKeys(connection, commands) is { } moveError)
            return moveError;

        if (SetTargetSlots(connection, commands, "NODE", request.TargetId, ranges) is { } nodeError)
            return nodeError;
        return cluster.SetSlots(SlotAction.Node, request.Slots, request.TargetId);
    }

    /// <summary>Step 2 and 3: streams every key of the slots to the target, deleting each here once the target has it.</summary>
    /// <remarks>
    /// This loop, the batch steps it calls (RespServerSession.SlotMigration.cs) and the target's RESTORE-BATCH are compiled
    /// optimized at once: a migration runs them millions of times from its first second, which tiered compilation leaves
    /// unoptimized for seconds on a busy core (with the shared engine paths they call still tiering up, a fresh pair of
    /// nodes on one core spends several seconds of a 2M-key move in unoptimized code: see benchmarks.md).
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private string? MoveKeys(MigrateConnection connection, MigrateCommandBuffer commands)
    {
        var store = _server.GetDatabase(0).MainStore;
        // No record is copied forward past the scan's end until the last batch is done (see ScanHold).
        using var hold = store.HoldScans();
        var epoch = store.Epoch;
        epoch.SpinWaitForSafeToReclaim(epoch.BumpCurrentEpoch() - 1);
        long until = store.Log.TailAddress;
        // The target grows its index once for the keys to come (the first batch says how many: this node's keys, in the
        // share of its slots that moves).
        int served = 0;
        var cluster = _server.Cluster!;
        for (int slot = 0; slot < Garnet.common.HashSlot.Count; slot++)
        {
            if (cluster.Route(slot, write: false) is SlotRoute.Served or SlotRoute.Migrating)
                served++;
        }
        long expected = store.KeyCount * _request.Slots.Length / Math.Max(1, served);

        using var sender = new DiscardingSender();
        var session = new RespServerSession(_server, sender, listed: false);
        var keys = new MigratedKeys();
        var batch = new SlotKeyBatch();
        try
        {
            long address = 0;
            while (address < until)
            {
                bool moved = false;
                try
                {
                    address = session.PrepareSlotBatch(_request.Marked, address, until, BatchKeys, keys, batch, _request.Replace, expected);
                    if (batch.Count > 0)
                    {
                        commands.Clear();
                        commands.BeginCommand(2);
                        commands.WriteBulk(MigrateStrings.RestoreBatch);
                        commands.WriteBulk(batch.Written);
                        if (Exchange(connection, commands, out string? targetError) is { } failed)
                            return failed;
                        if (targetError != null)
                            return targetError;
                        KeysMoved += batch.Count;
                        expected = 0;
                    }
                    moved = true;
                }
                finally
                {
                    // Keys that expired or went meanwhile were not sent: deleting them too is harmless.
                    session.FinishSlotBatch(keys, delete: moved);
                }
            }
        }
        finally
        {
            session.Dispose();
        }
        return null;
    }

    /// <summary>CLUSTER SETSLOTSRANGE <paramref name="action"/> [node] ranges... on the target.</summary>
    private string? SetTargetSlots(MigrateConnection connection, MigrateCommandBuffer commands, string action, string? nodeId, List<(int Start, int End)> ranges)
    {
        commands.Clear();
        commands.BeginCommand(3 + (nodeId != null ? 1 : 0) + ranges.Count * 2);
        commands.WriteBulk("CLUSTER"u8);
        commands.WriteBulk("SETSLOTSRANGE"u8);
        commands.WriteBulk(Encoding.ASCII.GetBytes(action));
        if (nodeId != null)
            commands.WriteBulk(Encoding.ASCII.GetBytes(nodeId));
        foreach (var (start, end) in ranges)
        {
            commands.WriteBulk(start);
            commands.WriteBulk(end);
        }
        return Exchange(connection, commands, out string? targetError) ?? targetError;
    }

    /// <summary>
    /// Sends the commands written (one) and reads its reply line: null with <paramref name="targetError"/> null when it
    /// answered without an error, null with the error the target replied, or the I/O error (as MIGRATE words them).
    /// </summary>
    private string? Exchange(MigrateConnection connection, MigrateCommandBuffer commands, out string? targetError)
    {
        targetError = null;
        if (connection.Write(commands.Written, _request.TimeoutMs) != MigrateIo.Ok)
            return Encoding.ASCII.GetString(MigrateStrings.ErrWriting);
        if (connection.ReadLine(_request.TimeoutMs, out var line) != MigrateIo.Ok)
            return Encoding.ASCII.GetString(MigrateStrings.ErrReading);
        if (!line.IsEmpty && line[0] == (byte)'-')
            targetError = MigrateStrings.TargetErrorPrefix + Encoding.UTF8.GetString(line.Slice(1));
        return null;
    }

    /// <summary>The slots as ranges of consecutive slots, in the order given.</summary>
    private static List<(int Start, int End)> Ranges(int[] slots)
    {
        var ranges = new List<(int, int)>();
        int i = 0;
        while (i < slots.Length)
        {
            int start = slots[i], end = start;
            while (i + 1 < slots.Length && slots[i + 1] == end + 1)
                end = slots[++i];
            ranges.Add((start, end));
            i++;
        }
        return ranges;
    }
}
