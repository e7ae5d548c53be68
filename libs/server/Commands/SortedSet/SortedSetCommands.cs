using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The sorted-set commands, session side: arguments are validated here first (Redis reports syntax
/// and number errors before it looks at the key), then the command runs on the key's
/// <see cref="SortedSetObject"/>. Multi-key commands are in SortedSetCommands.MultiKey.cs.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteSortedSetCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.ZADD:
                if (SortedSetReplyIfError(SortedSetOptions.ParseZAdd(_args, 2, _argCount - 2, out _, out _)))
                    return;
                RunSortedSet(write: true);
                break;
            case RespCommand.ZINCRBY:
                if (SortedSetReplyIfError(SortedSetScores.TryParse(_args[2].Span, out _) ? default : RespStrings.ErrNotFloat))
                    return;
                RunSortedSet(write: true);
                break;
            case RespCommand.ZREM:
                RunSortedSet(write: true);
                break;
            case RespCommand.ZPOPMIN:
            case RespCommand.ZPOPMAX:
                if (_argCount > 3)
                {
                    _writer.WriteError(RespStrings.ErrSyntax);
                    return;
                }
                if (_argCount == 3 && SortedSetReplyIfError(SortedSetOptions.ParsePositiveCount(_args[2].Span, out _)))
                    return;
                RunSortedSet(write: true);
                break;
            case RespCommand.ZREMRANGEBYRANK:
                if (SortedSetReplyIfError(SortedSetOptions.ParseRanks(_args[2].Span, _args[3].Span, out _, out _)))
                    return;
                RunSortedSet(write: true);
                break;
            case RespCommand.ZREMRANGEBYSCORE:
            case RespCommand.ZCOUNT:
                if (SortedSetReplyIfError(SortedSetOptions.ParseScoreRange(_args[2].Span, _args[3].Span, out _)))
                    return;
                RunSortedSet(write: command == RespCommand.ZREMRANGEBYSCORE);
                break;
            case RespCommand.ZREMRANGEBYLEX:
            case RespCommand.ZLEXCOUNT:
                if (SortedSetReplyIfError(SortedSetOptions.ParseLexRange(_args[2].Span, _args[3].Span, out _)))
                    return;
                RunSortedSet(write: command == RespCommand.ZREMRANGEBYLEX);
                break;
            case RespCommand.ZCARD:
            case RespCommand.ZSCORE:
            case RespCommand.ZMSCORE:
                RunSortedSet(write: false);
                break;
            case RespCommand.ZRANK:
            case RespCommand.ZREVRANK:
                if (SortedSetReplyIfError(SortedSetOptions.ParseRank(_args, 2, _argCount - 2, out _)))
                    return;
                RunSortedSet(write: false);
                break;
            case RespCommand.ZRANGE:
            case RespCommand.ZREVRANGE:
            case RespCommand.ZRANGEBYSCORE:
            case RespCommand.ZREVRANGEBYSCORE:
            case RespCommand.ZRANGEBYLEX:
            case RespCommand.ZREVRANGEBYLEX:
                if (SortedSetReplyIfError(ZRangeSpec.Parse(command, _args, 2, _argCount - 2, out _)))
                    return;
                RunSortedSet(write: false);
                break;
            case RespCommand.ZRANDMEMBER:
                if (_argCount > 2 && SortedSetReplyIfError(SortedSetOptions.ParseRandMember(_args, 2, _argCount - 2, out _, out _)))
                    return;
                RunSortedSet(write: false);
                break;
            case RespCommand.ZSCAN:
                if (!ScanCursor.TryParse(_args[2].Span, out _))
                {
                    _writer.WriteError(RespStrings.ErrInvalidCursor);
                    return;
                }
                RunSortedSet(write: false);
                break;
            case RespCommand.ZRANGESTORE: ZRangeStore(); break;
            case RespCommand.ZMPOP: ZMPop(); break;
            case RespCommand.ZUNION:
            case RespCommand.ZINTER:
            case RespCommand.ZDIFF:
            case RespCommand.ZUNIONSTORE:
            case RespCommand.ZINTERSTORE:
            case RespCommand.ZDIFFSTORE:
            case RespCommand.ZINTERCARD: ZSetAlgebra(command); break;
            default: throw new InvalidOperationException($"{command} is not a sorted-set command.");
        }
    }

    /// <summary>Sends <paramref name="error"/> if it is not empty; returns whether it did.</summary>
    private bool SortedSetReplyIfError(ReadOnlySpan<byte> error)
    {
        if (error.IsEmpty)
            return false;
        _writer.WriteError(error);
        return true;
    }

    /// <summary>Runs the current command on the sorted set at argument 1.</summary>
    private void RunSortedSet(bool write) => RunObjectCommand(GarnetObjectType.SortedSet, write);
}
