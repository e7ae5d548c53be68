using Tsavorite;

namespace Garnet.server;

/// <summary>
/// What string-store commands do when the key holds an object (list, hash, set, sorted set): the
/// keyspace commands (TTL, EXISTS, TYPE, EXPIRE...) work on any type, a plain or conditional SET (and
/// SETIFMATCH, SETIFGREATER) replaces the object, SET NX finds the key taken, DELIFGREATER leaves it, and
/// every other string command answers WRONGTYPE.
/// </summary>
internal static class StringCommandsOverObjects
{
    /// <summary>How an RMW of the string store treats an object record.</summary>
    public enum RmwAction : byte
    {
        /// <summary>Leave the record alone and answer WRONGTYPE.</summary>
        WrongType,

        /// <summary>Run the command's logic: it only touches the record's expiration.</summary>
        Proceed,

        /// <summary>Write a string record in the object's place (copy update; the object is freed after).</summary>
        Replace,

        /// <summary>SET NX and friends: the key exists, nothing is written.</summary>
        ConditionNotMet,
    }

    public static RmwAction ActionOf(ref StringInput input)
    {
        switch (input.Command)
        {
            case RespCommand.EXPIRE:
            case RespCommand.PEXPIRE:
            case RespCommand.EXPIREAT:
            case RespCommand.PEXPIREAT:
            case RespCommand.PERSIST:
                return RmwAction.Proceed;
            case RespCommand.SET:
            case RespCommand.SETNX:
            case RespCommand.MSETNX:
            case RespCommand.GETSET:
                if ((input.Flags & StringInputFlags.ReturnOld) != 0)
                    return RmwAction.WrongType;
                return (input.Flags & StringInputFlags.IfNotExists) != 0 ? RmwAction.ConditionNotMet : RmwAction.Replace;
            case RespCommand.SETIFMATCH:
            case RespCommand.SETIFGREATER:
                // As Garnet: an ETag set over an object replaces it, as SET does (the object's ETag counts as 0).
                return RmwAction.Replace;
            case RespCommand.DELIFGREATER:
                // As Garnet: a conditional delete leaves an object alone and answers 0.
                return RmwAction.ConditionNotMet;
            default:
                return RmwAction.WrongType;
        }
    }

    /// <summary>The Reader callback on an object record; which reads are not accesses is as in ReadLogic.</summary>
    public static bool Reader(in LogRecord record, ObjectTable objects, ref StringInput input, ref StringOutput output, ref ReadInfo readInfo)
    {
        switch (input.Command)
        {
            case RespCommand.TTL:
            case RespCommand.PTTL:
            case RespCommand.EXPIRETIME:
            case RespCommand.PEXPIRETIME:
                readInfo.SkipAccessUpdate = true;
                output.Number = record.Expiration;
                return true;
            case RespCommand.EXISTS:
                readInfo.SkipAccessUpdate = true;
                return true;
            case RespCommand.TOUCH:
                return true;
            case RespCommand.TYPE:
                readInfo.SkipAccessUpdate = true;
                output.ObjectType = ObjectRecord.TypeOf(in record);
                output.Number = record.Expiration;
                return true;
            case RespCommand.DUMP:
            case RespCommand.RENAME:
            case RespCommand.RENAMENX:
            case RespCommand.COPY:
            case RespCommand.MOVE:
                // The caller continues with the object commands' session (the type tells it to).
                output.ObjectType = ObjectRecord.TypeOf(in record);
                output.Number = record.Expiration;
                return true;
            case RespCommand.MEMORY:
                readInfo.SkipAccessUpdate = true;
                output.Number = record.AllocatedSize + objects.Get(ObjectRecord.Handle(in record)).HeapSize;
                return true;
            case RespCommand.OBJECT:
                return ObjectInspection.Reader(in record, objects, ref input, ref output, ref readInfo);
            case RespCommand.DEBUG:
                readInfo.SkipAccessUpdate = true;
                output.Result = StringResult.WrongType; // DEBUG OBJECT goes on with the object store
                return true;
            default:
                output.Result = StringResult.WrongType;
                return true;
        }
    }
}
