using System;
using Garnet.common;

namespace Garnet.server.Scripting;

/// <summary>
/// The debugger's commands (Redis's names and one-letter aliases): each either answers at once with a log array
/// (help, list, whole, print, break, trace, eval, redis, maxlen, unknown commands) or lets the script go on (step,
/// next, continue) or ends it (abort).
/// </summary>
internal static class DebuggerCommands
{
    /// <summary>Runs the debugger command <paramref name="argv"/>; true when the script ended (its reply was written).</summary>
    public static bool Run(LuaRunner runner, LuaDebugger debugger, string[] argv, ref RespWriter writer)
    {
        string name = argv[0];
        if (Is(name, "h", "help"))
        {
            debugger.Help();
        }
        else if (Is(name, "s", "step") || Is(name, "n", "next"))
        {
            debugger.Step = true;
            return runner.ResumeDebugRun(ref writer) == LuaRunner.DebugOutcome.Finished;
        }
        else if (Is(name, "c", "continue"))
        {
            return runner.ResumeDebugRun(ref writer) == LuaRunner.DebugOutcome.Finished;
        }
        else if (Is(name, "t", "trace"))
        {
            runner.DebugTrace(debugger);
        }
        else if (Is(name, "m", "maxlen"))
        {
            debugger.SetMaxLength(argv);
        }
        else if (Is(name, "b", "break"))
        {
            debugger.Break(argv);
        }
        else if (Is(name, "e", "eval"))
        {
            runner.DebugEval(debugger, string.Join(' ', argv, 1, argv.Length - 1));
        }
        else if (Is(name, "a", "abort"))
        {
            runner.AbortDebugRun("ERR script aborted for user request", ref writer);
            return true;
        }
        else if (argv.Length > 1 && Is(name, "r", "redis"))
        {
            runner.DebugRedis(debugger, argv);
        }
        else if (Is(name, "p", "print"))
        {
            if (argv.Length == 2)
                runner.DebugPrintVariable(debugger, argv[1]);
            else
                runner.DebugPrintLocals(debugger);
        }
        else if (Is(name, "l", "list"))
        {
            debugger.List(argv);
        }
        else if (Is(name, "w", "whole"))
        {
            debugger.List(1, 1000000);
        }
        else
        {
            debugger.Log("<error> Unknown Redis Lua debugger command or wrong number of arguments.");
        }
        debugger.WriteLogs(ref writer);
        return false;
    }

    private static bool Is(string name, string alias, string full)
        => name.Equals(alias, StringComparison.OrdinalIgnoreCase) || name.Equals(full, StringComparison.OrdinalIgnoreCase);
}
