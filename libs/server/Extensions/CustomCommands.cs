using System;
using System.Collections.Generic;
using System.Text;

namespace Garnet.server;

/// <summary>The arguments of a custom command or procedure (the command name excluded), copied out of the receive buffer.</summary>
public sealed class CustomArgs
{
    private readonly byte[][] _args;

    internal CustomArgs(byte[][] args) => _args = args;

    /// <summary>Number of arguments after the command name.</summary>
    public int Count => _args.Length;

    /// <summary>Argument <paramref name="index"/> (0 is the first after the name).</summary>
    public ReadOnlySpan<byte> this[int index] => _args[index];

    /// <summary>Argument <paramref name="index"/> as bytes.</summary>
    public byte[] Bytes(int index) => _args[index];

    /// <summary>Argument <paramref name="index"/> as UTF-8 text.</summary>
    public string String(int index) => Encoding.UTF8.GetString(_args[index]);

    /// <summary>Argument <paramref name="index"/> as an integer, or false if it is not one.</summary>
    public bool TryGetLong(int index, out long value) => long.TryParse(_args[index], out value);
}

/// <summary>Where a custom command writes its reply (RESP2 or RESP3, as the client speaks).</summary>
public interface ICustomReply
{
    void WriteOk();
    void WriteSimpleString(string text);
    void WriteError(string message);
    void WriteInteger(long value);
    void WriteBulk(ReadOnlySpan<byte> value);
    void WriteBulk(string value);
    void WriteNull();
    void WriteArrayHeader(int count);
}

/// <summary>What every registered extension has: a name, an arity (Redis convention: negative means at least) and flags.</summary>
public abstract class CustomCommandBase
{
    /// <summary>The command name clients send (any case).</summary>
    public abstract string Name { get; }

    /// <summary>Arity counting the name: n exactly, or -n for at least n.</summary>
    public abstract int Arity { get; }

    /// <summary>Flags shown by COMMAND INFO (Write, ReadOnly...).</summary>
    public virtual CommandFlags Flags => CommandFlags.Write;
}

/// <summary>
/// A custom command over one string key of the main store: <c>NAME key arg...</c>. The server locks
/// the key (exclusively unless the command is <see cref="CommandFlags.ReadOnly"/>) and calls, with the
/// arguments after the key: <see cref="Reader"/> for read-only commands; otherwise
/// <see cref="NeedInitialUpdate"/> and <see cref="InitialUpdater"/> when the key is missing,
/// <see cref="InPlaceUpdater"/> when it exists, and <see cref="CopyUpdater"/> when the in-place update
/// needs a different length. The expiration of an existing key is kept.
/// </summary>
public abstract class CustomRawStringCommand : CustomCommandBase
{
    /// <summary>Whether a missing key should be created (else the reply is written here, e.g. nil).</summary>
    public virtual bool NeedInitialUpdate(ReadOnlySpan<byte> key, CustomArgs args, ICustomReply reply) => true;

    /// <summary>Length of the value <see cref="InitialUpdater"/> writes.</summary>
    public virtual int GetInitialLength(CustomArgs args) => 0;

    /// <summary>Fills the new value (of <see cref="GetInitialLength"/> bytes) and writes the reply; false cancels the write.</summary>
    public virtual bool InitialUpdater(ReadOnlySpan<byte> key, CustomArgs args, Span<byte> value, ICustomReply reply)
    {
        reply.WriteOk();
        return true;
    }

    /// <summary>
    /// Updates the existing value in place and writes the reply. Returns Updated, Unchanged (no write),
    /// or NeedsCopy (then <see cref="CopyUpdater"/> runs with a value of <see cref="GetLength"/> bytes).
    /// </summary>
    public abstract InPlaceResult InPlaceUpdater(ReadOnlySpan<byte> key, CustomArgs args, Span<byte> value, ICustomReply reply);

    /// <summary>Length of the value <see cref="CopyUpdater"/> writes.</summary>
    public virtual int GetLength(ReadOnlySpan<byte> oldValue, CustomArgs args) => oldValue.Length;

    /// <summary>Writes the new value from the old one, and the reply; false cancels the write.</summary>
    public virtual bool CopyUpdater(ReadOnlySpan<byte> key, CustomArgs args, ReadOnlySpan<byte> oldValue, Span<byte> newValue, ICustomReply reply)
    {
        oldValue.CopyTo(newValue);
        reply.WriteOk();
        return true;
    }

    /// <summary>Reads the value (null when the key is missing) and writes the reply (read-only commands).</summary>
    public virtual void Reader(ReadOnlySpan<byte> key, CustomArgs args, byte[]? value, ICustomReply reply) => reply.WriteBulk(value ?? []);
}

/// <summary>Result of <see cref="CustomRawStringCommand.InPlaceUpdater"/>.</summary>
public enum InPlaceResult
{
    /// <summary>The value was changed and is stored.</summary>
    Updated,

    /// <summary>Nothing to store.</summary>
    Unchanged,

    /// <summary>The value needs another length: run the copy updater.</summary>
    NeedsCopy,
}

/// <summary>What procedures can do: run any command as this client and read its reply.</summary>
public interface IProcedureApi
{
    /// <summary>Runs a command (name first) and returns its parsed reply (errors are values too, see <see cref="RespValue.IsError"/>).</summary>
    RespValue Call(params byte[][] commandAndArgs);

    /// <summary>Runs a command given as text arguments.</summary>
    RespValue Call(params string[] commandAndArgs);

    /// <summary>GET: the value, or null.</summary>
    byte[]? Get(ReadOnlySpan<byte> key);

    /// <summary>SET key value.</summary>
    void Set(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value);
}

/// <summary>A custom procedure: runs commands through <see cref="IProcedureApi"/>, not atomically, and writes a reply.</summary>
public abstract class CustomProcedure : CustomCommandBase
{
    /// <summary>Runs the procedure; the reply must be written exactly once.</summary>
    public abstract void Execute(IProcedureApi api, CustomArgs args, ICustomReply reply);
}

/// <summary>Collects the keys a transactional procedure touches, in <see cref="CustomTransactionProcedure.Prepare"/>.</summary>
public sealed class KeyDeclarations
{
    internal readonly List<(byte[] Key, bool Write)> Keys = [];

    /// <summary>Declares <paramref name="key"/>, read or written.</summary>
    public void Add(ReadOnlySpan<byte> key, bool write) => Keys.Add((key.ToArray(), write));

    internal bool Covers(ReadOnlySpan<byte> key)
    {
        foreach (var (declared, _) in Keys)
        {
            if (key.SequenceEqual(declared))
                return true;
        }
        return false;
    }
}

/// <summary>
/// A transactional stored procedure: <see cref="Prepare"/> declares the keys; <see cref="Main"/> runs
/// with them locked (two-phase locking on the engine's bucket latches, as EXEC does), so it is atomic
/// against every other client; <see cref="Finalize"/> runs after the locks are released. Main may
/// only touch declared keys (others are refused with an error reply).
/// </summary>
public abstract class CustomTransactionProcedure : CustomCommandBase
{
    /// <summary>Declares the keys; false refuses the call (the reply must then be written here).</summary>
    public abstract bool Prepare(CustomArgs args, KeyDeclarations keys, ICustomReply reply);

    /// <summary>Runs under the locks and writes the reply.</summary>
    public abstract void Main(IProcedureApi api, CustomArgs args, ICustomReply reply);

    /// <summary>Runs after the locks are released (writes no reply).</summary>
    public virtual void Finalize(IProcedureApi api, CustomArgs args) { }
}
