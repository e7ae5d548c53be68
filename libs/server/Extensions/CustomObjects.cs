using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>Makes the objects of one custom type: empty ones for absent keys, and ones read back from their serialized bytes.</summary>
public abstract class CustomObjectFactory
{
    /// <summary>The name TYPE reports for keys holding this type.</summary>
    public abstract string TypeName { get; }

    /// <summary>A new, empty object.</summary>
    public abstract CustomObject Create();

    /// <summary>Reads an object written by <see cref="GarnetObject.Serialize"/>.</summary>
    public abstract CustomObject Deserialize(BinaryReader reader);

    /// <summary>The type byte the server assigned (from 64 up); set by registration.</summary>
    public GarnetObjectType ObjectType { get; internal set; }
}

/// <summary>
/// The base of a custom object type. It lives on the heap like lists and hashes: its commands
/// (<see cref="CustomObjectCommand"/>) run on it under the key's bucket latch (shared for read-only
/// commands, which must not change it); it is deleted with its key when <see cref="GarnetObject.Count"/>
/// is 0 after a command; it keeps <see cref="GarnetObject.HeapSize"/> current, clones and serializes itself.
/// </summary>
public abstract class CustomObject : GarnetObject
{
    private readonly CustomObjectFactory _factory;

    protected CustomObject(CustomObjectFactory factory) => _factory = factory;

    public sealed override GarnetObjectType Type => _factory.ObjectType;

    /// <summary>The command being run on this thread's object operation (set by the session just before it).</summary>
    [ThreadStatic]
    internal static CustomObjectCommand? Running;

    public sealed override void Operate(ref ObjectInput input, ref ObjectOutput output)
    {
        var command = Running ?? throw new InvalidOperationException("No custom object command is running.");
        var args = new byte[input.ArgCount][];
        for (int i = 0; i < args.Length; i++)
            args[i] = input.Arg(i).ToArray();
        // The writer is a struct: the reply object writes into its copy, which is put back after.
        var reply = new WriterReply { Writer = output.Writer };
        try
        {
            command.Operate(this, new CustomArgs(args), reply);
        }
        finally
        {
            output.Writer = reply.Writer;
        }
    }

    /// <summary>Sets the approximate heap size (bytes) after a change.</summary>
    protected void SetHeapSize(long bytes) => HeapSize = bytes;

    /// <summary>An <see cref="ICustomReply"/> over an object operation's writer (valid during Operate only).</summary>
    private sealed class WriterReply : ICustomReply
    {
        public RespWriter Writer;

        public void WriteOk() => Writer.WriteOk();
        public void WriteSimpleString(string text) => Writer.WriteSimpleString(Encoding.UTF8.GetBytes(text));
        public void WriteError(string message) => Writer.WriteError(message);
        public void WriteInteger(long value) => Writer.WriteInteger(value);
        public void WriteBulk(ReadOnlySpan<byte> value) => Writer.WriteBulk(value);
        public void WriteBulk(string value) => Writer.WriteBulk(value);
        public void WriteNull() => Writer.WriteNull();
        public void WriteArrayHeader(int count) => Writer.WriteArrayHeader(count);
    }
}

/// <summary>
/// A command on a custom object type: <c>NAME key arg...</c>. Write commands (the default flags) run as
/// an update, creating the object for an absent key (no key is created if it stays empty); read-only
/// commands run on a shared empty object for an absent key. Another type at the key answers WRONGTYPE.
/// </summary>
public abstract class CustomObjectCommand : CustomCommandBase
{
    /// <summary>The factory of the type this command works on.</summary>
    public abstract CustomObjectFactory Factory { get; }

    /// <summary>Runs on the key's object and writes the reply.</summary>
    public abstract void Operate(CustomObject obj, CustomArgs args, ICustomReply reply);
}

/// <summary>
/// The process-wide table of custom object types (type bytes 64 and up), shared by every server in the
/// process. Types are keyed by <see cref="CustomObjectFactory.TypeName"/>: registering a factory of a
/// name already known (the same module loaded again, by another server or command) reuses that name's
/// type byte, so keys keep their type and the bytes last for the life of the process.
/// </summary>
internal static class CustomObjectTypes
{
    public const int First = 64;
    private static readonly List<CustomObjectFactory> s_factories = [];
    private static readonly Dictionary<GarnetObjectType, CustomObject> s_empty = [];

    /// <summary>Assigns <paramref name="factory"/> its name's type byte, taking a new one for a new name.</summary>
    public static void Register(CustomObjectFactory factory)
    {
        string name = factory.TypeName;
        if (string.IsNullOrEmpty(name) || name.Length > byte.MaxValue || name.IndexOfAny([' ', '\r', '\n']) >= 0)
            throw new ArgumentException($"Invalid custom object type name '{name}'.");
        lock (s_factories)
        {
            int index = s_factories.FindIndex(known => known.TypeName == name);
            if (index < 0)
            {
                if (First + s_factories.Count > byte.MaxValue)
                    throw new InvalidOperationException("Too many custom object types.");
                factory.ObjectType = (GarnetObjectType)(First + s_factories.Count);
                s_factories.Add(factory);
                return;
            }
            // The newest factory of a name makes its new and restored objects.
            factory.ObjectType = (GarnetObjectType)(First + index);
            s_factories[index] = factory;
        }
        // Outside the factories' lock: Empty takes the locks the other way round.
        lock (s_empty)
            s_empty.Remove(factory.ObjectType);
    }

    /// <summary>The factory registered for <paramref name="typeName"/>, or null.</summary>
    public static CustomObjectFactory? FactoryByName(string typeName)
    {
        lock (s_factories)
        {
            foreach (var factory in s_factories)
            {
                if (factory.TypeName == typeName)
                    return factory;
            }
            return null;
        }
    }

    public static CustomObjectFactory? Factory(GarnetObjectType type)
    {
        int index = (int)type - First;
        lock (s_factories)
            return index >= 0 && index < s_factories.Count ? s_factories[index] : null;
    }

    public static GarnetObject Create(GarnetObjectType type)
        => Factory(type)?.Create() ?? throw new ArgumentOutOfRangeException(nameof(type), type, "Not an object type.");

    public static GarnetObject Deserialize(GarnetObjectType type, BinaryReader reader)
        => Factory(type)?.Deserialize(reader) ?? throw new InvalidDataException($"Unknown object type {(byte)type}.");

    /// <summary>A shared empty object for read-only commands on absent keys.</summary>
    public static GarnetObject Empty(GarnetObjectType type)
    {
        lock (s_empty)
        {
            if (!s_empty.TryGetValue(type, out var empty))
                s_empty[type] = empty = (CustomObject)Create(type);
            return empty;
        }
    }

    public static ReadOnlySpan<byte> TypeName(GarnetObjectType type)
        => Factory(type) is { } factory ? Encoding.UTF8.GetBytes(factory.TypeName) : "none"u8;
}
