using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The server commands: INFO, CONFIG, TIME, DEBUG, SHUTDOWN, COMMAND, MEMORY, ACL, CLUSTER and the persistence ones. Each
/// larger one has its own file; this one dispatches and holds the small ones.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteServerCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.INFO: Info(); break;
            case RespCommand.CONFIG: Config(); break;
            case RespCommand.TIME: Time(); break;
            case RespCommand.DEBUG: DebugCommand(); break;
            case RespCommand.SHUTDOWN: Shutdown(); break;
            case RespCommand.COMMAND: CommandCommand(); break;
            case RespCommand.MEMORY: MemoryCommand(); break;
            case RespCommand.LASTSAVE: _writer.WriteInteger(_server.LastSaveUnixSeconds); break;
            case RespCommand.ACL: AclCommand(); break;
            case RespCommand.CLUSTER: ClusterCommand(); break;
            case RespCommand.COMMITAOF: CommitAof(); break;
            case RespCommand.SAVE: Save(); break;
            case RespCommand.BGSAVE: BackgroundSave(); break;
            case RespCommand.BGREWRITEAOF: BackgroundRewriteAof(); break;
            case RespCommand.WAITAOF: WaitAof(); break;
            case RespCommand.WAIT: WaitForReplicas(); break;
            case RespCommand.ROLE: Role(); break;
            case RespCommand.MONITOR: StartMonitoring(); break;
            case RespCommand.SLOWLOG: SlowLogCommand(); break;
            case RespCommand.LATENCY: LatencyCommand(); break;
            case RespCommand.LOLWUT: Lolwut(); break; // LolwutCommand.cs
            case RespCommand.REPLICAOF:
            case RespCommand.SLAVEOF: ReplicaOf(); break; // Replication/RespServerSession.Replication.cs
            case RespCommand.REPLSYNC: ReplSync(); break;
            case RespCommand.REPLATTACH: ReplAttach(); break;
            case RespCommand.REPLFULL: ReplFull(); break;
            case RespCommand.REPLAPPEND: ReplAppend(); break;
            case RespCommand.REPLFAILOVER: ReplFailover(); break;
            case RespCommand.FAILOVER: Failover(); break;
            case RespCommand.REPLPROMOTE: ReplPromote(); break;
            case RespCommand.REPLFACK: ReplFack(); break;
            default: throw new InvalidOperationException($"{command} is not a server command.");
        }
    }

    /// <summary>TIME: the Unix time as [seconds, microseconds] bulk strings.</summary>
    private void Time()
    {
        long microseconds = (DateTime.UtcNow.Ticks - DateTime.UnixEpoch.Ticks) / 10;
        _writer.WriteArrayHeader(2);
        _writer.WriteBulkInteger(microseconds / 1_000_000);
        _writer.WriteBulkInteger(microseconds % 1_000_000);
    }

    /// <summary>
    /// SHUTDOWN [NOSAVE|SAVE] [NOW] [FORCE] [ABORT]: saves (with SAVE, or when save points or periodic checkpoints
    /// are configured, unless NOSAVE), then asks the host to stop and closes this connection without a reply, as Redis
    /// does. A failed save keeps the server running with Redis's error, unless FORCE. ABORT fails since a shutdown is
    /// never left pending.
    /// </summary>
    private void Shutdown()
    {
        bool save = false;
        bool noSave = false;
        bool other = false;
        bool force = false;
        bool abort = false;
        for (int i = 1; i < _argCount; i++)
        {
            ref readonly var option = ref _args[i];
            if (option.EqualsUpper("NOSAVE"u8))
            {
                noSave = true;
            }
            else if (option.EqualsUpper("SAVE"u8))
            {
                save = true;
            }
            else if (option.EqualsUpper("NOW"u8) || option.EqualsUpper("FORCE"u8))
            {
                other = true;
                force |= option.EqualsUpper("FORCE"u8);
            }
            else if (option.EqualsUpper("ABORT"u8))
            {
                abort = true;
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }
        if ((save && noSave) || (abort && (save || noSave || other)))
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        if (abort)
        {
            _writer.WriteError(ServerStrings.ErrNoShutdownInProgress);
            return;
        }
        if (save || (!noSave && _server.CheckpointSchedule.SavesConfigured))
        {
            EndBatch();
            bool saved;
            try
            {
                saved = _server.Checkpoints.SaveWaitingForRunning();
            }
            finally
            {
                BeginBatch();
            }
            if (!saved && !force)
            {
                _writer.WriteError("ERR Errors trying to SHUTDOWN. Check logs."u8);
                return;
            }
        }
        // Saved now, or told not to: stopping does not save (again).
        _server.Checkpoints.SaveAtStop = false;
        RequestClose();
        _server.RequestShutdown();
    }
}
