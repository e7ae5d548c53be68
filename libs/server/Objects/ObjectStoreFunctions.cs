using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The engine callbacks of object commands. They are generic: a record is checked to hold an object of
/// the command's type (else WRONGTYPE), and the command itself runs in the object's
/// <see cref="GarnetObject.Operate"/>. An absent key gets a new empty object, which is only linked in if
/// the command left something in it; an object a command empties is deleted with its key.
/// </summary>
public readonly struct ObjectStoreFunctions : ISessionFunctions<ObjectInput, ObjectOutput>
{
    private readonly ObjectTable _objects;

    // CLIENT NO-TOUCH (see MainStoreFunctions).
    private readonly bool _noTouch;

    public ObjectStoreFunctions(ObjectTable objects, bool noTouch = false)
    {
        _objects = objects;
        _noTouch = noTouch;
    }

    private static InvalidOperationException NotUsed(string callback) => new($"Object commands do not use {callback}.");

    /// <summary>Whether the record can serve <paramref name="input"/>; if not, the output says WRONGTYPE.</summary>
    private static bool TypeMatches(in LogRecord record, ref ObjectInput input, ref ObjectOutput output)
    {
        if (record.Info.ValueIsObject && (input.Type == GarnetObjectType.None || ObjectRecord.TypeOf(in record) == input.Type))
            return true;
        output.Result = ObjectResult.WrongType;
        return false;
    }

    /// <summary>Whether a command may grow data (deny-oom; custom object commands count as such).</summary>
    private static bool MayGrowData(RespCommand command)
        => (int)command >= ExtensionRegistry.FirstId || command == RespCommand.NONE || (CommandTable.Get(command).Flags & CommandFlags.DenyOom) != 0;

    /// <summary>Whether a command that may grow data must be refused for the memory budget.</summary>
    private bool RefusedForMemory(ref ObjectInput input, ref ObjectOutput output)
    {
        // Custom object commands (Extensions, ids from 1000) are refused like deny-oom commands.
        if (!MayGrowData(input.Command) || !_objects.OverBudget)
            return false;
        output.Result = ObjectResult.OutOfMemory;
        return true;
    }

    /// <summary>Runs the command on <paramref name="obj"/> once per operation, accounting for its change in size.</summary>
    private void Run(GarnetObject obj, ref ObjectInput input, ref ObjectOutput output)
    {
        if (output.Ran)
            return;
        output.Ran = true;
        input.Thresholds = _objects.Thresholds;
        long before = obj.HeapSize;
        long count = obj.Count;
        obj.EnterMutation();
        try
        {
            obj.Operate(ref input, ref output);
        }
        finally
        {
            obj.ExitMutation();
        }
        if (obj.Count != count)
            output.Modified = true;
        _objects.AddHeapSize(obj.HeapSize - before);
    }

    /// <summary>Gives an installed object's record the access word RESTORE ... IDLETIME or FREQ asked for; false when none was.</summary>
    private static bool SetAccessWord(ref LogRecord record, ref ObjectInput input)
    {
        if (input.AccessWord < 0)
            return false;
        record.Access = (uint)input.AccessWord;
        return true;
    }

    // ---- Read ----

    public bool Reader(in LogRecord record, ref ObjectInput input, ref ObjectOutput output, ref ReadInfo readInfo)
    {
        if (_noTouch)
            readInfo.SkipAccessUpdate = true;
        if (!TypeMatches(in record, ref input, ref output))
            return true;
        var obj = _objects.Get(ObjectRecord.Handle(in record));
        switch (input.Operation)
        {
            case ObjectOperation.Run:
                obj.Operate(ref input, ref output);
                break;
            case ObjectOperation.Snapshot:
                output.Object = obj.Clone();
                output.ExpirationUnixMs = record.Expiration;
                readInfo.SkipAccessUpdate = input.Command == RespCommand.DEBUG; // DEBUG OBJECT is not an access, as in Redis
                break;
            case ObjectOperation.Reference:
                output.Object = obj;
                output.ExpirationUnixMs = record.Expiration;
                break;
            default:
                throw NotUsed($"Read for {input.Operation}");
        }
        return true;
    }

    // ---- Upsert (not used: objects are written through RMW) ----

    public RecordFieldInfo GetUpsertFieldInfo(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ref ObjectInput input) => throw NotUsed(nameof(GetUpsertFieldInfo));

    public bool InPlaceWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref ObjectInput input, ref ObjectOutput output, ref UpsertInfo upsertInfo) => throw NotUsed(nameof(InPlaceWriter));

    public bool InitialWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref ObjectInput input, ref ObjectOutput output, ref UpsertInfo upsertInfo) => throw NotUsed(nameof(InitialWriter));

    public void PostInitialWriter(ref LogRecord record, ref ObjectInput input, ref ObjectOutput output, ref UpsertInfo upsertInfo) => throw NotUsed(nameof(PostInitialWriter));

    // ---- RMW ----

    public bool NeedInitialUpdate(ReadOnlySpan<byte> key, ref ObjectInput input, ref ObjectOutput output, ref RMWInfo rmwInfo)
    {
        if (input.Operation == ObjectOperation.Install)
            return input.Install != null;
        // Commands that only remove cannot create a key: no record is allocated for them, and the
        // session answers from an empty object.
        if (OnlyRemoves(input.Command))
            return false;
        return !RefusedForMemory(ref input, ref output);
    }

    /// <summary>Whether a command can only remove elements, so on an absent key it finds nothing and changes nothing.</summary>
    internal static bool OnlyRemoves(RespCommand command) => command switch
    {
        RespCommand.LPOP or RespCommand.RPOP or RespCommand.LREM or RespCommand.LTRIM or RespCommand.LMPOP
            or RespCommand.HDEL
            or RespCommand.SREM or RespCommand.SPOP
            or RespCommand.ZREM or RespCommand.ZREMRANGEBYRANK or RespCommand.ZREMRANGEBYSCORE or RespCommand.ZREMRANGEBYLEX
            or RespCommand.ZPOPMIN or RespCommand.ZPOPMAX or RespCommand.ZMPOP => true,
        _ => false,
    };

    public RecordFieldInfo GetRMWInitialFieldInfo(ReadOnlySpan<byte> key, ref ObjectInput input)
        => new(ObjectRecord.ValueLength) { HasExpiration = input.Operation == ObjectOperation.Install && input.ExpirationUnixMs != 0 };

    public bool InitialUpdater(ref LogRecord record, ref ObjectInput input, ref ObjectOutput output, ref RMWInfo rmwInfo)
    {
        GarnetObject obj;
        if (input.Operation == ObjectOperation.Install)
        {
            obj = input.Install!;
            if (input.ExpirationUnixMs != 0)
                record.TrySetExpiration(input.ExpirationUnixMs);
            SetAccessWord(ref record, ref input);
        }
        else
        {
            obj = output.Pending ?? GarnetObjectFactory.Create(input.Type);
            if (output.Pending == null)
            {
                output.Pending = obj;
                input.Thresholds = _objects.Thresholds;
                obj.Operate(ref input, ref output);
                output.Ran = true;
                output.Modified |= obj.Count != 0;
            }
            if (obj.Count == 0)
                return false; // nothing to keep: the key stays absent (the reply is written)
        }
        // The handle is taken once the record is linked (PostInitialUpdater); the latch keeps readers out until then.
        ObjectRecord.Write(ref record, 0, obj.Type);
        output.Pending = obj;
        return true;
    }

    public void PostInitialUpdater(ref LogRecord record, ref ObjectInput input, ref ObjectOutput output, ref RMWInfo rmwInfo)
    {
        ObjectRecord.Write(ref record, _objects.Add(output.Pending!), output.Pending!.Type);
        output.Pending = null;
    }

    public bool InPlaceUpdater(ref LogRecord record, ref ObjectInput input, ref ObjectOutput output, ref RMWInfo rmwInfo)
    {
        if (input.Operation == ObjectOperation.Install)
        {
            // A string record, or one without room for the new expiration, is replaced by a copy.
            if (!record.Info.ValueIsObject || (input.ExpirationUnixMs != 0 && !record.TrySetExpiration(input.ExpirationUnixMs)))
                return false;
            if (input.ExpirationUnixMs == 0)
                record.RemoveExpiration();
            int handle = ObjectRecord.Handle(in record);
            _objects.Replace(handle, input.Install!);
            ObjectRecord.Write(ref record, handle, input.Install!.Type);
            rmwInfo.SkipAccessUpdate = SetAccessWord(ref record, ref input);
            return true;
        }

        if (!TypeMatches(in record, ref input, ref output) || RefusedForMemory(ref input, ref output))
            return true;
        var obj = _objects.Get(ObjectRecord.Handle(in record));
        Run(obj, ref input, ref output);
        if (obj.Count == 0)
        {
            rmwInfo.Action = OperationAction.ExpireAndStop;
            output.Emptied = true;
        }
        return true;
    }

    public bool NeedCopyUpdate(in LogRecord source, ref ObjectInput input, ref ObjectOutput output, ref RMWInfo rmwInfo)
    {
        if (input.Operation == ObjectOperation.Install)
            return true;
        return TypeMatches(in source, ref input, ref output) && !RefusedForMemory(ref input, ref output);
    }

    public RecordFieldInfo GetRMWModifiedFieldInfo(in LogRecord source, ref ObjectInput input)
    {
        bool hasExpiration = input.Operation == ObjectOperation.Install ? input.ExpirationUnixMs != 0 : source.Info.HasExpiration;
        // The copy moves the object by handle: only commands that may grow it are held to the budget.
        return new(ObjectRecord.ValueLength) { HasExpiration = hasExpiration, MayUseReserve = input.Command != RespCommand.NONE && !MayGrowData(input.Command) };
    }

    public bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref ObjectInput input, ref ObjectOutput output, ref RMWInfo rmwInfo)
    {
        if (input.Operation == ObjectOperation.Install)
        {
            if (input.ExpirationUnixMs != 0)
                destination.TrySetExpiration(input.ExpirationUnixMs);
            ObjectRecord.Write(ref destination, 0, input.Install!.Type); // the handle is taken once linked (PostCopyUpdater)
            SetAccessWord(ref destination, ref input);
            return true;
        }

        // The new record takes over the handle (the source lets go of it once the new one is linked);
        // the object itself is updated where it is.
        int handle = ObjectRecord.Handle(in source);
        if (source.Info.HasExpiration)
            destination.TrySetExpiration(source.Expiration);
        ObjectRecord.Write(ref destination, handle, ObjectRecord.TypeOf(in source));
        var obj = _objects.Get(handle);
        Run(obj, ref input, ref output);
        if (obj.Count != 0)
            return true;
        output.Emptied = true;
        rmwInfo.Action = OperationAction.ExpireAndStop; // the engine deletes the source, disposing the handle
        return false;
    }

    public void PostCopyUpdater(in LogRecord source, ref LogRecord destination, ref ObjectInput input, ref ObjectOutput output, ref RMWInfo rmwInfo)
    {
        // An installed object gets its own handle; the replaced record's object (if any) is gone.
        if (input.Operation != ObjectOperation.Install)
        {
            ObjectRecord.Detach(in source);
            return;
        }
        ObjectRecord.Write(ref destination, _objects.Add(input.Install!), input.Install!.Type);
        _objects.Release(in source);
    }

    // ---- Delete ----

    public bool InPlaceDeleter(ref LogRecord record, ref DeleteInfo deleteInfo) => true;

    // ---- Record lifetime ----

    public void DisposeRecord(ref LogRecord record, DisposeReason reason)
        => _objects.Release(in record);
}
