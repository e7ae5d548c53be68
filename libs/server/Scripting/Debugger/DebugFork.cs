using System;

namespace Garnet.server.Scripting;

/// <summary>
/// A SCRIPT DEBUG YES session: what Redis gets by forking, made without a fork. A server of its own (<see cref="Server"/>:
/// no operation log, checkpoints or timers, see <see cref="ServerOptions.ForDebugFork"/>) holds a copy of every database
/// as it was when the debugged EVAL came, and a session on it (<see cref="Session"/>) runs that EVAL under the debugger
/// (as SCRIPT DEBUG SYNC runs it), answering the client on the client's own connection. The script's writes, keyspace events, tracking invalidations and
/// wake-ups of blocked clients all happen in that copy, where nobody else is; ending the session drops the copy, which is
/// the rollback. Meanwhile the server goes on serving its other clients: none of their keys is locked.
/// </summary>
/// <remarks>
/// The client's own session hands it every byte it receives (<see cref="Feed"/>) and drops it when the debugging session
/// is over or the client leaves (<see cref="Dispose"/>); the connection then closes, as Redis's does when its child exits.
/// </remarks>
internal sealed unsafe class DebugFork : IDisposable
{
    private readonly ForkedDebugSessions _registry;

    /// <summary>The debugged EVAL, as the client sent it, given to <see cref="Session"/> with the first input.</summary>
    private byte[]? _eval;

    private bool _disposed;

    public DebugFork(ForkedDebugSessions registry, StoreWrapper server, RespServerSession session, byte[] eval)
    {
        _registry = registry;
        Server = server;
        Session = session;
        _eval = eval;
        registry.Add(this);
    }

    /// <summary>The copy of the server's data the debugged script runs against.</summary>
    public StoreWrapper Server { get; }

    /// <summary>The session on <see cref="Server"/> that runs the debugged EVAL and the debugger's commands.</summary>
    public RespServerSession Session { get; }

    /// <summary>Bytes the copy's stores hold now.</summary>
    public long MemoryBytes => Server.MemoryBudget.Used;

    /// <summary>Gives the client's input to the forked session (the EVAL first); returns whether the debugging session is over.</summary>
    public bool Feed(byte* bytes, int length)
    {
        if (_eval is { } eval)
        {
            _eval = null;
            var input = new byte[eval.Length + length];
            eval.CopyTo(input, 0);
            new ReadOnlySpan<byte>(bytes, length).CopyTo(input.AsSpan(eval.Length));
            fixed (byte* start = input)
                Session.TryConsumeMessages(start, input.Length);
        }
        else
        {
            Session.TryConsumeMessages(bytes, length);
        }
        return !Session.DebugSessionRunning;
    }

    /// <summary>
    /// Ends the session: a script still stopped runs to its end in the copy (the client left, as in Redis), then the copy
    /// and its memory go. <paramref name="serverStopping"/>: the server is shutting down, so a script still running is killed.
    /// </summary>
    public void Dispose(bool serverStopping)
    {
        if (_disposed)
            return;
        _disposed = true;
        try
        {
            if (serverStopping)
                Server.BeginStop();
            Session.Dispose();
        }
        finally
        {
            Server.Dispose();
            DeleteLogDirectory();
            _registry.Remove(this);
        }
    }

    /// <inheritdoc/>
    public void Dispose() => Dispose(serverStopping: false);

    /// <summary>With a storage tier, the copy's files were in a directory of its own (their files are deleted as they close).</summary>
    private void DeleteLogDirectory()
    {
        if (Server.Options.LogDir is not { } directory)
            return;
        try
        {
            System.IO.Directory.Delete(directory, recursive: true);
        }
        catch (Exception e) when (e is System.IO.IOException or UnauthorizedAccessException)
        {
            // Left behind: empty directories, or files a device still holds open; they do no harm.
        }
    }
}
