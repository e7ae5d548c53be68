using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Runtime.Loader;

namespace Garnet.server;

/// <summary>
/// Loads extension assemblies at runtime (REGISTERCS, MODULE LOADCS): only from the allow-listed
/// directories of <see cref="ServerOptions.ExtensionDirectories"/>, each assembly in its own load
/// context whose references fall back to the server's (so the extension base classes are shared),
/// and registers every public non-abstract extension class with a public parameterless constructor.
/// </summary>
internal static class ExtensionLoader
{
    /// <summary>Whether <paramref name="path"/> (resolved, links not followed) lies inside one of <paramref name="allowed"/>.</summary>
    public static bool IsAllowed(string path, string[] allowed)
    {
        string full = Path.GetFullPath(path);
        foreach (var directory in allowed)
        {
            string root = Path.TrimEndingDirectorySeparator(Path.GetFullPath(directory)) + Path.DirectorySeparatorChar;
            if (full.StartsWith(root, OperatingSystem.IsWindows() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal))
                return true;
        }
        return false;
    }

    /// <summary>
    /// Loads the assemblies and registers their extensions; returns null, or the error to reply.
    /// Every path is checked and every type instantiated before anything is registered.
    /// </summary>
    public static string? Load(IReadOnlyList<string> paths, ServerOptions options, ExtensionRegistry registry, out int registered)
    {
        registered = 0;
        if (options.ExtensionDirectories.Length == 0)
            return "ERR loading extensions is disabled: no --extension-dir is configured";
        foreach (var path in paths)
        {
            if (!IsAllowed(path, options.ExtensionDirectories))
                return $"ERR the path '{path}' is outside the allowed extension directories";
            if (!File.Exists(Path.GetFullPath(path)))
                return $"ERR no such file '{path}'";
        }
        var found = new List<CustomCommandBase>();
        foreach (var path in paths)
        {
            Assembly assembly;
            try
            {
                var context = new AssemblyLoadContext("extension:" + Path.GetFileName(path));
                assembly = context.LoadFromAssemblyPath(Path.GetFullPath(path));
                foreach (var type in assembly.GetExportedTypes())
                {
                    if (type.IsAbstract || !typeof(CustomCommandBase).IsAssignableFrom(type) || type.GetConstructor(Type.EmptyTypes) == null)
                        continue;
                    found.Add((CustomCommandBase)Activator.CreateInstance(type)!);
                }
            }
            catch (Exception e) when (e is BadImageFormatException or FileLoadException or ReflectionTypeLoadException or TargetInvocationException or TypeLoadException)
            {
                return $"ERR could not load '{path}': {e.Message}";
            }
        }
        if (found.Count == 0)
            return "ERR the assemblies contain no extension classes";
        foreach (var command in found)
        {
            if (registry.Find(System.Text.Encoding.UTF8.GetBytes(command.Name ?? "")) != null || CommandTable.Lookup(command.Name ?? "") != null)
                return $"ERR the command '{command.Name}' already exists";
        }
        foreach (var command in found)
        {
            try
            {
                registry.Register(command);
                registered++;
            }
            catch (ArgumentException e)
            {
                return "ERR " + e.Message;
            }
        }
        foreach (var path in paths)
            registry.AddModule(Path.GetFileNameWithoutExtension(path), Path.GetFullPath(path));
        return null;
    }
}
