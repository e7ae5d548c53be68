using System;
using System.Collections.Generic;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The sorted-set commands over several keys: ZRANGESTORE, ZMPOP, ZUNION/ZINTER/ZDIFF and their STORE
/// forms, ZINTERCARD. Not atomic across keys yet: inputs are read as snapshots, then the result is stored.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>ZRANGESTORE dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count]: the number stored.</summary>
    private void ZRangeStore()
    {
        if (SortedSetReplyIfError(ZRangeSpec.Parse(RespCommand.ZRANGESTORE, _args, 3, _argCount - 3, out _)))
            return;
        var input = NewObjectInput(GarnetObjectType.SortedSet, firstArg: 3);
        var output = NewObjectOutput();
        var status = ObjectRead(_args[2].Span, ref input, ref output);
        if (status.IsOutOfMemory || output.Result != ObjectResult.Ok)
        {
            CompleteObjectReply(ref output, status);
            return;
        }
        var result = output.Object;
        StoreObject(_args[1].Span, result);
        _writer.WriteInteger(result?.Count ?? 0);
    }

    /// <summary>ZMPOP numkeys key [key ...] MIN|MAX [COUNT count]: pops from the first non-empty sorted set.</summary>
    private void ZMPop()
    {
        if (!ParseZMPop(1, out long numKeys, out bool max, out long count))
            return;
        for (int i = 0; i < numKeys; i++)
        {
            if (ZMPopKey(_args[2 + i].Span, max, count, out bool done) || done)
                return;
        }
        _writer.WriteNullArray();
    }

    /// <summary>
    /// Parses ZMPOP's arguments from <paramref name="numKeysAt"/> on (BZMPOP shares the shape); sends the
    /// error and returns false when they are invalid.
    /// </summary>
    internal bool ParseZMPop(int numKeysAt, out long numKeys, out bool max, out long count)
    {
        max = false;
        count = -1;
        if (!NumberFormat.TryParseLong(_args[numKeysAt].Span, out numKeys) || numKeys < 1)
        {
            _writer.WriteError(SortedSetStrings.ErrNumKeysPositive);
            return false;
        }
        if (numKeys >= _argCount - numKeysAt - 1)
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return false;
        }
        int whereAt = numKeysAt + 1 + (int)numKeys;
        if (_args[whereAt].EqualsUpper("MAX"u8))
        {
            max = true;
        }
        else if (!_args[whereAt].EqualsUpper("MIN"u8))
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return false;
        }
        for (int j = whereAt + 1; j < _argCount; j++)
        {
            if (count == -1 && j + 1 < _argCount && _args[j].EqualsUpper("COUNT"u8))
            {
                if (!NumberFormat.TryParseLong(_args[++j].Span, out count) || count < 1)
                {
                    _writer.WriteError(SortedSetStrings.ErrCountPositive);
                    return false;
                }
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return false;
            }
        }
        if (count == -1)
            count = 1;
        return true;
    }

    /// <summary>
    /// Pops up to <paramref name="count"/> members of <paramref name="key"/>; if any, sends
    /// [key, [[member, score], ...]] and returns true. <paramref name="done"/> is set when an error
    /// (WRONGTYPE, OOM) was sent instead.
    /// </summary>
    internal bool ZMPopKey(ReadOnlySpan<byte> key, bool max, long count, out bool done)
    {
        var input = NewObjectInput(GarnetObjectType.SortedSet, firstArg: _argCount);
        input.Command = RespCommand.ZMPOP;
        input.Number = count;
        input.Flags = max ? 1 : 0;
        var output = NewObjectOutput();
        var status = ObjectRMW(key, ref input, ref output);
        done = status.IsOutOfMemory || output.Result != ObjectResult.Ok;
        if (done)
        {
            CompleteObjectReply(ref output, status);
            return false;
        }
        if (output.Number == 0)
            return false;
        _writer.WriteArrayHeader(2);
        _writer.WriteBulk(key);
        CompleteObjectReply(ref output, status);
        return true;
    }

    /// <summary>ZUNION, ZINTER, ZDIFF, their STORE forms, and ZINTERCARD.</summary>
    private void ZSetAlgebra(RespCommand command)
    {
        bool store = command is RespCommand.ZUNIONSTORE or RespCommand.ZINTERSTORE or RespCommand.ZDIFFSTORE;
        bool cardinality = command == RespCommand.ZINTERCARD;
        bool union = command is RespCommand.ZUNION or RespCommand.ZUNIONSTORE;
        bool diff = command is RespCommand.ZDIFF or RespCommand.ZDIFFSTORE;
        int numKeysAt = store ? 2 : 1;

        if (!NumberFormat.TryParseLong(_args[numKeysAt].Span, out long numKeys))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        if (numKeys < 1)
        {
            _writer.WriteError("ERR at least 1 input key is needed for '" + command.ToString().ToLowerInvariant() + "' command");
            return;
        }
        if (numKeys > _argCount - numKeysAt - 1)
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }

        // Redis looks the keys up (WRONGTYPE) before it parses the options.
        var sources = new SortedSetObject[numKeys];
        for (int i = 0; i < numKeys; i++)
        {
            var source = ReadSortedSetInput(_args[numKeysAt + 1 + i].Span);
            if (source == null)
            {
                _writer.WriteError(RespStrings.WrongType);
                return;
            }
            sources[i] = source;
        }

        var weights = new double[numKeys];
        Array.Fill(weights, 1.0);
        var aggregate = SortedSetAggregate.Sum;
        bool withScores = false;
        long limit = 0;
        for (int j = numKeysAt + 1 + (int)numKeys; j < _argCount;)
        {
            int remaining = _argCount - j;
            var arg = _args[j];
            if (!diff && !cardinality && remaining >= numKeys + 1 && arg.EqualsUpper("WEIGHTS"u8))
            {
                j++;
                for (int i = 0; i < numKeys; i++, j++)
                {
                    if (!NumberFormat.TryParseDouble(_args[j].Span, out weights[i]))
                    {
                        _writer.WriteError(SortedSetStrings.ErrWeightNotFloat);
                        return;
                    }
                }
            }
            else if (!diff && !cardinality && remaining >= 2 && arg.EqualsUpper("AGGREGATE"u8))
            {
                var name = _args[j + 1];
                if (name.EqualsUpper("SUM"u8))
                    aggregate = SortedSetAggregate.Sum;
                else if (name.EqualsUpper("MIN"u8))
                    aggregate = SortedSetAggregate.Min;
                else if (name.EqualsUpper("MAX"u8))
                    aggregate = SortedSetAggregate.Max;
                else
                {
                    _writer.WriteError(RespStrings.ErrSyntax);
                    return;
                }
                j += 2;
            }
            else if (!store && !cardinality && arg.EqualsUpper("WITHSCORES"u8))
            {
                withScores = true;
                j++;
            }
            else if (cardinality && remaining >= 2 && arg.EqualsUpper("LIMIT"u8))
            {
                if (!NumberFormat.TryParseLong(_args[j + 1].Span, out limit) || limit < 0)
                {
                    _writer.WriteError(SortedSetStrings.ErrLimitNegative);
                    return;
                }
                j += 2;
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }

        if (cardinality)
        {
            _writer.WriteInteger(SortedSetAlgebra.IntersectionCount(sources, limit));
            return;
        }
        var result = union ? SortedSetAlgebra.Union(sources, weights, aggregate)
            : diff ? SortedSetAlgebra.Difference(sources)
            : SortedSetAlgebra.Intersection(sources, weights, aggregate);
        if (store)
        {
            StoreObject(_args[1].Span, result);
            _writer.WriteInteger(result.Count);
        }
        else
        {
            result.WriteAll(ref _writer, withScores);
        }
    }

    /// <summary>
    /// An input of ZUNION/ZINTER/ZDIFF: a snapshot of the sorted set at <paramref name="key"/>, an empty
    /// set when the key is absent, or null when it holds another type. Plain sets are accepted as
    /// members with score 1 once the Set family's SetObject is available to this branch.
    /// </summary>
    private SortedSetObject? ReadSortedSetInput(ReadOnlySpan<byte> key)
    {
        var result = ReadObjectSnapshot(key, GarnetObjectType.None, out var snapshot);
        if (result != ObjectResult.Ok)
            return null;
        return snapshot switch
        {
            null => new SortedSetObject(),
            SortedSetObject sortedSet => sortedSet,
            _ => SortedSetAlgebra.FromSetObject(snapshot),
        };
    }
}
