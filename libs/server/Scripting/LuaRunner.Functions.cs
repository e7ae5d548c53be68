using System;
using System.Collections.Generic;
using System.Text;
using System.Threading;
using Garnet.common;
using static Garnet.server.Scripting.LuaNative;

namespace Garnet.server.Scripting;

/// <summary>
/// Function libraries in this session's Lua state. FUNCTION LOAD and RESTORE run a library's code
/// here to learn what it registers (<see cref="TryLoadLibrary"/>); FCALL runs the code of a library
/// once per session, on its first call of one of its functions, and keeps the callbacks it
/// registered until the registry changes (<see cref="TryGetCallback"/>). A callback runs like a
/// script (same thread, hook, time limit, kill and reply conversion) with its keys and arguments
/// as two tables.
/// </summary>
internal sealed unsafe partial class LuaRunner
{
    /// <summary>How long library code may run while it loads, as in Redis.</summary>
    private const long LoadTimeoutMilliseconds = 500;

    private readonly int _functionEnvironmentRef;
    private readonly int _beginLoadRef;
    private readonly int _endLoadRef;

    /// <summary>Callback references of the libraries loaded here, by function index; valid for registry version <see cref="_librariesVersion"/>.</summary>
    private readonly Dictionary<FunctionLibrary, int[]> _libraries = new();
    private long _librariesVersion = -1;

    // While library code loads: when it must be done by (0 when not loading), and whether it ran out of time.
    private long _loadDeadline;
    private bool _loadTimedOut;

    private volatile FunctionDefinition? _runningFunction;

    /// <summary>The function being run, or null (a script, or nothing): FUNCTION KILL and STATS read it from other threads.</summary>
    public FunctionDefinition? RunningFunction => _runningFunction;

    /// <summary>The command that started the function, copied when it passed the time limit (FUNCTION STATS).</summary>
    public byte[][] BusyCommand { get; private set; } = [];

    /// <summary>Milliseconds since the running script or function started.</summary>
    public long RunningMilliseconds => Environment.TickCount64 - Volatile.Read(ref _startTicks);

    /// <summary>A function a library's code registered: what the registry keeps, and its callback here.</summary>
    internal readonly record struct RegisteredFunction(string Name, string? Description, FunctionFlags Flags, int Callback);

    /// <summary>
    /// Runs the Lua code of a library (<paramref name="body"/>, the code after its shebang line) in
    /// load mode and returns the functions it registered, their callbacks referenced here (release
    /// them with <see cref="ReleaseCallbacks"/> or keep them with <see cref="AdoptLibraries"/>).
    /// False with Redis's error text when the code does not compile, fails, or runs too long.
    /// </summary>
    public bool TryLoadLibrary(ReadOnlySpan<byte> body, out List<RegisteredFunction> functions, out string? error)
    {
        functions = new List<RegisteredFunction>();
        int status;
        if (!TryLoadSource(body, "@user_function\0"u8, "ERR Error compiling function: ", out error))
            return false;
        // Without tail calls, as scripts, so errors keep the function's line.
        RewriteBytecode("@user_function\0"u8);
        RawGetI(_state, RegistryIndex, _functionEnvironmentRef);
        SetUpvalue(_state, -2, 1);
        CallHelper(_beginLoadRef, 0);
        XMove(_state, _thread, 1);

        SetHooked(true);
        _loadTimedOut = false;
        _loadDeadline = Environment.TickCount64 + LoadTimeoutMilliseconds;
        var previous = t_current;
        t_current = this;
        try
        {
            status = Resume(_thread, _state, 0, out _);
        }
        finally
        {
            t_current = previous;
            _loadDeadline = 0;
        }
        CallHelper(_endLoadRef, 1);
        if (status == Ok && _loadTimedOut)
            status = Yield;
        if (status != Ok)
        {
            string reason = _loadTimedOut ? "ERR FUNCTION LOAD timeout"
                : status == Yield ? "ERR attempt to yield from outside a coroutine"
                : status == ErrorMemory ? "ERR Out of memory in the Lua script"
                : ErrorText(_thread, -1);
            error = "ERR Error registering functions: " + reason;
            CloseThread(_thread, _state);
            SetTop(_thread, 0);
            Pop(_state, 1);
            return false;
        }
        SetTop(_thread, 0);
        ReadRegistrations(functions);
        error = null;
        return true;
    }

    /// <summary>Calls prelude function <paramref name="reference"/> with no arguments on the main state, leaving <paramref name="results"/> results.</summary>
    private void CallHelper(int reference, int results)
    {
        RawGetI(_state, RegistryIndex, reference);
        if (PCallK(_state, 0, results, 0, 0, 0) != Ok)
            throw new InvalidOperationException("A Lua prelude function failed: " + Encoding.UTF8.GetString(ToSpan(_state, -1)));
    }

    /// <summary>Reads (and pops) the registrations table end_load left on the main state: { name, callback, flags, description } each.</summary>
    private void ReadRegistrations(List<RegisteredFunction> functions)
    {
        int table = GetTop(_state);
        for (int i = 1; RawGetI(_state, table, i) == TypeTable; i++)
        {
            int entry = GetTop(_state);
            RawGetI(_state, entry, 1);
            string name = Encoding.UTF8.GetString(ToSpan(_state, -1));
            Pop(_state, 1);
            RawGetI(_state, entry, 3);
            var flags = (FunctionFlags)ToIntegerX(_state, -1, null);
            Pop(_state, 1);
            string? description = null;
            if (RawGetI(_state, entry, 4) == TypeString)
                description = Encoding.UTF8.GetString(ToSpan(_state, -1));
            Pop(_state, 1);
            RawGetI(_state, entry, 2);
            int callback = Ref(_state, RegistryIndex);
            functions.Add(new RegisteredFunction(name, description, flags, callback));
            Pop(_state, 1);
        }
        // The nil that ended the loop, and the table.
        Pop(_state, 2);
    }

    /// <summary>Drops the callbacks of a load whose library was not kept.</summary>
    public void ReleaseCallbacks(List<RegisteredFunction> functions)
    {
        foreach (var function in functions)
            Unref(_state, RegistryIndex, function.Callback);
    }

    /// <summary>
    /// Called after this session published <paramref name="libraries"/> (loaded here, with
    /// <paramref name="loads"/> their registrations in the same order), making registry version
    /// <paramref name="published"/>: when that was the only change since this state's libraries were
    /// current, the callbacks are kept, so this session's first FCALL need not run the code again.
    /// </summary>
    public void AdoptLibraries(FunctionSet published, FunctionLibrary[] libraries, List<RegisteredFunction>[] loads)
    {
        if (published.Version != _librariesVersion + 1)
        {
            foreach (var load in loads)
                ReleaseCallbacks(load);
            return;
        }
        _librariesVersion = published.Version;
        // Libraries replaced or removed by that change go.
        List<FunctionLibrary>? stale = null;
        foreach (var library in _libraries.Keys)
        {
            if (published.FindLibrary(library.Name) != library)
                (stale ??= new()).Add(library);
        }
        if (stale != null)
        {
            foreach (var library in stale)
                DropLibrary(library);
        }
        for (int i = 0; i < libraries.Length; i++)
        {
            var callbacks = new int[loads[i].Count];
            for (int f = 0; f < callbacks.Length; f++)
                callbacks[f] = loads[i][f].Callback;
            _libraries[libraries[i]] = callbacks;
        }
    }

    /// <summary>Makes this state's libraries current for <paramref name="set"/>: when the registry changed, every loaded library goes.</summary>
    public void SyncLibraries(FunctionSet set)
    {
        if (_librariesVersion == set.Version)
            return;
        if (_libraries.Count > 0)
        {
            foreach (var callbacks in _libraries.Values)
            {
                foreach (int callback in callbacks)
                    Unref(_state, RegistryIndex, callback);
            }
            _libraries.Clear();
        }
        _librariesVersion = set.Version;
    }

    private void DropLibrary(FunctionLibrary library)
    {
        foreach (int callback in _libraries[library])
            Unref(_state, RegistryIndex, callback);
        _libraries.Remove(library);
    }

    /// <summary>
    /// The callback of <paramref name="function"/> (of registry state <paramref name="set"/>) in this
    /// state, running its library's code first if this session has not yet. False with the error if
    /// that code fails now, or no longer registers the function.
    /// </summary>
    public bool TryGetCallback(FunctionSet set, FunctionDefinition function, out int callback, out string? error)
    {
        SyncLibraries(set);
        var library = function.Library;
        if (!_libraries.TryGetValue(library, out var callbacks))
        {
            if (!TryLoadLibrary(library.Code.AsSpan(library.BodyStart), out var loaded, out error))
            {
                callback = 0;
                return false;
            }
            // The code registered these functions when it was loaded; it should again, by the same names.
            callbacks = new int[library.Functions.Length];
            var matched = new bool[loaded.Count];
            bool complete = true;
            for (int i = 0; i < callbacks.Length && complete; i++)
            {
                int found = loaded.FindIndex(r => string.Equals(r.Name, library.Functions[i].Name, StringComparison.OrdinalIgnoreCase));
                complete = found >= 0;
                if (complete)
                {
                    callbacks[i] = loaded[found].Callback;
                    matched[found] = true;
                }
            }
            for (int i = 0; i < loaded.Count; i++)
            {
                if (!complete || !matched[i])
                    Unref(_state, RegistryIndex, loaded[i].Callback);
            }
            if (!complete)
            {
                callback = 0;
                error = $"ERR Library '{library.Name}' did not register its functions again when loaded in this session";
                return false;
            }
            _libraries.Add(library, callbacks);
        }
        callback = callbacks[function.Index];
        error = null;
        return true;
    }

    /// <summary>
    /// FCALL: runs <paramref name="function"/>'s <paramref name="callback"/> with its keys and
    /// arguments as two tables and writes its reply (or error) in the caller's protocol.
    /// </summary>
    public void CallFunction(FunctionDefinition function, int callback, ReadOnlySpan<ArgSlice> keys, ReadOnlySpan<ArgSlice> args, bool readOnly, ref RespWriter writer)
    {
        nint L = _thread;
        if (CheckStack(L, 8) == 0)
            throw new InvalidOperationException("The Lua stack cannot grow.");
        RawGetI(L, RegistryIndex, callback);
        PushArgumentTable(L, keys);
        PushArgumentTable(L, args);
        // A function may loop anywhere: it always runs with the hook.
        SetHooked(true);
        _runningFunction = function;
        try
        {
            Execute(2, readOnly, ref writer, default);
        }
        finally
        {
            _runningFunction = null;
            BusyCommand = [];
        }
    }

    private static void PushArgumentTable(nint L, ReadOnlySpan<ArgSlice> values)
    {
        CreateTable(L, values.Length, 0);
        for (int i = 0; i < values.Length; i++)
        {
            PushLString(L, values[i].Pointer, (nuint)values[i].Length);
            RawSetI(L, -2, i + 1);
        }
    }

    /// <summary>Keeps the command of a function that passed the time limit, for FUNCTION STATS (called from the hook, where nothing may throw).</summary>
    private void CaptureBusyCommand()
    {
        if (_runningFunction == null)
            return;
        try
        {
            BusyCommand = _session.CopyCurrentArguments();
        }
        catch (Exception)
        {
            BusyCommand = [];
        }
    }
}
