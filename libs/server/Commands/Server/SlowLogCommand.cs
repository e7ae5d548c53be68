using System;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>SLOWLOG GET / LEN / RESET / HELP over the server's <see cref="SlowLog"/> (filled in Stats/RespServerSession.CommandTiming.cs).</summary>
public sealed unsafe partial class RespServerSession
{
    private static readonly string[] s_slowLogHelp =
    [
        "GET [<count>]",
        "    Return top <count> entries from the slowlog (default: 10, -1 mean all).",
        "    Entries are made of:",
        "    id, timestamp, time in microseconds, arguments array, client IP and port,",
        "    client name",
        "LEN",
        "    Return the length of the slowlog.",
        "RESET",
        "    Reset the slowlog.",
    ];

    private void SlowLogCommand()
    {
        var subcommand = ResolveSubcommand(RespCommand.SLOWLOG);
        if (subcommand == null)
            return;
        switch (subcommand.Id)
        {
            case Subcommand.SlowLogGet: SlowLogGet(); break;
            case Subcommand.SlowLogLen: _writer.WriteInteger(_server.SlowLog.Count); break;
            case Subcommand.SlowLogReset:
                _server.SlowLog.Reset();
                _writer.WriteOk();
                break;
            case Subcommand.SlowLogHelp: WriteHelp(s_slowLogHelp); break;
            default: throw new InvalidOperationException($"{subcommand.Id} is not a SLOWLOG subcommand.");
        }
    }

    /// <summary>SLOWLOG GET [count]: newest first, each [id, unix time, microseconds, [arguments], "ip:port", name].</summary>
    private void SlowLogGet()
    {
        long count = 10;
        if (_argCount > 3)
        {
            WriteSubcommandSyntaxError("SLOWLOG");
            return;
        }
        if (_argCount == 3)
        {
            if (!NumberFormat.TryParseLong(_args[2].Span, out count) || count < -1)
            {
                _writer.WriteError("ERR count should be greater than or equal to -1"u8);
                return;
            }
        }
        var entries = _server.SlowLog.Newest(count);
        _writer.WriteArrayHeader(entries.Count);
        foreach (var entry in entries)
        {
            _writer.WriteArrayHeader(6);
            _writer.WriteInteger(entry.Id);
            _writer.WriteInteger(entry.UnixSeconds);
            _writer.WriteInteger(entry.Microseconds);
            _writer.WriteArrayHeader(entry.Arguments.Length);
            foreach (var argument in entry.Arguments)
                _writer.WriteBulk(argument);
            _writer.WriteBulk(Encoding.ASCII.GetBytes(entry.ClientAddress));
            _writer.WriteBulk(Encoding.UTF8.GetBytes(entry.ClientName));
        }
    }
}
