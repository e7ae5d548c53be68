using System;
using Garnet.common;
using Garnet.server.Scripting;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// SCRIPT DEBUG and the debugging session it turns on (the Lua debugger, <see cref="LuaDebugger"/>). After SCRIPT DEBUG
/// SYNC (or YES, on a copy of the data: see <c>ScriptDebugFork.cs</c>) the client's next EVAL stops before its first
/// line; from then on every byte the client sends is debugger input (<see cref="FeedDebugger"/>), answered with log
/// arrays, until the script ends: then the last log (ending with &lt;endsession&gt;) and the EVAL's reply are sent and
/// the connection closes, as Redis does.
/// </summary>
/// <remarks>
/// The debugged script holds its key locks (and the server's key-lock gate, exclusively, as every script does) while
/// it runs and while a debugger command runs, but not while it is stopped waiting for the client: holding them across
/// the client's think time would make other clients wait on an idle connection, and deadlock one served by the same
/// event-loop thread (it would spin on the gate while the thread is the only one that could read the next debugger
/// command). So the script is atomic between two stops, not across them; Redis's SYNC mode blocks the whole server
/// instead. The session's thread is free between debugger commands (the coroutine is suspended, not waited on).
/// </remarks>
public sealed unsafe partial class RespServerSession
{
    /// <summary>The Lua debugger after SCRIPT DEBUG SYNC or YES (until SCRIPT DEBUG NO or the session's end), or null.</summary>
    private LuaDebugger? _luaDebugger;

    /// <summary>SCRIPT DEBUG YES|SYNC|NO.</summary>
    private void ScriptDebug()
    {
        if (_argCount != 3)
        {
            WriteWrongArity("script|debug");
            return;
        }
        // Redis refuses it while replies to earlier commands are still pending (in a pipeline or a transaction):
        // a debugging session's output must not interleave with them.
        if (_inExec || _inScriptCommand || _writer.Pending > 0)
        {
            _writer.WriteError("ERR SCRIPT DEBUG must be called outside a pipeline"u8);
            return;
        }
        ref readonly var mode = ref _args[2];
        if (mode.EqualsUpper("NO"u8))
        {
            _luaDebugger = null;
            _writer.WriteOk();
        }
        else if (mode.EqualsUpper("SYNC"u8))
        {
            _luaDebugger = new LuaDebugger();
            _writer.WriteOk();
        }
        else if (mode.EqualsUpper("YES"u8))
        {
            _luaDebugger = new LuaDebugger { RollsBack = true };
            _writer.WriteOk();
        }
        else
        {
            _writer.WriteError("ERR Use SCRIPT DEBUG YES/SYNC/NO"u8);
        }
    }

    /// <summary>
    /// EVAL with the debugger on: starts the debugging session. Errors before the script runs (key count, compilation)
    /// end the session at once, as in Redis: the &lt;endsession&gt; log, the error, and the connection closes.
    /// </summary>
    private void EvalUnderDebugger(bool bySha, bool readOnly)
    {
        if (bySha)
        {
            _writer.WriteError("ERR Please use EVAL instead of EVALSHA for debugging"u8);
            return;
        }
        var debugger = _luaDebugger!;
        if (debugger.RollsBack)
        {
            EvalInDebugFork(debugger);
            return;
        }
        debugger.Begin(_args[1].Span);
        if (!TryParseScriptKeyCount(RespStrings.ErrNotInteger, out int keyCount, out var keyCountError))
        {
            EndDebugSessionBeforeRun(debugger);
            _writer.WriteError(keyCountError);
            return;
        }
        var runner = GetLuaRunner();
        if (!runner.TryPrepareBody(_args[1].Span, out var digest, out var script, out string? error))
        {
            EndDebugSessionBeforeRun(debugger);
            _writer.WriteError(error ?? "ERR script could not be compiled");
            return;
        }
        readOnly |= script.NoWrites;
        var keys = new ReadOnlySpan<ArgSlice>(_args, 3, keyCount);
        debugger.Database = EnterScript(keys, readOnly);
        debugger.ScriptLocks = _scriptLocked ? _lockRequests.AsSpan(0, _scriptLockCount).ToArray() : Array.Empty<KeyLockRequest>();
        debugger.TakesInput = true;
        bool finished = true;
        try
        {
            finished = runner.StartDebugRun(debugger, digest, script, keys, ScriptArguments(keyCount), readOnly, ref _writer) == LuaRunner.DebugOutcome.Finished;
        }
        finally
        {
            if (finished)
                EndDebugSession(debugger);
            else
                UnlockScriptKeys();
        }
        // The command loop stops here (it ends on a close request); ConsumeBatch hands the rest of the input to the debugger.
        if (!finished)
            _closeRequested = true;
    }

    /// <summary>The session ended before its script ran: the last log is only &lt;endsession&gt;.</summary>
    private void EndDebugSessionBeforeRun(LuaDebugger debugger)
    {
        debugger.Log("<endsession>");
        debugger.WriteLogs(ref _writer);
        _luaDebugger = null;
        _closeRequested = true;
    }

    /// <summary>The debugged script ended (its reply is written): its locks go, and the connection closes after the reply.</summary>
    private void EndDebugSession(LuaDebugger debugger)
    {
        debugger.TakesInput = false;
        _luaDebugger = null;
        LeaveScript(debugger.Database);
        _closeRequested = true;
    }

    /// <summary>
    /// Debugger input received while a debugged script is stopped: runs the command it completes, if any, and sends
    /// what it wrote. Called from the receive path (and for the rest of the batch that started the session).
    /// </summary>
    private void FeedDebugger(byte* bytes, int length)
    {
        if (_debugFork is { } fork)
        {
            FeedDebugFork(fork, bytes, length);
            return;
        }
        var debugger = _luaDebugger!;
        var runner = _lua!;
        bool tooMuch = !debugger.AppendInput(bytes, length);
        string[] argv = Array.Empty<string>();
        var parse = tooMuch ? DebugCommandParser.Result.ProtocolError : debugger.TakeCommand(out argv);
        if (parse == DebugCommandParser.Result.Incomplete)
            return;
        BeginBatch();
        RelockDebuggedScript(debugger);
        try
        {
            bool finished;
            if (parse == DebugCommandParser.Result.ProtocolError)
            {
                runner.AbortDebugRun(tooMuch ? "ERR max client buffer reached" : "ERR protocol error", ref _writer);
                finished = true;
            }
            else
            {
                finished = DebuggerCommands.Run(runner, debugger, argv, ref _writer);
            }
            if (finished)
                EndDebugSession(debugger);
        }
        finally
        {
            UnlockScriptKeys();
            EndBatch();
        }
        ReleaseHeldReplies(); // Durability: as at the end of a batch
        _writer.ReleaseBuffer();
        if (_closeRequested)
            _sender.CloseAfterSend();
    }

    /// <summary>
    /// The client left while its script was stopped: as in Redis, the script runs on to its end without stopping (its
    /// changes are kept, or with YES dropped with the copy; one that loops past the time limit is ended), so its locks
    /// are released.
    /// </summary>
    private void FinishDebugSessionOnDisconnect()
    {
        if (_debugFork != null)
        {
            EndDebugFork();
            return;
        }
        var debugger = _luaDebugger;
        if (debugger is not { TakesInput: true } || _lua == null)
            return;
        debugger.Disconnect();
        BeginBatch();
        RelockDebuggedScript(debugger);
        try
        {
            if (_lua.ResumeDebugRun(ref _writer) == LuaRunner.DebugOutcome.Finished)
                EndDebugSession(debugger);
        }
        finally
        {
            UnlockScriptKeys();
            EndBatch();
        }
    }

    /// <summary>Takes the stopped script's key locks again before it (or a debugger command) runs; as at its start, outside any transaction.</summary>
    private void RelockDebuggedScript(LuaDebugger debugger)
    {
        int count = 0;
        foreach (var request in debugger.ScriptLocks)
            AddLockRequest(ref count, request);
        _scriptLockCount = count;
        LockKeys(count, keyspace: true);
        _scriptLocked = true;
    }
}
