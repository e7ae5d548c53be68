using System;
using System.Buffers.Binary;
using System.Diagnostics;
using System.Runtime.CompilerServices;
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

    private static readonly RespCommandInfo s_get = CommandTable.Get(RespCommand.GET);
    private static readonly RespCommandInfo s_set = CommandTable.Get(RespCommand.SET);
    private static readonly RespCommandInfo s_incr = CommandTable.Get(RespCommand.INCR);
    private static readonly RespCommandInfo s_multi = CommandTable.Get(RespCommand.MULTI);
    private static readonly RespCommandInfo s_exec = CommandTable.Get(RespCommand.EXEC);

    /// <summary>
    /// Finds a command's table entry. The hottest commands (GET, SET, INCR, and MULTI and EXEC,
    /// which frame every transaction) are recognized by one or two integer compares; everything else
    /// goes through <see cref="CommandTable.Lookup(ReadOnlySpan{byte})"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static RespCommandInfo? LookupCommand(ReadOnlySpan<byte> name)
    {
        // OR-ing 0x20 lower-cases ASCII letters, and only 'X' and 'x' map onto 'x', so the compare ignores case exactly.
        if (name.Length == 3)
        {
            uint word = (uint)(name[0] | (name[1] << 8) | (name[2] << 16)) | 0x202020u;
            if (word == ('g' | ('e' << 8) | ('t' << 16)))
                return s_get;
            if (word == ('s' | ('e' << 8) | ('t' << 16)))
                return s_set;
        }
        else if (name.Length == 4)
        {
            uint word = BinaryPrimitives.ReadUInt32LittleEndian(name) | 0x20202020u;
            if (word == ('i' | ('n' << 8) | ('c' << 16) | ((uint)'r' << 24)))
                return s_incr;
            if (word == ('e' | ('x' << 8) | ('e' << 16) | ((uint)'c' << 24)))
                return s_exec;
        }
        else if (name.Length == 5 && (name[4] | 0x20) == 'i'
            && (BinaryPrimitives.ReadUInt32LittleEndian(name) | 0x20202020u) == ('m' | ('u' << 8) | ('l' << 16) | ((uint)'t' << 24)))
        {
            return s_multi;
        }
        return CommandTable.Lookup(name);
    }

    private void ExecuteCommandCore()
    {
        // Extensions: custom commands are found after the static table (FindCommand).
        var info = FindCommand(_args[0].Span);
        if (info == null)
        {
            FlagTransactionError();
            EndStretchBefore(); // Stats/RespServerSession.CommandTiming.cs
            WriteUnknownCommand();
            return;
        }
        _currentCommand = info;
        if (!info.ArityAccepts(_argCount))
        {
            FlagTransactionError();
            CountRejected(info);
            WriteWrongArity(info.LowerName);
            return;
        }
        // As Redis decides it per command: a default user given nopass since this connection opened lets it in.
        if (!Authenticated && (info.Flags & CommandFlags.NoAuth) == 0 && !_server.Acl.DefaultUserIsOpen)
        {
            FlagTransactionError();
            CountRejected(info);
            _writer.WriteError("NOAUTH Authentication required."u8);
            return;
        }
        // ACL (libs/server/Acl), except for AUTH, HELLO, QUIT and RESET before logging in: a user allowed
        // everything (the default user, usually) costs one test.
        if (Authenticated || (info.Flags & CommandFlags.NoAuth) == 0)
        {
            if (!Permitted(info, AclLogContext.TopLevel))
            {
                FlagTransactionError();
                CountRejected(info);
                return;
            }
        }
        // Cluster mode (Cluster/RespServerSession.Cluster.cs): the keys must share a slot this node serves.
        if (_cluster != null && !ClusterAdmits(info))
        {
            FlagTransactionError();
            CountRejected(info);
            return;
        }
        // Scripting: while another client's script runs past lua-time-limit, most commands get -BUSY.
        if (Scripting.TimedOutCount != 0 && RejectWhileBusy(info))
        {
            _migratingSlot = -1;
            CountRejected(info);
            return;
        }
        // Pub/sub (libs/server/PubSub): a client that ever subscribed first gets the messages queued
        // for it, and in RESP2's subscribe mode only a few commands may run.
        if (_outbox != null && !PubSubAdmits(info))
        {
            _migratingSlot = -1;
            CountRejected(info);
            return;
        }

        // CLIENT PAUSE (Clients/RespServerSession.Pause.cs): while a pause is on, a command it holds waits unrun (queued
        // ones too, as in Redis).
        if (_pauseSeen && HoldForPause(info))
        {
            _migratingSlot = -1; // checked again when it runs
            return;
        }

        // Transactions: between MULTI and EXEC commands are queued, not run; RESET forgets the transaction.
        if (_transaction != null)
        {
            if (_transaction.InMulti)
            {
                EndStretchBefore();
                if (TryQueueCommand(info))
                    return;
            }
            if (info.Command == RespCommand.RESET)
                ResetTransaction();
        }

        LastCommand = info.Command;
        // RunCommand (Transactions/RespServerSession.Transactions.cs) dispatches with the key locks and watch versions of the
        // command; RunCounted (Stats/RespServerSession.CommandTiming.cs) counts and times it around that.
        RunCounted(info);
    }

    /// <summary>Hands the command to its family's handler: families are id ranges of <see cref="RespCommand"/> (connection, strings, keyspace, server, bitmaps, HyperLogLog, lists, hashes, sets, sorted sets, geo, blocking, sort, transactions, scripting, pub/sub, streams, ETags).</summary>
    private void Dispatch(RespCommand command)
    {
        int id = (int)command;
        if (id < 20)
            ExecuteConnectionCommand(command);
        else if (id < 60)
            ExecuteStringCommand(command);
        else if (id < 100)
            ExecuteKeyspaceCommand(command);
        else if (id < 120)
            ExecuteServerCommand(command);
        else if (id < 130)
            ExecuteBitmapCommand(command);
        else if (id < 200)
            ExecuteHyperLogLogCommand(command);
        else if (id < 230)
            ExecuteListCommand(command);
        else if (id < 260)
            ExecuteHashCommand(command);
        else if (id < 290)
            ExecuteSetCommand(command);
        else if (id < 340)
            ExecuteSortedSetCommand(command);
        else if (id < 360)
            ExecuteGeoCommand(command);
        else if (id < 380)
            ExecuteBlockingCommand(command);
        else if (id < 400)
            ExecuteSortCommand(command);
        else if (id < 410)
            ExecuteTransactionsCommand(command);
        else if (id < 430)
            ExecuteScriptingCommand(command);
        else if (id < 440)
            ExecutePubSubCommand(command);
        else if (id >= 450 && id < 470)
            ExecuteStreamCommand(command);
        else if (id >= 470 && id < 480)
            ExecuteETagCommand(command);
        else if (id >= 480 && id < 500)
            ExecuteServerCommand(command); // server (continued)
        else if (id >= ExtensionRegistry.FirstId)
            ExecuteCustomCommand(command); // registered custom commands (Commands/Extensions)
        else
            ExecuteExtensionsCommand(command);
    }

    /// <summary>
    /// Redis's unknown-command error, byte for byte: the name cut to 128 bytes, then quoted arguments
    /// while fewer than 128 bytes of them are shown, each cut to what is left of those 128. Arguments
    /// are C strings there (a NUL ends one) and newlines become spaces so the reply stays one line.
    /// </summary>
    private void WriteUnknownCommand()
    {
        const int Limit = 128;
        Span<byte> message = stackalloc byte[64 + Limit + Limit + Limit];
        int length = Append(message, 0, "ERR unknown command '"u8, int.MaxValue);
        length = Append(message, length, _args[0].Span, Limit);
        length = Append(message, length, "', with args beginning with: "u8, int.MaxValue);
        int argumentsStart = length;
        for (int i = 1; i < _argCount && length - argumentsStart < Limit; i++)
        {
            int room = Limit - (length - argumentsStart);
            message[length++] = (byte)'\'';
            length = Append(message, length, _args[i].Span, room);
            message[length++] = (byte)'\'';
            message[length++] = (byte)' ';
        }
        var text = message.Slice(0, length);
        text.Replace((byte)'\r', (byte)' ');
        text.Replace((byte)'\n', (byte)' ');
        _writer.WriteError(text);

        static int Append(Span<byte> destination, int at, ReadOnlySpan<byte> source, int max)
        {
            int end = source.IndexOf((byte)0);
            if (end >= 0)
                source = source.Slice(0, end);
            if (source.Length > max)
                source = source.Slice(0, max);
            source.CopyTo(destination.Slice(at));
            return at + source.Length;
        }
    }

    /// <summary>Redis's arity error for <paramref name="lowerName"/> (a command or "command|subcommand").</summary>
    internal void WriteWrongArity(string lowerName) => _writer.WriteError($"ERR wrong number of arguments for '{lowerName}' command");

    /// <summary>Redis's unknown-subcommand error.</summary>
    internal void WriteUnknownSubcommand(string commandName)
        => _writer.WriteError($"ERR unknown subcommand '{Encoding.UTF8.GetString(_args[1].Span)}'. Try {commandName} HELP.");

    /// <summary>Redis's error for a subcommand it knows only under another argument count (or not at all).</summary>
    internal void WriteSubcommandSyntaxError(string commandName)
        => _writer.WriteError($"ERR unknown subcommand or wrong number of arguments for '{Encoding.UTF8.GetString(_args[1].Span)}'. Try {commandName} HELP.");

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
            case StringResult.WrongType:
                _writer.WriteError(RespStrings.WrongType);
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
