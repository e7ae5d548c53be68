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

    /// <summary>Runs a Read of <paramref name="key"/> for <paramref name="command"/>; the value, if any, is in the output buffer.</summary>
    internal Status ReadString(ReadOnlySpan<byte> key, RespCommand command, ref StringOutput output)
    {
        var input = new StringInput(command);
        output = new StringOutput(_output);
        return Store.Read(key, ref input, ref output);
    }

    private void Get()
    {
        var output = default(StringOutput);
        var status = ReadString(_args[1].Span, RespCommand.GET, ref output);
        if (status.Found)
            _writer.WriteBulk(_output.Span);
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
            if (status.Found)
                _writer.WriteBulk(_output.Span);
            else
                _writer.WriteNull();
        }
    }

    private void Set()
    {
        var input = new StringInput(RespCommand.SET) { Value = _args[2] };
        bool hasExpiration = false;
        for (int i = 3; i < _argCount; i++)
        {
            ref readonly var option = ref _args[i];
            if (option.EqualsUpper("NX"u8) && (input.Flags & StringInputFlags.IfExists) == 0)
                input.Flags |= StringInputFlags.IfNotExists;
            else if (option.EqualsUpper("XX"u8) && (input.Flags & StringInputFlags.IfNotExists) == 0)
                input.Flags |= StringInputFlags.IfExists;
            else if (option.EqualsUpper("GET"u8))
                input.Flags |= StringInputFlags.ReturnOld;
            else if (option.EqualsUpper("KEEPTTL"u8) && !hasExpiration)
                input.Flags |= StringInputFlags.KeepTtl;
            else if (!hasExpiration && (input.Flags & StringInputFlags.KeepTtl) == 0 && i + 1 < _argCount && TryExpirationOption(option, out bool milliseconds, out bool absolute))
            {
                if (!NumberFormat.TryParseLong(_args[++i].Span, out long amount))
                {
                    _writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (amount <= 0 || !TryExpirationTicks(amount, milliseconds, absolute, out input.ExpirationTicks))
                {
                    _writer.WriteError(RespStrings.ErrInvalidExpire);
                    return;
                }
                hasExpiration = true;
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }

        var output = new StringOutput(_output);
        Status status;
        const StringInputFlags needsCurrent = StringInputFlags.IfNotExists | StringInputFlags.IfExists | StringInputFlags.ReturnOld | StringInputFlags.KeepTtl;
        if ((input.Flags & needsCurrent) == 0)
            status = Store.Upsert(_args[1].Span, _args[2].Span, ref input, ref output);
        else
            status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status))
            return;

        if ((input.Flags & StringInputFlags.ReturnOld) != 0)
        {
            if (output.HasValue)
                _writer.WriteBulk(_output.Span);
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

    /// <summary>Recognizes EX, PX, EXAT and PXAT.</summary>
    internal static bool TryExpirationOption(in ArgSlice option, out bool milliseconds, out bool absolute)
    {
        milliseconds = false;
        absolute = false;
        if (option.EqualsUpper("EX"u8))
            return true;
        if (option.EqualsUpper("PX"u8))
            return milliseconds = true;
        if (option.EqualsUpper("EXAT"u8))
            return absolute = true;
        if (option.EqualsUpper("PXAT"u8))
        {
            absolute = true;
            milliseconds = true;
            return true;
        }
        return false;
    }

    /// <summary>Turns an expiration argument into record units; false when it overflows.</summary>
    internal static bool TryExpirationTicks(long amount, bool milliseconds, bool absolute, out long ticks)
    {
        ticks = 0;
        if (!Expiration.TryToMilliseconds(amount, milliseconds, out long ms))
            return false;
        return absolute ? Expiration.TryFromUnixMilliseconds(ms, out ticks) : Expiration.TryFromRelativeMilliseconds(ms, out ticks);
    }

    private void SetNx()
    {
        var input = new StringInput(RespCommand.SETNX) { Value = _args[2], Flags = StringInputFlags.IfNotExists };
        var output = new StringOutput(_output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status))
            return;
        _writer.WriteInteger(output.Result == StringResult.ConditionNotMet ? 0 : 1);
    }

    private void SetEx(bool milliseconds)
    {
        if (!NumberFormat.TryParseLong(_args[2].Span, out long amount))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        var input = new StringInput(milliseconds ? RespCommand.PSETEX : RespCommand.SETEX) { Value = _args[3] };
        if (amount <= 0 || !TryExpirationTicks(amount, milliseconds, absolute: false, out input.ExpirationTicks))
        {
            _writer.WriteError($"ERR invalid expire time in '{CurrentCommand.LowerName}' command");
            return;
        }
        var output = new StringOutput(_output);
        var status = Store.Upsert(_args[1].Span, _args[3].Span, ref input, ref output);
        if (!WriteIfOutOfMemory(status))
            _writer.WriteOk();
    }

    private void GetSet()
    {
        var input = new StringInput(RespCommand.GETSET) { Value = _args[2], Flags = StringInputFlags.ReturnOld };
        var output = new StringOutput(_output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status))
            return;
        if (output.HasValue)
            _writer.WriteBulk(_output.Span);
        else
            _writer.WriteNull();
    }

    private void GetDel()
    {
        var input = new StringInput(RespCommand.GETDEL);
        var output = new StringOutput(_output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status))
            return;
        if (output.HasValue)
            _writer.WriteBulk(_output.Span);
        else
            _writer.WriteNull();
    }

    private void GetEx()
    {
        var input = new StringInput(RespCommand.GETEX);
        bool hasOption = false;
        for (int i = 2; i < _argCount; i++)
        {
            ref readonly var option = ref _args[i];
            if (!hasOption && option.EqualsUpper("PERSIST"u8))
            {
                input.Flags |= StringInputFlags.Persist;
                hasOption = true;
            }
            else if (!hasOption && i + 1 < _argCount && TryExpirationOption(option, out bool milliseconds, out bool absolute))
            {
                if (!NumberFormat.TryParseLong(_args[++i].Span, out long amount))
                {
                    _writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (amount <= 0 || !TryExpirationTicks(amount, milliseconds, absolute, out input.ExpirationTicks))
                {
                    _writer.WriteError("ERR invalid expire time in 'getex' command"u8);
                    return;
                }
                hasOption = true;
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }

        var output = new StringOutput(_output);
        Status status = hasOption ? Store.RMW(_args[1].Span, ref input, ref output) : Store.Read(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status))
            return;
        if (output.HasValue)
            _writer.WriteBulk(_output.Span);
        else
            _writer.WriteNull();
    }

    private void MSet()
    {
        if ((_argCount - 1) % 2 != 0)
        {
            WriteWrongArity(CurrentCommand.LowerName);
            return;
        }
        for (int i = 1; i < _argCount; i += 2)
        {
            var input = new StringInput(RespCommand.MSET);
            var output = new StringOutput(_output);
            var status = Store.Upsert(_args[i].Span, _args[i + 1].Span, ref input, ref output);
            if (WriteIfOutOfMemory(status))
                return;
        }
        _writer.WriteOk();
    }

    /// <summary>
    /// MSETNX sets all keys only if none exists. Without transaction locks (a later issue) the check
    /// and the writes are not one atomic step against concurrent clients.
    /// </summary>
    private void MSetNx()
    {
        if ((_argCount - 1) % 2 != 0)
        {
            WriteWrongArity(CurrentCommand.LowerName);
            return;
        }
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
            var output = new StringOutput(_output);
            var status = Store.RMW(_args[i].Span, ref input, ref output);
            if (WriteIfOutOfMemory(status))
                return;
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
        var output = new StringOutput(_output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status) || WriteStringResultError(output.Result))
            return;
        _writer.WriteInteger(output.Number);
    }

    private void IncrByFloat()
    {
        if (!NumberFormat.TryParseDouble(_args[2].Span, out double delta))
        {
            _writer.WriteError(RespStrings.ErrNotFloat);
            return;
        }
        var input = new StringInput(RespCommand.INCRBYFLOAT) { Float = delta };
        var output = new StringOutput(_output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status) || WriteStringResultError(output.Result))
            return;
        _writer.WriteBulk(_output.Span);
    }

    private void Append()
    {
        var input = new StringInput(RespCommand.APPEND) { Value = _args[2] };
        var output = new StringOutput(_output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status) || WriteStringResultError(output.Result))
            return;
        _writer.WriteInteger(output.Number);
    }

    private void StrLen()
    {
        var output = default(StringOutput);
        var status = ReadString(_args[1].Span, RespCommand.STRLEN, ref output);
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
        var output = new StringOutput(_output);
        var status = Store.Read(_args[1].Span, ref input, ref output);
        if (status.Found)
            _writer.WriteBulk(_output.Span);
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
        if (offset + _args[3].Length > AppendLogic.MaxStringLength)
        {
            _writer.WriteError(RespStrings.ErrStringTooLong);
            return;
        }
        var input = new StringInput(RespCommand.SETRANGE) { Value = _args[3], Number = offset };
        var output = new StringOutput(_output);
        Status status;
        if (_args[3].Length == 0)
        {
            // Nothing to write: report the current length without creating the key.
            status = ReadString(_args[1].Span, RespCommand.STRLEN, ref output);
            _writer.WriteInteger(status.Found ? output.Number : 0);
            return;
        }
        status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status) || WriteStringResultError(output.Result))
            return;
        _writer.WriteInteger(output.Number);
    }
}
