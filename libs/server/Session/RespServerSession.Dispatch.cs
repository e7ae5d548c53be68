using System;
using System.Text;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>Finding the command in the table, checking arity and authentication, and handing it to its family.</summary>
public sealed unsafe partial class RespServerSession
{
    private RespCommandInfo? _currentCommand;

    /// <summary>The table entry of the command being run.</summary>
    internal RespCommandInfo CurrentCommand => _currentCommand!;

    private void ExecuteCommand()
    {
        var info = CommandTable.Lookup(_args[0].Span);
        if (info == null)
        {
            WriteUnknownCommand();
            return;
        }
        _currentCommand = info;
        if (!info.ArityAccepts(_argCount))
        {
            WriteWrongArity(info.LowerName);
            return;
        }
        if (!Authenticated && (info.Flags & CommandFlags.NoAuth) == 0)
        {
            _writer.WriteError("NOAUTH Authentication required."u8);
            return;
        }

        LastCommand = info.Command;
        _server.Statistics.AddCommandCall(info.Command);
        try
        {
            Dispatch(info.Command);
        }
        catch (TsavoriteException e)
        {
            _writer.WriteError("ERR " + e.Message);
        }
    }

    /// <summary>Hands the command to its family's handler (families are id ranges of <see cref="RespCommand"/>).</summary>
    private void Dispatch(RespCommand command)
    {
        int id = (int)command;
        if (id < 20)
            ExecuteConnectionCommand(command);
        else if (id < 60)
            ExecuteStringCommand(command);
        else if (id < 100)
            ExecuteKeyspaceCommand(command);
        else
            ExecuteServerCommand(command);
    }

    private void WriteUnknownCommand()
    {
        var message = new StringBuilder("ERR unknown command '");
        message.Append(Encoding.UTF8.GetString(_args[0].Span)).Append("', with args beginning with: ");
        var arguments = new StringBuilder();
        for (int i = 1; i < _argCount && arguments.Length < 128; i++)
        {
            string text = Encoding.UTF8.GetString(_args[i].Span);
            int room = 128 - arguments.Length;
            arguments.Append('\'').Append(text.Length > room ? text.Substring(0, room) : text).Append("' ");
        }
        message.Append(arguments);
        _writer.WriteError(message.ToString());
    }

    /// <summary>Redis's arity error for <paramref name="lowerName"/> (a command or "command|subcommand").</summary>
    internal void WriteWrongArity(string lowerName) => _writer.WriteError($"ERR wrong number of arguments for '{lowerName}' command");

    /// <summary>Redis's unknown-subcommand error.</summary>
    internal void WriteUnknownSubcommand(string commandName)
        => _writer.WriteError($"ERR unknown subcommand '{Encoding.UTF8.GetString(_args[1].Span)}'. Try {commandName} HELP.");

    /// <summary>Writes the error for a string-store callback result other than success.</summary>
    private bool WriteStringResultError(StringResult result)
    {
        switch (result)
        {
            case StringResult.Ok:
            case StringResult.ConditionNotMet:
                return false;
            case StringResult.NotInteger:
                _writer.WriteError(RespStrings.ErrNotInteger);
                return true;
            case StringResult.NotFloat:
                _writer.WriteError(RespStrings.ErrNotFloat);
                return true;
            case StringResult.Overflow:
                _writer.WriteError(RespStrings.ErrOverflow);
                return true;
            case StringResult.NaNOrInfinity:
                _writer.WriteError(RespStrings.ErrIncrFloatNaNOrInfinity);
                return true;
            case StringResult.TooLarge:
                _writer.WriteError(RespStrings.ErrStringTooLong);
                return true;
            default:
                throw new InvalidOperationException($"Unknown string result {result}.");
        }
    }

    /// <summary>Writes -OOM when the store's memory budget is full; returns whether it did.</summary>
    private bool WriteIfOutOfMemory(Status status)
    {
        if (!status.IsOutOfMemory)
            return false;
        _writer.WriteError(RespStrings.ErrOutOfMemory);
        return true;
    }
}
