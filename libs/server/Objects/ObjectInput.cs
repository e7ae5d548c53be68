using System;

namespace Garnet.server;

/// <summary>What an object-store operation asks of the engine callbacks besides running a command.</summary>
public enum ObjectOperation : byte
{
    /// <summary>Run <see cref="ObjectInput.Command"/> on the key's object (<see cref="GarnetObject.Operate"/>).</summary>
    Run,

    /// <summary>Read only: return a deep copy of the key's object in <see cref="ObjectOutput.Object"/>.</summary>
    Snapshot,

    /// <summary>Read only: return the key's object itself in <see cref="ObjectOutput.Object"/> (RENAME moves it).</summary>
    Reference,

    /// <summary>
    /// Update: make the key hold <see cref="ObjectInput.Install"/>, whatever it held before, with
    /// <see cref="ObjectInput.ExpirationUnixMs"/> (0 = none). Used by *STORE commands, RENAME, COPY, RESTORE.
    /// </summary>
    Install,
}

/// <summary>The input of an object-store operation: the command, its arguments and what to do.</summary>
public struct ObjectInput
{
    /// <summary>The command being run.</summary>
    public RespCommand Command;

    /// <summary>The object type the command works on; another type answers WRONGTYPE (None accepts any).</summary>
    public GarnetObjectType Type;

    /// <summary>What the callbacks do (run the command, copy the object, install an object).</summary>
    public ObjectOperation Operation;

    /// <summary>The command's arguments (the session's array); the command's own start at <see cref="FirstArg"/>.</summary>
    public ArgSlice[] Args;

    /// <summary>Index in <see cref="Args"/> of the first argument after the key.</summary>
    public int FirstArg;

    /// <summary>Number of arguments after the key.</summary>
    public int ArgCount;

    /// <summary>Numbers a family parsed before the operation (counts, indexes, flags).</summary>
    public long Number;

    /// <inheritdoc cref="Number"/>
    public long Number2;

    /// <summary>A floating-point argument a family parsed before the operation.</summary>
    public double Double;

    /// <summary>Family-specific flags.</summary>
    public int Flags;

    /// <summary>An element handed to the operation (e.g. the value LMOVE pushes onto its destination).</summary>
    public byte[]? Element;

    /// <summary>The object <see cref="ObjectOperation.Install"/> puts at the key.</summary>
    public GarnetObject? Install;

    /// <summary>Absolute expiration (Unix milliseconds) of an installed object; 0 for none.</summary>
    public long ExpirationUnixMs;

    /// <summary>The encoding thresholds a write applies; the engine callbacks set it from the database's table.</summary>
    internal EncodingThresholds? Thresholds;

    /// <summary>The access word RESTORE ... IDLETIME or FREQ gives an installed object's record; negative for the engine's own.</summary>
    internal long AccessWord;

    /// <summary>An input that runs <paramref name="command"/> on an object of <paramref name="type"/>.</summary>
    public ObjectInput(RespCommand command, GarnetObjectType type, ArgSlice[] args, int firstArg, int argCount)
    {
        Command = command;
        Type = type;
        Operation = ObjectOperation.Run;
        Args = args;
        FirstArg = firstArg;
        ArgCount = argCount;
        Number = 0;
        Number2 = 0;
        Double = 0;
        Flags = 0;
        Element = null;
        Install = null;
        ExpirationUnixMs = 0;
        Thresholds = null;
        AccessWord = -1;
    }

    /// <summary>The thresholds that decide the object's encoding after this write (Redis's defaults outside a server).</summary>
    internal readonly EncodingThresholds Limits => Thresholds ?? EncodingThresholds.Defaults;

    /// <summary>Argument <paramref name="i"/> after the key.</summary>
    public readonly ReadOnlySpan<byte> Arg(int i) => Args[FirstArg + i].Span;
}
