using System;
using System.Text;
using Garnet.common;
using Garnet.server.Scripting;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The scripting commands: EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT (FUNCTION, FCALL and FCALL_RO
/// are in <c>FunctionCommands.cs</c>). Each session runs scripts in
/// its own Lua state (<see cref="LuaRunner"/>, created on first use); the script cache, the time
/// limit and SCRIPT KILL are server-wide (<see cref="ScriptingState"/>). Commands a script calls go
/// through the normal dispatch with their reply captured (<see cref="RunCommandFromScript"/>).
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private ScriptingState? _scripting;
    private LuaRunner? _lua;

    /// <summary>Set while a command called by a script runs: blocking commands do not block then.</summary>
    private bool _inScriptCommand;

    /// <summary>The server's scripting state (cached: the BUSY check reads it on every command).</summary>
    internal ScriptingState Scripting => _scripting ??= ScriptingState.Of(_server);

    private static ReadOnlySpan<byte> ErrNoScript => "NOSCRIPT No matching script. Please use EVAL."u8;

    private static readonly string[] s_scriptHelp =
    [
        "DEBUG (YES|SYNC|NO)",
        "    Set the debug mode for subsequent scripts executed.",
        "EXISTS <sha1> [<sha1> ...]",
        "    Return information about the existence of the scripts in the script cache.",
        "FLUSH [ASYNC|SYNC]",
        "    Flush the Lua scripts cache. Very dangerous on replicas.",
        "    When called without the optional mode argument, the behavior is determined by the",
        "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
        "    * ASYNC: Asynchronously flush the scripts cache.",
        "    * SYNC: Synchronously flush the scripts cache.",
        "KILL",
        "    Kill the currently executing Lua script.",
        "LOAD <script>",
        "    Load a script into the scripts cache without executing it.",
    ];

    private void ExecuteScriptingCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.EVAL: Eval(bySha: false, readOnly: false); break;
            case RespCommand.EVALSHA: Eval(bySha: true, readOnly: false); break;
            case RespCommand.EVAL_RO: Eval(bySha: false, readOnly: true); break;
            case RespCommand.EVALSHA_RO: Eval(bySha: true, readOnly: true); break;
            case RespCommand.SCRIPT: Script(); break;
            case RespCommand.FUNCTION: Function(); break;
            case RespCommand.FCALL: FunctionCall(readOnly: false); break;
            case RespCommand.FCALL_RO: FunctionCall(readOnly: true); break;
            default:
                throw new InvalidOperationException($"{command} is not a scripting command.");
        }
    }

    /// <summary>This session's Lua state, rebuilt after SCRIPT FLUSH.</summary>
    private LuaRunner GetLuaRunner()
    {
        if (_lua != null && _lua.Generation != Scripting.Generation)
        {
            _lua.Dispose();
            _lua = null;
        }
        return _lua ??= new LuaRunner(this, Scripting);
    }

    /// <summary>EVAL script numkeys [key ...] [arg ...], and its SHA and read-only variants.</summary>
    private void Eval(bool bySha, bool readOnly)
    {
        // Scripting/Debugger: after SCRIPT DEBUG SYNC the next EVAL is debugged (not inside EXEC: see ScriptDebugCommands.cs).
        if (_luaDebugger != null && !_inExec)
        {
            EvalUnderDebugger(bySha, readOnly);
            return;
        }
        if (!TryReadScriptKeyCount(RespStrings.ErrNotInteger, out int keyCount))
            return;

        var runner = GetLuaRunner();
        ScriptDigest digest;
        LuaRunner.CompiledScript script;
        string? error;
        bool found = bySha
            ? runner.TryPrepareSha(_args[1].Span, out digest, out script, out error)
            : runner.TryPrepareBody(_args[1].Span, out digest, out script, out error);
        if (!found)
        {
            if (error != null)
                _writer.WriteError(error);
            else
                _writer.WriteError(ErrNoScript);
            return;
        }
        readOnly |= script.NoWrites;

        var keys = new ReadOnlySpan<ArgSlice>(_args, 3, keyCount);
        int database = EnterScript(keys, readOnly);
        try
        {
            runner.Run(digest, script, keys, ScriptArguments(keyCount), readOnly, ref _writer);
        }
        finally
        {
            LeaveScript(database);
        }
    }

    /// <summary>
    /// The numkeys of EVAL and FCALL (argument 2): false, with the error written, when it is not a
    /// number (<paramref name="notANumber"/>: the two commands word it differently), negative, or more
    /// than the arguments that follow.
    /// </summary>
    private bool TryReadScriptKeyCount(ReadOnlySpan<byte> notANumber, out int keyCount)
    {
        if (TryParseScriptKeyCount(notANumber, out keyCount, out var error))
            return true;
        _writer.WriteError(error);
        return false;
    }

    /// <summary><see cref="TryReadScriptKeyCount"/> without writing: the error is returned in <paramref name="error"/>.</summary>
    private bool TryParseScriptKeyCount(ReadOnlySpan<byte> notANumber, out int keyCount, out ReadOnlySpan<byte> error)
    {
        keyCount = 0;
        error = default;
        if (!NumberFormat.TryParseLong(_args[2].Span, out long count))
        {
            error = notANumber;
            return false;
        }
        if (count > _argCount - 3)
        {
            error = "ERR Number of keys can't be greater than number of args"u8;
            return false;
        }
        if (count < 0)
        {
            error = "ERR Number of keys can't be negative"u8;
            return false;
        }
        keyCount = (int)count;
        return true;
    }

    /// <summary>The script's arguments after its <paramref name="keyCount"/> keys.</summary>
    private ReadOnlySpan<ArgSlice> ScriptArguments(int keyCount) => new(_args, 3 + keyCount, _argCount - 3 - keyCount);

    /// <summary>Locks a script's or function's declared keys (<see cref="LockScriptKeys"/>); returns the database to come back to.</summary>
    private int EnterScript(ReadOnlySpan<ArgSlice> keys, bool readOnly)
    {
        int database = _databaseIndex;
        LockScriptKeys(keys, readOnly);
        return database;
    }

    /// <summary>Undoes <see cref="EnterScript"/>: SELECT inside a script or function does not change the caller's database (as in Redis 7).</summary>
    private void LeaveScript(int database)
    {
        UnlockScriptKeys();
        if (_databaseIndex != database)
            SelectDatabase(database);
    }

    /// <summary>Whether this script run took key locks (not when already inside EXEC's locks).</summary>
    private bool _scriptLocked;

    /// <summary>Lock requests of the running script's declared keys (kept to re-lock after a database switch).</summary>
    private int _scriptLockCount;

    /// <summary>
    /// Makes the script atomic: it enters the server's key-lock gate exclusively (a script may touch keys
    /// it did not declare, so scripts and transactions take turns, as scripts do in Redis) and locks its
    /// declared keys — exclusively unless the script is read-only — so single commands of other clients
    /// on them wait. Inside EXEC the transaction's locks already cover the script.
    /// </summary>
    private void LockScriptKeys(ReadOnlySpan<ArgSlice> keys, bool readOnly)
    {
        _scriptLocked = false;
        if (_gateMode != 0)
            return;
        int count = 0;
        foreach (ref readonly var key in keys)
            AddLockRequest(ref count, KeyLockRequest.For(key.Span, exclusive: !readOnly));
        _scriptLockCount = count;
        LockKeys(count, keyspace: true);
        _scriptLocked = true;
    }

    /// <summary>Releases what <see cref="LockScriptKeys"/> took.</summary>
    private void UnlockScriptKeys()
    {
        if (!_scriptLocked)
            return;
        _scriptLocked = false;
        UnlockKeys();
    }

    /// <summary>
    /// Runs one command for redis.call: the arguments are the script's, the reply goes into
    /// <paramref name="reply"/> in the script's protocol. Script-specific refusals (unknown command,
    /// no-script commands, arity, writes from a read-only script) are written there as errors too; false then (the
    /// command did not run).
    /// </summary>
    internal bool RunCommandFromScript(ArgSlice[] args, int count, ReplyBuffer reply, bool resp3, bool readOnly, ref bool wrote)
    {
        bool ran = false;
        var savedArgs = _args;
        int savedCount = _argCount;
        var savedCommand = _currentCommand;
        _args = args;
        _argCount = count;
        var savedWriter = RedirectReplies(reply, resp3);
        _inScriptCommand = true;
        try
        {
            var info = FindCommand(args[0].Span);
            var flags = info == null ? CommandFlags.None : EffectiveFlags(info, args, count);
            if (info == null)
            {
                _writer.WriteError("ERR Unknown Redis command called from script"u8);
            }
            else if ((flags & CommandFlags.NoScript) != 0)
            {
                _writer.WriteError("ERR This Redis command is not allowed from script"u8);
            }
            else if (!info.ArityAccepts(count))
            {
                _writer.WriteError("ERR Wrong number of args calling Redis command from script"u8);
            }
            else if (readOnly && (flags & CommandFlags.Write) != 0)
            {
                _writer.WriteError("ERR Write commands are not allowed from read-only scripts."u8);
            }
            else if ((flags & CommandFlags.Write) != 0 && ScriptWriteRefusedOnReplica)
            {
                _writer.WriteError(ErrReadOnlyReplica);
            }
            else if (!Permitted(info, AclLogContext.Lua))
            {
                // The refusal is the script's error (written by CheckPermission).
            }
            else
            {
                if ((flags & CommandFlags.Write) != 0)
                    wrote = true;
                ran = true;
                _currentCommand = info;

                // SELECT, FLUSHDB, FLUSHALL and SWAPDB run with no key locks held (they may replace the
                // engine session): the script's locks are released around them and taken again after.
                bool relock = _scriptLocked && info.Command is RespCommand.SELECT or RespCommand.FLUSHDB or RespCommand.FLUSHALL or RespCommand.SWAPDB;
                if (relock)
                    UnlockKeys();
                try
                {
                    // Through the transactions layer: watched keys of other clients see the script's writes. Counted and
                    // timed in commandstats, as Redis does; the slow log has the script, not its calls.
                    RunInnerTimed(info, slowLog: false);
                }
                finally
                {
                    if (relock)
                        LockKeys(_scriptLockCount, keyspace: true);
                }
            }
            _writer.Flush();
        }
        finally
        {
            _inScriptCommand = false;
            _args = savedArgs;
            _argCount = savedCount;
            EndRedirect(savedWriter);
            _currentCommand = savedCommand;
        }
        return ran;
    }

    /// <summary>
    /// The flags of a command as called: a container's (CONFIG, FUNCTION...) are its subcommand's when the
    /// subcommand is known.
    /// </summary>
    private static CommandFlags EffectiveFlags(RespCommandInfo info, ArgSlice[] args, int count)
    {
        if (count >= 2 && SubcommandTable.IsContainer(info.Command) && SubcommandTable.Find(info.Command, args[1]) is { } subcommand)
            return subcommand.Info.Flags;
        return info.Flags;
    }

    /// <summary>
    /// Whether a command must be refused with -BUSY because a script or function runs past the time
    /// limit. As in Redis, only the commands flagged allow-busy pass (AUTH, HELLO, RESET, the transaction
    /// commands, FUNCTION KILL and STATS, SHUTDOWN...), and SCRIPT KILL.
    /// </summary>
    private bool RejectWhileBusy(RespCommandInfo info)
    {
        if ((EffectiveFlags(info, _args, _argCount) & CommandFlags.AllowBusy) != 0)
            return false;
        // SCRIPT's subcommands are not in the subcommand table; KILL is the one that passes.
        if (info.Command == RespCommand.SCRIPT && _argCount == 2 && _args[1].EqualsUpper("KILL"u8))
            return false;
        WriteBusyError();
        return true;
    }

    /// <summary>SCRIPT LOAD / EXISTS / FLUSH / KILL / HELP.</summary>
    private void Script()
    {
        ref readonly var sub = ref _args[1];
        if (sub.EqualsUpper("LOAD"u8))
        {
            if (_argCount != 3)
            {
                WriteWrongArity("script|load");
                return;
            }
            var digest = ScriptDigest.Of(_args[2].Span);
            if (!GetLuaRunner().TryPrepare(digest, _args[2].Span, fromCache: false, out _, out string? error))
            {
                _writer.WriteError(error ?? "ERR script could not be loaded");
                return;
            }
            Span<byte> hex = stackalloc byte[40];
            digest.Format(hex);
            _writer.WriteBulk(hex);
        }
        else if (sub.EqualsUpper("EXISTS"u8))
        {
            if (_argCount < 3)
            {
                WriteWrongArity("script|exists");
                return;
            }
            _writer.WriteArrayHeader(_argCount - 2);
            for (int i = 2; i < _argCount; i++)
                _writer.WriteInteger(ScriptDigest.TryParse(_args[i].Span, out var digest) && Scripting.Contains(digest) ? 1 : 0);
        }
        else if (sub.EqualsUpper("FLUSH"u8))
        {
            if (_argCount > 3)
            {
                WriteWrongArity("script|flush");
                return;
            }
            if (_argCount == 3 && !_args[2].EqualsUpper("ASYNC"u8) && !_args[2].EqualsUpper("SYNC"u8))
            {
                _writer.WriteError("ERR SCRIPT FLUSH only support SYNC|ASYNC option"u8);
                return;
            }
            Scripting.Flush();
            _writer.WriteOk();
        }
        else if (sub.EqualsUpper("KILL"u8))
        {
            if (_argCount != 2)
            {
                WriteWrongArity("script|kill");
                return;
            }
            WriteKillResult(Scripting.Kill(function: false));
        }
        else if (sub.EqualsUpper("DEBUG"u8))
        {
            ScriptDebug();
        }
        else if (sub.EqualsUpper("HELP"u8))
        {
            if (_argCount != 2)
            {
                WriteWrongArity("script|help");
                return;
            }
            WriteHelp(s_scriptHelp);
        }
        else
        {
            WriteUnknownSubcommand("SCRIPT");
        }
    }
}
