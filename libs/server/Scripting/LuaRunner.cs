using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;
using Garnet.common;
using static Garnet.server.Scripting.LuaNative;

namespace Garnet.server.Scripting;

/// <summary>
/// One session's Lua state (created on its first script): the sandbox from <see cref="LuaPrelude"/>,
/// the session's compiled scripts by digest, and one coroutine that runs each script so a count hook
/// can stop it (SCRIPT KILL) by yielding, which needs no longjmp through managed code.
/// Scripts run on the session's thread; the C callbacks find the runner through a thread-static.
/// A run allocates nothing: KEYS and ARGV are two tables kept from run to run (refilled in place and
/// replaced only when a script changed their shape), EVALSHA finds its script by the digest's text,
/// and redis.call passes pointers to the Lua strings as the command's arguments.
/// </summary>
internal sealed unsafe partial class LuaRunner : IDisposable
{
    /// <summary>Lua instructions between two checks of the time limit and of the kill flag.</summary>
    private const int HookInstructions = 10_000;

    /// <summary>Deepest table nesting converted to or from a reply.</summary>
    private const int MaxNesting = 1000;

    [ThreadStatic]
    private static LuaRunner? t_current;

    private readonly KeraLua.Lua _lua;
    private readonly nint _state;
    private readonly nint _thread;
    private readonly int _globalsRef;
    private readonly int _environmentRef;
    private readonly Dictionary<ScriptDigest, CompiledScript> _functions = new();
    private readonly ScriptingState _scripting;
    private readonly RespServerSession _session;
    private readonly ReplyBuffer _reply = new(4096);
    private ArgSlice[] _callArgs = new ArgSlice[8];
    private ArgumentTable _keys;
    private ArgumentTable _argv;

    /// <summary>Whether the last script may have changed KEYS or ARGV (then they are checked before reuse).</summary>
    private bool _argumentsMayHaveChanged;

    // The last script run by EVAL, by its text (so a repeated EVAL hashes nothing).
    private byte[] _lastBody = new byte[256];
    private int _lastBodyLength = -1;
    private ScriptDigest _lastBodyDigest;
    private CompiledScript _lastBodyScript;

    // The last script found by EVALSHA, by the digest's text as sent (so a repeated EVALSHA parses nothing).
    private readonly byte[] _lastShaText = new byte[ScriptDigest.HexLength];
    private bool _hasLastSha;
    private ScriptDigest _lastShaDigest;
    private CompiledScript _lastShaScript;

    // The script being run.
    private bool _readOnly;
    private bool _wrote;
    private volatile bool _killRequested;
    private bool _timedOut;
    private long _startTicks;
    private long _limitMilliseconds;
    private bool _resp3;
    private bool _disposed;

    /// <summary>Whether the script thread has the instruction-count hook (see <see cref="CompiledScript.MayLoop"/>).</summary>
    private bool _hooked;

    public LuaRunner(RespServerSession session, ScriptingState scripting)
    {
        _session = session;
        _scripting = scripting;
        Generation = scripting.Generation;
        _lua = new KeraLua.Lua(openLibs: true);
        _state = _lua.Handle;

        // The prelude gets the C functions it wraps and returns the globals and the environment proxy.
        if (_lua.LoadString(LuaPrelude.Source, "=prelude") != KeraLua.LuaStatus.OK)
            throw new InvalidOperationException("The Lua prelude does not compile: " + _lua.ToString(-1));
        PushCClosure(_state, &RedisCallCallback, 0);
        PushCClosure(_state, &Sha1HexCallback, 0);
        PushCClosure(_state, &SetRespCallback, 0);
        PushCClosure(_state, &ArmHookCallback, 0);
        PushLightUserData(_state, 0);
        PushBytes(_state, ServerStrings.RedisVersion);
        var version = ServerStrings.RedisVersionText.Split('.');
        PushInteger(_state, (int.Parse(version[0]) << 16) | (int.Parse(version[1]) << 8) | int.Parse(version[2]));
        PushCClosure(_state, &DebuggerCallback, 0);
        if (PCallK(_state, 8, 5, 0, 0, 0) != Ok)
            throw new InvalidOperationException("The Lua prelude failed: " + _lua.ToString(-1));
        _endLoadRef = Ref(_state, RegistryIndex);
        _beginLoadRef = Ref(_state, RegistryIndex);
        _functionEnvironmentRef = Ref(_state, RegistryIndex);
        _environmentRef = Ref(_state, RegistryIndex);
        _globalsRef = Ref(_state, RegistryIndex);

        _thread = NewThread(_state);
        Ref(_state, RegistryIndex);
        SetHook(_thread, &HookCallback, MaskCount, HookInstructions);
        _hooked = true;
        _keys = NewArgumentTable(_state, _globalsRef, "KEYS"u8, 0);
        _argv = NewArgumentTable(_state, _globalsRef, "ARGV"u8, 0);
    }

    /// <summary>The script cache generation this state was built for (SCRIPT FLUSH makes it stale).</summary>
    public long Generation { get; }

    /// <summary>Whether the running script ran a write command (then SCRIPT KILL cannot stop it).</summary>
    public bool HasWritten => _wrote;

    /// <summary>Asks the running script to stop at its next hook (SCRIPT KILL, from another thread).</summary>
    public void RequestKill() => _killRequested = true;

    /// <summary>
    /// Makes sure the script <paramref name="digest"/> is compiled here: from <paramref name="body"/>
    /// (EVAL, SCRIPT LOAD), or with <paramref name="fromCache"/> from the server's cache (EVALSHA).
    /// Returns false with <paramref name="error"/> null when the cache does not have it, or with the
    /// compile error. The script's shebang may declare no-writes (<see cref="CompiledScript.NoWrites"/>).
    /// </summary>
    public bool TryPrepare(in ScriptDigest digest, ReadOnlySpan<byte> body, bool fromCache, out CompiledScript script, out string? error)
    {
        error = null;
        if (_functions.TryGetValue(digest, out script))
            return true;
        byte[]? cached = _scripting.Find(digest);
        if (fromCache)
        {
            if (cached == null)
                return false;
            body = cached;
        }
        if (!TryCompile(body, out int reference, out var summary, out error))
            return false;
        script = new CompiledScript(reference, IsNoWrites(body), summary.MayLoop, summary.MayChangeTables);
        _functions.Add(digest, script);
        if (cached == null)
            _scripting.Add(digest, body.ToArray());
        return true;
    }

    /// <summary>
    /// EVAL's lookup: <see cref="TryPrepare"/> for script text <paramref name="body"/>, remembering the
    /// last one so a repeated EVAL compares the text instead of hashing it.
    /// </summary>
    public bool TryPrepareBody(ReadOnlySpan<byte> body, out ScriptDigest digest, out CompiledScript script, out string? error)
    {
        if (_lastBodyLength == body.Length && body.SequenceEqual(_lastBody.AsSpan(0, _lastBodyLength)))
        {
            digest = _lastBodyDigest;
            script = _lastBodyScript;
            error = null;
            return true;
        }
        digest = ScriptDigest.Of(body);
        if (!TryPrepare(digest, body, fromCache: false, out script, out error))
            return false;
        if (_lastBody.Length < body.Length)
            _lastBody = new byte[Math.Max(body.Length, 2 * _lastBody.Length)];
        body.CopyTo(_lastBody);
        _lastBodyLength = body.Length;
        _lastBodyDigest = digest;
        _lastBodyScript = script;
        return true;
    }

    /// <summary>
    /// EVALSHA's lookup: <see cref="TryPrepare"/> from the server's cache by the digest's text
    /// <paramref name="sha"/> (any case), remembering the last one found so a repeated EVALSHA only
    /// compares 40 bytes. False with <paramref name="error"/> null when there is no such script.
    /// </summary>
    public bool TryPrepareSha(ReadOnlySpan<byte> sha, out ScriptDigest digest, out CompiledScript script, out string? error)
    {
        if (_hasLastSha && sha.SequenceEqual(_lastShaText))
        {
            digest = _lastShaDigest;
            script = _lastShaScript;
            error = null;
            return true;
        }
        if (!ScriptDigest.TryParse(sha, out digest))
        {
            script = default;
            error = null;
            return false;
        }
        if (!TryPrepare(digest, default, fromCache: true, out script, out error))
            return false;
        sha.CopyTo(_lastShaText);
        _lastShaDigest = digest;
        _lastShaScript = script;
        _hasLastSha = true;
        return true;
    }

    /// <summary>
    /// A compiled script: its function's registry reference, whether its shebang declares no-writes
    /// (it then runs as with EVAL_RO), and whether it may loop. A script that cannot (no backward
    /// jump, no nested function) runs only as many instructions as it has, plus what it calls: C
    /// functions and commands, which no hook interrupts, and the library's Lua code, which turns the
    /// hook on where it could loop (loaded chunks, cjson, cmsgpack; see <see cref="LuaPrelude"/>). So
    /// it runs without the hook, whose per-instruction cost is a good part of a short script's.
    /// </summary>
    /// <remarks>
    /// <see cref="MayChangeTables"/>: whether it may change KEYS or ARGV (see <see cref="LuaBytecode"/>);
    /// only after such a script are they checked before being refilled.
    /// </remarks>
    internal readonly record struct CompiledScript(int Reference, bool NoWrites, bool MayLoop, bool MayChangeTables);

    /// <summary>
    /// Compiles <paramref name="body"/> into a function whose globals are the sandbox, with its tail
    /// calls turned into plain calls (<see cref="LuaBytecode"/>) so errors keep the script's line.
    /// </summary>
    private bool TryCompile(ReadOnlySpan<byte> body, out int reference, out LuaBytecode.Summary summary, out string? error)
    {
        reference = 0;
        summary = default;
        error = null;
        var source = body;
        if (!TryStripShebang(ref source, out error))
            return false;
        if (!TryLoadSource(source, ScriptChunkName, "ERR Error compiling script (new function): ", out error))
            return false;
        summary = RewriteBytecode(ScriptChunkName);
        // A script that only reads globals reads them from the globals table itself, not through the read-only proxy.
        RawGetI(_state, RegistryIndex, summary.UsesEnvironment ? _environmentRef : _globalsRef);
        SetUpvalue(_state, -2, 1);
        reference = Ref(_state, RegistryIndex);
        return true;
    }

    /// <summary>The chunk name of scripts (NUL-terminated): errors and debug info show it as the source.</summary>
    private static ReadOnlySpan<byte> ScriptChunkName => "@user_script\0"u8;

    /// <summary>
    /// Compiles Lua source onto the stack; false, with <paramref name="errorPrefix"/> and Lua's message in
    /// <paramref name="error"/>, if it does not compile.
    /// </summary>
    private bool TryLoadSource(ReadOnlySpan<byte> source, ReadOnlySpan<byte> chunkName, string errorPrefix, out string? error)
    {
        if (LoadChunk(source, chunkName, "t\0"u8) != Ok)
        {
            error = errorPrefix + Encoding.UTF8.GetString(ToSpan(_state, -1));
            Pop(_state, 1);
            return false;
        }
        error = null;
        return true;
    }

    /// <summary>Loads a chunk (<paramref name="mode"/> "t" for source, "b" for bytecode, NUL-terminated) onto the stack; returns Lua's status.</summary>
    private int LoadChunk(ReadOnlySpan<byte> chunk, ReadOnlySpan<byte> chunkName, ReadOnlySpan<byte> mode)
    {
        fixed (byte* p = chunk)
        fixed (byte* name = chunkName)
        fixed (byte* m = mode)
            return LoadBufferX(_state, p, (nuint)chunk.Length, name, m);
    }

    /// <summary>
    /// Replaces the function on top of the stack by a copy without tail calls (<see cref="LuaBytecode"/>)
    /// and returns what the rewrite found; a chunk it cannot read stays as it is, counted as looping
    /// and using its environment.
    /// </summary>
    private LuaBytecode.Summary RewriteBytecode(ReadOnlySpan<byte> chunkName)
    {
        var unknown = new LuaBytecode.Summary { MayLoop = true, UsesEnvironment = true, MayChangeTables = true };
        var chunk = new System.IO.MemoryStream();
        var handle = GCHandle.Alloc(chunk);
        try
        {
            if (Dump(_state, &DumpWriter, GCHandle.ToIntPtr(handle), 0) != 0)
                return unknown;
        }
        finally
        {
            handle.Free();
        }
        if (!chunk.TryGetBuffer(out var buffer) || !LuaBytecode.TryRewrite(buffer, out var summary))
            return unknown;
        if (summary.TailCalls == 0)
            return summary;
        if (LoadChunk(buffer.AsSpan(), chunkName, "b\0"u8) != Ok)
        {
            Pop(_state, 1);
            return unknown;
        }
        Rotate(_state, -2, 1);
        Pop(_state, 1);
        return summary;
    }

    [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
    private static int DumpWriter(nint L, byte* data, nuint size, nint stream)
    {
        ((System.IO.MemoryStream)GCHandle.FromIntPtr(stream).Target!).Write(new ReadOnlySpan<byte>(data, (int)size));
        return 0;
    }

    /// <summary>
    /// Redis 7's "#!lua [flags=...]" first line: the engine must be lua; the line is blanked so line
    /// numbers stay. Flags are accepted (no-writes is honoured by the caller through <see cref="IsNoWrites"/>).
    /// </summary>
    private static bool TryStripShebang(ref ReadOnlySpan<byte> source, out string? error)
    {
        error = null;
        if (!source.StartsWith("#!"u8))
            return true;
        int end = source.IndexOf((byte)'\n');
        var line = end < 0 ? source : source.Slice(0, end);
        var parts = Encoding.UTF8.GetString(line.Slice(2)).Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (parts.Length == 0 || parts[0] != "lua")
        {
            error = $"ERR Could not find engine '{(parts.Length == 0 ? "" : parts[0])}'";
            return false;
        }
        for (int i = 1; i < parts.Length; i++)
        {
            if (!parts[i].StartsWith("flags=", StringComparison.Ordinal))
            {
                error = $"ERR Unknown lua shebang option: {parts[i]}";
                return false;
            }
            foreach (var flag in parts[i].Substring(6).Split(',', StringSplitOptions.RemoveEmptyEntries))
            {
                if (flag is not ("no-writes" or "allow-oom" or "allow-stale" or "no-cluster" or "allow-cross-slot-keys"))
                {
                    error = $"ERR Unexpected flag in script shebang: {flag}";
                    return false;
                }
            }
        }
        source = end < 0 ? ReadOnlySpan<byte>.Empty : source.Slice(end);
        return true;
    }

    /// <summary>Whether a script's shebang declares no-writes (it then runs as with EVAL_RO).</summary>
    internal static bool IsNoWrites(ReadOnlySpan<byte> body)
    {
        if (!body.StartsWith("#!"u8))
            return false;
        int end = body.IndexOf((byte)'\n');
        var line = end < 0 ? body : body.Slice(0, end);
        int flags = line.IndexOf("flags="u8);
        return flags >= 0 && line.Slice(flags).IndexOf("no-writes"u8) >= 0;
    }

    /// <summary>
    /// Runs the prepared <paramref name="script"/> (digest <paramref name="digest"/>, for error
    /// messages) with KEYS and ARGV and writes its reply (or error) to <paramref name="writer"/>, in
    /// the caller's protocol.
    /// </summary>
    public void Run(in ScriptDigest digest, in CompiledScript script, ReadOnlySpan<ArgSlice> keys, ReadOnlySpan<ArgSlice> args, bool readOnly, ref RespWriter writer)
    {
        nint L = _thread;
        if (CheckStack(L, 8) == 0)
            throw new InvalidOperationException("The Lua stack cannot grow.");
        Fill(L, ref _keys, "KEYS"u8, keys, _argumentsMayHaveChanged);
        Fill(L, ref _argv, "ARGV"u8, args, _argumentsMayHaveChanged);
        _argumentsMayHaveChanged = script.MayChangeTables;
        RawGetI(L, RegistryIndex, script.Reference);
        SetHooked(script.MayLoop);
        Execute(0, readOnly, ref writer, digest);
    }

    /// <summary>Turns the script thread's instruction-count hook on or off (only while the thread is not running).</summary>
    private void SetHooked(bool hooked)
    {
        if (hooked == _hooked)
            return;
        if (hooked)
            SetHook(_thread, &HookCallback, MaskCount, HookInstructions);
        else
            SetHook(_thread, null, 0, 0);
        _hooked = hooked;
    }

    /// <summary>
    /// Runs the function on the script thread's stack, below its <paramref name="argumentCount"/>
    /// arguments, and writes its reply or error. Errors name the script by <paramref name="digest"/>,
    /// or the running function when it is one.
    /// </summary>
    private void Execute(int argumentCount, bool readOnly, ref RespWriter writer, in ScriptDigest digest)
    {
        BeginRun(readOnly);
        int status = ResumeScript(argumentCount, out int results);
        FinishRun(status, results, ref writer, digest, abortMessage: null);
    }

    /// <summary>Resets what a run tracks (writes, kill, time limit) before it starts.</summary>
    private void BeginRun(bool readOnly)
    {
        _readOnly = readOnly;
        _wrote = false;
        _killRequested = false;
        _timedOut = false;
        _resp3 = false;
        long limit = _scripting.TimeLimitMilliseconds;
        _limitMilliseconds = limit <= 0 ? long.MaxValue : limit;
        _startTicks = Environment.TickCount64;
    }

    /// <summary>Resumes the script thread (starting it, with <paramref name="argumentCount"/> arguments, or going on after a yield); returns Lua's status.</summary>
    private int ResumeScript(int argumentCount, out int results)
    {
        var previous = t_current;
        t_current = this;
        try
        {
            return Resume(_thread, _state, argumentCount, out results);
        }
        finally
        {
            t_current = previous;
            if (_timedOut)
                _scripting.RemoveTimedOut(this);
        }
    }

    /// <summary>
    /// Writes the reply of a run that ended with <paramref name="status"/>, or its error; <paramref name="abortMessage"/>,
    /// when set, is the error of a script the debugger stopped (it is suspended where it stopped).
    /// </summary>
    private void FinishRun(int status, int results, ref RespWriter writer, in ScriptDigest digest, string? abortMessage)
    {
        nint L = _thread;
        // A kill that yielded a coroutine of the script ends the script too.
        if (status == Ok && _killRequested)
            status = Yield;
        if (status == Ok && abortMessage == null)
        {
            if (results == 0)
                writer.WriteNull();
            else
                WriteValue(L, GetTop(L) - results + 1, ref writer, 0);
            SetTop(L, 0);
        }
        else
        {
            string message;
            // A raised error of a command the script called (redis.call) was counted when the command replied.
            bool counted = false;
            if (abortMessage != null)
            {
                message = abortMessage;
            }
            else if (status == Yield)
            {
                message = _killRequested ? "ERR Script killed by user with SCRIPT KILL..." : "ERR attempt to yield from outside a coroutine";
            }
            else if (status == ErrorMemory)
            {
                message = "ERR Out of memory in the Lua script";
            }
            else
            {
                message = ErrorText(L, -1);
                counted = Type(L, -1) == TypeTable && IsCountedError(L, GetTop(L));
            }
            var function = _runningFunction;
            int line = FindUserLine(L, function == null ? "@user_script"u8 : "@user_function"u8);
            if (line > 0)
                message += $" script: {function?.Name ?? digest.ToString()}, on @{(function == null ? "user_script" : "user_function")}:{line}.";
            writer.WriteError(message, counted);
            // Resetting a failed thread leaves the error object on its stack: a new run needs it empty.
            CloseThread(L, _state);
            SetTop(L, 0);
        }
    }

    /// <summary>The KEYS or ARGV table: its registry reference and how many elements the last run set.</summary>
    private struct ArgumentTable
    {
        public int Reference;
        public int Count;
    }

    /// <summary>Creates an empty argument table, sets it as global <paramref name="name"/> and references it.</summary>
    private static ArgumentTable NewArgumentTable(nint L, int globalsRef, ReadOnlySpan<byte> name, int size)
    {
        RawGetI(L, RegistryIndex, globalsRef);
        PushBytes(L, name);
        CreateTable(L, size, 0);
        PushValue(L, -1);
        int reference = Ref(L, RegistryIndex);
        RawSet(L, -3);
        Pop(L, 1);
        return new ArgumentTable { Reference = reference, Count = 0 };
    }

    /// <summary>
    /// Sets KEYS or ARGV to <paramref name="values"/>: the last run's table is refilled in place (extra
    /// elements cleared) when the script left it as it was given (no metatable, no keys but 1..Count;
    /// checked when <paramref name="check"/>, i.e. the last script may have changed it), otherwise a
    /// new table replaces it.
    /// </summary>
    private void Fill(nint L, ref ArgumentTable table, ReadOnlySpan<byte> name, ReadOnlySpan<ArgSlice> values, bool check)
    {
        RawGetI(L, RegistryIndex, table.Reference);
        int t = GetTop(L);
        if (check && !HasOnlyElements(L, t, table.Count))
        {
            Pop(L, 1);
            Unref(L, RegistryIndex, table.Reference);
            table = NewArgumentTable(L, _globalsRef, name, values.Length);
            RawGetI(L, RegistryIndex, table.Reference);
        }
        for (int i = 0; i < values.Length; i++)
        {
            PushLString(L, values[i].Pointer, (nuint)values[i].Length);
            RawSetI(L, t, i + 1);
        }
        for (int i = values.Length; i < table.Count; i++)
        {
            PushNil(L);
            RawSetI(L, t, i + 1);
        }
        table.Count = values.Length;
        Pop(L, 1);
    }

    /// <summary>Whether the table at <paramref name="t"/> has no metatable and no keys other than 1..<paramref name="count"/>.</summary>
    private static bool HasOnlyElements(nint L, int t, int count)
    {
        if (GetMetatable(L, t) != 0)
        {
            Pop(L, 1);
            return false;
        }
        PushNil(L);
        while (Next(L, t) != 0)
        {
            if (IsInteger(L, -2) == 0 || (ulong)(ToIntegerX(L, -2, null) - 1) >= (ulong)count)
            {
                Pop(L, 2);
                return false;
            }
            Pop(L, 1);
        }
        return true;
    }

    /// <summary>The text of an error value: a table's err field as is, anything else prefixed "ERR " as Redis's handler does.</summary>
    private static string ErrorText(nint L, int index)
    {
        int type = Type(L, index);
        if (type == TypeTable)
        {
            PushBytes(L, "err"u8);
            int fieldType = RawGet(L, index - 1);
            string text = fieldType == TypeString ? Encoding.UTF8.GetString(ToSpan(L, -1)) : "ERR unknown error";
            Pop(L, 1);
            return text;
        }
        if (type is TypeString or TypeNumber)
            return "ERR " + Encoding.UTF8.GetString(ToSpan(L, index));
        return type switch
        {
            TypeNil => "ERR nil",
            TypeBoolean => ToBoolean(L, index) != 0 ? "ERR true" : "ERR false",
            _ => "ERR execution failure",
        };
    }

    /// <summary>The current line of the innermost frame of chunk <paramref name="chunk"/> ("@user_script", "@user_function") in a failed or yielded coroutine (its stack is kept), or 0.</summary>
    private static int FindUserLine(nint L, ReadOnlySpan<byte> chunk)
    {
        byte* debug = stackalloc byte[DebugSize];
        fixed (byte* what = "Sl\0"u8)
        {
            for (int level = 0; GetStack(L, level, debug) != 0; level++)
            {
                GetInfo(L, what, debug);
                byte* source = *(byte**)(debug + DebugSourceOffset);
                if (source != null && IsChunk(source, chunk))
                {
                    int line = *(int*)(debug + DebugCurrentLineOffset);
                    if (line > 0)
                        return line;
                }
            }
        }
        return 0;
    }

    /// <summary>Whether the C string <paramref name="source"/> is <paramref name="chunk"/>; compared up to the C string's end, so a shorter source is never read past.</summary>
    private static bool IsChunk(byte* source, ReadOnlySpan<byte> chunk)
    {
        for (int i = 0; i < chunk.Length; i++)
        {
            if (source[i] != chunk[i])
                return false;
        }
        return source[chunk.Length] == 0;
    }

    /// <summary>
    /// From here on other clients get -BUSY and may send SCRIPT KILL, which needs them served while this script holds
    /// its thread: the connections sharing the thread move to another one.
    /// </summary>
    private void ReleaseOtherConnections()
    {
        try
        {
            _session.ReleaseOtherConnections();
        }
        catch (Exception)
        {
            // Runs inside a Lua hook, where nothing may throw; the script goes on either way.
        }
    }

    [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
    private static void HookCallback(nint L, nint debug)
    {
        var runner = t_current;
        if (runner == null)
            return;
        if (runner._loadDeadline != 0)
        {
            // Library code being loaded has a fixed time to register its functions; it is never -BUSY.
            if (Environment.TickCount64 > runner._loadDeadline)
                runner._loadTimedOut = true;
            if (runner._loadTimedOut && IsYieldable(L) != 0)
                YieldK(L, 0, 0, 0);
            return;
        }
        if (!runner._timedOut && Environment.TickCount64 - runner._startTicks > runner._limitMilliseconds)
        {
            runner._timedOut = true;
            runner.CaptureBusyCommand();
            runner._scripting.AddTimedOut(runner);
            runner.ReleaseOtherConnections();
        }
        if (runner._scripting.Stopping)
            runner._killRequested = true;
        // Yielding from a count hook returns here normally; Lua unwinds after the hook returns.
        if (runner._killRequested && IsYieldable(L) != 0)
            YieldK(L, 0, 0, 0);
    }

    [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
    private static int Sha1HexCallback(nint L)
    {
        var text = ToSpan(L, 1);
        Span<byte> hex = stackalloc byte[40];
        ScriptDigest.Of(text).Format(hex);
        PushBytes(L, hex);
        return 1;
    }

    /// <summary>
    /// armhook(): turns the instruction-count hook on for the rest of the run, on the calling thread
    /// (which may be a coroutine of the script) and on the script's own thread (suspended in
    /// lua_resume if it is not the caller). Coroutines created later inherit it.
    /// </summary>
    [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
    private static int ArmHookCallback(nint L)
    {
        var runner = t_current;
        if (runner == null)
            return 0;
        if (L != runner._thread)
            SetHook(L, &HookCallback, MaskCount, HookInstructions);
        if (!runner._hooked)
        {
            SetHook(runner._thread, &HookCallback, MaskCount, HookInstructions);
            runner._hooked = true;
        }
        return 0;
    }

    [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
    private static int SetRespCallback(nint L)
    {
        var runner = t_current;
        if (runner != null)
            runner._resp3 = ToIntegerX(L, 1, null) == 3;
        return 0;
    }

    /// <summary>
    /// redis.call / redis.pcall: returns the converted reply, plus 1 when it is an error reply (call
    /// raises it) or 2 when the call itself was invalid (both raise).
    /// </summary>
    [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
    private static int RedisCallCallback(nint L)
    {
        var runner = t_current;
        if (runner == null)
            return 0;
        try
        {
            return runner.Call(L);
        }
        catch (Exception e)
        {
            runner._reply.Reset();
            return ReturnError(L, "ERR " + e.Message, 1);
        }
    }

    private static int ReturnError(nint L, string message, int raise)
    {
        CreateTable(L, 0, 1);
        PushBytes(L, "err"u8);
        PushBytes(L, Encoding.UTF8.GetBytes(message));
        RawSet(L, -3);
        PushInteger(L, raise);
        return 2;
    }

    private int Call(nint L)
    {
        int count = GetTop(L);
        if (count == 0)
            return ReturnError(L, "ERR Please specify at least one argument for this redis lib call", 2);
        if (_callArgs.Length < count)
            Array.Resize(ref _callArgs, Math.Max(count, 2 * _callArgs.Length));
        for (int i = 1; i <= count; i++)
        {
            int type = Type(L, i);
            if (type == TypeNumber)
            {
                PushNumberText(L, i);
                Replace(L, i);
            }
            else if (type != TypeString)
            {
                return ReturnError(L, "ERR Lua redis lib command arguments must be strings or integers", 2);
            }
            nuint length;
            byte* p = ToLString(L, i, &length);
            _callArgs[i - 1] = new ArgSlice(p, (int)length);
        }

        // Scripting/Debugger: while the debugger steps, each call and its reply are logged.
        var debugger = _debugger;
        if (debugger is { Step: true })
            LogRedisCall(debugger, count);
        _reply.Reset();
        bool ran = _session.RunCommandFromScript(_callArgs, count, _reply, _resp3, _readOnly, ref _wrote);
        var reply = _reply.Written;
        if (debugger is { Step: true })
            LogRedisReply(debugger, reply, ran);
        if (CheckStack(L, 8) == 0)
            return 0;
        int position = 0;
        bool isError = reply.Length > 0 && reply[0] == '-';
        PushReply(L, reply, ref position, 0);
        _reply.Reset();
        if (!isError)
            return 1;
        PushInteger(L, 1);
        return 2;
    }

    /// <summary>Pushes the text Redis sends for a number argument: integers as such, other doubles in shortest form.</summary>
    private static void PushNumberText(nint L, int index)
    {
        Span<byte> text = stackalloc byte[32];
        int length;
        if (IsInteger(L, index) != 0)
        {
            System.Buffers.Text.Utf8Formatter.TryFormat(ToIntegerX(L, index, null), text, out length);
        }
        else
        {
            double value = ToNumberX(L, index, null);
            if (Math.Floor(value) == value && Math.Abs(value) < 1e17)
            {
                System.Buffers.Text.Utf8Formatter.TryFormat((long)value, text, out length);
            }
            else
            {
                string s = double.IsNaN(value) ? "nan" : double.IsPositiveInfinity(value) ? "inf" : double.IsNegativeInfinity(value) ? "-inf"
                    : value.ToString("R", System.Globalization.CultureInfo.InvariantCulture).Replace("E", "e");
                length = Encoding.ASCII.GetBytes(s, text);
            }
        }
        PushBytes(L, text.Slice(0, length));
    }

    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        _lua.Dispose();
        _reply.Dispose();
    }
}
