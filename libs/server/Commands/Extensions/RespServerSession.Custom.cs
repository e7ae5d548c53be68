using System;
using System.Text;
using Tsavorite;

namespace Garnet.server;

/// <summary>Running registered custom commands and procedures (see libs/server/Extensions).</summary>
public sealed unsafe partial class RespServerSession : ICustomReply, IProcedureApi
{
    private ReplyBuffer? _customReply;
    private KeyDeclarations? _procedureKeys;

    /// <summary>Finds a built-in command, then a registered custom one.</summary>
    private RespCommandInfo? FindCommand(ReadOnlySpan<byte> name)
        => LookupCommand(name) ?? _server.Extensions.Find(name)?.Info;

    /// <summary>Dispatch for ids at or above <see cref="ExtensionRegistry.FirstId"/>.</summary>
    private void ExecuteCustomCommand(RespCommand command)
    {
        var entry = _server.Extensions.Get(command);
        if (entry == null)
        {
            _writer.WriteError("ERR unknown custom command");
            return;
        }
        try
        {
            switch (entry.Command)
            {
                case CustomRawStringCommand raw:
                    RunRawStringCommand(raw);
                    break;
                case CustomObjectCommand objectCommand:
                    // The object's Operate finds the command here (same thread, inside the engine callback).
                    CustomObject.Running = objectCommand;
                    try
                    {
                        RunObjectCommand(objectCommand.Factory.ObjectType, write: (objectCommand.Flags & CommandFlags.ReadOnly) == 0);
                    }
                    finally
                    {
                        CustomObject.Running = null;
                    }
                    break;
                case CustomTransactionProcedure transactional:
                    RunTransactionProcedure(transactional, CopyArgs(1));
                    break;
                case CustomProcedure procedure:
                    procedure.Execute(this, CopyArgs(1), this);
                    break;
            }
        }
        catch (Exception e) when (e is not Tsavorite.TsavoriteException)
        {
            _writer.WriteError("ERR custom command failed: " + e.Message.Replace('\r', ' ').Replace('\n', ' '));
        }
    }

    private CustomArgs CopyArgs(int from)
    {
        var args = new byte[Math.Max(0, _argCount - from)][];
        for (int i = 0; i < args.Length; i++)
            args[i] = _args[from + i].Span.ToArray();
        return new CustomArgs(args);
    }

    /// <summary>
    /// NAME key arg...: under the key's lock (taken here unless EXEC already holds it), reads the value
    /// and calls the command's callbacks; a changed value is stored with SET ... KEEPTTL.
    /// </summary>
    private void RunRawStringCommand(CustomRawStringCommand command)
    {
        byte[] key = _args[1].Span.ToArray();
        var args = CopyArgs(2);
        bool readOnly = (command.Flags & CommandFlags.ReadOnly) != 0;
        bool lockHere = _gateMode == 0;
        if (lockHere)
        {
            int count = 0;
            AddLockRequest(ref count, KeyLockRequest.For(key, exclusive: !readOnly));
            LockKeys(count, keyspace: false);
        }
        try
        {
            var current = Call([Encoding.ASCII.GetBytes("GET"), key]);
            if (current.IsError)
            {
                _writer.WriteError(current.ToString());
                return;
            }
            if (readOnly)
            {
                command.Reader(key, args, current.Bytes, this);
                return;
            }
            byte[]? newValue = null;
            if (current.Bytes == null)
            {
                if (!command.NeedInitialUpdate(key, args, this))
                    return;
                var value = new byte[command.GetInitialLength(args)];
                if (command.InitialUpdater(key, args, value, this))
                    newValue = value;
            }
            else
            {
                var value = current.Bytes;
                switch (command.InPlaceUpdater(key, args, value, this))
                {
                    case InPlaceResult.Updated:
                        newValue = value;
                        break;
                    case InPlaceResult.NeedsCopy:
                        var copy = new byte[command.GetLength(value, args)];
                        if (command.CopyUpdater(key, args, value, copy, this))
                            newValue = copy;
                        break;
                }
            }
            if (newValue != null)
                Call([Encoding.ASCII.GetBytes("SET"), key, newValue, Encoding.ASCII.GetBytes("KEEPTTL")]);
        }
        finally
        {
            if (lockHere)
                UnlockKeys();
        }
    }

    /// <summary>Prepare (declare keys), Main under their locks (2PL, as EXEC), unlock, Finalize.</summary>
    private void RunTransactionProcedure(CustomTransactionProcedure procedure, CustomArgs args)
    {
        var keys = new KeyDeclarations();
        if (!procedure.Prepare(args, keys, this))
            return;
        bool lockHere = _gateMode == 0;
        if (lockHere)
        {
            int count = 0;
            foreach (var (key, write) in keys.Keys)
                AddLockRequest(ref count, KeyLockRequest.For(key, write));
            LockKeys(count, keyspace: false);
        }
        var savedKeys = _procedureKeys;
        _procedureKeys = keys;
        try
        {
            procedure.Main(this, args, this);
        }
        finally
        {
            _procedureKeys = savedKeys;
            if (lockHere)
                UnlockKeys();
        }
        procedure.Finalize(this, args);
    }

    RespValue IProcedureApi.Call(params byte[][] commandAndArgs) => Call(commandAndArgs);

    RespValue IProcedureApi.Call(params string[] commandAndArgs)
    {
        var bytes = new byte[commandAndArgs.Length][];
        for (int i = 0; i < bytes.Length; i++)
            bytes[i] = Encoding.UTF8.GetBytes(commandAndArgs[i]);
        return Call(bytes);
    }

    byte[]? IProcedureApi.Get(ReadOnlySpan<byte> key) => Call([Encoding.ASCII.GetBytes("GET"), key.ToArray()]).Bytes;

    void IProcedureApi.Set(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => Call([Encoding.ASCII.GetBytes("SET"), key.ToArray(), value.ToArray()]);

    /// <summary>
    /// Runs a command for a procedure (through the same path as redis.call) and parses its reply.
    /// Inside a transactional procedure's Main, commands on undeclared keys are refused: their
    /// buckets are not locked, and waiting for them while holding locks could deadlock.
    /// </summary>
    private RespValue Call(byte[][] commandAndArgs)
    {
        if (commandAndArgs.Length == 0)
            throw new ArgumentException("No command given.");
        var pinned = new System.Runtime.InteropServices.GCHandle[commandAndArgs.Length];
        var args = new ArgSlice[commandAndArgs.Length];
        try
        {
            for (int i = 0; i < args.Length; i++)
            {
                pinned[i] = System.Runtime.InteropServices.GCHandle.Alloc(commandAndArgs[i], System.Runtime.InteropServices.GCHandleType.Pinned);
                args[i] = new ArgSlice((byte*)pinned[i].AddrOfPinnedObject(), commandAndArgs[i].Length);
            }
            if (_procedureKeys != null && !KeysDeclared(args))
                return RespValue.Parse("-ERR the procedure touches a key it did not declare in Prepare\r\n"u8);
            var reply = _customReply ??= new ReplyBuffer();
            int start = reply.Written.Length;
            bool wrote = false;
            RunCommandFromScript(args, args.Length, reply, resp3: false, readOnly: false, ref wrote);
            var value = RespValue.Parse(reply.Written.Slice(start));
            if (start == 0)
                reply.Reset();
            return value;
        }
        finally
        {
            foreach (var handle in pinned)
            {
                if (handle.IsAllocated)
                    handle.Free();
            }
        }
    }

    private bool KeysDeclared(ArgSlice[] args)
    {
        var info = FindCommand(args[0].Span);
        if (info == null)
            return true;
        var keys = new KeyList();
        KeyExtraction.Extract(info, args, args.Length, keys);
        if (keys.Scope == KeyScope.Keyspace || keys.Scope == KeyScope.DatabaseSwitch)
            return false;
        for (int i = 0; i < keys.Count; i++)
        {
            if (!_procedureKeys!.Covers(args[keys.Position(i)].Span))
                return false;
        }
        return true;
    }

    void ICustomReply.WriteOk() => _writer.WriteOk();

    void ICustomReply.WriteSimpleString(string text) => _writer.WriteSimpleString(Encoding.UTF8.GetBytes(text));

    void ICustomReply.WriteError(string message) => _writer.WriteError(message);

    void ICustomReply.WriteInteger(long value) => _writer.WriteInteger(value);

    void ICustomReply.WriteBulk(ReadOnlySpan<byte> value) => _writer.WriteBulk(value);

    void ICustomReply.WriteBulk(string value) => _writer.WriteBulk(value);

    void ICustomReply.WriteNull() => _writer.WriteNull();

    void ICustomReply.WriteArrayHeader(int count) => _writer.WriteArrayHeader(count);
}
