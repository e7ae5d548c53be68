namespace Garnet.server;

/// <summary>
/// Receives the run time of every command a client sends, when metrics are on (<see cref="StoreWrapper.CommandLatency"/>).
/// It is called on the session's thread for each command, so it must neither block nor allocate.
/// </summary>
public interface ICommandLatencyObserver
{
    /// <summary>
    /// <paramref name="command"/> ran for <paramref name="elapsedTimestamp"/> ticks of <see cref="System.Diagnostics.Stopwatch"/>:
    /// from after its checks (arity, ACL) to its reply written into the send buffer. A command queued by MULTI counts
    /// within EXEC, a command a script calls within EVAL, and a blocking command until it blocks or replies.
    /// </summary>
    void Record(RespCommandInfo command, long elapsedTimestamp);
}
