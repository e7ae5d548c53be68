using System;
using System.Text;

namespace Garnet.server;

/// <summary>How a MIGRATE's conversation with its target ended.</summary>
internal enum MigrateOutcome : byte
{
    /// <summary>Every RESTORE was acknowledged.</summary>
    Ok,

    /// <summary>The target replied an error (to AUTH, SELECT or a RESTORE): the first one is reported.</summary>
    TargetError,

    /// <summary>No connection could be made.</summary>
    ConnectFailed,

    /// <summary>Writing the commands failed or timed out.</summary>
    WriteFailed,

    /// <summary>Reading a reply failed or timed out.</summary>
    ReadFailed,
}

/// <summary>What MIGRATE sends a target and where: the key-independent parts of the conversation.</summary>
internal readonly ref struct MigrateTarget
{
    /// <summary>The connection cache's name of the target ("host:port" as given).</summary>
    public string Name { get; init; }
    public string Host { get; init; }
    public int Port { get; init; }
    public int TimeoutMs { get; init; }
    public long Database { get; init; }

    /// <summary>The AUTH2 user name, or empty for AUTH with a password alone.</summary>
    public ReadOnlySpan<byte> Username { get; init; }

    /// <summary>The password, or empty when not authenticating (<see cref="Authenticates"/> says which).</summary>
    public ReadOnlySpan<byte> Password { get; init; }
    public bool Authenticates { get; init; }
}

/// <summary>
/// MIGRATE's conversation with its target, as Redis 7.2 holds it: on a cached or new connection, one pipeline of
/// [AUTH] [SELECT db, when the connection's selected database differs] RESTORE... , then a reply line for each. A reply
/// starting with '-' is an error: the first one is reported, and once one came no RESTORE counts as acknowledged when
/// it was to AUTH or SELECT. A connection error (not a timeout) before any RESTORE reply arrived is retried once on a
/// new connection, since a cached one may have been closed by the target meanwhile.
/// </summary>
internal static class MigrateExchange
{
    /// <summary>
    /// Runs the conversation for <paramref name="restores"/> (<paramref name="acknowledged"/>.Length RESTORE commands);
    /// <paramref name="acknowledged"/>[i] tells whether the target applied RESTORE i (also after a later failure).
    /// </summary>
    public static MigrateOutcome Run(MigrateConnectionCache cache, in MigrateTarget target, ReadOnlySpan<byte> restores,
        MigrateCommandBuffer header, Span<bool> acknowledged, out string? targetError)
    {
        targetError = null;
        bool mayRetry = true;
        while (true)
        {
            acknowledged.Clear();
            var connection = cache.Take(target.Name) ?? MigrateConnection.TryConnect(target.Name, target.Host, target.Port, target.TimeoutMs);
            if (connection == null)
                return MigrateOutcome.ConnectFailed;

            bool select = connection.SelectedDatabase != target.Database;
            header.Clear();
            if (target.Authenticates)
            {
                bool withUser = !target.Username.IsEmpty;
                header.BeginCommand(withUser ? 3 : 2);
                header.WriteBulk(MigrateStrings.Auth);
                if (withUser)
                    header.WriteBulk(target.Username);
                header.WriteBulk(target.Password);
            }
            if (select)
            {
                header.BeginCommand(2);
                header.WriteBulk(MigrateStrings.Select);
                header.WriteBulk(target.Database);
            }

            var io = connection.Write(header.Written, target.TimeoutMs);
            if (io == MigrateIo.Ok)
                io = connection.Write(restores, target.TimeoutMs);
            if (io != MigrateIo.Ok)
            {
                connection.Dispose();
                if (io == MigrateIo.Failed && mayRetry)
                {
                    mayRetry = false;
                    continue;
                }
                return MigrateOutcome.WriteFailed;
            }

            // The replies to AUTH and SELECT decide only once the RESTOREs' come (as in Redis): keep their error text.
            string? setupError = null;
            if (target.Authenticates)
                io = ReadSetupReply(connection, target.TimeoutMs, ref setupError);
            if (io == MigrateIo.Ok && select)
                io = ReadSetupReply(connection, target.TimeoutMs, ref setupError);
            if (io != MigrateIo.Ok)
            {
                connection.Dispose();
                if (io == MigrateIo.Failed && mayRetry)
                {
                    mayRetry = false;
                    continue;
                }
                return MigrateOutcome.ReadFailed;
            }

            int replies = 0;
            for (; replies < acknowledged.Length; replies++)
            {
                io = connection.ReadLine(target.TimeoutMs, out var line);
                if (io != MigrateIo.Ok)
                    break;
                if (setupError != null || IsError(line))
                {
                    if (targetError == null)
                    {
                        connection.SelectedDatabase = -1;
                        targetError = setupError ?? ErrorText(line);
                    }
                }
                else
                {
                    acknowledged[replies] = true;
                }
            }

            if (io != MigrateIo.Ok)
            {
                connection.Dispose();
                if (targetError == null && replies == 0 && io == MigrateIo.Failed && mayRetry)
                {
                    mayRetry = false;
                    continue;
                }
                return targetError != null ? MigrateOutcome.TargetError : MigrateOutcome.ReadFailed;
            }
            if (targetError == null)
                connection.SelectedDatabase = target.Database;
            cache.Return(connection);
            return targetError != null ? MigrateOutcome.TargetError : MigrateOutcome.Ok;
        }
    }

    private static MigrateIo ReadSetupReply(MigrateConnection connection, int timeoutMs, ref string? error)
    {
        var io = connection.ReadLine(timeoutMs, out var line);
        if (io == MigrateIo.Ok && error == null && IsError(line))
            error = ErrorText(line);
        return io;
    }

    private static bool IsError(ReadOnlySpan<byte> line) => !line.IsEmpty && line[0] == (byte)'-';

    /// <summary>The target's error without its '-', as a line of the reply MIGRATE gives.</summary>
    private static string ErrorText(ReadOnlySpan<byte> line) => Encoding.UTF8.GetString(line.Slice(1));
}
