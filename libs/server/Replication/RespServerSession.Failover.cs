using System;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>FAILOVER (Redis's coordinated failover, without --cluster) and the replica's side of it, REPLPROMOTE.</summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>FAILOVER [TO host port [FORCE]] [ABORT] [TIMEOUT milliseconds], with Redis's checks and errors.</summary>
    private void Failover()
    {
        if (_cluster != null)
        {
            _writer.WriteError("ERR FAILOVER not allowed in cluster mode."u8);
            return;
        }
        var failover = _server.Replication.Failover;
        if (_argCount == 2 && Ascii.EqualsIgnoreCase(_args[1].Span, "ABORT"u8))
        {
            WriteResult(failover.Abort());
            return;
        }
        string? host = null;
        long port = 0, timeoutMs = 0;
        bool force = false;
        for (int i = 1; i < _argCount; i++)
        {
            var arg = _args[i].Span;
            if (Ascii.EqualsIgnoreCase(arg, "TO"u8) && i + 2 < _argCount && host == null)
            {
                if (!NumberFormat.TryParseLong(_args[i + 2].Span, out port))
                {
                    _writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                host = Encoding.UTF8.GetString(_args[i + 1].Span);
                i += 2;
            }
            else if (Ascii.EqualsIgnoreCase(arg, "TIMEOUT"u8) && i + 1 < _argCount && timeoutMs == 0)
            {
                if (!NumberFormat.TryParseLong(_args[i + 1].Span, out timeoutMs))
                {
                    _writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (timeoutMs <= 0)
                {
                    _writer.WriteError("ERR FAILOVER timeout must be greater than 0"u8);
                    return;
                }
                i++;
            }
            else if (Ascii.EqualsIgnoreCase(arg, "FORCE"u8) && !force)
            {
                force = true;
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }
        if (force && (timeoutMs == 0 || host == null))
        {
            _writer.WriteError("ERR FAILOVER with force option requires both a timeout and target HOST and IP."u8);
            return;
        }
        WriteResult(failover.Start(host, (int)Math.Clamp(port, 0, 65535), force, timeoutMs));
    }

    private void WriteResult(string? error)
    {
        if (error != null)
            _writer.WriteError(error);
        else
            _writer.WriteOk();
    }

    /// <summary>
    /// REPLPROMOTE replicationid offset: on the stream's connection, the primary's FAILOVER has this replica take its
    /// place once it applied up to offset (-1: at once). It stops following and is a primary when it answers.
    /// </summary>
    private void ReplPromote()
    {
        var replication = _server.Replication;
        var stream = replication.Stream;
        if (!OwnsReplicationStream(stream))
            return;
        if (!NumberFormat.TryParseLong(_args[2].Span, out long offset))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        if (offset >= 0 && stream.Offset != offset)
        {
            _writer.WriteError($"ERR the replica applied up to {stream.Offset}, not {offset}");
            return;
        }
        // Stopping the link waits for its thread: outside this batch's protection.
        EndBatch();
        try
        {
            replication.ReplicaOfNoOne();
        }
        finally
        {
            BeginBatch();
        }
        _writer.WriteOk();
    }
}
