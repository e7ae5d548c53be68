using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The string store's engine callbacks. Each callback hands the record to the logic of the command
/// family in <see cref="StringInput.Command"/>; the families live under Commands/ with their parsing
/// and replies, so one command's meaning stays in one place.
/// </summary>
public readonly struct MainStoreFunctions : ISessionFunctions<StringInput, StringOutput>
{
    private readonly ObjectTable _objects;

    // CLIENT NO-TOUCH: this session's reads and in-place writes leave records' access words alone (TOUCH still touches).
    private readonly bool _noTouch;

    /// <summary>
    /// Callbacks for a store whose object records refer to <paramref name="objects"/>; with <paramref name="noTouch"/>
    /// (CLIENT NO-TOUCH) accesses other than TOUCH do not count as accesses for LRU/LFU eviction and OBJECT IDLETIME/FREQ.
    /// </summary>
    public MainStoreFunctions(ObjectTable objects, bool noTouch = false)
    {
        _objects = objects;
        _noTouch = noTouch;
    }

    private static InvalidOperationException Unexpected(RespCommand command, string callback)
        => new($"{command} does not use the {callback} callback of the string store.");

    /// <summary>The RMW command families of the string store; each has one logic class under Commands/.</summary>
    private enum RmwFamily : byte
    {
        None,
        Set,
        Incr,
        Append,
        GetAndModify,
        Expire,
        Bitmap,
        HyperLogLog,
        ETag,
    }

    /// <summary>Which family's logic an RMW command's callbacks run (SET ... WITHETAG is the ETag family's).</summary>
    private static RmwFamily FamilyOf(ref StringInput input) => input.Command switch
    {
        RespCommand.SET when (input.Flags & StringInputFlags.WithETag) != 0 => RmwFamily.ETag,
        RespCommand.SETIFMATCH or RespCommand.SETIFGREATER or RespCommand.DELIFGREATER => RmwFamily.ETag,
        RespCommand.SET or RespCommand.SETNX or RespCommand.GETSET or RespCommand.MSETNX => RmwFamily.Set,
        RespCommand.INCR or RespCommand.INCRBY or RespCommand.DECR or RespCommand.DECRBY or RespCommand.INCRBYFLOAT => RmwFamily.Incr,
        RespCommand.APPEND or RespCommand.SETRANGE => RmwFamily.Append,
        RespCommand.GETDEL or RespCommand.GETEX => RmwFamily.GetAndModify,
        RespCommand.EXPIRE or RespCommand.PEXPIRE or RespCommand.EXPIREAT or RespCommand.PEXPIREAT or RespCommand.PERSIST => RmwFamily.Expire,
        RespCommand.SETBIT or RespCommand.BITOP or RespCommand.BITFIELD => RmwFamily.Bitmap,
        RespCommand.PFADD or RespCommand.PFMERGE or RespCommand.PFDEBUG => RmwFamily.HyperLogLog,
        _ => RmwFamily.None,
    };

    /// <summary>
    /// The form (StringEncoding.cs) a family's successful write leaves the string in, or null when the write
    /// leaves the value as it was (expirations, GETEX, GETDEL); each family states its own.
    /// </summary>
    private static StringForm? FormAfterWrite(ref StringInput input, ref StringOutput output, bool created) => FamilyOf(ref input) switch
    {
        RmwFamily.Set => SetLogic.FormOf(ref input),
        RmwFamily.Incr => IncrLogic.FormOf(ref input),
        RmwFamily.Append => AppendLogic.FormOf(ref input, created),
        RmwFamily.Bitmap => BitmapLogic.FormOf(),
        RmwFamily.HyperLogLog => HyperLogLogLogic.FormOf(ref output),
        RmwFamily.ETag => input.Command == RespCommand.DELIFGREATER ? null : SetLogic.FormOf(ref input),
        _ => null,
    };

    /// <summary>Whether a callback changed a string record: it succeeded, with nothing to report (no condition unmet, no error).</summary>
    private static bool Changed(bool written, ref LogRecord record, ref StringOutput output)
        => written && output.Result == StringResult.Ok && !record.Info.ValueIsObject;

    /// <summary>
    /// After a write changed a string record: notes its <paramref name="form"/> (if the write changed the
    /// value), and gives it the access word RESTORE asked for, if any; true when it did the latter.
    /// </summary>
    private static bool NoteWrite(ref LogRecord record, ref StringInput input, StringForm? form)
    {
        if (form is { } newForm)
            StringValueEncoding.SetForm(ref record, newForm);
        if (input.AccessWord < 0)
            return false;
        record.Access = (uint)input.AccessWord;
        return true;
    }

    // ---- Read ----

    public bool Reader(in LogRecord record, ref StringInput input, ref StringOutput output, ref ReadInfo readInfo)
    {
        if (_noTouch && input.Command != RespCommand.TOUCH)
            readInfo.SkipAccessUpdate = true;
        return record.Info.ValueIsObject
            ? StringCommandsOverObjects.Reader(in record, _objects, ref input, ref output, ref readInfo)
            : ReadLogic.Reader(in record, ref input, ref output, ref readInfo);
    }

    // ---- Upsert ----

    public RecordFieldInfo GetUpsertFieldInfo(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ref StringInput input)
        => SetLogic.UpsertFieldInfo(value, ref input);

    public bool InPlaceWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref StringInput input, ref StringOutput output, ref UpsertInfo upsertInfo)
    {
        // An object is superseded by a new record, which disposes it.
        if (record.Info.ValueIsObject || !SetLogic.InPlaceWriter(ref record, value, ref input))
            return false;
        // Every Upsert (SET, SETEX, MSET, BITOP's result...) writes its value whole, as SET does.
        upsertInfo.SkipAccessUpdate = NoteWrite(ref record, ref input, SetLogic.FormOf(ref input)) || _noTouch;
        return true;
    }

    public bool InitialWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref StringInput input, ref StringOutput output, ref UpsertInfo upsertInfo)
    {
        if (!SetLogic.InitialWriter(ref record, value, ref input))
            return false;
        NoteWrite(ref record, ref input, SetLogic.FormOf(ref input));
        return true;
    }

    public void PostInitialWriter(ref LogRecord record, ref StringInput input, ref StringOutput output, ref UpsertInfo upsertInfo)
    {
    }

    // ---- RMW ----

    public bool NeedInitialUpdate(ReadOnlySpan<byte> key, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        switch (FamilyOf(ref input))
        {
            case RmwFamily.Set:
                return SetLogic.NeedInitialUpdate(ref input, ref output);
            case RmwFamily.Incr:
                return true;
            case RmwFamily.Append:
                return AppendLogic.NeedInitialUpdate(ref input, ref output);
            case RmwFamily.GetAndModify:
                return GetAndModifyLogic.NeedInitialUpdate();
            case RmwFamily.Expire:
                return ExpireLogic.NeedInitialUpdate(ref output);
            case RmwFamily.Bitmap:
                return BitmapLogic.NeedInitialUpdate(ref input, ref output);
            case RmwFamily.HyperLogLog:
                return HyperLogLogLogic.NeedInitialUpdate(ref input, ref output);
            case RmwFamily.ETag:
                return ETagLogic.NeedInitialUpdate(ref input, ref output);
            default:
                throw Unexpected(input.Command, nameof(NeedInitialUpdate));
        }
    }

    public RecordFieldInfo GetRMWInitialFieldInfo(ReadOnlySpan<byte> key, ref StringInput input)
    {
        switch (FamilyOf(ref input))
        {
            case RmwFamily.Set:
                return SetLogic.InitialFieldInfo(ref input);
            case RmwFamily.Incr:
                return IncrLogic.InitialFieldInfo(ref input);
            case RmwFamily.Append:
                return AppendLogic.InitialFieldInfo(ref input);
            case RmwFamily.Bitmap:
                return BitmapLogic.InitialFieldInfo(ref input);
            case RmwFamily.HyperLogLog:
                return HyperLogLogLogic.InitialFieldInfo(ref input);
            case RmwFamily.ETag:
                return ETagLogic.InitialFieldInfo(ref input);
            default:
                throw Unexpected(input.Command, nameof(GetRMWInitialFieldInfo));
        }
    }

    public bool InitialUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        bool written = FamilyOf(ref input) switch
        {
            RmwFamily.Set => SetLogic.InitialUpdater(ref record, ref input),
            RmwFamily.Incr => IncrLogic.InitialUpdater(ref record, ref input, ref output),
            RmwFamily.Append => AppendLogic.InitialUpdater(ref record, ref input, ref output),
            RmwFamily.Bitmap => BitmapLogic.InitialUpdater(ref record, ref input, ref output),
            RmwFamily.HyperLogLog => HyperLogLogLogic.InitialUpdater(ref record, ref input, ref output),
            RmwFamily.ETag => ETagLogic.InitialUpdater(ref record, ref input, ref output),
            _ => throw Unexpected(input.Command, nameof(InitialUpdater)),
        };
        if (Changed(written, ref record, ref output))
            NoteWrite(ref record, ref input, FormAfterWrite(ref input, ref output, created: true));
        return written;
    }

    public void PostInitialUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
    }

    public bool InPlaceUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        if (record.Info.ValueIsObject)
        {
            switch (StringCommandsOverObjects.ActionOf(ref input))
            {
                case StringCommandsOverObjects.RmwAction.WrongType:
                    output.Result = StringResult.WrongType;
                    return true;
                case StringCommandsOverObjects.RmwAction.ConditionNotMet:
                    output.Result = StringResult.ConditionNotMet;
                    return true;
                case StringCommandsOverObjects.RmwAction.Replace:
                    return false;
            }
        }
        var family = FamilyOf(ref input);
        bool written = family switch
        {
            RmwFamily.Set => SetLogic.InPlaceUpdater(ref record, ref input, ref output),
            RmwFamily.Incr => IncrLogic.InPlaceUpdater(ref record, ref input, ref output),
            RmwFamily.Append => AppendLogic.InPlaceUpdater(ref record, ref input, ref output),
            RmwFamily.GetAndModify => GetAndModifyLogic.InPlaceUpdater(ref record, ref input, ref output, ref rmwInfo),
            RmwFamily.Expire => ExpireLogic.InPlaceUpdater(ref record, ref input, ref output, ref rmwInfo),
            RmwFamily.Bitmap => BitmapLogic.InPlaceUpdater(ref record, ref input, ref output),
            RmwFamily.HyperLogLog => HyperLogLogLogic.InPlaceUpdater(ref record, ref input, ref output),
            RmwFamily.ETag => ETagLogic.InPlaceUpdater(ref record, ref input, ref output, ref rmwInfo),
            _ => throw Unexpected(input.Command, nameof(InPlaceUpdater)),
        };
        if (Changed(written, ref record, ref output))
        {
            var form = FormAfterWrite(ref input, ref output, created: false);
            // A write that changed the value advances the key's ETag (the ETag family sets its own).
            if (record.Info.HasETag && form != null && family != RmwFamily.ETag)
                ETagLogic.Advance(ref record);
            rmwInfo.SkipAccessUpdate = NoteWrite(ref record, ref input, form) || _noTouch;
        }
        return written;
    }

    public bool NeedCopyUpdate(in LogRecord source, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        if (source.Info.ValueIsObject)
        {
            switch (StringCommandsOverObjects.ActionOf(ref input))
            {
                case StringCommandsOverObjects.RmwAction.WrongType:
                    output.Result = StringResult.WrongType;
                    return false;
                case StringCommandsOverObjects.RmwAction.ConditionNotMet:
                    output.Result = StringResult.ConditionNotMet;
                    return false;
            }
        }
        switch (FamilyOf(ref input))
        {
            case RmwFamily.Set:
                return SetLogic.NeedCopyUpdate(in source, ref input, ref output);
            case RmwFamily.Incr:
                return IncrLogic.NeedCopyUpdate(in source, ref input, ref output);
            case RmwFamily.Append:
                return AppendLogic.NeedCopyUpdate(in source, ref input, ref output);
            case RmwFamily.GetAndModify:
                return GetAndModifyLogic.NeedCopyUpdate(in source, ref input, ref output, ref rmwInfo);
            case RmwFamily.Expire:
                return ExpireLogic.NeedCopyUpdate(in source, ref input, ref output, ref rmwInfo);
            case RmwFamily.Bitmap:
                return BitmapLogic.NeedCopyUpdate(in source, ref input, ref output);
            case RmwFamily.HyperLogLog:
                return HyperLogLogLogic.NeedCopyUpdate(in source, ref input, ref output);
            case RmwFamily.ETag:
                return ETagLogic.NeedCopyUpdate(in source, ref input, ref output, ref rmwInfo);
            default:
                throw Unexpected(input.Command, nameof(NeedCopyUpdate));
        }
    }

    public RecordFieldInfo GetRMWModifiedFieldInfo(in LogRecord source, ref StringInput input)
    {
        var fields = ModifiedFieldInfo(in source, ref input);
        // The copy keeps the key's ETag unless the write replaces it (SET) or sets its own (the ETag family).
        if (source.Info.HasETag && FamilyOf(ref input) != RmwFamily.ETag && ETagLogic.Carried(ref input))
            fields.HasETag = true;
        // A copy for a command that does not grow data (EXPIRE, PERSIST...) may use the budget's reserve.
        fields.MayUseReserve = input.Command != RespCommand.NONE && (int)input.Command < ExtensionRegistry.FirstId
            && (CommandTable.Get(input.Command).Flags & CommandFlags.DenyOom) == 0;
        return fields;
    }

    private static RecordFieldInfo ModifiedFieldInfo(in LogRecord source, ref StringInput input)
    {
        switch (FamilyOf(ref input))
        {
            case RmwFamily.Set:
                return SetLogic.ModifiedFieldInfo(in source, ref input);
            case RmwFamily.Incr:
                return IncrLogic.ModifiedFieldInfo(in source, ref input);
            case RmwFamily.Append:
                return AppendLogic.ModifiedFieldInfo(in source, ref input);
            case RmwFamily.GetAndModify:
                return GetAndModifyLogic.ModifiedFieldInfo(in source, ref input);
            case RmwFamily.Expire:
                return ExpireLogic.ModifiedFieldInfo(in source, ref input);
            case RmwFamily.Bitmap:
                return BitmapLogic.ModifiedFieldInfo(in source, ref input);
            case RmwFamily.HyperLogLog:
                return HyperLogLogLogic.ModifiedFieldInfo(in source, ref input);
            case RmwFamily.ETag:
                return ETagLogic.ModifiedFieldInfo(in source, ref input);
            default:
                throw Unexpected(input.Command, nameof(GetRMWModifiedFieldInfo));
        }
    }

    public bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        // Expiration commands copy an object record's handle with its expiration: the copy still refers to the object.
        if (source.Info.ValueIsObject && StringCommandsOverObjects.ActionOf(ref input) == StringCommandsOverObjects.RmwAction.Proceed)
            destination.Info.ValueIsObject = true;
        // The copy is the same string unless the command says how it changed it.
        destination.Info.UserBits = source.Info.UserBits;
        var family = FamilyOf(ref input);
        bool written = family switch
        {
            RmwFamily.Set => SetLogic.CopyUpdater(in source, ref destination, ref input),
            RmwFamily.Incr => IncrLogic.CopyUpdater(in source, ref destination, ref input, ref output),
            RmwFamily.Append => AppendLogic.CopyUpdater(in source, ref destination, ref input, ref output),
            RmwFamily.GetAndModify => GetAndModifyLogic.CopyUpdater(in source, ref destination, ref input),
            RmwFamily.Expire => ExpireLogic.CopyUpdater(in source, ref destination, ref input),
            RmwFamily.Bitmap => BitmapLogic.CopyUpdater(in source, ref destination, ref input, ref output),
            RmwFamily.HyperLogLog => HyperLogLogLogic.CopyUpdater(in source, ref destination, ref input, ref output),
            RmwFamily.ETag => ETagLogic.CopyUpdater(in source, ref destination, ref input, ref output),
            _ => throw Unexpected(input.Command, nameof(CopyUpdater)),
        };
        bool changed = Changed(written, ref destination, ref output);
        var form = changed ? FormAfterWrite(ref input, ref output, created: false) : null;
        // The copy has an ETag field when it keeps the source's (GetRMWModifiedFieldInfo); a write that changed the value advances it.
        if (written && destination.Info.HasETag && family != RmwFamily.ETag)
            ETagLogic.CarryTo(in source, ref destination, form != null);
        if (changed)
            NoteWrite(ref destination, ref input, form);
        return written;
    }

    public void PostCopyUpdater(in LogRecord source, ref LogRecord destination, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        // A string written over an object (SET XX) leaves the object unreferenced; an object record
        // copied for a string command (EXPIRE, PERSIST) takes the handle over.
        if (!source.Info.ValueIsObject)
            return;
        if (destination.Info.ValueIsObject)
            ObjectRecord.Detach(in source);
        else
            _objects.Release(in source);
    }

    // ---- Delete ----

    public bool InPlaceDeleter(ref LogRecord record, ref DeleteInfo deleteInfo) => true;

    // ---- Record lifetime ----

    public void DisposeRecord(ref LogRecord record, DisposeReason reason)
        => _objects.Release(in record);
}
