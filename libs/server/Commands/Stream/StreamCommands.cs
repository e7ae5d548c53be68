using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The stream commands, session side: arguments Redis checks before looking at the key are validated here (so
/// their errors win over WRONGTYPE and missing-key replies); the command itself runs in <see cref="StreamObject"/>.
/// XREAD and XREADGROUP, which span keys and may block, are in StreamCommands.Read.cs; the group commands in StreamCommands.Groups.cs.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteStreamCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.XADD: StreamAdd(); break;
            case RespCommand.XTRIM: StreamTrim(); break;
            case RespCommand.XDEL:
                RunObjectCommand(GarnetObjectType.Stream, write: true);
                break;
            case RespCommand.XLEN:
                RunStreamRead();
                break;
            case RespCommand.XRANGE:
            case RespCommand.XREVRANGE:
                StreamRange(command == RespCommand.XREVRANGE);
                break;
            case RespCommand.XREAD: StreamRead(); break;
            case RespCommand.XSETID: StreamSetId(); break;
            case RespCommand.XREADGROUP: StreamRead(); break;
            case RespCommand.XGROUP: StreamGroup(); break;
            case RespCommand.XINFO: StreamInfo(); break;
            case RespCommand.XPENDING: StreamPending(); break;
            case RespCommand.XAUTOCLAIM: StreamAutoClaim(); break;
            case RespCommand.XACK:
            case RespCommand.XCLAIM:
                RunObjectCommand(GarnetObjectType.Stream, write: true);
                break;
            default:
                throw new InvalidOperationException($"{command} is not a stream command.");
        }
    }

    /// <summary>XADD: options, the ID's form and the field/value count are checked before the key.</summary>
    private void StreamAdd()
    {
        if (!StreamArguments.TryParseAddOrTrim(_args.AsSpan(0, _argCount), 2, xadd: true, out _, out var error))
        {
            _writer.WriteError(error);
            return;
        }
        RunObjectCommand(GarnetObjectType.Stream, write: true);
    }

    /// <summary>XTRIM: the trimming options are checked before the key.</summary>
    private void StreamTrim()
    {
        if (!StreamArguments.TryParseAddOrTrim(_args.AsSpan(0, _argCount), 2, xadd: false, out _, out var error))
        {
            _writer.WriteError(error);
            return;
        }
        RunObjectCommand(GarnetObjectType.Stream, write: true);
    }

    /// <summary>XRANGE / XREVRANGE: the bounds and COUNT are checked before the key.</summary>
    private void StreamRange(bool reverse)
    {
        if (!StreamArguments.TryParseRange(_args.AsSpan(0, _argCount), reverse, out _, out _, out _, out var error))
        {
            _writer.WriteError(error);
            return;
        }
        RunStreamRead();
    }

    /// <summary>XSETID: the IDs and options are checked before the key.</summary>
    private void StreamSetId()
    {
        if (!StreamArguments.TryParseSetId(_args.AsSpan(0, _argCount), out _, out _, out _, out var error))
        {
            _writer.WriteError(error);
            return;
        }
        RunObjectCommand(GarnetObjectType.Stream, write: true);
    }

    /// <summary>A read-only stream command on the key at argument 1, counted in the keyspace hits or misses.</summary>
    private void RunStreamRead()
    {
        var input = NewObjectInput(GarnetObjectType.Stream);
        var output = NewObjectOutput();
        var status = ObjectRead(_args[1].Span, ref input, ref output);
        CountLookup(status.Found);
        CompleteObjectReply(ref output, status);
    }

    /// <summary>Parses a stream command's BLOCK milliseconds as Redis does into a deadline (0: forever); writes the error otherwise.</summary>
    private bool TryParseStreamBlockTimeout(ReadOnlySpan<byte> text, out long deadline)
    {
        deadline = 0;
        if (!NumberFormat.TryParseLong(text, out long milliseconds))
        {
            _writer.WriteError("ERR timeout is not an integer or out of range"u8);
            return false;
        }
        if (milliseconds < 0)
        {
            _writer.WriteError("ERR timeout is negative"u8);
            return false;
        }
        long now = Environment.TickCount64;
        if (milliseconds > long.MaxValue - now)
        {
            _writer.WriteError("ERR timeout is out of range"u8);
            return false;
        }
        if (milliseconds > 0)
            deadline = now + milliseconds;
        return true;
    }
}
