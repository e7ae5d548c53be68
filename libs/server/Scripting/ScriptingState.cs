using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;

namespace Garnet.server.Scripting;

/// <summary>What SCRIPT KILL found.</summary>
internal enum ScriptKillResult
{
    /// <summary>No script ran past the time limit.</summary>
    NotBusy,

    /// <summary>The scripts past the limit have written: they cannot be stopped.</summary>
    Unkillable,

    /// <summary>What runs past the limit is of the other kind (a function for SCRIPT KILL, a script for FUNCTION KILL).</summary>
    OtherKind,

    /// <summary>The scripts past the limit were asked to stop.</summary>
    Killed,
}

/// <summary>
/// Per-server scripting state: the script cache (SCRIPT LOAD / EVALSHA, shared by all sessions; each
/// session compiles into its own Lua state), the function libraries, the time limit, and the scripts
/// and functions that ran past it — while there are any, other clients get -BUSY and SCRIPT KILL or
/// FUNCTION KILL can stop them.
/// </summary>
internal sealed class ScriptingState
{
    private static readonly ConditionalWeakTable<StoreWrapper, ScriptingState> s_states = new();

    private readonly ConcurrentDictionary<ScriptDigest, byte[]> _scripts = new();
    private readonly List<LuaRunner> _timedOut = new();
    private long _generation;
    private int _timedOutCount;

    private readonly StoreWrapper _server;

    private ScriptingState(StoreWrapper server)
    {
        _server = server;
        TimeLimitMilliseconds = server.Options.LuaTimeLimitMilliseconds;
    }

    /// <summary>The state of <paramref name="server"/>.</summary>
    public static ScriptingState Of(StoreWrapper server) => s_states.GetValue(server, static s => new ScriptingState(s));

    /// <summary>Whether the server is stopping: a running script is killed, whatever it wrote.</summary>
    public bool Stopping => _server.Stopping;

    /// <summary>The function libraries (FUNCTION LOAD, FCALL).</summary>
    public FunctionRegistry Functions { get; } = new();

    /// <summary>Milliseconds a script runs before other clients get -BUSY (lua-time-limit); 0 or less: never.</summary>
    public long TimeLimitMilliseconds { get; set; }

    /// <summary>Bumped by SCRIPT FLUSH: sessions drop their compiled scripts when it changes.</summary>
    public long Generation => Volatile.Read(ref _generation);

    /// <summary>Number of scripts running past the time limit (read on every command: non-zero means -BUSY).</summary>
    public int TimedOutCount => Volatile.Read(ref _timedOutCount);

    /// <summary>The body of the script with <paramref name="digest"/>, or null.</summary>
    public byte[]? Find(in ScriptDigest digest) => _scripts.TryGetValue(digest, out var body) ? body : null;

    /// <summary>Whether the cache holds <paramref name="digest"/>.</summary>
    public bool Contains(in ScriptDigest digest) => _scripts.ContainsKey(digest);

    /// <summary>Caches a compiled script's body.</summary>
    public void Add(in ScriptDigest digest, byte[] body) => _scripts.TryAdd(digest, body);

    /// <summary>Empties the cache (SCRIPT FLUSH).</summary>
    public void Flush()
    {
        _scripts.Clear();
        Interlocked.Increment(ref _generation);
    }

    /// <summary>Called by a running script's hook when it passes the time limit.</summary>
    public void AddTimedOut(LuaRunner runner)
    {
        lock (_timedOut)
        {
            _timedOut.Add(runner);
            Volatile.Write(ref _timedOutCount, _timedOut.Count);
        }
    }

    /// <summary>Called when a script that passed the time limit ends.</summary>
    public void RemoveTimedOut(LuaRunner runner)
    {
        lock (_timedOut)
        {
            _timedOut.Remove(runner);
            Volatile.Write(ref _timedOutCount, _timedOut.Count);
        }
    }

    /// <summary>
    /// SCRIPT KILL (<paramref name="function"/> false) or FUNCTION KILL: asks every script, or every
    /// function, past the time limit that has not written to stop. As in Redis, one that has written
    /// is unkillable before the kind is looked at.
    /// </summary>
    public ScriptKillResult Kill(bool function)
    {
        lock (_timedOut)
        {
            if (_timedOut.Count == 0)
                return ScriptKillResult.NotBusy;
            var result = ScriptKillResult.OtherKind;
            foreach (var runner in _timedOut)
            {
                if (runner.HasWritten)
                {
                    if (result == ScriptKillResult.OtherKind)
                        result = ScriptKillResult.Unkillable;
                }
                else if ((runner.RunningFunction != null) == function)
                {
                    runner.RequestKill();
                    result = ScriptKillResult.Killed;
                }
            }
            return result;
        }
    }

    /// <summary>Whether what runs past the time limit is a function (FCALL) rather than a script: the -BUSY text names the command that stops it.</summary>
    public bool BusyWithFunction
    {
        get
        {
            lock (_timedOut)
                return _timedOut.Count > 0 && _timedOut[0].RunningFunction != null;
        }
    }

    /// <summary>
    /// FUNCTION STATS' view of what runs past the time limit: false when nothing does; otherwise the
    /// function's name (null for a script), the command that started it and how long it has run.
    /// </summary>
    public bool TryGetBusy(out string? functionName, out byte[][] command, out long durationMilliseconds)
    {
        lock (_timedOut)
        {
            if (_timedOut.Count == 0)
            {
                functionName = null;
                command = [];
                durationMilliseconds = 0;
                return false;
            }
            var runner = _timedOut[0];
            functionName = runner.RunningFunction?.Name;
            command = runner.BusyCommand;
            durationMilliseconds = runner.RunningMilliseconds;
            return true;
        }
    }
}
