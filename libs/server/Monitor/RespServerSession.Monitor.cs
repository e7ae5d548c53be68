namespace Garnet.server;

/// <summary>
/// MONITOR: the client then gets a line for every command any client runs (see <see cref="MonitorFeed"/>), through its
/// outbox (as published messages), until RESET or it disconnects. As in Redis, administrative commands (CONFIG, ACL,
/// MONITOR ...) are not shown, nor blocked commands run again for a waker.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private bool _monitoring;

    private void StartMonitoring()
    {
        if (!_monitoring)
        {
            // A client that never subscribed gets an outbox bounded by the normal clients' limit, as Redis's monitors are.
            _outbox ??= new PubSubOutbox(this, _server.ClientLimits.Normal);
            _outbox.SetMonitoring(true);
            _monitoring = _server.Monitors.Add(_outbox);
        }
        _writer.WriteOk();
    }

    private void StopMonitoring()
    {
        if (!_monitoring)
            return;
        _monitoring = false;
        _server.Monitors.Remove(_outbox!);
        _outbox!.SetMonitoring(false);
    }

    /// <summary>
    /// Whether the command's line goes to the monitors before it runs: scripts (EVAL, EVALSHA, FCALL and their _RO forms),
    /// as in Redis, so that the lines of the commands they call follow theirs. Every other command's goes after it ran.
    /// </summary>
    private static bool FeedsMonitorsFirst(RespCommand command)
        => command is RespCommand.EVAL or RespCommand.EVALSHA or RespCommand.EVAL_RO or RespCommand.EVALSHA_RO
            or RespCommand.FCALL or RespCommand.FCALL_RO;

    /// <summary>Runs the command (<paramref name="run"/>) while clients monitor, and gives them its line before or after.</summary>
    private void RunMonitored(RespCommandInfo info, System.Action<RespServerSession, RespCommandInfo> run)
    {
        bool first = FeedsMonitorsFirst(info.Command);
        if (first)
            FeedMonitors(info);
        run(this, info);
        if (!first)
            FeedMonitors(info);
    }

    /// <summary>Gives the monitors the line of the command that runs (see <see cref="FeedsMonitorsFirst"/>).</summary>
    private void FeedMonitors(RespCommandInfo info)
    {
        if (_replaying || (info.Flags & CommandFlags.Admin) != 0)
            return;
        // A container's administrative subcommand (CLIENT KILL, DEBUG ...) is not shown either.
        var subcommand = _argCount > 1 ? SubcommandTable.Find(info.Command, _args[1]) : null;
        if (subcommand != null && (subcommand.Info.Flags & CommandFlags.Admin) != 0)
            return;
        string origin;
        if (_inScriptCommand)
        {
            origin = "lua";
        }
        else
        {
            string address = _sender.RemoteEndpoint;
            origin = address.StartsWith('/') ? "unix:" + address : address;
        }
        _server.Monitors.Feed(_databaseIndex, origin, new System.ReadOnlySpan<ArgSlice>(_args, 0, _argCount), (subcommand?.Info ?? info).Secrets);
    }
}
