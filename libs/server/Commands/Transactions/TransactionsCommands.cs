using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// MULTI, EXEC, DISCARD, WATCH and UNWATCH. Queuing, EXEC and the locks live in
/// Transactions/RespServerSession.Transactions.cs.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteTransactionsCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.MULTI: Multi(); break;
            case RespCommand.EXEC: Exec(); break;
            case RespCommand.DISCARD: Discard(); break;
            case RespCommand.WATCH: Watch(); break;
            case RespCommand.UNWATCH: Unwatch(); break;
            default: throw new InvalidOperationException($"{command} is not a transactions command.");
        }
    }

    /// <summary>MULTI: commands are queued until EXEC or DISCARD.</summary>
    private void Multi()
    {
        if (InMulti)
        {
            _writer.WriteError("ERR MULTI calls can not be nested"u8);
            return;
        }
        _transaction ??= new TransactionState();
        _transaction.InMulti = true;
        _writer.WriteOk();
    }

    /// <summary>DISCARD: drops the queued commands and the watches.</summary>
    private void Discard()
    {
        if (!InMulti)
        {
            _writer.WriteError("ERR DISCARD without MULTI"u8);
            return;
        }
        ResetTransaction();
        _writer.WriteOk();
    }

    /// <summary>
    /// WATCH key [key ...]: EXEC will abort if any of the keys is written (or expires, or is
    /// flushed) before it. Records each key's version, and whether and until when it exists.
    /// </summary>
    private void Watch()
    {
        if (InMulti)
        {
            _writer.WriteError("ERR WATCH inside MULTI is not allowed"u8);
            return;
        }
        _transaction ??= new TransactionState();
        // Before any key is read; WATCH holds no key lock (KeyExtraction), as arming may wait for writes that wait for one.
        HoldWatch();
        var versions = _server.WatchVersions;
        for (int i = 1; i < _argCount; i++)
        {
            var key = _args[i].Span;
            // The version is read before the key, so a write in between shows as a changed version.
            int slot = WatchVersionTable.SlotOf(key);
            long version = versions.Read(slot);
            long generation = versions.ReadGeneration(_databaseIndex);
            var output = default(StringOutput);
            bool existed = ReadKey(key, RespCommand.PTTL, ref output).Found;
            long expiration = existed ? output.Number : 0;
            _transaction.Watched.Add(new WatchedKey(key.ToArray(), slot, version, _databaseIndex, generation, existed, expiration));
        }
        _writer.WriteOk();
    }

    /// <summary>UNWATCH: forgets the watched keys.</summary>
    private void Unwatch()
    {
        ForgetWatches();
        _writer.WriteOk();
    }
}
