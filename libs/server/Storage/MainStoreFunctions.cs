using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The string store's engine callbacks. Each callback hands the record to the logic of the command
/// family in <see cref="StringInput.Command"/>; the families live under Commands/ with their parsing
/// and replies, so one command's meaning stays in one place.
/// </summary>
public struct MainStoreFunctions : ISessionFunctions<StringInput, StringOutput>
{
    private static InvalidOperationException Unexpected(RespCommand command, string callback)
        => new($"{command} does not use the {callback} callback of the string store.");

    // ---- Read ----

    public bool Reader(in LogRecord record, ref StringInput input, ref StringOutput output, ref ReadInfo readInfo)
        => ReadLogic.Reader(in record, ref input, ref output);

    // ---- Upsert ----

    public RecordFieldInfo GetUpsertFieldInfo(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ref StringInput input)
        => SetLogic.UpsertFieldInfo(value, ref input);

    public bool InPlaceWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref StringInput input, ref StringOutput output, ref UpsertInfo upsertInfo)
        => SetLogic.InPlaceWriter(ref record, value, ref input);

    public bool InitialWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref StringInput input, ref StringOutput output, ref UpsertInfo upsertInfo)
        => SetLogic.InitialWriter(ref record, value, ref input);

    public void PostInitialWriter(ref LogRecord record, ref StringInput input, ref StringOutput output, ref UpsertInfo upsertInfo)
    {
    }

    // ---- RMW ----

    public bool NeedInitialUpdate(ReadOnlySpan<byte> key, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        switch (input.Command)
        {
            case RespCommand.SET:
            case RespCommand.SETNX:
            case RespCommand.GETSET:
            case RespCommand.MSETNX:
                return SetLogic.NeedInitialUpdate(ref input, ref output);
            case RespCommand.INCR:
            case RespCommand.INCRBY:
            case RespCommand.DECR:
            case RespCommand.DECRBY:
            case RespCommand.INCRBYFLOAT:
                return true;
            case RespCommand.APPEND:
            case RespCommand.SETRANGE:
                return AppendLogic.NeedInitialUpdate(ref input, ref output);
            case RespCommand.GETDEL:
            case RespCommand.GETEX:
                return GetAndModifyLogic.NeedInitialUpdate();
            case RespCommand.EXPIRE:
            case RespCommand.PEXPIRE:
            case RespCommand.EXPIREAT:
            case RespCommand.PEXPIREAT:
            case RespCommand.PERSIST:
                return ExpireLogic.NeedInitialUpdate(ref output);
            default:
                throw Unexpected(input.Command, nameof(NeedInitialUpdate));
        }
    }

    public RecordFieldInfo GetRMWInitialFieldInfo(ReadOnlySpan<byte> key, ref StringInput input)
    {
        switch (input.Command)
        {
            case RespCommand.SET:
            case RespCommand.SETNX:
            case RespCommand.GETSET:
            case RespCommand.MSETNX:
                return SetLogic.InitialFieldInfo(ref input);
            case RespCommand.INCR:
            case RespCommand.INCRBY:
            case RespCommand.DECR:
            case RespCommand.DECRBY:
            case RespCommand.INCRBYFLOAT:
                return IncrLogic.InitialFieldInfo(ref input);
            case RespCommand.APPEND:
            case RespCommand.SETRANGE:
                return AppendLogic.InitialFieldInfo(ref input);
            default:
                throw Unexpected(input.Command, nameof(GetRMWInitialFieldInfo));
        }
    }

    public bool InitialUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        switch (input.Command)
        {
            case RespCommand.SET:
            case RespCommand.SETNX:
            case RespCommand.GETSET:
            case RespCommand.MSETNX:
                return SetLogic.InitialUpdater(ref record, ref input);
            case RespCommand.INCR:
            case RespCommand.INCRBY:
            case RespCommand.DECR:
            case RespCommand.DECRBY:
            case RespCommand.INCRBYFLOAT:
                return IncrLogic.InitialUpdater(ref record, ref input, ref output);
            case RespCommand.APPEND:
            case RespCommand.SETRANGE:
                return AppendLogic.InitialUpdater(ref record, ref input, ref output);
            default:
                throw Unexpected(input.Command, nameof(InitialUpdater));
        }
    }

    public void PostInitialUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
    }

    public bool InPlaceUpdater(ref LogRecord record, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        switch (input.Command)
        {
            case RespCommand.SET:
            case RespCommand.SETNX:
            case RespCommand.GETSET:
            case RespCommand.MSETNX:
                return SetLogic.InPlaceUpdater(ref record, ref input, ref output);
            case RespCommand.INCR:
            case RespCommand.INCRBY:
            case RespCommand.DECR:
            case RespCommand.DECRBY:
            case RespCommand.INCRBYFLOAT:
                return IncrLogic.InPlaceUpdater(ref record, ref input, ref output);
            case RespCommand.APPEND:
            case RespCommand.SETRANGE:
                return AppendLogic.InPlaceUpdater(ref record, ref input, ref output);
            case RespCommand.GETDEL:
            case RespCommand.GETEX:
                return GetAndModifyLogic.InPlaceUpdater(ref record, ref input, ref output, ref rmwInfo);
            case RespCommand.EXPIRE:
            case RespCommand.PEXPIRE:
            case RespCommand.EXPIREAT:
            case RespCommand.PEXPIREAT:
            case RespCommand.PERSIST:
                return ExpireLogic.InPlaceUpdater(ref record, ref input, ref output, ref rmwInfo);
            default:
                throw Unexpected(input.Command, nameof(InPlaceUpdater));
        }
    }

    public bool NeedCopyUpdate(in LogRecord source, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        switch (input.Command)
        {
            case RespCommand.SET:
            case RespCommand.SETNX:
            case RespCommand.GETSET:
            case RespCommand.MSETNX:
                return SetLogic.NeedCopyUpdate(in source, ref input, ref output);
            case RespCommand.INCR:
            case RespCommand.INCRBY:
            case RespCommand.DECR:
            case RespCommand.DECRBY:
            case RespCommand.INCRBYFLOAT:
                return IncrLogic.NeedCopyUpdate(in source, ref input, ref output);
            case RespCommand.APPEND:
            case RespCommand.SETRANGE:
                return AppendLogic.NeedCopyUpdate(in source, ref input, ref output);
            case RespCommand.GETDEL:
            case RespCommand.GETEX:
                return GetAndModifyLogic.NeedCopyUpdate(in source, ref input, ref output, ref rmwInfo);
            case RespCommand.EXPIRE:
            case RespCommand.PEXPIRE:
            case RespCommand.EXPIREAT:
            case RespCommand.PEXPIREAT:
            case RespCommand.PERSIST:
                return ExpireLogic.NeedCopyUpdate(in source, ref input, ref output, ref rmwInfo);
            default:
                throw Unexpected(input.Command, nameof(NeedCopyUpdate));
        }
    }

    public RecordFieldInfo GetRMWModifiedFieldInfo(in LogRecord source, ref StringInput input)
    {
        switch (input.Command)
        {
            case RespCommand.SET:
            case RespCommand.SETNX:
            case RespCommand.GETSET:
            case RespCommand.MSETNX:
                return SetLogic.ModifiedFieldInfo(in source, ref input);
            case RespCommand.INCR:
            case RespCommand.INCRBY:
            case RespCommand.DECR:
            case RespCommand.DECRBY:
            case RespCommand.INCRBYFLOAT:
                return IncrLogic.ModifiedFieldInfo(in source, ref input);
            case RespCommand.APPEND:
            case RespCommand.SETRANGE:
                return AppendLogic.ModifiedFieldInfo(in source, ref input);
            case RespCommand.GETDEL:
            case RespCommand.GETEX:
                return GetAndModifyLogic.ModifiedFieldInfo(in source, ref input);
            case RespCommand.EXPIRE:
            case RespCommand.PEXPIRE:
            case RespCommand.EXPIREAT:
            case RespCommand.PEXPIREAT:
            case RespCommand.PERSIST:
                return ExpireLogic.ModifiedFieldInfo(in source, ref input);
            default:
                throw Unexpected(input.Command, nameof(GetRMWModifiedFieldInfo));
        }
    }

    public bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
        switch (input.Command)
        {
            case RespCommand.SET:
            case RespCommand.SETNX:
            case RespCommand.GETSET:
            case RespCommand.MSETNX:
                return SetLogic.CopyUpdater(in source, ref destination, ref input);
            case RespCommand.INCR:
            case RespCommand.INCRBY:
            case RespCommand.DECR:
            case RespCommand.DECRBY:
            case RespCommand.INCRBYFLOAT:
                return IncrLogic.CopyUpdater(in source, ref destination, ref input, ref output);
            case RespCommand.APPEND:
            case RespCommand.SETRANGE:
                return AppendLogic.CopyUpdater(in source, ref destination, ref input, ref output);
            case RespCommand.GETDEL:
            case RespCommand.GETEX:
                return GetAndModifyLogic.CopyUpdater(in source, ref destination, ref input);
            case RespCommand.EXPIRE:
            case RespCommand.PEXPIRE:
            case RespCommand.EXPIREAT:
            case RespCommand.PEXPIREAT:
            case RespCommand.PERSIST:
                return ExpireLogic.CopyUpdater(in source, ref destination, ref input);
            default:
                throw Unexpected(input.Command, nameof(CopyUpdater));
        }
    }

    public void PostCopyUpdater(in LogRecord source, ref LogRecord destination, ref StringInput input, ref StringOutput output, ref RMWInfo rmwInfo)
    {
    }

    // ---- Delete ----

    public bool InPlaceDeleter(ref LogRecord record, ref DeleteInfo deleteInfo) => true;
}
