using System;
using System.Collections.Generic;

namespace Garnet.server.Scripting;

/// <summary>
/// One immutable state of the function registry: the libraries in load order, their functions by
/// name (ignoring ASCII case, as Redis looks them up), and a version that every change bumps, so a
/// session knows when its loaded copies are stale. FCALL looks a name up straight from the request
/// bytes in a small open-addressing table, without making a string.
/// </summary>
internal sealed class FunctionSet
{
    private readonly Dictionary<string, FunctionLibrary> _libraries;
    private readonly FunctionDefinition?[] _slots;

    /// <summary>The set with no library.</summary>
    public static readonly FunctionSet Empty = new([], 0);

    /// <summary>
    /// Builds a set from <paramref name="libraries"/>, whose library and function names must not
    /// collide (callers check with <see cref="FindCollision"/>).
    /// </summary>
    public FunctionSet(FunctionLibrary[] libraries, long version)
    {
        Libraries = libraries;
        Version = version;
        _libraries = new Dictionary<string, FunctionLibrary>(libraries.Length, StringComparer.Ordinal);
        foreach (var library in libraries)
        {
            _libraries.Add(library.Name, library);
            FunctionCount += library.Functions.Length;
        }
        int size = 8;
        while (size < 2 * FunctionCount)
            size *= 2;
        _slots = new FunctionDefinition?[size];
        foreach (var library in libraries)
        {
            foreach (var function in library.Functions)
            {
                int slot = (int)(Hash(function.Name) & (uint)(size - 1));
                while (_slots[slot] != null)
                    slot = (slot + 1) & (size - 1);
                _slots[slot] = function;
            }
        }
    }

    /// <summary>The libraries, in load order.</summary>
    public FunctionLibrary[] Libraries { get; }

    /// <summary>Bumped by every change of the registry.</summary>
    public long Version { get; }

    /// <summary>Number of functions over all libraries.</summary>
    public int FunctionCount { get; }

    /// <summary>The library named <paramref name="name"/> (case-sensitive), or null.</summary>
    public FunctionLibrary? FindLibrary(string name) => _libraries.TryGetValue(name, out var library) ? library : null;

    /// <summary>The function named by the bytes <paramref name="name"/> (any ASCII case), or null.</summary>
    public FunctionDefinition? FindFunction(ReadOnlySpan<byte> name)
    {
        int mask = _slots.Length - 1;
        int slot = (int)(Hash(name) & (uint)mask);
        while (true)
        {
            var function = _slots[slot];
            if (function == null)
                return null;
            if (EqualsIgnoreCase(function.Name, name))
                return function;
            slot = (slot + 1) & mask;
        }
    }

    /// <summary>
    /// Checks that <paramref name="incoming"/> can join this set's libraries except those named in
    /// <paramref name="replaced"/>: returns the first function name already taken (by a library that
    /// stays, or by an earlier incoming one), or null.
    /// </summary>
    public string? FindCollision(IReadOnlyList<FunctionLibrary> incoming, HashSet<string> replaced)
    {
        var taken = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (var library in Libraries)
        {
            if (replaced.Contains(library.Name))
                continue;
            foreach (var function in library.Functions)
                taken.Add(function.Name);
        }
        foreach (var library in incoming)
        {
            foreach (var function in library.Functions)
            {
                if (!taken.Add(function.Name))
                    return function.Name;
            }
        }
        return null;
    }

    // FNV-1a over upper-cased ASCII: the same for a name as string and as bytes.
    private static uint Hash(string name)
    {
        uint hash = 2166136261;
        foreach (char c in name)
            hash = (hash ^ Upper(c)) * 16777619;
        return hash;
    }

    private static uint Hash(ReadOnlySpan<byte> name)
    {
        uint hash = 2166136261;
        foreach (byte b in name)
            hash = (hash ^ Upper(b)) * 16777619;
        return hash;
    }

    private static uint Upper(uint c) => c - 'a' <= 'z' - 'a' ? c - 32 : c;

    private static bool EqualsIgnoreCase(string name, ReadOnlySpan<byte> bytes)
    {
        if (name.Length != bytes.Length)
            return false;
        for (int i = 0; i < bytes.Length; i++)
        {
            if (Upper(name[i]) != Upper(bytes[i]))
                return false;
        }
        return true;
    }
}
