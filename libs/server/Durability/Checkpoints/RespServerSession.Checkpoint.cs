using System;

namespace Garnet.server;

/// <summary>
/// A recovery session's part in loading a checkpoint (see <see cref="CheckpointLoader"/>): records go into the
/// selected database as RESTORE ... REPLACE would put them, with their absolute expirations and string encodings.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>Selects database <paramref name="index"/> for the records that follow (ending the previous one's batch).</summary>
    internal void BeginCheckpointLoad(int index)
    {
        EndBatch();
        _databaseIndex = index;
        BeginBatch();
    }

    /// <summary>Ends the batch of the database being loaded.</summary>
    internal void EndCheckpointLoad() => EndBatch();

    /// <summary>Lets the log make progress in a long load.</summary>
    internal void RefreshDuringLoad() => Store.Refresh();

    /// <summary>A string value; false when out of memory.</summary>
    /// <remarks>
    /// A value whose expiration passed since the checkpoint is loaded all the same (it reads as absent): the AOF replayed
    /// next runs each command at its logged clock, when the key may still have been alive (a PERSIST, an INCR).
    /// </remarks>
    internal bool LoadString(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, long expirationUnixMs, int userBits, long? etag)
    {
        if (etag is not { } exactETag)
            return WriteValue(Store, key, value, expirationUnixMs, replace: true, form: (StringForm)userBits) != CopyResult.OutOfMemory;
        // A value with an ETag (Commands/ETag) is written as SET ... WITHETAG would, with the ETag it had.
        fixed (byte* pointer = value)
        {
            var input = new StringInput(RespCommand.SET)
            {
                Value = new ArgSlice(pointer, value.Length),
                ExpirationUnixMs = expirationUnixMs,
                Flags = StringInputFlags.WithETag | StringInputFlags.ExactETag,
                Number = exactETag,
                Form = (StringForm)userBits,
            };
            var output = new StringOutput(null);
            return !Store.RMW(key, ref input, ref output).IsOutOfMemory;
        }
    }

    /// <summary>An object as its type byte and serialized bytes; false when they do not make an object or out of memory.</summary>
    internal bool LoadObject(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, long expirationUnixMs)
    {
        if (value.IsEmpty || !DumpPayload.TryDeserializeObject(value[0], value.Slice(1), out var obj) || obj == null)
            return false;
        obj.DecideEncoding(_server.Options.EncodingThresholds);
        return InstallObject(ObjectStore, key, obj, expirationUnixMs, replace: true) != CopyResult.OutOfMemory;
    }

    /// <summary>The function libraries, as FUNCTION RESTORE ... REPLACE loads them; false when they could not be.</summary>
    internal bool LoadFunctions(ReadOnlySpan<byte> payload) => TryRestoreLibraries(payload, Garnet.server.Scripting.FunctionRestorePolicy.Replace, out _);

    /// <summary>A key the checkpoint holds as gone (deleted, or expired when it was taken).</summary>
    internal void LoadDeleted(ReadOnlySpan<byte> key) => Store.Delete(key);
}
