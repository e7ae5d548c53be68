using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The persistence commands: SAVE, BGSAVE [SCHEDULE], BGREWRITEAOF, LASTSAVE and Garnet's COMMITAOF. Checkpoints are
/// taken by <see cref="Checkpointer"/>; the replies are Redis's.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>SAVE: a checkpoint on this thread (other clients go on meanwhile), then +OK.</summary>
    private void Save()
    {
        // The checkpoint waits for every thread inside the databases to move on, this one too: it leaves its batch meanwhile.
        CheckpointStart started;
        EndBatch();
        try
        {
            started = _server.Checkpoints.Save();
        }
        finally
        {
            BeginBatch();
        }
        switch (started)
        {
            case CheckpointStart.Started:
                _writer.WriteOk();
                break;
            case CheckpointStart.Failed:
                _writer.WriteError("ERR " + _server.Checkpoints.LastError);
                break;
            default:
                _writer.WriteError("ERR Background save already in progress"u8);
                break;
        }
    }

    /// <summary>BGSAVE [SCHEDULE]: a checkpoint in the background.</summary>
    private void BackgroundSave()
    {
        bool schedule = false;
        if (_argCount > 2 || (_argCount == 2 && !(schedule = _args[1].EqualsUpper("SCHEDULE"u8))))
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        switch (_server.Checkpoints.SaveInBackground(schedule))
        {
            case CheckpointStart.Started:
                _writer.WriteSimpleString("Background saving started"u8);
                break;
            case CheckpointStart.Scheduled:
                _writer.WriteSimpleString("Background saving scheduled"u8);
                break;
            default:
                _writer.WriteError(_server.Checkpoints.RewriteInProgress
                    ? "ERR Another child process is active (AOF?): can't BGSAVE right now. Use BGSAVE SCHEDULE in order to schedule a BGSAVE whenever possible."u8
                    : "ERR Background save already in progress"u8);
                break;
        }
    }

    /// <summary>BGREWRITEAOF: a checkpoint, after which the AOF files before it are removed (scheduled after a running save).</summary>
    private void BackgroundRewriteAof()
    {
        switch (_server.Checkpoints.RewriteAofInBackground())
        {
            case CheckpointStart.Started:
                _writer.WriteSimpleString("Background append only file rewriting started"u8);
                break;
            case CheckpointStart.Scheduled:
                _writer.WriteSimpleString("Background append only file rewriting scheduled"u8);
                break;
            default:
                _writer.WriteError("ERR Background append only file rewriting already in progress"u8);
                break;
        }
    }

    /// <summary>
    /// COMMITAOF [dbid] (Garnet's): makes every write logged so far durable, then +OK. There is one log for all databases, so
    /// a database id, checked, commits it all.
    /// </summary>
    private void CommitAof()
    {
        if (_argCount > 2)
        {
            WriteWrongArity("commitaof");
            return;
        }
        if (_argCount == 2 && !TryReadDatabaseIndex(in _args[1], out _))
            return;
        var log = _server.OperationLog;
        if (log == null)
        {
            _writer.WriteError("ERR the append-only file is off (start the server with --aof)"u8);
            return;
        }
        if (!log.CommitAll())
        {
            _writer.WriteError("MISCONF Errors writing to the AOF file: " + log.Failure!.Message);
            return;
        }
        _writer.WriteOk();
    }
}
