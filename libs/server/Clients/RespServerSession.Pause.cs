using System;
using System.Globalization;
using Garnet.common;
using Garnet.server.Scripting;

namespace Garnet.server;

/// <summary>
/// CLIENT PAUSE and UNPAUSE, and a session held by a pause. A held command has passed its checks (arity, ACL) and
/// waits unrun: it is kept re-encoded as a RESP array (an inline command's bytes were unescaped in place, so they could
/// not be parsed again), input after it is stashed as for a blocked client, and when the pause ends the command and the
/// stash run in order on the thread pool.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>The command a pause holds, as a RESP array; null unless held.</summary>
    private byte[]? _pausedCommand;

    /// <summary>A pause was on when this batch began (or this session started one): its commands are checked against it.</summary>
    private bool _pauseSeen;

    /// <summary>Argument slices of a queued transaction command, reused while EXEC is checked against a pause.</summary>
    private ArgSlice[] _pauseScratch = [];

    /// <summary>The server's pause state.</summary>
    private ClientPause Pause => _server.ClientPause;

    /// <summary>CLIENT PAUSE timeout [WRITE|ALL].</summary>
    private void ClientPauseCommand()
    {
        if (_argCount > 4)
        {
            WriteSubcommandSyntaxError("CLIENT");
            return;
        }
        var mode = ClientPauseMode.All;
        if (_argCount == 4)
        {
            if (_args[3].EqualsUpper("WRITE"u8))
            {
                mode = ClientPauseMode.Write;
            }
            else if (!_args[3].EqualsUpper("ALL"u8))
            {
                _writer.WriteError("ERR CLIENT PAUSE mode must be WRITE or ALL"u8);
                return;
            }
        }
        if (!NumberFormat.TryParseLong(_args[2].Span, out long milliseconds))
        {
            _writer.WriteError("ERR timeout is not an integer or out of range"u8);
            return;
        }
        if (milliseconds < 0)
        {
            _writer.WriteError("ERR timeout is negative"u8);
            return;
        }
        if (milliseconds > long.MaxValue - Environment.TickCount64)
        {
            _writer.WriteError("ERR timeout is out of range"u8);
            return;
        }
        Pause.Pause(milliseconds, mode, ClientPausePurpose.Client);
        // The rest of this batch is held as well, as Redis holds the caller's next commands.
        _pauseSeen = true;
        _writer.WriteOk();
    }

    /// <summary>CLIENT UNPAUSE.</summary>
    private void ClientUnpauseCommand()
    {
        Pause.Unpause(ClientPausePurpose.Client);
        _writer.WriteOk();
    }

    /// <summary>
    /// Called for a command that passed its checks while a pause was seen: holds it when the pause in force does, and
    /// returns true (the command is then not run).
    /// </summary>
    private bool HoldForPause(RespCommandInfo info)
    {
        if (_replaying)
            return false;
        // A replica's refusal of writes shares this once-per-batch look (Replication/RespServerSession.Replication.cs).
        if (RefuseOnReplica(info))
            return true;
        if (!Pause.IsActive)
            return false;
        bool mayWrite = MayWriteWhilePaused(info, _args, _argCount);
        if (info.Command == RespCommand.EXEC && !mayWrite && _transaction is { InMulti: true } transaction)
            mayWrite = QueuedCommandsMayWrite(transaction);
        if (!Pause.TryHold(this, mayWrite))
        {
            // Over, unless another begins: the rest of the batch runs unchecked.
            _pauseSeen = Pause.IsActive || _server.Replication.IsReplica;
            return false;
        }
        _pausedCommand = EncodeCommand(_args, _argCount);
        return true;
    }

    /// <summary>
    /// Whether a command counts as a write for CLIENT PAUSE WRITE, as Redis decides it: write and may-replicate
    /// commands (PUBLISH, PFCOUNT), a container's subcommand by its own flags, EVAL and EVALSHA unless the script
    /// declares no-writes, FCALL unless the function does.
    /// </summary>
    private bool MayWriteWhilePaused(RespCommandInfo info, ArgSlice[] args, int argCount)
    {
        const CommandFlags Writes = CommandFlags.Write | CommandFlags.MayReplicate;
        switch (info.Command)
        {
            case RespCommand.EVAL:
                return !LuaRunner.IsNoWrites(args[1].Span);
            case RespCommand.EVALSHA:
                return !(ScriptDigest.TryParse(args[1].Span, out var digest) && Scripting.Find(digest) is { } body && LuaRunner.IsNoWrites(body));
            case RespCommand.FCALL:
                return Scripting.Functions.Current.FindFunction(args[1].Span) is not { } function || (function.Flags & FunctionFlags.NoWrites) == 0;
        }
        if (argCount > 1 && SubcommandTable.IsContainer(info.Command) && SubcommandTable.Find(info.Command, args[1]) is { } subcommand)
            return (subcommand.Info.Flags & Writes) != 0;
        return (info.Flags & Writes) != 0;
    }

    /// <summary>Whether any command queued for EXEC may write (Redis pauses EXEC by its queued commands' flags).</summary>
    private bool QueuedCommandsMayWrite(TransactionState transaction)
    {
        fixed (byte* arena = transaction.Arena)
        {
            for (int i = 0; i < transaction.Count; i++)
            {
                transaction.FillArgs(i, arena, ref _pauseScratch);
                if (MayWriteWhilePaused(transaction.CommandAt(i), _pauseScratch, transaction.ArgCountAt(i)))
                    return true;
            }
        }
        return false;
    }

    /// <summary>The arguments as a RESP array of bulk strings.</summary>
    private static byte[] EncodeCommand(ArgSlice[] args, int argCount)
    {
        int length = 1 + NumberFormat.DigitCount(argCount) + 2;
        for (int i = 0; i < argCount; i++)
            length += 1 + NumberFormat.DigitCount(args[i].Length) + 2 + args[i].Length + 2;
        var bytes = new byte[length];
        int at = 0;
        at = WriteHeader(bytes, at, (byte)'*', argCount);
        for (int i = 0; i < argCount; i++)
        {
            at = WriteHeader(bytes, at, (byte)'$', args[i].Length);
            args[i].Span.CopyTo(bytes.AsSpan(at));
            at += args[i].Length;
            bytes[at++] = (byte)'\r';
            bytes[at++] = (byte)'\n';
        }
        return bytes;

        static int WriteHeader(byte[] bytes, int at, byte prefix, int value)
        {
            bytes[at++] = prefix;
            value.TryFormat(bytes.AsSpan(at), out int written, default, CultureInfo.InvariantCulture);
            at += written;
            bytes[at++] = (byte)'\r';
            bytes[at++] = (byte)'\n';
            return at;
        }
    }

    /// <summary>The pause ended: the held command and the input after it run (called off the receive path, which may be idle).</summary>
    internal void RunHeldCommand()
    {
        lock (_gate)
        {
            var command = _pausedCommand;
            if (command == null || _disposed)
                return;
            _pausedCommand = null;
            if (KillRequested || _closeRequested)
                return;
            PrependToStash(command);
            try
            {
                RunStash();
            }
            catch (Exception)
            {
                // As on the receive path, a failing command ends its own connection only.
                _sender.CloseAfterSend();
            }
        }
    }

    /// <summary>Puts <paramref name="bytes"/> before the stashed input.</summary>
    private void PrependToStash(byte[] bytes)
    {
        var merged = new byte[Math.Max(_stash.Length, _stashLength + bytes.Length)];
        bytes.CopyTo(merged, 0);
        Buffer.BlockCopy(_stash, 0, merged, bytes.Length, _stashLength);
        _stash = merged;
        _stashLength += bytes.Length;
    }

    /// <summary>Drops a held command of a closing session.</summary>
    private void ForgetPause()
    {
        if (_pausedCommand == null)
            return;
        _pausedCommand = null;
        Pause.Forget(this);
    }
}
