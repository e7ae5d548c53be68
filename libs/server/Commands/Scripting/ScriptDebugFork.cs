using System;
using Garnet.server.Scripting;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// SCRIPT DEBUG YES: the debugged EVAL runs on a copy of the data that is thrown away at the end (<see cref="DebugFork"/>),
/// as Redis runs it in a forked child. Here the client's session makes the copy and hands its connection over; the rest
/// of the session is the copy's session's.
/// </summary>
/// <remarks>
/// The copy is taken key by key (values copied, objects deep-copied, expirations kept) on this session's thread: it costs
/// time and memory in proportion to the data, as Redis's fork costs its page tables and then the pages the two processes
/// change. Unlike a fork it is not one instant: a write another client makes to a key during the copy may or may not be
/// in it (each key is copied whole, before or after such a write).
/// </remarks>
public sealed unsafe partial class RespServerSession
{
    /// <summary>Keys copied between two refreshes of the copy's epochs (the engine's pages move on meanwhile).</summary>
    private const int ForkCopyRefreshInterval = 256;

    /// <summary>The SCRIPT DEBUG YES session this client's connection was handed to, or null.</summary>
    private DebugFork? _debugFork;

    /// <summary>Whether a debugging session is on (a debugged script runs or waits): read by <see cref="DebugFork"/> of its session.</summary>
    internal bool DebugSessionRunning => _luaDebugger is { TakesInput: true };

    /// <summary>
    /// EVAL under SCRIPT DEBUG YES: copies the data into a new server and makes the session on it that will run this
    /// EVAL under the debugger (SYNC there); the command loop then stops, and the EVAL and all later input go to that
    /// session (<see cref="FeedDebugger"/>). When the copy does not fit (maxmemory), the EVAL fails unrun with Redis's
    /// error for a failed fork, the debugger is off and the connection stays.
    /// </summary>
    private void EvalInDebugFork(LuaDebugger debugger)
    {
        var fork = new StoreWrapper(_server.Options.ForDebugFork());
        RespServerSession? session = null;
        bool copied;
        try
        {
            ScriptingState.Of(fork).TimeLimitMilliseconds = Scripting.TimeLimitMilliseconds;
            // maxmemory as it is now; never evicting, so the copy cannot lose keys to make room (a fork copies them all).
            fork.MemoryBudget.Limit = _server.MemoryBudget.Limit;
            fork.MemoryBudget.Policy = EvictionPolicy.NoEviction;
            copied = TryCopyDataInto(fork);
            if (copied)
            {
                session = new RespServerSession(fork, _sender);
                session.TakeOverForDebugging(this);
                _debugFork = new DebugFork(_server.ForkedDebugSessions, fork, session, EncodeCurrentCommand());
            }
        }
        catch
        {
            session?.Dispose();
            fork.Dispose();
            throw;
        }
        if (!copied)
        {
            fork.Dispose();
            _luaDebugger = null;
            _writer.WriteError("ERR Fork() failed: can't run EVAL in debugging mode: Cannot allocate memory"u8);
            return;
        }
        // As Redis's parent frees the client once the child has its connection: it leaves this server's client list.
        _server.Clients.Remove(this);
        debugger.TakesInput = true;
        _closeRequested = true;
    }

    /// <summary>Makes this session (on a forked server) act for <paramref name="client"/>: its user, protocol, database and names, with the debugger on.</summary>
    private void TakeOverForDebugging(RespServerSession client)
    {
        _aclUser = client._aclUser;
        Authenticated = client.Authenticated;
        _writer.Resp3 = client._writer.Resp3;
        _databaseIndex = client._databaseIndex;
        ClientName = client.ClientName;
        LibraryName = client.LibraryName;
        LibraryVersion = client.LibraryVersion;
        _luaDebugger = new LuaDebugger();
    }

    /// <summary>The running command as the client sent it (a RESP array of bulk strings).</summary>
    private byte[] EncodeCurrentCommand()
    {
        var text = new System.IO.MemoryStream();
        WriteLine(text, (byte)'*', _argCount);
        for (int i = 0; i < _argCount; i++)
        {
            var argument = _args[i].Span;
            WriteLine(text, (byte)'$', argument.Length);
            text.Write(argument);
            text.Write("\r\n"u8);
        }
        return text.ToArray();

        static void WriteLine(System.IO.MemoryStream text, byte prefix, int number)
        {
            Span<byte> digits = stackalloc byte[12];
            text.WriteByte(prefix);
            number.TryFormat(digits, out int written, default, System.Globalization.CultureInfo.InvariantCulture);
            text.Write(digits.Slice(0, written));
            text.Write("\r\n"u8);
        }
    }

    /// <summary>Copies every database in use into <paramref name="fork"/>; false when the copy ran out of memory.</summary>
    private bool TryCopyDataInto(StoreWrapper fork)
    {
        // Out of the batch: each database is read through a session of its own that touches nothing (no access update).
        EndBatch();
        try
        {
            for (int index = 0; index < _server.DatabaseCount; index++)
            {
                if (_server.PeekDatabase(index) is not { NeverWritten: false } database)
                    continue;
                // Its index sized for the keys at once, as recovery does, rather than doubled again and again.
                fork.CreateDatabaseFor(index, database.MainStore.KeyCount);
                if (!TryCopyDatabase(index, fork.GetDatabase(index), fork.MemoryBudget))
                    return false;
            }
            return true;
        }
        finally
        {
            BeginBatch();
        }
    }

    /// <summary>Copies the live keys of database <paramref name="index"/> into <paramref name="target"/>; false when they do not fit in <paramref name="budget"/>.</summary>
    private bool TryCopyDatabase(int index, GarnetDatabase target, MemoryBudget budget)
    {
        var keys = EmptyKeyBuffer();
        ClientSession<StringInput, StringOutput, MainStoreFunctions> source;
        GarnetDatabase database;
        while (true)
        {
            database = _server.GetDatabase(index);
            source = database.MainStore.NewSession<StringInput, StringOutput, MainStoreFunctions>(new MainStoreFunctions(database.Objects, noTouch: true));
            if (database.TryEnter(source))
                break;
            source.Dispose();
        }
        var targetStrings = target.MainStore.NewSession<StringInput, StringOutput, MainStoreFunctions>(new MainStoreFunctions(target.Objects));
        try
        {
            var sourceObjects = source.NewLinkedSession<ObjectInput, ObjectOutput, ObjectStoreFunctions>(new ObjectStoreFunctions(database.Objects, noTouch: true));
            var targetObjects = targetStrings.NewLinkedSession<ObjectInput, ObjectOutput, ObjectStoreFunctions>(new ObjectStoreFunctions(target.Objects));
            var scan = new KeyScan(keys, default, KeyScan.AnyType, long.MaxValue);
            source.Scan(ref scan, 0, -1, ScanFlags.IncludeMovedPastEnd);
            // Nobody else uses the copy, so it stays entered for the whole copy.
            if (!target.TryEnter(targetStrings))
                throw new InvalidOperationException("A forked database was flushed while being copied.");
            try
            {
                for (int i = 0; i < keys.Count; i++)
                {
                    if (CopyKey(keys[i], source, sourceObjects, targetStrings, targetObjects) == CopyResult.OutOfMemory)
                        return false;
                    if (i % ForkCopyRefreshInterval == ForkCopyRefreshInterval - 1)
                    {
                        // The store refuses a write only when it needs a page it cannot have; maxmemory is checked here, as
                        // before a client's write (with a storage tier the copy's pages go to its own files instead).
                        if (budget.OverLimit && !target.MainStore.Log.StorageTier)
                            return false;
                        source.Refresh();
                        targetStrings.Refresh();
                    }
                }
                if (budget.OverLimit && !target.MainStore.Log.StorageTier)
                    return false;
            }
            finally
            {
                targetStrings.EndUnsafe();
            }
            return true;
        }
        finally
        {
            source.EndUnsafe();
            source.Dispose();
            targetStrings.Dispose();
            keys.Clear();
        }
    }

    /// <summary>Copies one key, with its expiration (a string as it is encoded, an object deep-copied); missing now: skipped.</summary>
    private CopyResult CopyKey(ReadOnlySpan<byte> key,
        ClientSession<StringInput, StringOutput, MainStoreFunctions> source, ClientSession<ObjectInput, ObjectOutput, ObjectStoreFunctions> sourceObjects,
        ClientSession<StringInput, StringOutput, MainStoreFunctions> target, ClientSession<ObjectInput, ObjectOutput, ObjectStoreFunctions> targetObjects)
    {
        var input = new StringInput(RespCommand.COPY);
        var output = new StringOutput(Output);
        if (!source.Read(key, ref input, ref output).Found)
            return CopyResult.SourceMissing;
        if (output.ObjectType == GarnetObjectType.None)
        {
            // Redis's fork shares its integers; a copy of one here is of its own, with the same encoding.
            var form = output.Form == StringForm.Encoded ? StringForm.EncodedUnshared : output.Form;
            return WriteCopiedValue(target, key, output.Number, form, replace: true);
        }
        var objectInput = new ObjectInput(RespCommand.COPY, GarnetObjectType.None, _args, 0, 0) { Operation = ObjectOperation.Snapshot };
        var objectOutput = new ObjectOutput();
        if (!sourceObjects.Read(key, ref objectInput, ref objectOutput).Found || objectOutput.Object == null)
            return CopyResult.SourceMissing;
        return InstallObject(targetObjects, key, objectOutput.Object, objectOutput.ExpirationUnixMs, replace: true);
    }

    /// <summary>Hands the client's input to the forked session; once it is over, the fork is dropped and the connection closes.</summary>
    private void FeedDebugFork(DebugFork fork, byte* bytes, int length)
    {
        if (fork.Feed(bytes, length))
            EndDebugFork();
    }

    /// <summary>Drops the forked session and its copy of the data (a stopped script runs to its end there first); input from now on is dropped.</summary>
    private void EndDebugFork()
    {
        var fork = _debugFork;
        if (fork == null)
            return;
        _debugFork = null;
        _luaDebugger = null;
        KillRequested = true;
        fork.Dispose(serverStopping: _server.Stopping);
    }
}
