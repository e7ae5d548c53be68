using System;
using System.Collections.Generic;
using System.Text;
using Garnet.common;
using Garnet.server.Scripting;

namespace Garnet.server;

/// <summary>
/// Redis 7 functions: FUNCTION LOAD / LIST / DELETE / FLUSH / DUMP / RESTORE / STATS / KILL / HELP,
/// FCALL and FCALL_RO. The libraries are server-wide (<see cref="FunctionRegistry"/>); a library's
/// code runs in the Lua state of the session that loads it, to learn its functions, and again in
/// each session's state on its first FCALL of one of them (<see cref="LuaRunner"/>). FCALL runs as
/// EVAL does: same key locking, time limit, -BUSY, kill and reply conversion.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private static readonly string[] s_functionHelp =
    [
        "LOAD [REPLACE] <library code>",
        "    Load a library from its code, which starts with \"#!lua name=<library>\" and registers its",
        "    functions with redis.register_function. REPLACE swaps it for a loaded library of that name.",
        "DELETE <library name>",
        "    Remove a library and its functions.",
        "LIST [LIBRARYNAME <pattern>] [WITHCODE]",
        "    List the libraries (those whose name matches the glob pattern), each with its engine and its",
        "    functions' names, descriptions and flags; WITHCODE adds each library's code.",
        "STATS",
        "    Show the function running past the time limit (name, command, duration), if any, and the",
        "    number of libraries and functions per engine.",
        "KILL",
        "    Stop the function running past the time limit, if it has not written.",
        "FLUSH [ASYNC|SYNC]",
        "    Remove all libraries (both modes remove them at once).",
        "DUMP",
        "    Return all libraries as a binary payload for FUNCTION RESTORE.",
        "RESTORE <payload> [FLUSH|APPEND|REPLACE]",
        "    Load the libraries of a FUNCTION DUMP payload. APPEND (the default) fails if a library name is",
        "    taken, REPLACE replaces libraries of the same names, FLUSH removes all libraries first. Any",
        "    policy fails if a function name is taken by a library that stays.",
    ];

    private static ReadOnlySpan<byte> ErrBusyScript => "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE."u8;

    private static ReadOnlySpan<byte> ErrBusyFunction => "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE."u8;

    /// <summary>The -BUSY error while something runs past the time limit: it names the command that stops what runs.</summary>
    private void WriteBusyError() => _writer.WriteError(Scripting.BusyWithFunction ? ErrBusyFunction : ErrBusyScript);

    /// <summary>The arguments of the command being run, copied (FUNCTION STATS shows the command of a busy function).</summary>
    internal byte[][] CopyCurrentArguments()
    {
        var copy = new byte[_argCount][];
        for (int i = 0; i < _argCount; i++)
            copy[i] = _args[i].Span.ToArray();
        return copy;
    }

    /// <summary>FCALL / FCALL_RO function numkeys [key ...] [arg ...].</summary>
    private void FunctionCall(bool readOnly)
    {
        var functions = Scripting.Functions.Current;
        var function = functions.FindFunction(_args[1].Span);
        if (function == null)
        {
            _writer.WriteError("ERR Function not found"u8);
            return;
        }
        if (!TryReadScriptKeyCount("ERR Bad number of keys provided"u8, out int keyCount))
            return;
        bool noWrites = (function.Flags & FunctionFlags.NoWrites) != 0;
        if (readOnly && !noWrites)
        {
            _writer.WriteError("ERR Can not execute a script with write flag using *_ro command."u8);
            return;
        }
        readOnly |= noWrites;

        var runner = GetLuaRunner();
        if (!runner.TryGetCallback(functions, function, out int callback, out string? error))
        {
            _writer.WriteError(error!);
            return;
        }
        var keys = new ReadOnlySpan<ArgSlice>(_args, 3, keyCount);
        int database = EnterScript(keys, readOnly);
        try
        {
            runner.CallFunction(function, callback, keys, ScriptArguments(keyCount), readOnly, ref _writer);
        }
        finally
        {
            LeaveScript(database);
        }
    }

    /// <summary>FUNCTION and its subcommands.</summary>
    private void Function()
    {
        var subcommand = ResolveSubcommand(RespCommand.FUNCTION);
        if (subcommand == null)
            return;
        switch (subcommand.Id)
        {
            case Subcommand.FunctionLoad: FunctionLoad(); break;
            case Subcommand.FunctionList: FunctionList(); break;
            case Subcommand.FunctionDelete: FunctionDelete(); break;
            case Subcommand.FunctionFlush: FunctionFlush(); break;
            case Subcommand.FunctionDump: _writer.WriteBulk(FunctionDumpPayload.Write(Scripting.Functions.Current.Libraries)); break;
            case Subcommand.FunctionRestore: FunctionRestore(); break;
            case Subcommand.FunctionStats: FunctionStats(); break;
            case Subcommand.FunctionKill: WriteKillResult(Scripting.Kill(function: true)); break;
            case Subcommand.FunctionHelp: WriteHelp(s_functionHelp); break;
            default: throw new InvalidOperationException($"{subcommand.Id} is not a FUNCTION subcommand.");
        }
    }

    /// <summary>FUNCTION LOAD [REPLACE] code: replies with the library's name.</summary>
    private void FunctionLoad()
    {
        bool replace = false;
        for (int i = 2; i < _argCount - 1; i++)
        {
            if (!_args[i].EqualsUpper("REPLACE"u8))
            {
                _writer.WriteError("ERR Unknown option given: " + Encoding.UTF8.GetString(_args[i].Span));
                return;
            }
            replace = true;
        }
        byte[] code = _args[_argCount - 1].Span.ToArray();
        if (!LibraryMetadata.TryParse(code, out string name, out int bodyStart, out string? error))
        {
            _writer.WriteError(error!);
            return;
        }
        var registry = Scripting.Functions;
        // Checked before the code runs as well, so a taken name fails without running it.
        if (!replace && registry.Current.FindLibrary(name) != null)
        {
            _writer.WriteError($"ERR Library '{name}' already exists");
            return;
        }
        var runner = GetLuaRunner();
        runner.SyncLibraries(registry.Current);
        if (!TryBuildLibrary(runner, name, code, bodyStart, out var library, out var loaded, out error))
        {
            _writer.WriteError(error!);
            return;
        }
        if (!registry.TryLoad(library, replace, out error))
        {
            runner.ReleaseCallbacks(loaded);
            _writer.WriteError(error!);
            return;
        }
        runner.AdoptLibraries(registry.Current, [library], [loaded]);
        _writer.WriteBulk(name);
    }

    /// <summary>
    /// Runs a library's code in <paramref name="runner"/> and makes the library of what it registered;
    /// false with the error when the code fails or registers nothing.
    /// </summary>
    private static bool TryBuildLibrary(LuaRunner runner, string name, byte[] code, int bodyStart, out FunctionLibrary library, out List<LuaRunner.RegisteredFunction> loaded, out string? error)
    {
        library = null!;
        if (!runner.TryLoadLibrary(code.AsSpan(bodyStart), out loaded, out error))
            return false;
        if (loaded.Count == 0)
        {
            error = "ERR No functions registered";
            return false;
        }
        var functions = new FunctionDefinition[loaded.Count];
        for (int i = 0; i < functions.Length; i++)
            functions[i] = new FunctionDefinition(loaded[i].Name, loaded[i].Description, loaded[i].Flags);
        library = new FunctionLibrary(name, code, bodyStart, functions);
        return true;
    }

    /// <summary>FUNCTION LIST [LIBRARYNAME pattern] [WITHCODE].</summary>
    private void FunctionList()
    {
        bool withCode = false;
        byte[]? pattern = null;
        for (int i = 2; i < _argCount; i++)
        {
            if (!withCode && _args[i].EqualsUpper("WITHCODE"u8))
            {
                withCode = true;
            }
            else if (pattern == null && _args[i].EqualsUpper("LIBRARYNAME"u8))
            {
                if (i == _argCount - 1)
                {
                    _writer.WriteError("ERR library name argument was not given"u8);
                    return;
                }
                pattern = _args[++i].Span.ToArray();
            }
            else
            {
                _writer.WriteError("ERR Unknown argument " + Encoding.UTF8.GetString(_args[i].Span));
                return;
            }
        }
        var listed = new List<FunctionLibrary>();
        foreach (var library in Scripting.Functions.Current.Libraries)
        {
            if (pattern == null || GlobPattern.IsMatch(pattern, Encoding.UTF8.GetBytes(library.Name), ignoreCase: true))
                listed.Add(library);
        }
        _writer.WriteArrayHeader(listed.Count);
        foreach (var library in listed)
        {
            _writer.WriteMapHeader(withCode ? 4 : 3);
            _writer.WriteBulk("library_name"u8);
            _writer.WriteBulk(library.Name);
            _writer.WriteBulk("engine"u8);
            _writer.WriteBulk(FunctionLibrary.Engine);
            _writer.WriteBulk("functions"u8);
            _writer.WriteArrayHeader(library.Functions.Length);
            foreach (var function in library.Functions)
            {
                _writer.WriteMapHeader(3);
                _writer.WriteBulk("name"u8);
                _writer.WriteBulk(function.Name);
                _writer.WriteBulk("description"u8);
                if (function.Description == null)
                    _writer.WriteNull();
                else
                    _writer.WriteBulk(function.Description);
                _writer.WriteBulk("flags"u8);
                _writer.WriteSetHeader(FunctionFlagNames.Count(function.Flags));
                foreach (var (flag, flagName) in FunctionFlagNames.All)
                {
                    if ((function.Flags & flag) != 0)
                        _writer.WriteSimpleString(Encoding.ASCII.GetBytes(flagName));
                }
            }
            if (withCode)
            {
                _writer.WriteBulk("library_code"u8);
                _writer.WriteBulk(library.Code);
            }
        }
    }

    /// <summary>FUNCTION DELETE library.</summary>
    private void FunctionDelete()
    {
        if (Scripting.Functions.TryDelete(Encoding.UTF8.GetString(_args[2].Span)))
            _writer.WriteOk();
        else
            _writer.WriteError("ERR Library not found"u8);
    }

    /// <summary>FUNCTION FLUSH [ASYNC|SYNC]: both remove the libraries at once (sessions drop their copies on their next FCALL).</summary>
    private void FunctionFlush()
    {
        if (_argCount > 3)
        {
            WriteSubcommandSyntaxError(CurrentCommand.Name);
            return;
        }
        if (_argCount == 3 && !_args[2].EqualsUpper("SYNC"u8) && !_args[2].EqualsUpper("ASYNC"u8))
        {
            _writer.WriteError("ERR FUNCTION FLUSH only supports SYNC|ASYNC option"u8);
            return;
        }
        Scripting.Functions.Flush();
        _writer.WriteOk();
    }

    /// <summary>FUNCTION RESTORE payload [FLUSH|APPEND|REPLACE].</summary>
    private void FunctionRestore()
    {
        if (_argCount > 4)
        {
            WriteSubcommandSyntaxError(CurrentCommand.Name);
            return;
        }
        var policy = FunctionRestorePolicy.Append;
        if (_argCount == 4)
        {
            if (_args[3].EqualsUpper("APPEND"u8))
                policy = FunctionRestorePolicy.Append;
            else if (_args[3].EqualsUpper("REPLACE"u8))
                policy = FunctionRestorePolicy.Replace;
            else if (_args[3].EqualsUpper("FLUSH"u8))
                policy = FunctionRestorePolicy.Flush;
            else
            {
                _writer.WriteError("ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE."u8);
                return;
            }
        }
        if (TryRestoreLibraries(_args[2].Span, policy, out string? error))
            _writer.WriteOk();
        else
            _writer.WriteError(error!);
    }

    /// <summary>
    /// Loads the libraries of a FUNCTION DUMP payload under <paramref name="policy"/> (FUNCTION RESTORE, and a checkpoint's
    /// libraries at recovery); false with Redis's error when the payload or a library is refused, nothing changed then.
    /// </summary>
    internal bool TryRestoreLibraries(ReadOnlySpan<byte> payload, FunctionRestorePolicy policy, out string? error)
    {
        if (!FunctionDumpPayload.TryRead(payload, out var codes, out error))
            return false;

        // Every library is built (its code run here) before anything changes.
        var runner = GetLuaRunner();
        var registry = Scripting.Functions;
        runner.SyncLibraries(registry.Current);
        var libraries = new FunctionLibrary[codes.Count];
        var loads = new List<LuaRunner.RegisteredFunction>[codes.Count];
        var names = new HashSet<string>();
        int built = 0;
        for (; built < codes.Count && error == null; built++)
        {
            if (!LibraryMetadata.TryParse(codes[built], out string name, out int bodyStart, out error))
                break;
            if (!names.Add(name))
            {
                error = $"ERR Library '{name}' already exists";
                break;
            }
            if (!TryBuildLibrary(runner, name, codes[built], bodyStart, out libraries[built], out loads[built], out error))
                break;
        }
        if (error == null && registry.TryRestore(libraries, policy, out error))
        {
            runner.AdoptLibraries(registry.Current, libraries, loads);
            return true;
        }
        foreach (var load in loads)
        {
            if (load != null)
                runner.ReleaseCallbacks(load);
        }
        return false;
    }

    /// <summary>FUNCTION STATS: the function running past the time limit, and the libraries and functions of the one engine.</summary>
    private void FunctionStats()
    {
        bool busy = Scripting.TryGetBusy(out string? functionName, out byte[][] command, out long duration);
        if (busy && functionName == null)
        {
            // A script (not a function) holds the server: the reply is the script's -BUSY.
            _writer.WriteError(ErrBusyScript);
            return;
        }
        _writer.WriteMapHeader(2);
        _writer.WriteBulk("running_script"u8);
        if (!busy)
        {
            _writer.WriteNull();
        }
        else
        {
            _writer.WriteMapHeader(3);
            _writer.WriteBulk("name"u8);
            _writer.WriteBulk(functionName!);
            _writer.WriteBulk("command"u8);
            _writer.WriteArrayHeader(command.Length);
            foreach (var argument in command)
                _writer.WriteBulk(argument);
            _writer.WriteBulk("duration_ms"u8);
            _writer.WriteInteger(duration);
        }
        var functions = Scripting.Functions.Current;
        _writer.WriteBulk("engines"u8);
        _writer.WriteMapHeader(1);
        _writer.WriteBulk(FunctionLibrary.Engine);
        _writer.WriteMapHeader(2);
        _writer.WriteBulk("libraries_count"u8);
        _writer.WriteInteger(functions.Libraries.Length);
        _writer.WriteBulk("functions_count"u8);
        _writer.WriteInteger(functions.FunctionCount);
    }

    /// <summary>The reply of SCRIPT KILL and FUNCTION KILL.</summary>
    private void WriteKillResult(ScriptKillResult result)
    {
        switch (result)
        {
            case ScriptKillResult.NotBusy:
                _writer.WriteError("NOTBUSY No scripts in execution right now."u8);
                break;
            case ScriptKillResult.Unkillable:
                _writer.WriteError("UNKILLABLE Sorry the script already executed write commands against the dataset. You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command."u8);
                break;
            case ScriptKillResult.OtherKind:
                WriteBusyError();
                break;
            case ScriptKillResult.Killed:
                _writer.WriteOk();
                break;
            default:
                throw new InvalidOperationException($"Unknown kill result {result}.");
        }
    }
}
