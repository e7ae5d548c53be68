using System;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Garnet's ETag commands on strings (GETWITHETAG, GETIFNOTMATCH, SETIFMATCH, SETIFGREATER, DELIFGREATER):
/// argument parsing, the engine operation (<see cref="ETagLogic"/>) and the reply. SET's WITHETAG option is
/// parsed with SET's options (Strings/StringOptions.cs) and replied to here (<see cref="WriteSetWithETagReply"/>).
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteETagCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.GETWITHETAG: GetWithETag(); break;
            case RespCommand.GETIFNOTMATCH: GetIfNotMatch(); break;
            case RespCommand.SETIFMATCH:
            case RespCommand.SETIFGREATER: SetIfETag(command); break;
            case RespCommand.DELIFGREATER: DelIfGreater(); break;
            default: throw new InvalidOperationException($"{command} is not an ETag command.");
        }
    }

    /// <summary>Reads an ETag argument: a non-negative integer; otherwise writes Garnet's error.</summary>
    private bool TryReadETag(int index, out long etag)
    {
        if (NumberFormat.TryParseLong(_args[index].Span, out etag) && etag >= 0)
            return true;
        _writer.WriteError(ETagStrings.ErrInvalidETag);
        return false;
    }

    private void GetWithETag() => ReadWithETag(new StringInput(RespCommand.GETWITHETAG));

    private void GetIfNotMatch()
    {
        if (!TryReadETag(2, out long etag))
            return;
        ReadWithETag(new StringInput(RespCommand.GETIFNOTMATCH) { Number = etag });
    }

    /// <summary>GETWITHETAG and GETIFNOTMATCH: nil for a missing key, else [ETag, value or nil].</summary>
    private void ReadWithETag(StringInput input)
    {
        var output = new StringOutput(Output);
        var status = Store.Read(_args[1].Span, ref input, ref output);
        CountLookup(status.Found);
        if (WriteStringResultError(output.Result))
            return;
        if (!status.Found)
        {
            _writer.WriteNull();
            return;
        }
        WriteETagAndValue(ref output);
    }

    /// <summary>SETIFMATCH and SETIFGREATER key value etag [EX seconds | PX milliseconds] [NOGET].</summary>
    private void SetIfETag(RespCommand command)
    {
        if (!TryReadETag(3, out long etag))
            return;
        var input = new StringInput(command) { Value = _args[2], Number = etag };
        if (!TryParseSetIfETagOptions(ref input))
            return;
        var output = new StringOutput(Output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status) || WriteStringResultError(output.Result))
            return;
        WriteETagAndValue(ref output);
    }

    /// <summary>EX, PX (at most one of them, the time last given counting) and NOGET, in any order.</summary>
    private bool TryParseSetIfETagOptions(ref StringInput input)
    {
        ExpirationArgument expiration = default;
        bool milliseconds = false;
        for (int i = 4; i < _argCount; i++)
        {
            ref readonly var option = ref _args[i];
            if (option.EqualsUpper(ETagStrings.NoGet))
            {
                input.Flags |= StringInputFlags.NoGet;
                continue;
            }
            bool ex = option.EqualsUpper("EX"u8);
            if ((ex || option.EqualsUpper("PX"u8)) && i + 1 < _argCount && (expiration.Index == 0 || milliseconds == !ex))
            {
                milliseconds = !ex;
                expiration = new ExpirationArgument(++i, milliseconds, absolute: false);
                continue;
            }
            _writer.WriteError(RespStrings.ErrSyntax);
            return false;
        }
        if (expiration.Index == 0)
            return true;
        var error = TryReadExpiration(in expiration, out input.ExpirationUnixMs);
        if (error == ExpirationError.None)
            return true;
        WriteExpirationError(error);
        return false;
    }

    private void DelIfGreater()
    {
        if (!TryReadETag(2, out long etag))
            return;
        var input = new StringInput(RespCommand.DELIFGREATER) { Number = etag };
        var output = new StringOutput(Output);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status))
            return;
        _writer.WriteInteger(output.Number);
    }

    /// <summary>SET ... WITHETAG's reply: the key's new ETag, or nil when NX or XX kept SET from writing.</summary>
    private void WriteSetWithETagReply(ref StringOutput output)
    {
        if (output.Result == StringResult.ConditionNotMet)
            _writer.WriteNull();
        else
            _writer.WriteInteger(output.Number);
    }

    /// <summary>[ETag, value]: the value the callback copied, or nil when it copied none.</summary>
    private void WriteETagAndValue(ref StringOutput output)
    {
        _writer.WriteArrayHeader(2);
        _writer.WriteInteger(output.Number);
        if (output.HasValue)
            _writer.WriteBulk(Output.Span);
        else
            _writer.WriteNull();
    }
}
