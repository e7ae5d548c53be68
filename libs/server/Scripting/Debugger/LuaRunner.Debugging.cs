using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using Garnet.common;
using static Garnet.server.Scripting.LuaNative;

namespace Garnet.server.Scripting;

/// <summary>
/// The runner's side of the Lua debugger (SCRIPT DEBUG): a debugged script runs with a line hook that, at a line where
/// it must stop (stepping, a breakpoint, redis.breakpoint(), or running past the time limit), logs where it is and
/// yields the script's coroutine. The session then answers debugger commands against the suspended coroutine (its
/// frames and locals stay readable) and resumes it on step or continue. Yielding, rather than waiting inside the hook,
/// keeps the session's thread free and never unwinds native frames through managed code.
/// </summary>
/// <remarks>
/// The script stops only where its own coroutine can yield: not inside coroutines it created, nor under a C function
/// that calls back into Lua (table.sort's comparator, string.gsub's function); stepping there stops at the next line
/// where it can.
/// </remarks>
internal sealed unsafe partial class LuaRunner
{
    /// <summary>Instructions between two count-hook calls in a debugged run (the time limit is checked there), as Redis's.</summary>
    private const int DebugHookInstructions = 100_000;

    /// <summary>Time limit of a debugged run between two stops when lua-time-limit is 0 (Redis's).</summary>
    private const long DefaultDebugTimeLimitMilliseconds = 5000;

    /// <summary>The debugger of the run in progress, or null when the run is not debugged.</summary>
    private LuaDebugger? _debugger;

    /// <summary>Set by the line hook when it yielded to stop at a line (rather than for a kill).</summary>
    private bool _debugStopped;

    /// <summary>The error a debugged run ends with when the hook had to end it (the client left and the time limit passed).</summary>
    private string? _debugAbortMessage;

    /// <summary>How a step of a debugged run ended.</summary>
    public enum DebugOutcome
    {
        /// <summary>The script stopped at a line; its log was written and it waits for a debugger command.</summary>
        Stopped,

        /// <summary>The script ended; the last log (ending with &lt;endsession&gt;) and the script's reply were written.</summary>
        Finished,
    }

    /// <summary>Starts <paramref name="script"/> under <paramref name="debugger"/>: it stops before its first line.</summary>
    public DebugOutcome StartDebugRun(LuaDebugger debugger, in ScriptDigest digest, in CompiledScript script, ReadOnlySpan<ArgSlice> keys, ReadOnlySpan<ArgSlice> args, bool readOnly, ref RespWriter writer)
    {
        nint L = _thread;
        if (CheckStack(L, 8) == 0)
            throw new InvalidOperationException("The Lua stack cannot grow.");
        Fill(L, ref _keys, "KEYS"u8, keys, _argumentsMayHaveChanged);
        Fill(L, ref _argv, "ARGV"u8, args, _argumentsMayHaveChanged);
        _argumentsMayHaveChanged = script.MayChangeTables;
        RawGetI(L, RegistryIndex, script.Reference);
        debugger.Digest = digest;
        _debugger = debugger;
        SetHook(_thread, &DebugHookCallback, MaskLine | MaskCount, DebugHookInstructions);
        _hooked = true;
        BeginRun(readOnly);
        return ContinueDebugRun(0, ref writer);
    }

    /// <summary>Resumes the stopped script (step or continue: the debugger's flags say where it stops next).</summary>
    public DebugOutcome ResumeDebugRun(ref RespWriter writer)
    {
        // As in Redis, the time limit counts from the last stop.
        _startTicks = Environment.TickCount64;
        return ContinueDebugRun(0, ref writer);
    }

    /// <summary>Ends the stopped script with the error <paramref name="message"/> (abort, a malformed command), at the line where it stopped.</summary>
    public void AbortDebugRun(string message, ref RespWriter writer) => EndDebugRun(Yield, 0, message, ref writer);

    private DebugOutcome ContinueDebugRun(int argumentCount, ref RespWriter writer)
    {
        _debugStopped = false;
        int status = ResumeScript(argumentCount, out int results);
        if (status == Yield && _debugStopped && !_killRequested)
        {
            _debugger!.WriteLogs(ref writer);
            return DebugOutcome.Stopped;
        }
        string? abort = _debugAbortMessage;
        _debugAbortMessage = null;
        EndDebugRun(status, results, abort, ref writer);
        return DebugOutcome.Finished;
    }

    /// <summary>The script ended: the last log with &lt;endsession&gt;, then its reply; the thread gets its usual hook back.</summary>
    private void EndDebugRun(int status, int results, string? abortMessage, ref RespWriter writer)
    {
        var debugger = _debugger!;
        debugger.Log("<endsession>");
        debugger.WriteLogs(ref writer);
        FinishRun(status, results, ref writer, debugger.Digest, abortMessage);
        _debugger = null;
        SetHook(_thread, &HookCallback, MaskCount, HookInstructions);
        _hooked = true;
    }

    [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
    private static void DebugHookCallback(nint L, nint ar)
    {
        var runner = t_current;
        var debugger = runner?._debugger;
        if (runner == null || debugger == null)
            return;
        try
        {
            runner.OnDebugHook(L, debugger, (byte*)ar);
        }
        catch (Exception)
        {
            // Nothing may throw through the Lua hook; the script goes on.
        }
    }

    private void OnDebugHook(nint L, LuaDebugger debugger, byte* debug)
    {
        if (_scripting.Stopping)
            _killRequested = true;
        if (_killRequested)
        {
            if (IsYieldable(L) != 0)
                YieldK(L, 0, 0, 0);
            return;
        }
        int hookEvent = *(int*)(debug + DebugEventOffset);
        fixed (byte* what = "Sl\0"u8)
            GetInfo(L, what, debug);
        byte* source = *(byte**)(debug + DebugSourceOffset);
        // Events outside the script (the library's Lua code, code it loads) and in its coroutines do not stop it.
        if (source == null || !IsChunk(source, "@user_script"u8) || L != _thread)
            return;
        int line = *(int*)(debug + DebugCurrentLineOffset);
        debugger.CurrentLine = line;
        bool breakpoint = debugger.IsBreakpoint(line) || debugger.LuaBreakpoint;
        bool timeout = false;
        if (hookEvent == HookCount && !debugger.Step && !breakpoint)
        {
            long limit = _scripting.TimeLimitMilliseconds;
            if (limit <= 0)
                limit = DefaultDebugTimeLimitMilliseconds;
            if (Environment.TickCount64 - _startTicks < limit)
                return;
            timeout = true;
            debugger.Step = true;
        }
        if (!(debugger.Step || breakpoint) || IsYieldable(L) == 0)
            return;

        string reason = breakpoint ? (debugger.LuaBreakpoint ? "redis.breakpoint() called" : "break point")
            : timeout ? "timeout reached, infinite loop?" : "step over";
        debugger.Step = false;
        debugger.LuaBreakpoint = false;
        debugger.Log($"* Stopped at {line}, stop reason = {reason}");
        debugger.LogSourceLine(line);
        if (debugger.Disconnected)
        {
            // Nobody can answer: the script runs on, unless it is looping, which would hold the session for ever.
            if (timeout)
            {
                _debugAbortMessage = "ERR timeout during Lua debugging with client closing connection";
                YieldK(L, 0, 0, 0);
            }
            _startTicks = Environment.TickCount64;
            return;
        }
        _debugStopped = true;
        YieldK(L, 0, 0, 0);
    }

    /// <summary>ldb(1, ...): redis.debug() logs its arguments; ldb(2): redis.breakpoint() stops at the next line (true when debugging).</summary>
    [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
    private static int DebuggerCallback(nint L)
    {
        var debugger = t_current?._debugger;
        if (ToIntegerX(L, 1, null) == 2)
        {
            if (debugger != null)
                debugger.LuaBreakpoint = true;
            PushBoolean(L, debugger != null ? 1 : 0);
            return 1;
        }
        if (debugger == null)
            return 0;
        try
        {
            var text = new StringBuilder("<debug> line ").Append(debugger.CurrentLine).Append(": ");
            int top = GetTop(L);
            for (int i = 2; i <= top; i++)
            {
                LuaValueText.Append(text, L, i - top - 1);
                if (i != top)
                    text.Append(", ");
            }
            debugger.Log(text.ToString());
        }
        catch (Exception)
        {
            // Nothing may throw into Lua; the log line is lost.
        }
        return 0;
    }

    /// <summary>"&lt;redis&gt; cmd args" before a call made while stepping (at most 10 arguments shown, as Redis counts the rest).</summary>
    private void LogRedisCall(LuaDebugger debugger, int count)
    {
        var text = new StringBuilder("<redis>");
        for (int i = 0; i < count; i++)
        {
            if (i == 10)
            {
                text.Append(" ... (").Append(count - i - 1).Append(" more)");
                break;
            }
            text.Append(' ').Append(Encoding.UTF8.GetString(_callArgs[i].Span));
        }
        debugger.Log(text.ToString());
    }

    /// <summary>
    /// "&lt;reply&gt; ..." after a call made while stepping, after "&lt;error&gt; -CODE ..." when the command replied an
    /// error (as Redis logs the error redis.call raises); a call refused before it ran logs only "&lt;error&gt; ...", without
    /// the error code, as Redis words its refusals.
    /// </summary>
    private static void LogRedisReply(LuaDebugger debugger, ReadOnlySpan<byte> reply, bool ran)
    {
        if (reply.Length > 0 && reply[0] == '-')
        {
            int end = reply.IndexOf("\r\n"u8);
            var line = end < 0 ? reply : reply.Slice(0, end);
            if (!ran)
            {
                line = line.Slice(1);
                if (line.StartsWith("ERR "u8))
                    line = line.Slice(4);
                debugger.Log("<error> " + Encoding.UTF8.GetString(line));
                return;
            }
            debugger.Log("<error> " + Encoding.UTF8.GetString(line));
        }
        debugger.LogTrimmed("<reply> " + ReplyText.Of(reply));
    }

    /// <summary>print: all the locals of the frame where the script stopped.</summary>
    public void DebugPrintLocals(LuaDebugger debugger)
    {
        nint L = _thread;
        byte* debug = stackalloc byte[DebugSize];
        int shown = 0;
        if (GetStack(L, 0, debug) != 0 && CheckStack(L, 4) != 0)
        {
            for (int n = 1; ; n++)
            {
                byte* name = GetLocal(L, debug, n);
                if (name == null)
                    break;
                string text = Marshal.PtrToStringUTF8((nint)name) ?? "";
                // Lua's internal slots ("(temporary)", "(C temporary)") are not variables of the script.
                if (!text.Contains("temporary", StringComparison.Ordinal))
                {
                    var line = new StringBuilder("<value> ").Append(text).Append(" = ");
                    LuaValueText.Append(line, L, -1);
                    debugger.LogTrimmed(line.ToString());
                    shown++;
                }
                Pop(L, 1);
            }
        }
        if (shown == 0)
            debugger.Log("No local variables in the current context.");
    }

    /// <summary>print var: the innermost local of that name in the stopped script's frames, or the global KEYS or ARGV.</summary>
    public void DebugPrintVariable(LuaDebugger debugger, string variable)
    {
        nint L = _thread;
        byte* debug = stackalloc byte[DebugSize];
        if (CheckStack(L, 4) == 0)
            return;
        for (int level = 0; GetStack(L, level, debug) != 0; level++)
        {
            for (int n = 1; ; n++)
            {
                byte* name = GetLocal(L, debug, n);
                if (name == null)
                    break;
                if (Marshal.PtrToStringUTF8((nint)name) == variable)
                {
                    var line = new StringBuilder("<value> ");
                    LuaValueText.Append(line, L, -1);
                    Pop(L, 1);
                    debugger.LogTrimmed(line.ToString());
                    return;
                }
                Pop(L, 1);
            }
        }
        if (variable is "KEYS" or "ARGV")
        {
            RawGetI(_state, RegistryIndex, (variable == "KEYS" ? _keys : _argv).Reference);
            var line = new StringBuilder("<value> ");
            LuaValueText.Append(line, _state, -1);
            Pop(_state, 1);
            debugger.LogTrimmed(line.ToString());
            return;
        }
        debugger.Log("No such variable.");
    }

    /// <summary>trace: the script's frames from where it stopped outwards.</summary>
    public void DebugTrace(LuaDebugger debugger)
    {
        nint L = _thread;
        byte* debug = stackalloc byte[DebugSize];
        int level = 0;
        fixed (byte* what = "Snl\0"u8)
        {
            for (; GetStack(L, level, debug) != 0; level++)
            {
                GetInfo(L, what, debug);
                byte* source = *(byte**)(debug + DebugSourceOffset);
                if (source == null || !IsChunk(source, "@user_script"u8))
                    continue;
                byte* name = *(byte**)(debug + DebugNameOffset);
                string function = name == null ? "top level" : Marshal.PtrToStringUTF8((nint)name) ?? "top level";
                debugger.Log($"{(level == 0 ? "In" : "From")} {function}:");
                debugger.LogSourceLine(*(int*)(debug + DebugCurrentLineOffset));
            }
        }
        if (level == 0)
            debugger.Log("<error> Can't retrieve Lua stack.");
    }

    /// <summary>
    /// eval code: runs <paramref name="code"/> in a frame of its own (the script's locals are not visible; the globals,
    /// KEYS and ARGV are), as an expression first ("return code") and as statements if that does not compile.
    /// </summary>
    public void DebugEval(LuaDebugger debugger, string code)
    {
        nint L = _state;
        if (CheckStack(L, 4) == 0)
            return;
        var chunkName = "@ldb_eval\0"u8;
        if (LoadChunk(Encoding.UTF8.GetBytes("return " + code), chunkName, "t\0"u8) != Ok)
        {
            Pop(L, 1);
            if (LoadChunk(Encoding.UTF8.GetBytes(code), chunkName, "t\0"u8) != Ok)
            {
                debugger.Log("<error> " + Encoding.UTF8.GetString(ToSpan(L, -1)));
                Pop(L, 1);
                return;
            }
        }
        RawGetI(L, RegistryIndex, _environmentRef);
        SetUpvalue(L, -2, 1);
        int status = CallFromDebugger(0, 1);
        if (status != Ok)
        {
            debugger.Log("<error> " + DebugErrorText(L));
            Pop(L, 1);
            return;
        }
        var line = new StringBuilder("<retval> ");
        LuaValueText.Append(line, L, -1);
        Pop(L, 1);
        debugger.LogTrimmed(line.ToString());
    }

    /// <summary>redis cmd args: runs the command as redis.call would, logging it and its reply whatever the stepping.</summary>
    public void DebugRedis(LuaDebugger debugger, string[] argv)
    {
        nint L = _state;
        if (CheckStack(L, argv.Length + 2) == 0)
        {
            debugger.LogTrimmed("<reply> max lua stack reached");
            return;
        }
        PushCClosure(L, &RedisCallCallback, 0);
        for (int i = 1; i < argv.Length; i++)
            PushBytes(L, Encoding.UTF8.GetBytes(argv[i]));
        debugger.Step = true;
        try
        {
            CallFromDebugger(argv.Length - 1, 2);
        }
        finally
        {
            debugger.Step = false;
        }
        SetTop(L, 0);
    }

    /// <summary>Calls the function below <paramref name="arguments"/> arguments on the main thread, with this runner current (redis.call needs it).</summary>
    private int CallFromDebugger(int arguments, int results)
    {
        var previous = t_current;
        t_current = this;
        try
        {
            return PCallK(_state, arguments, results, 0, 0, 0);
        }
        finally
        {
            t_current = previous;
        }
    }

    /// <summary>The text of the error on top of <paramref name="L"/>: a string as is, a Redis error table by its err field.</summary>
    private static string DebugErrorText(nint L)
    {
        if (Type(L, -1) == TypeTable)
        {
            PushBytes(L, "err"u8);
            RawGet(L, -2);
            string text = Type(L, -1) == TypeString ? Encoding.UTF8.GetString(ToSpan(L, -1)) : "(null)";
            Pop(L, 1);
            return text;
        }
        return Type(L, -1) is TypeString or TypeNumber ? Encoding.UTF8.GetString(ToSpan(L, -1)) : "(null)";
    }
}
