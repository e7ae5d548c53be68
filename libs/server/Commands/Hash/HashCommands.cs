using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The hash commands: arguments Redis checks before looking at the key are validated here (so their
/// errors win over WRONGTYPE and missing-key replies); the command itself runs in <see cref="HashObject"/>.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteHashCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.HSET:
            case RespCommand.HMSET:
                HashSet(command);
                break;
            case RespCommand.HSETNX:
            case RespCommand.HDEL:
                RunObjectCommand(GarnetObjectType.Hash, write: true);
                break;
            case RespCommand.HGET:
            case RespCommand.HMGET:
            case RespCommand.HLEN:
            case RespCommand.HSTRLEN:
            case RespCommand.HEXISTS:
            case RespCommand.HKEYS:
            case RespCommand.HVALS:
            case RespCommand.HGETALL:
                RunObjectCommand(GarnetObjectType.Hash, write: false);
                break;
            case RespCommand.HINCRBY: HashIncrBy(); break;
            case RespCommand.HINCRBYFLOAT: HashIncrByFloat(); break;
            case RespCommand.HRANDFIELD: HashRandomField(); break;
            case RespCommand.HSCAN: HashScan(); break;
            default:
                throw new InvalidOperationException($"{command} is not a hash command.");
        }
    }

    /// <summary>HSET / HMSET key field value [field value ...]: the arguments after the key come in pairs.</summary>
    private void HashSet(RespCommand command)
    {
        if ((_argCount - 2) % 2 != 0)
        {
            WriteWrongArity(command == RespCommand.HSET ? "hset" : "hmset");
            return;
        }
        RunObjectCommand(GarnetObjectType.Hash, write: true);
    }

    /// <summary>HINCRBY key field increment.</summary>
    private void HashIncrBy()
    {
        if (!NumberFormat.TryParseLong(_args[3].Span, out long increment))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        var input = NewObjectInput(GarnetObjectType.Hash);
        input.Number = increment;
        var output = NewObjectOutput();
        var status = ObjectRMW(_args[1].Span, ref input, ref output);
        CompleteObjectReply(ref output, status);
    }

    /// <summary>HINCRBYFLOAT key field increment (the object parses the checked increment again, in long double precision).</summary>
    private void HashIncrByFloat()
    {
        if (!LongDouble.TryParse(_args[3].Span, out var increment))
        {
            _writer.WriteError(RespStrings.ErrNotFloat);
            return;
        }
        if (!increment.IsFinite)
        {
            _writer.WriteError(HashStrings.ErrIncrementNaNOrInfinity);
            return;
        }
        RunObjectCommand(GarnetObjectType.Hash, write: true);
    }

    /// <summary>HRANDFIELD key [count [WITHVALUES]].</summary>
    private void HashRandomField()
    {
        var input = NewObjectInput(GarnetObjectType.Hash);
        if (_argCount >= 3)
        {
            if (!NumberFormat.TryParseLong(_args[2].Span, out long count))
            {
                _writer.WriteError(RespStrings.ErrNotInteger);
                return;
            }
            if (count == long.MinValue)
            {
                _writer.WriteError(HashStrings.ErrCountOutOfRange);
                return;
            }
            if (_argCount > 4 || (_argCount == 4 && !_args[3].EqualsUpper("WITHVALUES"u8)))
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
            input.Flags = HashObject.RandomFieldWithCount;
            if (_argCount == 4)
            {
                if (count < -long.MaxValue / 2 || count > long.MaxValue / 2)
                {
                    _writer.WriteError(HashStrings.ErrValueOutOfRange);
                    return;
                }
                input.Flags |= HashObject.RandomFieldWithValues;
            }
            input.Number = count;
        }
        var output = NewObjectOutput();
        var status = ObjectRead(_args[1].Span, ref input, ref output);
        CompleteObjectReply(ref output, status);
    }

    /// <summary>HSCAN key cursor [MATCH pattern] [COUNT count] [NOVALUES]: the cursor is checked before the key.</summary>
    private void HashScan()
    {
        if (!ScanCursor.TryParse(_args[2].Span, out ulong cursor))
        {
            _writer.WriteError(RespStrings.ErrInvalidCursor);
            return;
        }
        var input = NewObjectInput(GarnetObjectType.Hash);
        input.Number = unchecked((long)cursor);
        var output = NewObjectOutput();
        var status = ObjectRead(_args[1].Span, ref input, ref output);
        CompleteObjectReply(ref output, status);
    }
}
