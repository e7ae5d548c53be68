using System;

namespace Garnet.server.Scripting;

/// <summary>The flags a function declares when it registers (redis.register_function's flags table).</summary>
[Flags]
internal enum FunctionFlags
{
    None = 0,

    /// <summary>The function only reads: FCALL_RO may run it, and it runs read-only under FCALL too.</summary>
    NoWrites = 1 << 0,

    /// <summary>Accepted and listed; there is no maxmemory refusal to waive.</summary>
    AllowOom = 1 << 1,

    /// <summary>Accepted and listed; there are no stale replicas.</summary>
    AllowStale = 1 << 2,

    /// <summary>Accepted and listed; the server does not run in cluster mode.</summary>
    NoCluster = 1 << 3,

    /// <summary>Accepted and listed; keys are not sharded by slot.</summary>
    AllowCrossSlotKeys = 1 << 4,
}

/// <summary>The flag names, as register_function accepts them and FUNCTION LIST shows them, in Redis's order.</summary>
internal static class FunctionFlagNames
{
    private static readonly (FunctionFlags Flag, string Name)[] s_names =
    [
        (FunctionFlags.NoWrites, "no-writes"),
        (FunctionFlags.AllowOom, "allow-oom"),
        (FunctionFlags.AllowStale, "allow-stale"),
        (FunctionFlags.NoCluster, "no-cluster"),
        (FunctionFlags.AllowCrossSlotKeys, "allow-cross-slot-keys"),
    ];

    /// <summary>Every flag with its name.</summary>
    public static ReadOnlySpan<(FunctionFlags Flag, string Name)> All => s_names;

    /// <summary>How many flags <paramref name="flags"/> holds.</summary>
    public static int Count(FunctionFlags flags)
    {
        int count = 0;
        foreach (var (flag, _) in s_names)
        {
            if ((flags & flag) != 0)
                count++;
        }
        return count;
    }
}

/// <summary>One registered function: its name, optional description and flags, and its library.</summary>
internal sealed class FunctionDefinition
{
    public FunctionDefinition(string name, string? description, FunctionFlags flags)
    {
        Name = name;
        Description = description;
        Flags = flags;
    }

    /// <summary>The name FCALL uses (letters, digits and underscores; looked up ignoring case).</summary>
    public string Name { get; }

    /// <summary>The description given at registration, or null.</summary>
    public string? Description { get; }

    /// <summary>The declared flags.</summary>
    public FunctionFlags Flags { get; }

    /// <summary>The library that registered it (set once, when the library is built).</summary>
    public FunctionLibrary Library { get; internal set; } = null!;

    /// <summary>Its position in <see cref="FunctionLibrary.Functions"/>: the index of its callback in a session's loaded copy.</summary>
    public int Index { get; internal set; }
}

/// <summary>
/// A loaded library: its name, its whole code (shebang line included, as FUNCTION LIST WITHCODE and
/// FUNCTION DUMP give it back) and the functions its code registered, in registration order. Immutable:
/// LOAD REPLACE makes a new one, so a session's loaded copy of a library is found by this object.
/// </summary>
internal sealed class FunctionLibrary
{
    public FunctionLibrary(string name, byte[] code, int bodyStart, FunctionDefinition[] functions)
    {
        Name = name;
        Code = code;
        BodyStart = bodyStart;
        Functions = functions;
        for (int i = 0; i < functions.Length; i++)
        {
            functions[i].Library = this;
            functions[i].Index = i;
        }
    }

    /// <summary>The library name (case-sensitive).</summary>
    public string Name { get; }

    /// <summary>The code as loaded, starting with its "#!lua name=..." line.</summary>
    public byte[] Code { get; }

    /// <summary>Where the Lua code starts in <see cref="Code"/>: at the newline ending the shebang line.</summary>
    public int BodyStart { get; }

    /// <summary>The functions, in registration order.</summary>
    public FunctionDefinition[] Functions { get; }

    /// <summary>The one engine there is.</summary>
    public const string Engine = "LUA";
}
