using System;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// RENAME, RENAMENX, COPY and MOVE. Each reads the source's value and expiration (ReadLogic copies them to
/// the output buffer and <see cref="StringOutput.Number"/>), writes the destination as a SET with
/// that absolute expiration would (NX when the destination must not exist), then, for a rename,
/// deletes the source. A source holding an object is moved by handle (RENAME, MOVE) or deep-copied (COPY).
/// </summary>
/// <remarks>
/// These steps are separate engine operations on two keys, so they are not atomic: a client may see
/// both keys or neither for a moment, and a concurrent write to the source between the read and the
/// delete is lost. Transactions (a later issue) will lock both keys around the steps.
/// </remarks>
public sealed unsafe partial class RespServerSession
{
    /// <summary>RENAME and RENAMENX source destination.</summary>
    private void Rename(bool onlyIfAbsent)
    {
        var source = _args[1].Span;
        var destination = _args[2].Span;
        var output = default(StringOutput);
        if (!ReadKey(source, onlyIfAbsent ? RespCommand.RENAMENX : RespCommand.RENAME, ref output).Found)
        {
            _writer.WriteError(RespStrings.ErrNoSuchKey);
            return;
        }
        if (source.SequenceEqual(destination))
        {
            if (onlyIfAbsent)
                _writer.WriteInteger(0);
            else
                _writer.WriteOk();
            return;
        }

        var write = output.ObjectType != GarnetObjectType.None
            ? MoveObject(source, destination, replace: !onlyIfAbsent)
            : WriteCopiedValue(Store, destination, output.Number, output.Form, replace: !onlyIfAbsent);
        if (write == CopyResult.OutOfMemory)
        {
            _writer.WriteError(RespStrings.ErrOutOfMemory);
            return;
        }
        if (write == CopyResult.SourceMissing)
        {
            _writer.WriteError(RespStrings.ErrNoSuchKey);
            return;
        }
        if (write == CopyResult.DestinationExists)
        {
            _writer.WriteInteger(0);
            return;
        }
        Store.Delete(source);
        NotifyKeyDeleted(source);
        // Redis deletes a destination that was there and adds the key again: "new" whether or not it existed.
        NotifyAdded(_databaseIndex, destination);
        NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.RenameFrom, source);
        NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.RenameTo, destination);
        if (onlyIfAbsent)
            _writer.WriteInteger(1);
        else
            _writer.WriteOk();
    }

    /// <summary>COPY source destination [DB destination-db] [REPLACE]: 1 when copied, 0 when the source is missing or the destination exists.</summary>
    private void Copy()
    {
        bool replace = false;
        int targetIndex = _databaseIndex;
        for (int i = 3; i < _argCount; i++)
        {
            if (_args[i].EqualsUpper("REPLACE"u8))
            {
                replace = true;
            }
            else if (_args[i].EqualsUpper("DB"u8) && i + 1 < _argCount)
            {
                if (!TryReadDatabaseIndex(in _args[++i], out targetIndex))
                    return;
                if (_cluster != null && targetIndex != _databaseIndex)
                {
                    _writer.WriteError("ERR Copying to another database is not allowed in cluster mode"u8);
                    return;
                }
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }

        var source = _args[1].Span;
        var destination = _args[2].Span;
        if (targetIndex == _databaseIndex && source.SequenceEqual(destination))
        {
            _writer.WriteError(KeyspaceStrings.ErrSameObject);
            return;
        }
        var output = default(StringOutput);
        if (!ReadKey(source, RespCommand.COPY, ref output).Found)
        {
            _writer.WriteInteger(0);
            return;
        }

        CopyResult result;
        // Redis duplicates a string for COPY: same encoding, but never one of its shared integers.
        var form = output.Form == StringForm.Encoded ? StringForm.EncodedUnshared : output.Form;
        if (output.ObjectType != GarnetObjectType.None)
        {
            result = CopyObject(source, targetIndex, destination, replace);
        }
        else if (targetIndex == _databaseIndex)
        {
            result = WriteCopiedValue(Store, destination, output.Number, form, replace);
        }
        else
        {
            var session = EnterDatabase(targetIndex, out _);
            try
            {
                result = WriteCopiedValue(session, destination, output.Number, form, replace);
            }
            finally
            {
                session.Dispose();
            }
        }
        if (result == CopyResult.OutOfMemory)
        {
            _writer.WriteError(RespStrings.ErrOutOfMemory);
            return;
        }
        if (result == CopyResult.Written)
        {
            NotifyAdded(targetIndex, destination); // as RENAME's: the replaced destination is added again
            NotifyKeyspaceEventIn(targetIndex, KeyspaceEventClasses.Generic, KeyspaceEventNames.CopyTo, destination);
        }
        _writer.WriteInteger(result == CopyResult.Written ? 1 : 0);
    }

    /// <summary>
    /// MOVE key db: moves the key, value and expiration, to database db (an object by handle); 1 when moved, 0 when
    /// the key is missing here or already exists there (then nothing changes).
    /// </summary>
    private void Move()
    {
        if (_cluster != null)
        {
            _writer.WriteError("ERR MOVE is not allowed in cluster mode"u8);
            return;
        }
        if (!TryReadDatabaseIndex(in _args[2], out int index))
            return;
        if (index == _databaseIndex)
        {
            _writer.WriteError(KeyspaceStrings.ErrSameObject);
            return;
        }
        // Atomic against other clients' commands on the key: its bucket is locked from the read to the delete (inside
        // EXEC or a script the caller's locks already are), and the gate is exclusive as the target database's keys are not.
        bool lockHere = _gateMode == 0;
        if (lockHere)
        {
            int count = 0;
            AddLockRequest(ref count, KeyLockRequest.For(_args[1].Span, exclusive: true));
            LockKeys(count, keyspace: true);
        }
        try
        {
            MoveKey(index);
        }
        finally
        {
            if (lockHere)
                UnlockKeys();
        }
    }

    private void MoveKey(int index)
    {
        var key = _args[1].Span;
        var output = default(StringOutput);
        if (!ReadKey(key, RespCommand.MOVE, ref output).Found)
        {
            _writer.WriteInteger(0);
            return;
        }

        GarnetObject? moved = null;
        CopyResult result;
        var session = EnterDatabase(index, out var target);
        try
        {
            if (output.ObjectType != GarnetObjectType.None)
            {
                var input = new ObjectInput(RespCommand.MOVE, GarnetObjectType.None, _args, 0, 0) { Operation = ObjectOperation.Reference };
                var objectOutput = new ObjectOutput();
                if (!ObjectStore.Read(key, ref input, ref objectOutput).Found || objectOutput.Object == null)
                {
                    result = CopyResult.SourceMissing;
                }
                else
                {
                    // The source's object moves by reference; while a snapshot is taken its record may be frozen with it, and
                    // the snapshot must not see what writes to the target do to it: the target then gets a copy.
                    moved = _server.Versions.Freezing ? objectOutput.Object.Clone() : objectOutput.Object;
                    var objectSession = session.NewLinkedSession<ObjectInput, ObjectOutput, ObjectStoreFunctions>(new ObjectStoreFunctions(target.Objects));
                    result = InstallObject(objectSession, key, moved, objectOutput.ExpirationUnixMs, replace: false);
                }
            }
            else
            {
                result = WriteCopiedValue(session, key, output.Number, output.Form, replace: false);
            }
        }
        finally
        {
            session.Dispose();
        }
        if (result == CopyResult.OutOfMemory)
        {
            _writer.WriteError(RespStrings.ErrOutOfMemory);
            return;
        }
        if (result != CopyResult.Written)
        {
            _writer.WriteInteger(0);
            return;
        }
        Store.Delete(key);
        NotifyKeyDeleted(key);
        if (moved != null)
            NotifyObjectInstalled(index, key, moved);
        NotifyAdded(index, key);
        NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.MoveFrom, key);
        NotifyKeyspaceEventIn(index, KeyspaceEventClasses.Generic, KeyspaceEventNames.MoveTo, key);
        _writer.WriteInteger(1);
    }

    /// <summary>
    /// A session on database <paramref name="index"/> (created if not in use), entered for the command's operations
    /// (<see cref="GarnetDatabase.TryEnter"/>) so a concurrent flush cannot free it while in use: this thread is then
    /// protected on two stores' epochs. Dispose the session to leave.
    /// </summary>
    private ClientSession<StringInput, StringOutput, MainStoreFunctions> EnterDatabase(int index, out GarnetDatabase database)
    {
        while (true)
        {
            database = _server.GetDatabase(index);
            var session = database.MainStore.NewSession<StringInput, StringOutput, MainStoreFunctions>(new MainStoreFunctions(database.Objects));
            if (database.TryEnter(session))
                return session;
        }
    }

    private enum CopyResult
    {
        Written,
        DestinationExists,
        OutOfMemory,
        SourceMissing,
    }

    /// <summary>
    /// RENAME of a key holding an object: the destination record gets a handle to the same object
    /// (no copy), then the source record is deleted, which releases only its own handle.
    /// </summary>
    private CopyResult MoveObject(ReadOnlySpan<byte> source, ReadOnlySpan<byte> destination, bool replace)
    {
        var input = new ObjectInput(RespCommand.RENAME, GarnetObjectType.None, _args, 0, 0) { Operation = ObjectOperation.Reference };
        var output = new ObjectOutput();
        if (!ObjectStore.Read(source, ref input, ref output).Found || output.Object == null)
            return CopyResult.SourceMissing;
        var result = InstallObject(ObjectStore, destination, output.Object, output.ExpirationUnixMs, replace);
        if (result == CopyResult.Written)
        {
            Store.Delete(source);
            NotifyObjectInstalled(_databaseIndex, destination, output.Object);
        }
        return result;
    }

    /// <summary>COPY of a key holding an object: a deep copy, installed in the target database.</summary>
    private CopyResult CopyObject(ReadOnlySpan<byte> source, int targetIndex, ReadOnlySpan<byte> destination, bool replace)
    {
        var input = new ObjectInput(RespCommand.COPY, GarnetObjectType.None, _args, 0, 0) { Operation = ObjectOperation.Snapshot };
        var output = new ObjectOutput();
        if (!ObjectStore.Read(source, ref input, ref output).Found || output.Object == null)
            return CopyResult.SourceMissing;
        CopyResult result;
        if (targetIndex == _databaseIndex)
        {
            result = InstallObject(ObjectStore, destination, output.Object, output.ExpirationUnixMs, replace);
        }
        else
        {
            var session = EnterDatabase(targetIndex, out var target);
            try
            {
                var objectSession = session.NewLinkedSession<ObjectInput, ObjectOutput, ObjectStoreFunctions>(new ObjectStoreFunctions(target.Objects));
                result = InstallObject(objectSession, destination, output.Object, output.ExpirationUnixMs, replace);
            }
            finally
            {
                session.Dispose();
            }
        }
        if (result == CopyResult.Written)
            NotifyObjectInstalled(targetIndex, destination, output.Object);
        return result;
    }

    /// <summary>Wakes clients blocked on a key that now holds a list or sorted set (RENAME, COPY, RESTORE).</summary>
    private void NotifyObjectInstalled(int database, ReadOnlySpan<byte> key, GarnetObject obj)
    {
        if (obj.Type is GarnetObjectType.List or GarnetObjectType.SortedSet or GarnetObjectType.Stream && _server.Blocking.Signal(database, key))
            _blockingSignaled = true;
    }

    /// <summary>
    /// Makes <paramref name="key"/> hold <paramref name="obj"/> with <paramref name="expirationUnixMs"/>
    /// (0 for none), replacing any value when <paramref name="replace"/>, else only if the key is absent.
    /// </summary>
    private CopyResult InstallObject(ClientSession<ObjectInput, ObjectOutput, ObjectStoreFunctions> session, ReadOnlySpan<byte> key, GarnetObject obj, long expirationUnixMs, bool replace, long accessWord = -1)
    {
        if (!replace)
        {
            var probe = new ObjectInput(RespCommand.EXISTS, GarnetObjectType.None, _args, 0, 0) { Operation = ObjectOperation.Reference };
            var probeOutput = new ObjectOutput();
            if (session.Read(key, ref probe, ref probeOutput).Found)
                return CopyResult.DestinationExists;
        }
        var input = new ObjectInput(RespCommand.NONE, obj.Type, _args, 0, 0)
        {
            Operation = ObjectOperation.Install,
            Install = obj,
            ExpirationUnixMs = expirationUnixMs,
            AccessWord = accessWord,
        };
        var output = new ObjectOutput();
        return session.RMW(key, ref input, ref output).IsOutOfMemory ? CopyResult.OutOfMemory : CopyResult.Written;
    }

    /// <summary>
    /// Writes the value in the output buffer to <paramref name="key"/> with <paramref name="expirationUnixMs"/>
    /// (0 for none): as SET ... PXAT does, or as SET ... NX PXAT does unless <paramref name="replace"/>. The
    /// copy keeps the source's <paramref name="form"/>, so it reports the same encoding.
    /// </summary>
    private CopyResult WriteCopiedValue(ClientSession<StringInput, StringOutput, MainStoreFunctions> session, ReadOnlySpan<byte> key, long expirationUnixMs, StringForm form, bool replace)
        => WriteValue(session, key, Output.Span, expirationUnixMs, replace, form);

    private static CopyResult WriteValue(ClientSession<StringInput, StringOutput, MainStoreFunctions> session, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, long expirationUnixMs, bool replace, StringForm form = StringForm.Encoded, long accessWord = -1)
    {
        fixed (byte* pointer = value)
        {
            var input = new StringInput(RespCommand.SET)
            {
                Value = new ArgSlice(pointer, value.Length),
                ExpirationUnixMs = expirationUnixMs,
                Form = form,
                AccessWord = accessWord,
            };
            var output = new StringOutput(null);
            Status status;
            if (replace)
            {
                status = session.Upsert(key, value, ref input, ref output);
            }
            else
            {
                input.Flags = StringInputFlags.IfNotExists;
                status = session.RMW(key, ref input, ref output);
            }
            if (status.IsOutOfMemory)
                return CopyResult.OutOfMemory;
            return output.Result == StringResult.ConditionNotMet ? CopyResult.DestinationExists : CopyResult.Written;
        }
    }
}
