using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// MIGRATE: DUMP of the keys here, RESTORE of them on the target (another instance of this server: the payloads are
/// <see cref="DumpPayload"/>'s), then DEL here of each key the target acknowledged, unless COPY. The session blocks on the
/// target (within the timeout, for the connect and each write and reply) as Redis's event loop does, outside the store's
/// epoch; the keys stay locked from the read to the delete, so no other client sees a key in neither or both instances
/// through this one.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void Migrate()
    {
        var error = MigrateArguments.Parse(_args, _argCount, out var arguments);
        if (!error.IsEmpty)
        {
            _writer.WriteError(error);
            return;
        }
        if (arguments.SlotsAt != 0)
        {
            MigrateSlots(in arguments);
            return;
        }
        // Inside EXEC or a script, or for several keys (see RunCommandWithKeys), the caller's locks already hold them.
        bool lockHere = _gateMode == 0 && arguments.KeyCount > 0;
        if (lockHere)
        {
            int count = 0;
            for (int i = 0; i < arguments.KeyCount; i++)
                AddLockRequest(ref count, KeyLockRequest.For(_args[arguments.FirstKey + i].Span, exclusive: true));
            LockKeys(count, keyspace: false);
        }
        try
        {
            MigrateKeys(in arguments);
        }
        finally
        {
            if (lockHere)
                UnlockKeys();
        }
    }

    private void MigrateKeys(in MigrateArguments arguments)
    {
        var restores = new MigrateCommandBuffer();
        var positions = new int[arguments.KeyCount];
        int found = 0;
        for (int i = 0; i < arguments.KeyCount; i++)
        {
            int position = arguments.FirstKey + i;
            if (AppendRestore(restores, position, arguments.Replace))
                positions[found++] = position;
        }
        if (found == 0)
        {
            // Nothing changed here: nothing to replay.
            if (_oplog is { Depth: 1 } unchanged)
                unchanged.Entry.ReplaceLastWithDelete(_args, default);
            _writer.WriteSimpleString(MigrateStrings.NoKey);
            return;
        }

        var acknowledged = new bool[found];
        MigrateOutcome outcome;
        string? targetError;
        var target = new MigrateTarget
        {
            Name = _args[1].ToString() + ":" + _args[2].ToString(),
            Host = _args[1].ToString(),
            Port = ParsePortAsRedis(_args[2].Span),
            TimeoutMs = arguments.TimeoutMs,
            Database = arguments.Database,
            Authenticates = arguments.PasswordAt != 0,
            Username = arguments.UsernameAt != 0 ? _args[arguments.UsernameAt].Span : default,
            Password = arguments.PasswordAt != 0 ? _args[arguments.PasswordAt].Span : default,
        };
        // Out of the epoch while waiting on the network: other threads' epoch actions must not wait for the target.
        EndBatch();
        try
        {
            outcome = MigrateExchange.Run(_server.MigrateConnections, in target, restores.Written, new MigrateCommandBuffer(), acknowledged, out targetError);
        }
        finally
        {
            BeginBatch();
        }

        int deleted = 0;
        if (!arguments.Copy)
        {
            for (int i = 0; i < found; i++)
            {
                if (!acknowledged[i])
                    continue;
                var key = _args[positions[i]].Span;
                if (Store.Delete(key).Found)
                    NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.Del, key);
                positions[deleted++] = positions[i];
            }
        }
        // Client tracking invalidates a write's keys only when it succeeds (EndTrackedCommand): a MIGRATE that replies an
        // error may still have deleted some.
        if (outcome != MigrateOutcome.Ok && deleted > 0 && _server.Tracking.Active)
        {
            for (int i = 0; i < deleted; i++)
                NoteWrittenKey(_args[positions[i]].Span);
        }
        // The operation log replays commands as given; MIGRATE replays as the deletes it made (see ReplaceLastWithDelete).
        if (_oplog is { Depth: 1 } log)
            log.Entry.ReplaceLastWithDelete(_args, positions.AsSpan(0, deleted));

        switch (outcome)
        {
            case MigrateOutcome.Ok: _writer.WriteOk(); break;
            case MigrateOutcome.TargetError: _writer.WriteError(MigrateStrings.TargetErrorPrefix + targetError); break;
            case MigrateOutcome.ConnectFailed: _writer.WriteError(MigrateStrings.ErrConnecting); break;
            case MigrateOutcome.WriteFailed: _writer.WriteError(MigrateStrings.ErrWriting); break;
            case MigrateOutcome.ReadFailed: _writer.WriteError(MigrateStrings.ErrReading); break;
            default: throw new InvalidOperationException($"Unknown MIGRATE outcome {outcome}.");
        }
    }

    /// <summary>
    /// RESTORE key ttl payload [REPLACE] for the key at argument <paramref name="position"/>, with the milliseconds it has
    /// left (0 for none, at least 1 otherwise); false when the key does not exist.
    /// </summary>
    private bool AppendRestore(MigrateCommandBuffer restores, int position, bool replace)
    {
        var key = _args[position].Span;
        var output = default(StringOutput);
        if (!ReadKey(key, RespCommand.DUMP, ref output).Found)
            return false;
        long ttl = 0;
        if (output.Number != 0)
        {
            ttl = output.Number - Expiration.NowUnixMs;
            if (ttl < 0)
                return false;
            ttl = Math.Max(ttl, 1);
        }

        byte type = DumpPayload.StringType;
        var value = Output.Span;
        if (output.ObjectType != GarnetObjectType.None)
        {
            if (ReadObjectSnapshot(key, GarnetObjectType.None, out var obj) != ObjectResult.Ok || obj == null)
                return false;
            type = DumpPayload.TypeOf(obj);
            value = DumpPayload.SerializeObject(obj);
        }
        Span<byte> trailer = stackalloc byte[DumpPayload.TrailerLength];
        DumpPayload.WriteTrailer(type, value, trailer);

        restores.BeginCommand(replace ? 5 : 4);
        restores.WriteBulk(_cluster != null ? MigrateStrings.RestoreAsking : MigrateStrings.Restore);
        restores.WriteBulk(key);
        restores.WriteBulk(ttl);
        restores.WriteBulk(new ReadOnlySpan<byte>(in type), value, trailer);
        if (replace)
            restores.WriteBulk(MigrateStrings.ReplaceOption);
        return true;
    }

    /// <summary>The port as Redis reads it (atoi: leading digits, 0 when none), so "6379abc" connects to 6379 as there.</summary>
    private static int ParsePortAsRedis(ReadOnlySpan<byte> text)
    {
        int i = 0;
        while (i < text.Length && text[i] is (byte)' ' or (byte)'\t')
            i++;
        bool negative = i < text.Length && text[i] == '-';
        if (i < text.Length && text[i] is (byte)'-' or (byte)'+')
            i++;
        long value = 0;
        for (; i < text.Length && text[i] >= '0' && text[i] <= '9' && value <= int.MaxValue; i++)
            value = value * 10 + (text[i] - '0');
        return negative || value > int.MaxValue ? 0 : (int)value;
    }
}
