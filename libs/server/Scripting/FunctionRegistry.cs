using System.Collections.Generic;
using System.Threading;

namespace Garnet.server.Scripting;

/// <summary>How FUNCTION RESTORE treats the libraries already loaded.</summary>
internal enum FunctionRestorePolicy
{
    /// <summary>Add the restored libraries; a library name already loaded fails the restore.</summary>
    Append,

    /// <summary>Add the restored libraries, replacing loaded ones of the same name.</summary>
    Replace,

    /// <summary>Drop every loaded library first.</summary>
    Flush,
}

/// <summary>
/// The server's function libraries (FUNCTION LOAD / DELETE / FLUSH / RESTORE), shared by all sessions.
/// Each change builds a new <see cref="FunctionSet"/> under a lock and publishes it, so FCALL reads the
/// current set without locking, and a change either happens whole or not at all. The libraries'
/// code runs in each session's own Lua state (<see cref="LuaRunner"/>); this holds only what that
/// code registered.
/// </summary>
internal sealed class FunctionRegistry
{
    private readonly object _changeLock = new();
    private FunctionSet _current = FunctionSet.Empty;

    /// <summary>The current libraries and functions.</summary>
    public FunctionSet Current => Volatile.Read(ref _current);

    /// <summary>
    /// FUNCTION LOAD: adds <paramref name="library"/>, or with <paramref name="replace"/> swaps it for
    /// the loaded library of that name. Fails (changing nothing) with Redis's error when the name is
    /// taken without replace or one of its functions belongs to another library.
    /// </summary>
    public bool TryLoad(FunctionLibrary library, bool replace, out string? error)
    {
        lock (_changeLock)
        {
            var current = _current;
            if (!replace && current.FindLibrary(library.Name) != null)
            {
                error = $"ERR Library '{library.Name}' already exists";
                return false;
            }
            return TryPublishMerged(current, [library], replace, out error);
        }
    }

    /// <summary>FUNCTION DELETE: removes the library <paramref name="name"/>; false when there is none.</summary>
    public bool TryDelete(string name)
    {
        lock (_changeLock)
        {
            var current = _current;
            if (current.FindLibrary(name) == null)
                return false;
            var kept = new List<FunctionLibrary>(current.Libraries.Length);
            foreach (var library in current.Libraries)
            {
                if (library.Name != name)
                    kept.Add(library);
            }
            Publish(kept.ToArray());
            return true;
        }
    }

    /// <summary>FUNCTION FLUSH: removes every library.</summary>
    public void Flush()
    {
        lock (_changeLock)
            Publish([]);
    }

    /// <summary>
    /// FUNCTION RESTORE: adds <paramref name="libraries"/> (whose names do not collide among
    /// themselves) by <paramref name="policy"/>. Fails, changing nothing, when a library name is
    /// taken under <see cref="FunctionRestorePolicy.Append"/> or a function name is taken by a library that stays.
    /// </summary>
    public bool TryRestore(FunctionLibrary[] libraries, FunctionRestorePolicy policy, out string? error)
    {
        lock (_changeLock)
        {
            var current = _current;
            if (policy == FunctionRestorePolicy.Flush)
                current = FunctionSet.Empty;
            if (policy == FunctionRestorePolicy.Append)
            {
                foreach (var library in libraries)
                {
                    if (current.FindLibrary(library.Name) != null)
                    {
                        error = $"ERR Library {library.Name} already exists";
                        return false;
                    }
                }
            }
            return TryPublishMerged(current, libraries, replace: true, out error);
        }
    }

    /// <summary>Publishes <paramref name="current"/>'s libraries plus <paramref name="incoming"/>, those of the same names replaced.</summary>
    private bool TryPublishMerged(FunctionSet current, FunctionLibrary[] incoming, bool replace, out string? error)
    {
        var replaced = new HashSet<string>();
        if (replace)
        {
            foreach (var library in incoming)
                replaced.Add(library.Name);
        }
        string? collision = current.FindCollision(incoming, replaced);
        if (collision != null)
        {
            error = $"ERR Function {collision} already exists";
            return false;
        }
        var merged = new List<FunctionLibrary>(current.Libraries.Length + incoming.Length);
        foreach (var library in current.Libraries)
        {
            if (!replaced.Contains(library.Name))
                merged.Add(library);
        }
        merged.AddRange(incoming);
        Publish(merged.ToArray());
        error = null;
        return true;
    }

    private void Publish(FunctionLibrary[] libraries)
        => Volatile.Write(ref _current, new FunctionSet(libraries, _current.Version + 1));
}
