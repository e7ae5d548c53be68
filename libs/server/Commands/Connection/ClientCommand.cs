using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using System.Threading;
using Garnet.common;

namespace Garnet.server;

/// <summary>CLIENT and its subcommands: this connection's id, name and library details, and listing and killing connections.</summary>
public sealed unsafe partial class RespServerSession
{
    private static readonly string[] s_clientHelp =
    [
        "ID",
        "    Return the id of the current connection.",
        "INFO",
        "    Return information about the current connection.",
        "LIST [TYPE (NORMAL|MASTER|REPLICA|PUBSUB)] [ID <id> [<id> ...]]",
        "    Return information about client connections, optionally only those of a type or with the given ids.",
        "KILL <ip:port>",
        "    Kill the connection at <ip:port>.",
        "KILL <option> <value> [<option> <value> [...]]",
        "    Kill connections matching all the filters. Options are:",
        "    * ID <client-id>",
        "    * ADDR <ip:port>",
        "    * LADDR <ip:port>",
        "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
        "    * USER <username>",
        "    * MAXAGE <seconds>",
        "    * SKIPME (YES|NO)",
        "      Whether to spare the calling connection (default YES).",
        "GETNAME",
        "    Return the name of the current connection.",
        "SETNAME <name>",
        "    Name the current connection (an empty name removes it).",
        "SETINFO <LIB-NAME|LIB-VER> <value>",
        "    Record the client library's name or version.",
        "NO-EVICT (ON|OFF)",
        "    Protect the current connection from client eviction.",
        "NO-TOUCH (ON|OFF)",
        "    Keep commands of the current connection from changing keys' last access time.",
        "REPLY (ON|OFF|SKIP)",
        "    Control the replies sent to the current connection.",
        "UNBLOCK <clientid> [TIMEOUT|ERROR]",
        "    Unblock the specified blocked client.",
        "PAUSE <timeout> [WRITE|ALL]",
        "    Suspend all, or just write, clients for <timeout> milliseconds.",
        "UNPAUSE",
        "    Stop the current client pause, resuming traffic.",
        "TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]] [OPTIN] [OPTOUT] [NOLOOP]",
        "    Turn server-assisted client-side caching on or off for the current connection.",
        "CACHING (YES|NO)",
        "    In OPTIN or OPTOUT mode, whether the keys of the next command are tracked.",
        "GETREDIR",
        "    Return the id of the client invalidations go to (0: this one, -1: not tracking).",
        "TRACKINGINFO",
        "    Return the tracking state of the current connection.",
    ];

    /// <summary>CLIENT NO-EVICT state of this connection.</summary>
    private bool _noEvict;

    /// <summary>CLIENT NO-TOUCH state of this connection.</summary>
    private bool _noTouch;

    /// <summary>The last container subcommand run, so CLIENT LIST can show "cmd=client|list".</summary>
    private RespCommandInfo? _lastSubcommand;

    private void Client()
    {
        var subcommand = ResolveSubcommand(RespCommand.CLIENT);
        if (subcommand == null)
            return;
        switch (subcommand.Id)
        {
            case Subcommand.ClientId: _writer.WriteInteger(ClientId); break;
            case Subcommand.ClientInfo: _writer.WriteVerbatim(Encoding.UTF8.GetBytes(FormatClientInfo(this, DateTimeOffset.UtcNow) + "\n")); break;
            case Subcommand.ClientList: ClientList(); break;
            case Subcommand.ClientKill: ClientKill(); break;
            case Subcommand.ClientGetName: ClientGetName(); break;
            case Subcommand.ClientSetName: ClientSetName(); break;
            case Subcommand.ClientSetInfo: ClientSetInfo(); break;
            case Subcommand.ClientNoEvict: ClientSwitch(ref _noEvict); break;
            case Subcommand.ClientNoTouch:
                bool touching = !_noTouch;
                ClientSwitch(ref _noTouch);
                if (touching == _noTouch)
                    RenewStoreSessions();
                break;
            case Subcommand.ClientReply: ClientReply(); break;
            case Subcommand.ClientUnblock: ClientUnblock(); break;
            case Subcommand.ClientPause: ClientPauseCommand(); break; // Clients/RespServerSession.Pause.cs
            case Subcommand.ClientUnpause: ClientUnpauseCommand(); break;
            case Subcommand.ClientTracking: SetClientTracking(); break; // Tracking/RespServerSession.Tracking.cs
            case Subcommand.ClientCaching: ClientCaching(); break;
            case Subcommand.ClientGetRedir: ClientGetRedir(); break;
            case Subcommand.ClientTrackingInfo: ClientTrackingInfo(); break;
            case Subcommand.ClientHelp: WriteHelp(s_clientHelp); break;
            default: throw new InvalidOperationException($"{subcommand.Id} is not a CLIENT subcommand.");
        }
    }

    /// <summary>
    /// The subcommand in argument 1 of the container <paramref name="parent"/>, as the statistics found it before the
    /// command ran (<see cref="CountedAs"/>), with its arity checked; writes the error and returns null when either fails.
    /// </summary>
    private SubcommandInfo? ResolveSubcommand(RespCommand parent)
    {
        var subcommand = _countedSubcommand;
        _countedSubcommand = null;
        // Not counted (or not found): looked up here, so an unknown subcommand gets its error.
        if (subcommand == null || subcommand.Info.Command != parent)
            subcommand = SubcommandTable.Find(parent, _args[1]);
        _lastSubcommand = subcommand?.Info;
        if (subcommand == null)
        {
            WriteUnknownSubcommand(CurrentCommand.Name);
            return null;
        }
        if (!subcommand.Info.ArityAccepts(_argCount))
        {
            WriteWrongArity(subcommand.Info.LowerName);
            return null;
        }
        return subcommand;
    }

    /// <summary>A help reply: a header line, <paramref name="lines"/>, and the HELP entry, as status strings.</summary>
    private void WriteHelp(string[] lines)
    {
        _writer.WriteArrayHeader(lines.Length + 3);
        _writer.WriteSimpleString(Encoding.ASCII.GetBytes(CurrentCommand.Name + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:"));
        foreach (string line in lines)
            _writer.WriteSimpleString(Encoding.ASCII.GetBytes(line));
        _writer.WriteSimpleString("HELP"u8);
        _writer.WriteSimpleString("    Print this help."u8);
    }

    private void ClientList()
    {
        var sessions = _server.Clients.Snapshot();
        sessions.Sort(static (a, b) => a.ClientId.CompareTo(b.ClientId));
        var now = DateTimeOffset.UtcNow;
        var text = new StringBuilder();
        if (_argCount == 4 && _args[2].EqualsUpper("TYPE"u8))
        {
            if (!TryParseClientType(_args[3], out var type))
                return;
            foreach (var session in sessions)
            {
                if (IsOfType(session, type))
                    text.Append(FormatClientInfo(session, now)).Append('\n');
            }
        }
        else if (_argCount > 3 && _args[2].EqualsUpper("ID"u8))
        {
            var ids = new List<long>();
            for (int i = 3; i < _argCount; i++)
            {
                if (!NumberFormat.TryParseLong(_args[i].Span, out long id))
                {
                    _writer.WriteError(ConnectionStrings.ErrInvalidClientId);
                    return;
                }
                ids.Add(id);
            }
            foreach (long id in ids)
            {
                var session = _server.Clients.Find(id);
                if (session != null)
                    text.Append(FormatClientInfo(session, now)).Append('\n');
            }
        }
        else if (_argCount != 2)
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        else
        {
            foreach (var session in sessions)
                text.Append(FormatClientInfo(session, now)).Append('\n');
        }
        _writer.WriteVerbatim(Encoding.UTF8.GetBytes(text.ToString()));
    }

    /// <summary>The client types of CLIENT LIST and KILL; there are no replication connections, so MASTER and REPLICA match none.</summary>
    private enum ClientType
    {
        Normal,
        PubSub,
        Replication,
    }

    /// <summary>Whether <paramref name="session"/> is of <paramref name="type"/>: a subscriber is a pubsub client, as in Redis.</summary>
    private static bool IsOfType(RespServerSession session, ClientType type)
        => type switch
        {
            ClientType.Normal => !session.IsSubscriber,
            ClientType.PubSub => session.IsSubscriber,
            _ => false,
        };

    /// <summary>Parses a client type for CLIENT LIST and KILL.</summary>
    private bool TryParseClientType(in ArgSlice type, out ClientType kind)
    {
        kind = ClientType.Replication;
        if (type.EqualsUpper("NORMAL"u8))
            kind = ClientType.Normal;
        else if (type.EqualsUpper("PUBSUB"u8))
            kind = ClientType.PubSub;
        if (kind != ClientType.Replication || type.EqualsUpper("MASTER"u8) || type.EqualsUpper("REPLICA"u8) || type.EqualsUpper("SLAVE"u8))
            return true;
        _writer.WriteError($"ERR Unknown client type '{type}'");
        return false;
    }

    /// <summary>
    /// CLIENT KILL ip:port (the old form: +OK or an error), or CLIENT KILL with filters (the number
    /// of connections killed). This connection, if it matches, closes after the reply.
    /// </summary>
    private void ClientKill()
    {
        var sessions = _server.Clients.Snapshot();
        if (_argCount == 3)
        {
            string address = _args[2].ToString();
            foreach (var session in sessions)
            {
                if (session.RemoteEndpoint == address)
                {
                    _writer.WriteOk();
                    Kill(session);
                    return;
                }
            }
            _writer.WriteError(ConnectionStrings.ErrNoSuchClient);
            return;
        }

        long id = 0;
        string? remote = null;
        string? local = null;
        ClientType? type = null;
        long maxAge = 0;
        bool skipMe = true;
        AclUserHandle? user = null;
        for (int i = 2; i < _argCount; i += 2)
        {
            if (i + 1 >= _argCount)
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
            ref readonly var option = ref _args[i];
            ref readonly var value = ref _args[i + 1];
            if (option.EqualsUpper("ID"u8))
            {
                if (!NumberFormat.TryParseLong(value.Span, out id) || id <= 0)
                {
                    _writer.WriteError(ConnectionStrings.ErrClientIdNotPositive);
                    return;
                }
            }
            else if (option.EqualsUpper("TYPE"u8))
            {
                if (!TryParseClientType(value, out var kind))
                    return;
                type = kind;
            }
            else if (option.EqualsUpper("ADDR"u8))
            {
                remote = value.ToString();
            }
            else if (option.EqualsUpper("LADDR"u8))
            {
                local = value.ToString();
            }
            else if (option.EqualsUpper("USER"u8))
            {
                user = _server.Acl.Find(Encoding.Latin1.GetString(value.Span));
                if (user == null)
                {
                    _writer.WriteError($"ERR No such user '{value}'");
                    return;
                }
            }
            else if (option.EqualsUpper("SKIPME"u8))
            {
                if (value.EqualsUpper("YES"u8))
                {
                    skipMe = true;
                }
                else if (value.EqualsUpper("NO"u8))
                {
                    skipMe = false;
                }
                else
                {
                    _writer.WriteError(RespStrings.ErrSyntax);
                    return;
                }
            }
            else if (option.EqualsUpper("MAXAGE"u8))
            {
                if (!NumberFormat.TryParseLong(value.Span, out maxAge))
                {
                    _writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }

        var now = DateTimeOffset.UtcNow;
        int killed = 0;
        bool killSelf = false;
        foreach (var session in sessions)
        {
            if ((type != null && !IsOfType(session, type.Value))
                || (id != 0 && session.ClientId != id)
                || (remote != null && session.RemoteEndpoint != remote)
                || (local != null && session.LocalEndpoint != local)
                || (user != null && session.AclUser != user)
                || (maxAge != 0 && (long)(now - session.ConnectedAt).TotalSeconds <= maxAge))
                continue;
            if (session == this)
            {
                if (skipMe)
                    continue;
                killSelf = true;
            }
            else
            {
                Kill(session);
            }
            killed++;
        }
        _writer.WriteInteger(killed);
        if (killSelf)
            RequestClose();
    }

    /// <summary>
    /// Ends <paramref name="session"/>: this one after its reply, another one at once.
    /// </summary>
    private void Kill(RespServerSession session)
    {
        if (session == this)
        {
            RequestClose();
            return;
        }
        session.RequestKill();
    }

    private void ClientGetName()
    {
        string? name = ClientName;
        if (name == null)
            _writer.WriteNull();
        else
            _writer.WriteBulk(name);
    }

    private void ClientSetName()
    {
        var name = _args[2].Span;
        if (!IsValidClientAttribute(name))
        {
            _writer.WriteError(ConnectionStrings.ErrClientNameInvalid);
            return;
        }
        ClientName = name.Length == 0 ? null : _args[2].ToString();
        _writer.WriteOk();
    }

    private void ClientSetInfo()
    {
        ref readonly var attribute = ref _args[2];
        bool isName = attribute.EqualsUpper("LIB-NAME"u8);
        if (!isName && !attribute.EqualsUpper("LIB-VER"u8))
        {
            _writer.WriteError($"ERR Unrecognized option '{attribute}'");
            return;
        }
        var value = _args[3].Span;
        if (!IsValidClientAttribute(value))
        {
            _writer.WriteError($"ERR {attribute} cannot contain spaces, newlines or special characters.");
            return;
        }
        string? text = value.Length == 0 ? null : _args[3].ToString();
        if (isName)
            LibraryName = text;
        else
            LibraryVersion = text;
        _writer.WriteOk();
    }

    /// <summary>CLIENT NO-EVICT / NO-TOUCH ON|OFF.</summary>
    private void ClientSwitch(ref bool state)
    {
        if (_args[2].EqualsUpper("ON"u8))
        {
            state = true;
        }
        else if (_args[2].EqualsUpper("OFF"u8))
        {
            state = false;
        }
        else
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        _writer.WriteOk();
    }

    /// <summary>
    /// One CLIENT LIST line, in Redis's field order. The buffer fields come from the connection:
    /// qbuf is input received and not yet run (for the caller, its batch, this command included; for a blocked or
    /// paused client, the input it holds too),
    /// rbs/rbp the receive buffer's size and peak, omem/oll the output held for a client that does
    /// not read (plus queued pub/sub messages) and the blocks it is kept in. argv-mem and obl are the
    /// caller's own command arguments and unsent replies of this batch; other clients' are 0 between
    /// their batches, which is when this reads them. tot-mem adds the MULTI queue and watched keys to the buffers:
    /// what client eviction counts (<see cref="ClientMemory"/>), plus the caller's arguments.
    /// </summary>
    private string FormatClientInfo(RespServerSession session, DateTimeOffset now)
    {
        var line = new StringBuilder(320);
        var invariant = CultureInfo.InvariantCulture;
        // Another session's transaction is read without a lock: the count is informational, as in Redis.
        var transaction = session._transaction;
        int queued = transaction is { InMulti: true } ? transaction.Count : -1;
        var buffers = session.Buffers;
        var memory = session.MeasureMemory();
        bool self = ReferenceEquals(session, this);
        long argvMemory = 0;
        if (self)
        {
            for (int i = 0; i < _argCount; i++)
                argvMemory += _args[i].Length;
        }
        long outputBuffer = self ? _writer.Pending : 0;
        long totalMemory = memory.Total + argvMemory;
        string flags = (session.IsSubscriber ? "P" : "") + (queued >= 0 ? "x" : "") + (session.IsBlocked ? "b" : "") + session.TrackingFlags() + (session._noEvict ? "e" : "") + (session._noTouch ? "T" : "");
        line.Append(invariant, $"id={session.ClientId} addr={session.RemoteEndpoint} laddr={session.LocalEndpoint} fd={buffers.Descriptor}");
        line.Append(invariant, $" name={session.ClientName} age={(long)(now - session.ConnectedAt).TotalSeconds} idle={(long)Math.Max(0, (now - session.LastCommandAt).TotalSeconds)}");
        line.Append(invariant, $" flags={(flags.Length == 0 ? "N" : flags)} db={session.DatabaseIndex} sub={session.ChannelSubscriptions} psub={session.PatternSubscriptions} ssub={session.ShardChannelSubscriptions} multi={queued}");
        // Input held while blocked or paused counts as query buffer, as it does in Redis.
        long queryBuffer = buffers.InputBytes + (long)Volatile.Read(ref session._stashLength);
        line.Append(invariant, $" qbuf={queryBuffer} qbuf-free={Math.Max(0, buffers.InputCapacity - buffers.InputBytes)} argv-mem={argvMemory} multi-mem={memory.QueuedCommands}");
        line.Append(invariant, $" rbs={memory.InputCapacity} rbp={buffers.PeakInputBytes} obl={outputBuffer} oll={memory.WaitingBlocks} omem={memory.WaitingOutput} tot-mem={totalMemory}");
        line.Append(invariant, $" events={(buffers.WaitingToWrite ? "w" : "r")}");
        line.Append(invariant, $" cmd={LastCommandName(session)} user={session.UserName} redir={session.TrackingRedirect} resp={session.ProtocolVersion}");
        line.Append(invariant, $" lib-name={session.LibraryName} lib-ver={session.LibraryVersion}");
        return line.ToString();
    }

    private static string LastCommandName(RespServerSession session)
    {
        var command = session.LastCommand;
        if (command == RespCommand.NONE)
            return "NULL";
        var subcommand = session._lastSubcommand;
        if (subcommand != null && subcommand.Command == command)
            return subcommand.LowerName;
        return CommandTable.Get(command).LowerName;
    }

    /// <summary>CLIENT UNBLOCK id [TIMEOUT|ERROR]: 1 when that client was blocked (on keys) and now is not.</summary>
    private void ClientUnblock()
    {
        if (!NumberFormat.TryParseLong(_args[2].Span, out long id))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        bool error = false;
        if (_argCount == 4)
        {
            if (_args[3].EqualsUpper("ERROR"u8))
                error = true;
            else if (!_args[3].EqualsUpper("TIMEOUT"u8))
            {
                _writer.WriteError("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR"u8);
                return;
            }
        }
        else if (_argCount > 4)
        {
            WriteSubcommandSyntaxError("CLIENT");
            return;
        }
        var target = _server.Clients.Find(id);
        _writer.WriteInteger(target != null && target.UnblockFromOtherClient(error) ? 1 : 0);
    }
}
