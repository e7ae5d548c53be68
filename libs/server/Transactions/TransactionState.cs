using System;
using System.Collections.Generic;

namespace Garnet.server;

/// <summary>A key watched with WATCH: what EXEC compares against.</summary>
internal readonly struct WatchedKey
{
    public WatchedKey(byte[] key, int slot, long version, int database, long generation, bool existed, long expirationUnixMs)
    {
        Key = key;
        Slot = slot;
        Version = version;
        Database = database;
        Generation = generation;
        Existed = existed;
        ExpirationUnixMs = expirationUnixMs;
    }

    public byte[] Key { get; }

    /// <summary>Its slot in the <see cref="WatchVersionTable"/> and the counter read there.</summary>
    public int Slot { get; }

    public long Version { get; }

    /// <summary>The database it was watched in, and that database's generation then.</summary>
    public int Database { get; }

    public long Generation { get; }

    /// <summary>Whether the key existed when watched (a flush only aborts watchers of keys that existed, as in Redis).</summary>
    public bool Existed { get; }

    /// <summary>When the key expires (0 = no expiration or absent): EXEC aborts once that time has passed.</summary>
    public long ExpirationUnixMs { get; }
}

/// <summary>
/// A session's transaction: whether MULTI is open, whether queuing failed (EXEC then aborts), the
/// queued commands with copies of their arguments (the receive buffer does not outlive the batch),
/// and the watched keys. Created on a session's first MULTI or WATCH.
/// </summary>
internal sealed class TransactionState
{
    private byte[] _arena = new byte[1024];
    private int _arenaUsed;
    private int[] _argOffsets = new int[64];
    private int[] _argLengths = new int[64];
    private int _argTotal;
    private readonly List<(RespCommandInfo Info, int FirstArg, int ArgCount)> _commands = new();

    /// <summary>MULTI was called and neither EXEC nor DISCARD yet.</summary>
    public bool InMulti { get; set; }

    /// <summary>A command was refused while queuing: EXEC answers EXECABORT.</summary>
    public bool Dirty { get; set; }

    /// <summary>The watched keys.</summary>
    public List<WatchedKey> Watched { get; } = new();

    /// <summary>Bytes held for the queued commands: their arguments and each argument's offset and length (CLIENT LIST's multi-mem).</summary>
    public int QueuedBytes => _arenaUsed + (_argTotal * 2 * sizeof(int));

    /// <summary>Number of queued commands.</summary>
    public int Count => _commands.Count;

    /// <summary>The table entry of queued command <paramref name="i"/>.</summary>
    public RespCommandInfo CommandAt(int i) => _commands[i].Info;

    /// <summary>The arguments of queued command <paramref name="i"/> (name first).</summary>
    public int ArgCountAt(int i) => _commands[i].ArgCount;

    /// <summary>Queues a command with copies of its arguments.</summary>
    public void Queue(RespCommandInfo info, ReadOnlySpan<ArgSlice> args)
    {
        int bytes = 0;
        foreach (var arg in args)
            bytes += arg.Length;
        if (_arena.Length - _arenaUsed < bytes)
            Array.Resize(ref _arena, Math.Max(_arena.Length * 2, _arenaUsed + bytes));
        if (_argOffsets.Length - _argTotal < args.Length)
        {
            int size = Math.Max(_argOffsets.Length * 2, _argTotal + args.Length);
            Array.Resize(ref _argOffsets, size);
            Array.Resize(ref _argLengths, size);
        }
        _commands.Add((info, _argTotal, args.Length));
        foreach (var arg in args)
        {
            arg.Span.CopyTo(_arena.AsSpan(_arenaUsed));
            _argOffsets[_argTotal] = _arenaUsed;
            _argLengths[_argTotal] = arg.Length;
            _arenaUsed += arg.Length;
            _argTotal++;
        }
    }

    /// <summary>The argument bytes; pin them while slices from <see cref="FillArgs"/> are in use.</summary>
    public byte[] Arena => _arena;

    /// <summary>Writes slices of queued command <paramref name="i"/>'s arguments (into the pinned <paramref name="arena"/>) to <paramref name="args"/>.</summary>
    public unsafe void FillArgs(int i, byte* arena, ref ArgSlice[] args)
    {
        var (_, first, count) = _commands[i];
        if (args.Length < count)
            args = new ArgSlice[Math.Max(count, args.Length * 2)];
        for (int a = 0; a < count; a++)
            args[a] = new ArgSlice(arena + _argOffsets[first + a], _argLengths[first + a]);
    }

    /// <summary>Ends the MULTI block: drops queued commands and the dirty flag (watches stay, see <see cref="Unwatch"/>).</summary>
    public void EndMulti()
    {
        InMulti = false;
        Dirty = false;
        _commands.Clear();
        _arenaUsed = 0;
        _argTotal = 0;
        if (_arena.Length > 64 * 1024)
            _arena = new byte[1024];
    }

    /// <summary>Forgets the watched keys.</summary>
    public void Unwatch() => Watched.Clear();
}
