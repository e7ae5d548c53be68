using System;
using System.Runtime.InteropServices;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// CLIENT REPLY ON | OFF | SKIP: a connection may ask for no replies (mass inserts), or none to its next command.
/// Commands then run as usual with their replies written to a sink that drops them; CLIENT REPLY ON and RESET, which
/// switch replies back on, answer as in Redis. Pub/sub messages are not replies and still reach the client, as in Redis.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    [Flags]
    private enum ReplyMode : byte
    {
        On = 0,
        Off = 1,
        /// <summary>The current command's reply is dropped.</summary>
        Skip = 2,
        /// <summary>CLIENT REPLY SKIP ran: the next command's reply is dropped.</summary>
        SkipNext = 4,
    }

    private ReplyMode _replyMode;
    private DiscardingSink? _discardingSink;

    /// <summary>Runs the parsed command, dropping its reply when the connection asked for that.</summary>
    private void ExecuteCommand()
    {
        if (_replyMode == ReplyMode.On)
        {
            ExecuteCommandCore();
            if (_replyMode == ReplyMode.On)
                return;
        }
        else if ((_replyMode & (ReplyMode.Off | ReplyMode.Skip)) != 0 && !RepliesWhenSilenced())
        {
            ExecuteCommandWithoutReply();
        }
        else
        {
            ExecuteCommandCore();
        }
        if (_pausedCommand != null)
            return; // held by CLIENT PAUSE: it has not run yet
        // As Redis after each command: a skip lasts one command, and CLIENT REPLY SKIP arms it for the next.
        var next = _replyMode & ReplyMode.Off;
        if ((_replyMode & ReplyMode.SkipNext) != 0)
            next |= ReplyMode.Skip;
        _replyMode = next;
    }

    /// <summary>CLIENT REPLY ON and RESET turn replies back on, and answer.</summary>
    private bool RepliesWhenSilenced()
        => (_argCount == 1 && _args[0].EqualsUpper("RESET"u8))
            || (_argCount == 3 && _args[0].EqualsUpper("CLIENT"u8) && _args[1].EqualsUpper("REPLY"u8) && _args[2].EqualsUpper("ON"u8));

    private void ExecuteCommandWithoutReply()
    {
        // Pub/sub messages are not replies: while the reply is dropped they still go to the connection (see ConnectionWriter).
        _discardingSink ??= new DiscardingSink();
        var saved = RedirectReplies(_discardingSink, _writer.Resp3);
        try
        {
            ExecuteCommandCore();
        }
        finally
        {
            bool resp3 = _writer.Resp3; // HELLO may have switched protocols meanwhile
            EndRedirect(saved);
            _writer.Resp3 = resp3;
        }
    }

    /// <summary>CLIENT REPLY ON | OFF | SKIP.</summary>
    private void ClientReply()
    {
        ref readonly var mode = ref _args[2];
        if (mode.EqualsUpper("ON"u8))
        {
            _replyMode = ReplyMode.On;
            _writer.WriteOk();
        }
        else if (mode.EqualsUpper("OFF"u8))
        {
            _replyMode |= ReplyMode.Off;
        }
        else if (mode.EqualsUpper("SKIP"u8))
        {
            // While replies are off, a skip changes nothing.
            if ((_replyMode & ReplyMode.Off) == 0)
                _replyMode |= ReplyMode.SkipNext;
        }
        else
        {
            _writer.WriteError(RespStrings.ErrSyntax);
        }
    }

    /// <summary>Where replies go while they are switched off: a scratch buffer whose flushes drop it.</summary>
    private sealed class DiscardingSink : IResponseSink
    {
        private const int Size = 4096;
        private readonly byte* _buffer = (byte*)NativeMemory.Alloc(Size);

        ~DiscardingSink() => NativeMemory.Free(_buffer);

        public byte* BufferStart => _buffer;

        public int BufferLength => Size;

        public bool Flush(int length) => true;
    }
}
