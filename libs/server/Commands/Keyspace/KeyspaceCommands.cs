using System;
using System.Text;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// The keyspace commands: deleting and probing keys, expirations (ExpireCommands.cs), renaming and
/// copying (RenameCommands.cs), iteration (ScanCommands.cs), DBSIZE, DUMP and RESTORE
/// (DumpRestoreCommands.cs), MIGRATE (Migrate/), OBJECT (ObjectCommand.cs) and flushing.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteKeyspaceCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.DEL:
            case RespCommand.UNLINK: DeleteKeys(); break;
            case RespCommand.EXISTS:
            case RespCommand.TOUCH: CountExistingKeys(command); break;
            case RespCommand.TYPE: KeyType(); break;
            case RespCommand.EXPIRE:
            case RespCommand.PEXPIRE:
            case RespCommand.EXPIREAT:
            case RespCommand.PEXPIREAT: Expire(command); break;
            case RespCommand.TTL:
            case RespCommand.PTTL:
            case RespCommand.EXPIRETIME:
            case RespCommand.PEXPIRETIME: TimeToLive(command); break;
            case RespCommand.PERSIST: Persist(); break;
            case RespCommand.RENAME: Rename(onlyIfAbsent: false); break;
            case RespCommand.RENAMENX: Rename(onlyIfAbsent: true); break;
            case RespCommand.COPY: Copy(); break;
            case RespCommand.MOVE: Move(); break;
            case RespCommand.KEYS: Keys(); break;
            case RespCommand.SCAN: Scan(); break;
            case RespCommand.RANDOMKEY: RandomKey(); break;
            case RespCommand.DBSIZE: DbSize(); break;
            case RespCommand.FLUSHDB: FlushDatabases(all: false); break;
            case RespCommand.FLUSHALL: FlushDatabases(all: true); break;
            case RespCommand.DUMP: Dump(); break;
            case RespCommand.RESTORE:
            case RespCommand.RESTORE_ASKING: Restore(); break;
            case RespCommand.OBJECT: ObjectCommand(); break;
            case RespCommand.MIGRATE: Migrate(); break;
            case RespCommand.RESTORE_BATCH: RestoreBatch(); break;
            default: throw new InvalidOperationException($"{command} is not a keyspace command.");
        }
    }

    /// <summary>
    /// DBSIZE: the database's key count, kept by the engine as keys come and go (O(1), no walk of the log). As in
    /// Redis, keys that expired but were not reclaimed yet (by a lazy or active expiry) are counted.
    /// </summary>
    private void DbSize() => _writer.WriteInteger(Store.Store.KeyCount);

    /// <summary>Reads <paramref name="key"/> for a keyspace <paramref name="command"/> (see ReadLogic); values land in the output buffer.</summary>
    private Status ReadKey(ReadOnlySpan<byte> key, RespCommand command, ref StringOutput output)
    {
        var input = new StringInput(command);
        output = new StringOutput(Output);
        return Store.Read(key, ref input, ref output);
    }

    private bool KeyExists(ReadOnlySpan<byte> key)
    {
        var output = default(StringOutput);
        return ReadKey(key, RespCommand.EXISTS, ref output).Found;
    }

    /// <summary>DEL and UNLINK key [key ...]: the number of keys deleted. They are the same here: a delete leaves no freeing for later.</summary>
    private void DeleteKeys()
    {
        long deleted = 0;
        long expired = 0;
        for (int i = 1; i < _argCount; i++)
        {
            var status = Store.Delete(_args[i].Span);
            if (WriteIfOutOfMemory(status))
                return;
            if (status.Found)
            {
                deleted++;
                NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.Del, _args[i].Span);
                NotifyKeyDeleted(_args[i].Span);
            }
            else if (status.IsExpired)
            {
                expired++;
                NotifyExpired(_args[i].Span);
            }
        }
        if (expired > 0)
            _server.Statistics.AddExpiredKeys(expired);
        _writer.WriteInteger(deleted);
    }

    /// <summary>EXISTS and TOUCH key [key ...]: how many of the keys exist, a repeated key counting each time.</summary>
    private void CountExistingKeys(RespCommand command)
    {
        long count = 0;
        for (int i = 1; i < _argCount; i++)
        {
            var output = default(StringOutput);
            if (ReadKey(_args[i].Span, command, ref output).Found)
                count++;
        }
        _writer.WriteInteger(count);
    }

    /// <summary>TYPE key: "string", "list", "hash", "set", "zset", or "none" when the key does not exist.</summary>
    private void KeyType()
    {
        var output = default(StringOutput);
        bool found = ReadKey(_args[1].Span, RespCommand.TYPE, ref output).Found;
        _writer.WriteSimpleString(found ? ObjectRecord.TypeName(output.ObjectType) : KeyspaceStrings.None);
    }

    /// <summary>
    /// FLUSHDB and FLUSHALL [ASYNC | SYNC]: both empty the databases at once by unlinking them (the next use creates
    /// fresh ones; see <see cref="StoreWrapper.FlushDatabase"/>). SYNC, the default as in Redis, replies once the old
    /// memory was freed, which is as soon as no other thread is inside it; ASYNC replies at once and the memory is freed
    /// in the background. Inside a transaction holding the key-lock gate, or while holding key locks, the flush does not
    /// wait (other sessions may be waiting, protected, for what this one holds) and frees as ASYNC does.
    /// </summary>
    private void FlushDatabases(bool all)
    {
        bool async = false;
        if (_argCount == 2 && _args[1].EqualsUpper("ASYNC"u8))
            async = true;
        else if (_argCount > 2 || (_argCount == 2 && !_args[1].EqualsUpper("SYNC"u8)))
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        bool wait = !async && _gateMode == 0 && !Store.HoldsKeyLocks;
        // Out of the epoch: a waiting flush must not count as a thread inside the database it frees.
        EndBatch();
        try
        {
            if (all)
                _server.FlushAll(wait);
            else
                _server.FlushDatabase(_databaseIndex, wait)?.WaitUntilFreed();
        }
        finally
        {
            BeginBatch();
        }
        // Clients blocked in XREADGROUP on the keys that went get NOGROUP, as in Redis 7.2.
        if (_server.Blocking.SignalDatabase(all ? -1 : _databaseIndex))
            _blockingSignaled = true;
        _writer.WriteOk();
    }

    /// <summary>An error that quotes a client argument, with line breaks made spaces so the reply stays one line.</summary>
    private void WriteErrorQuoting(string prefix, in ArgSlice argument)
    {
        var message = new StringBuilder(prefix, prefix.Length + argument.Length);
        foreach (char c in argument.ToString())
            message.Append(c == '\r' || c == '\n' ? ' ' : c);
        _writer.WriteError(message.ToString());
    }
}
