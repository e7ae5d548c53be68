using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Text;
using System.Threading;

namespace Garnet.server;

/// <summary>A registered extension with its command-table entry.</summary>
internal sealed record RegisteredExtension(RespCommandInfo Info, CustomCommandBase Command);

/// <summary>
/// The server's custom commands and procedures. Each gets a command id from a dynamic range above the
/// built-in ones (<see cref="FirstId"/> and up) and a command-table entry that the session's lookup
/// consults after the static table, so arity checks, COMMAND INFO/COUNT and MULTI see them.
/// Registration may happen before Start (the embedding API) or while clients run.
/// </summary>
public sealed class ExtensionRegistry
{
    /// <summary>The first id handed to a custom command.</summary>
    public const int FirstId = 1000;

    /// <summary>Largest number of custom commands (ids stay within ushort).</summary>
    public const int MaxCount = ushort.MaxValue - FirstId;

    private readonly ConcurrentDictionary<string, RegisteredExtension> _byName = new(StringComparer.Ordinal);
    private RegisteredExtension?[] _byId = new RegisteredExtension?[16];
    private readonly object _lock = new();
    private int _count;

    /// <summary>Number of registered commands.</summary>
    public int Count => Volatile.Read(ref _count);

    private readonly List<(string Name, string Path)> _modules = new();

    /// <summary>Records an assembly loaded at runtime (MODULE LOADCS, REGISTERCS) for MODULE LIST.</summary>
    internal void AddModule(string name, string path)
    {
        lock (_modules)
            _modules.Add((name, path));
    }

    /// <summary>The assemblies loaded at runtime, in load order.</summary>
    internal (string Name, string Path)[] Modules()
    {
        lock (_modules)
            return _modules.ToArray();
    }

    /// <summary>Registers a custom raw-string command (<c>NAME key arg...</c>): first key at 1.</summary>
    public RespCommand NewCommand(CustomRawStringCommand command) => Add(command, firstKey: 1);

    /// <summary>Registers a custom (non-transactional) procedure.</summary>
    public RespCommand NewProcedure(CustomProcedure procedure) => Add(procedure, firstKey: 0);

    /// <summary>Registers a transactional stored procedure.</summary>
    public RespCommand NewTransactionProcedure(CustomTransactionProcedure procedure) => Add(procedure, firstKey: 0);

    /// <summary>Registers a command on a custom object type (its factory gets a type byte if it has none yet).</summary>
    public RespCommand NewObjectCommand(CustomObjectCommand command)
    {
        ArgumentNullException.ThrowIfNull(command);
        CustomObjectTypes.Register(command.Factory ?? throw new ArgumentException("The command has no factory."));
        return Add(command, firstKey: 1);
    }

    /// <summary>Registers any kind of extension.</summary>
    public RespCommand Register(CustomCommandBase command) => command switch
    {
        CustomRawStringCommand raw => NewCommand(raw),
        CustomObjectCommand objectCommand => NewObjectCommand(objectCommand),
        CustomProcedure procedure => NewProcedure(procedure),
        CustomTransactionProcedure transactional => NewTransactionProcedure(transactional),
        _ => throw new ArgumentException($"Unknown extension kind {command?.GetType()}."),
    };

    private RespCommand Add(CustomCommandBase command, int firstKey)
    {
        ArgumentNullException.ThrowIfNull(command);
        string name = command.Name?.ToUpperInvariant() ?? throw new ArgumentException("The command has no name.");
        if (name.Length == 0 || name.Length > 32 || name.IndexOfAny([' ', '\r', '\n', '|']) >= 0)
            throw new ArgumentException($"Invalid command name '{command.Name}'.");
        if (command.Arity == 0 || (firstKey > 0 && Math.Abs(command.Arity) < 2))
            throw new ArgumentException($"Invalid arity {command.Arity} for '{name}'.");
        if (CommandTable.Lookup(name) != null)
            throw new ArgumentException($"'{name}' is a built-in command.");
        lock (_lock)
        {
            if (_byName.ContainsKey(name))
                throw new ArgumentException($"'{name}' is already registered.");
            if (_count == MaxCount)
                throw new InvalidOperationException("Too many custom commands.");
            var id = (RespCommand)(FirstId + _count);
            var flags = command.Flags;
            // A transactional procedure takes its own locks: inside EXEC or a script (which hold
            // theirs already) its keys could not be added, so it is refused there.
            if (command is CustomTransactionProcedure)
                flags |= CommandFlags.NoMulti | CommandFlags.NoScript;
            bool readOnly = (flags & CommandFlags.ReadOnly) != 0;
            var categories = readOnly ? AclCategories.Read : AclCategories.Write;
            // A custom command does not say what it does with its key's value: a read-only one reads it, another writes it.
            var keyAccess = firstKey > 0 || (flags & CommandFlags.MovableKeys) != 0
                ? readOnly ? KeyAccessSpec.Read : KeyAccessSpec.Write
                : KeyAccessSpec.NoKeys;
            var info = RespCommandInfo.ForCustomCommand(id, name, command.Arity, flags, firstKey, firstKey, firstKey > 0 ? 1 : 0, keyAccess, categories | AclCategories.Slow, "A custom command.");
            var entry = new RegisteredExtension(info, command);
            var byId = _byId;
            if (_count == byId.Length)
            {
                Array.Resize(ref byId, byId.Length * 2);
                _byId = byId;
            }
            Volatile.Write(ref byId[_count], entry);
            _byName[name] = entry;
            Volatile.Write(ref _count, _count + 1);
            return id;
        }
    }

    /// <summary>The entry named <paramref name="name"/> (any case), or null.</summary>
    internal RegisteredExtension? Find(ReadOnlySpan<byte> name)
    {
        if (Count == 0 || name.Length == 0 || name.Length > 32)
            return null;
        Span<char> upper = stackalloc char[name.Length];
        for (int i = 0; i < name.Length; i++)
        {
            byte c = name[i];
            upper[i] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
        }
        return _byName.TryGetValue(new string(upper), out var entry) ? entry : null;
    }

    /// <summary>The entry with id <paramref name="command"/>, or null.</summary>
    internal RegisteredExtension? Get(RespCommand command)
    {
        int index = (int)command - FirstId;
        var byId = Volatile.Read(ref _byId);
        return index >= 0 && index < Count && index < byId.Length ? byId[index] : null;
    }

    /// <summary>The command-table entries of all registered commands.</summary>
    public IReadOnlyList<RespCommandInfo> All
    {
        get
        {
            int count = Count;
            var list = new List<RespCommandInfo>(count);
            for (int i = 0; i < count; i++)
                list.Add(_byId[i]!.Info);
            return list;
        }
    }

    internal static string Text(ReadOnlySpan<byte> bytes) => Encoding.UTF8.GetString(bytes);
}
