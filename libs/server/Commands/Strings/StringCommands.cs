using System;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>The string commands: argument parsing, the engine operation, and the reply.</summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteStringCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.GET: Get(); break;
            case RespCommand.SET: Set(); break;
            case RespCommand.SETNX: SetNx(); break;
            case RespCommand.SETEX: SetEx(milliseconds: false); break;
            case RespCommand.PSETEX: SetEx(milliseconds: true); break;
            case RespCommand.GETSET: GetSet(); break;
            case RespCommand.GETDEL: GetDel(); break;
            case RespCommand.GETEX: GetEx(); break;
            case RespCommand.MGET: MGet(); break;
            case RespCommand.MSET: MSet(); break;
            case RespCommand.MSETNX: MSetNx(); break;
            case RespCommand.INCR: IncrBy(1); break;
            case RespCommand.DECR: IncrBy(-1); break;
            case RespCommand.INCRBY: IncrByArgument(negate: false); break;
            case RespCommand.DECRBY: IncrByArgument(negate: true); break;
            case RespCommand.INCRBYFLOAT: IncrByFloat(); break;
            case RespCommand.APPEND: Append(); break;
            case RespCommand.STRLEN: StrLen(); break;
            case RespCommand.GETRANGE:
            case RespCommand.SUBSTR: GetRange(command); break;
            case RespCommand.SETRANGE: SetRange(); break;
            case RespCommand.LCS: Lcs(); break;
            default: throw new InvalidOperationException($"{command} is not a string command.");
        }
    }

    // Keyspace hits and misses of this batch, added to the server's statistics once per batch.
    private long _keyspaceHits;
    private long _keyspaceMisses;

    /// <summary>
    /// Counts a read lookup for INFO's keyspace_hits/keyspace_misses. As in Redis, only reads count
    /// (GET, MGET, GETEX, GETDEL, GETSET, SET GET, STRLEN, GETRANGE, LCS); writes such as INCR do not.
    /// </summary>
    private void CountLookup(bool found)
    {
        if (found)
            _keyspaceHits++;
        else
            _keyspaceMisses++;
    }

    /// <summary>Adds the batch's keyspace hits and misses to the server's statistics.</summary>
    private void FlushKeyspaceStatistics()
    {
        if (_keyspaceHits == 0 && _keyspaceMisses == 0)
            return;
        _server.Statistics.AddHits(_keyspaceHits, _keyspaceMisses);
        _keyspaceHits = 0;
        _keyspaceMisses = 0;
    }

    /// <summary>Runs a Read of <paramref name="key"/> for <paramref name="command"/>; the value, if any, is in the output buffer.</summary>
    internal Status ReadString(ReadOnlySpan<byte> key, RespCommand command, ref StringOutput output)
    {
        var input = new StringInput(command);
        output = new StringOutput(Output);
        return Store.Read(key, ref input, ref output);
    }

    private void Get()
    {
        // The Reader writes the reply straight into the send buffer when it fits, saving a copy (see StringOutput.Reply).
        var input = new StringInput(RespCommand.GET);
        var output = new StringOutput(Output);
        output.Reply = _writer.FreeSpace(out output.ReplyRoom);
        var status = Store.Read(_args[1].Span, ref input, ref output);
        CountLookup(status.Found);
        if (!status.Found && KeyspaceEventsOn)
            NotifyReadMiss(_args[1].Span, status);
        if (output.ReplyWritten != 0)
        {
            _writer.Advance(output.ReplyWritten);
            return;
        }
        if (WriteStringResultError(output.Result))
            return;
        if (status.Found)
            _writer.WriteBulk(Output.Span);
        else
            _writer.WriteNull();
    }

    private void MGet()
    {
        _writer.WriteArrayHeader(_argCount - 1);
        for (int i = 1; i < _argCount; i++)
        {
            var output = default(StringOutput);
            var status = ReadString(_args[i].Span, RespCommand.MGET, ref output);
            CountLookup(status.Found);
            if (!status.Found && KeyspaceEventsOn)
                NotifyReadMiss(_args[i].Span, status);
            if (status.Found && output.Result != StringResult.WrongType) // as in Redis, a key of another type reads as nil
                _writer.WriteBulk(Output.Span);
            else
                _writer.WriteNull();
        }
    }

    private void Set()
    {
        var input = new StringInput(RespCommand.SET) { Value = _args[2] };
        if (!TryParseStringOptions(3, forSet: true, ref input, out var expiration))
            return;
        if (expiration.Index != 0)
        {
            var error = TryReadExpiration(in expiration, out input.ExpirationUnixMs);
            if (error != ExpirationError.None)
            {
                WriteExpirationError(error);
                return;
            }
        }

        var output = new StringOutput(Output);
        Status status;
        const StringInputFlags needsCurrent = StringInputFlags.IfNotExists | StringInputFlags.IfExists | StringInputFlags.ReturnOld | StringInputFlags.KeepTtl
            | StringInputFlags.WithETag;
        if ((input.Flags & needsCurrent) == 0)
            status = Store.Upsert(_args[1].Span, _args[2].Span, ref input, ref output);
        else
            status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status) || WriteStringResultError(output.Result))
            return;
        if (KeyspaceEventsOn && output.Result != StringResult.ConditionNotMet)
        {
            if ((input.Flags & StringInputFlags.ReturnOld) != 0)
                NotifyReadThenSet(_args[1].Span, status, output.HasValue, expires: expiration.Index != 0);
            else
                NotifySet(_args[1].Span, status, expires: expiration.Index != 0);
        }

        if ((input.Flags & StringInputFlags.WithETag) != 0)
        {
            WriteSetWithETagReply(ref output);
        }
        else if ((input.Flags & StringInputFlags.ReturnOld) != 0)
        {
            CountLookup(output.HasValue);
            if (output.HasValue)
                _writer.WriteBulk(Output.Span);
            else
                _writer.WriteNull();
        }
        else if (output.Result == StringResult.ConditionNotMet)
        {
            _writer.WriteNull();
        }
        else
        {
            _writer.WriteOk();
        }
    }

    private void SetNx()
    {
        var input = new StringInput(RespCommand.SETNX) { Value = _args[2], Flags = StringInputFlags.IfNotExists };
        var output = new StringOutput(Output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status))
            return;
        if (KeyspaceEventsOn && output.Result != StringResult.ConditionNotMet)
            NotifySet(_args[1].Span, status, expires: false);
        _writer.WriteInteger(output.Result == StringResult.ConditionNotMet ? 0 : 1);
    }

    private void SetEx(bool milliseconds)
    {
        var input = new StringInput(milliseconds ? RespCommand.PSETEX : RespCommand.SETEX) { Value = _args[3] };
        var error = TryReadExpiration(new ExpirationArgument(2, milliseconds, absolute: false), out input.ExpirationUnixMs);
        if (error != ExpirationError.None)
        {
            WriteExpirationError(error);
            return;
        }
        var output = new StringOutput(Output);
        var status = Store.Upsert(_args[1].Span, _args[3].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status))
            return;
        if (KeyspaceEventsOn)
            NotifySet(_args[1].Span, status, expires: true);
        _writer.WriteOk();
    }

    private void GetSet()
    {
        var input = new StringInput(RespCommand.GETSET) { Value = _args[2], Flags = StringInputFlags.ReturnOld };
        RmwReplyingOldValue(ref input);
    }

    private void GetDel()
    {
        var input = new StringInput(RespCommand.GETDEL);
        RmwReplyingOldValue(ref input);
    }

    /// <summary>Runs an RMW whose callbacks copy the value they found, and replies with it (or nil).</summary>
    private void RmwReplyingOldValue(ref StringInput input)
    {
        var output = new StringOutput(Output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (KeyspaceEventsOn && !status.IsOutOfMemory && output.Result != StringResult.WrongType)
        {
            if (input.Command != RespCommand.GETDEL)
                NotifyReadThenSet(_args[1].Span, status, output.HasValue, expires: false);
            else if (output.HasValue)
                NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.Del, _args[1].Span);
            else
                NotifyReadMiss(_args[1].Span, status);
        }
        ReplyValueOrNull(status, ref output);
    }

    private void GetEx()
    {
        var input = new StringInput(RespCommand.GETEX);
        if (!TryParseStringOptions(2, forSet: false, ref input, out var expiration))
            return;
        if (expiration.Index != 0)
        {
            var error = TryReadExpiration(in expiration, out input.ExpirationUnixMs);
            if (error != ExpirationError.None)
            {
                // Redis looks the key up first: a missing key answers nil whatever the time says.
                var probe = default(StringOutput);
                bool found = ReadString(_args[1].Span, RespCommand.EXISTS, ref probe).Found;
                CountLookup(found);
                if (found)
                    WriteExpirationError(error);
                else
                    _writer.WriteNull();
                return;
            }
        }

        bool modifies = expiration.Index != 0 || (input.Flags & StringInputFlags.Persist) != 0;
        var output = new StringOutput(Output);
        Status status = modifies ? Store.RMW(_args[1].Span, ref input, ref output) : Store.Read(_args[1].Span, ref input, ref output);
        if (KeyspaceEventsOn && !status.IsOutOfMemory && output.Result != StringResult.WrongType)
            NotifyGetEx(status, ref input, ref output);
        ReplyValueOrNull(status, ref output);
    }

    /// <summary>
    /// GETEX's events, as Redis: "keymiss" for an absent key; else "del" when EXAT/PXAT was already past (the key is
    /// deleted), "expire" for a time to live, "persist" when PERSIST removed one.
    /// </summary>
    private void NotifyGetEx(Status status, ref StringInput input, ref StringOutput output)
    {
        var key = _args[1].Span;
        if (!status.Found && !output.HasValue) // a deleting GETEX (a time already past) ends not found, with the value
            NotifyReadMiss(key, status);
        else if (input.ExpirationUnixMs != 0)
            NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, input.ExpirationUnixMs <= Expiration.NowUnixMs ? KeyspaceEventNames.Del : KeyspaceEventNames.Expire, key);
        else if ((input.Flags & StringInputFlags.Persist) != 0 && output.Number != 0)
            NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.Persist, key);
    }

    private void MSet()
    {
        if (!HasKeyValuePairs())
            return;
        for (int i = 1; i < _argCount; i += 2)
        {
            var input = new StringInput(RespCommand.MSET);
            var output = new StringOutput(Output);
            var status = Store.Upsert(_args[i].Span, _args[i + 1].Span, ref input, ref output);
            if (WriteIfOutOfMemory(status))
                return;
            if (KeyspaceEventsOn)
                NotifySet(_args[i].Span, status, expires: false);
        }
        _writer.WriteOk();
    }

    /// <summary>
    /// MSETNX sets all keys only if none exists. Without transaction locks (a later issue) the check
    /// and the writes are not one atomic step against concurrent clients.
    /// </summary>
    private void MSetNx()
    {
        if (!HasKeyValuePairs())
            return;
        for (int i = 1; i < _argCount; i += 2)
        {
            var output = default(StringOutput);
            if (ReadString(_args[i].Span, RespCommand.EXISTS, ref output).Found)
            {
                _writer.WriteInteger(0);
                return;
            }
        }
        for (int i = 1; i < _argCount; i += 2)
        {
            var input = new StringInput(RespCommand.MSETNX) { Value = _args[i + 1] };
            var output = new StringOutput(Output);
            var status = Store.RMW(_args[i].Span, ref input, ref output);
            if (WriteIfOutOfMemory(status))
                return;
            if (KeyspaceEventsOn)
                NotifySet(_args[i].Span, status, expires: false);
        }
        _writer.WriteInteger(1);
    }

    private void IncrByArgument(bool negate)
    {
        if (!NumberFormat.TryParseLong(_args[2].Span, out long delta))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        if (negate)
        {
            if (delta == long.MinValue)
            {
                _writer.WriteError("ERR decrement would overflow"u8);
                return;
            }
            delta = -delta;
        }
        IncrBy(delta);
    }

    private void IncrBy(long delta)
    {
        var input = new StringInput(CurrentCommand.Command) { Number = delta };
        var output = new StringOutput(Output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status) || WriteStringResultError(output.Result))
            return;
        if (KeyspaceEventsOn)
            NotifyWrite(KeyspaceEventClasses.String, KeyspaceEventNames.IncrBy, _args[1].Span, status);
        _writer.WriteInteger(output.Number);
    }

    private void IncrByFloat()
    {
        if (!LongDouble.TryParse(_args[2].Span, out var delta))
        {
            _writer.WriteError(RespStrings.ErrNotFloat);
            return;
        }
        var input = new StringInput(RespCommand.INCRBYFLOAT) { Float = delta };
        var output = new StringOutput(Output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status) || WriteStringResultError(output.Result))
            return;
        NotifyWrite(KeyspaceEventClasses.String, KeyspaceEventNames.IncrByFloat, _args[1].Span, status);
        _writer.WriteBulk(Output.Span);
    }

    private void Append()
    {
        var input = new StringInput(RespCommand.APPEND) { Value = _args[2] };
        var output = new StringOutput(Output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status) || WriteStringResultError(output.Result))
            return;
        NotifyWrite(KeyspaceEventClasses.String, KeyspaceEventNames.Append, _args[1].Span, status);
        _writer.WriteInteger(output.Number);
    }

    private void StrLen()
    {
        var output = default(StringOutput);
        var status = ReadString(_args[1].Span, RespCommand.STRLEN, ref output);
        CountLookup(status.Found);
        if (!status.Found)
            NotifyReadMiss(_args[1].Span, status);
        if (!WriteStringResultError(output.Result))
            _writer.WriteInteger(status.Found ? output.Number : 0);
    }

    private void GetRange(RespCommand command)
    {
        if (!NumberFormat.TryParseLong(_args[2].Span, out long start) || !NumberFormat.TryParseLong(_args[3].Span, out long end))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        var input = new StringInput(command) { Number = start, Number2 = end };
        var output = new StringOutput(Output);
        var status = Store.Read(_args[1].Span, ref input, ref output);
        CountLookup(status.Found);
        if (!status.Found)
            NotifyReadMiss(_args[1].Span, status);
        if (WriteStringResultError(output.Result))
            return;
        if (status.Found)
            _writer.WriteBulk(Output.Span);
        else
            _writer.WriteBulk(default(ReadOnlySpan<byte>));
    }

    private void SetRange()
    {
        if (!NumberFormat.TryParseLong(_args[2].Span, out long offset))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        if (offset < 0)
        {
            _writer.WriteError(RespStrings.ErrOffsetOutOfRange);
            return;
        }
        var output = new StringOutput(Output);
        Status status;
        if (_args[3].Length == 0)
        {
            // Nothing to write: the current length, without creating the key (checked before the size limit, as Redis does).
            status = ReadString(_args[1].Span, RespCommand.STRLEN, ref output);
            if (!WriteStringResultError(output.Result))
                _writer.WriteInteger(status.Found ? output.Number : 0);
            return;
        }
        if (offset > AppendLogic.MaxStringLength - _args[3].Length)
        {
            _writer.WriteError(RespStrings.ErrStringTooLong);
            return;
        }
        var input = new StringInput(RespCommand.SETRANGE) { Value = _args[3], Number = offset };
        status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status) || WriteStringResultError(output.Result))
            return;
        NotifyWrite(KeyspaceEventClasses.String, KeyspaceEventNames.SetRange, _args[1].Span, status);
        _writer.WriteInteger(output.Number);
    }

    /// <summary>The reply of commands that return the value they found: -OOM, the value, or nil; counts the lookup.</summary>
    private void ReplyValueOrNull(Status status, ref StringOutput output)
    {
        if (WriteIfOutOfMemory(status))
            return;
        CountLookup(output.HasValue || output.Result == StringResult.WrongType);
        if (WriteStringResultError(output.Result))
            return;
        if (output.HasValue)
            _writer.WriteBulk(Output.Span);
        else
            _writer.WriteNull();
    }

    /// <summary>
    /// The events of a write that reads the key first (GETSET, SET ... GET): Redis's read lookup publishes "expired"
    /// (the key had expired) and "keymiss" (no value) before the write's "new" and "set".
    /// </summary>
    private void NotifyReadThenSet(ReadOnlySpan<byte> key, Status status, bool found, bool expires)
    {
        if (found)
        {
            NotifySet(key, status, expires);
            return;
        }
        if (status.IsExpired)
            NotifyExpired(key);
        NotifyKeyspaceEvent(KeyspaceEventClasses.KeyMiss, KeyspaceEventNames.KeyMiss, key);
        NotifyKeyspaceEvent(KeyspaceEventClasses.New, KeyspaceEventNames.New, key);
        NotifyKeyspaceEvent(KeyspaceEventClasses.String, KeyspaceEventNames.Set, key);
        if (expires)
            NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.Expire, key);
    }

    /// <summary>The events of a SET-like write: "new" if it created the key, "set", and "expire" when it gave a time to live.</summary>
    private void NotifySet(ReadOnlySpan<byte> key, Status status, bool expires)
    {
        NotifyWrite(KeyspaceEventClasses.String, KeyspaceEventNames.Set, key, status);
        if (expires)
            NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.Expire, key);
    }

    /// <summary>MSET and MSETNX take key/value pairs; an odd count is an arity error.</summary>
    private bool HasKeyValuePairs()
    {
        if ((_argCount - 1) % 2 == 0)
            return true;
        WriteWrongArity(CurrentCommand.LowerName);
        return false;
    }
}
