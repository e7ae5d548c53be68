using System;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The connection commands: PING, ECHO, QUIT, HELLO, SELECT, SWAPDB, RESET, AUTH and CLIENT
/// (in <c>ClientCommand.cs</c>). They act on this session's state: protocol, database,
/// authentication and name.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteConnectionCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.PING: Ping(); break;
            case RespCommand.ECHO: _writer.WriteBulk(_args[1].Span); break;
            case RespCommand.QUIT: Quit(); break;
            case RespCommand.HELLO: Hello(); break;
            case RespCommand.SELECT: Select(); break;
            case RespCommand.SWAPDB: SwapDb(); break;
            case RespCommand.RESET: Reset(); break;
            case RespCommand.CLIENT: Client(); break;
            case RespCommand.AUTH: Auth(); break;
            case RespCommand.ASKING:
            case RespCommand.READONLY:
            case RespCommand.READWRITE: ClusterConnectionCommand(command); break;
            default: throw new InvalidOperationException($"{command} is not a connection command.");
        }
    }

    private void Ping()
    {
        if (TryWriteSubscribePong()) // RESP2 subscribe mode's PING reply (PubSub/RespServerSession.PubSub.cs)
            return;
        if (_argCount == 1)
            _writer.WriteRaw(RespStrings.Pong);
        else if (_argCount == 2)
            _writer.WriteBulk(_args[1].Span);
        else
            WriteWrongArity(CurrentCommand.LowerName);
    }

    private void Quit()
    {
        _writer.WriteOk();
        RequestClose();
    }

    /// <summary>HELLO [protover [AUTH username password] [SETNAME clientname]]: switches protocol and reports the server.</summary>
    private void Hello()
    {
        int version = 0;
        int next = 1;
        if (_argCount >= 2)
        {
            if (!NumberFormat.TryParseInt(_args[next++].Span, out version))
            {
                _writer.WriteError(ConnectionStrings.ErrProtocolVersionNotInteger);
                return;
            }
            if (version < 2 || version > 3)
            {
                _writer.WriteError(ConnectionStrings.ErrNoProto);
                return;
            }
        }

        int userIndex = -1;
        int nameIndex = -1;
        for (int i = next; i < _argCount; i++)
        {
            int remaining = _argCount - 1 - i;
            if (_args[i].EqualsUpper("AUTH"u8) && remaining >= 2)
            {
                userIndex = i + 1;
                i += 2;
            }
            else if (_args[i].EqualsUpper("SETNAME"u8) && remaining >= 1)
            {
                nameIndex = i + 1;
                if (!IsValidClientAttribute(_args[nameIndex].Span))
                {
                    _writer.WriteError(ConnectionStrings.ErrClientNameInvalid);
                    return;
                }
                i++;
            }
            else
            {
                _writer.WriteError($"ERR Syntax error in HELLO option '{_args[i]}'");
                return;
            }
        }

        if (userIndex >= 0 && !TryLogin(_args[userIndex].Span, _args[userIndex + 1].Span))
        {
            _writer.WriteError(ConnectionStrings.ErrWrongPass);
            return;
        }
        if (!Authenticated)
        {
            _writer.WriteError(ConnectionStrings.ErrHelloNoAuth);
            return;
        }
        if (nameIndex >= 0)
            ClientName = _args[nameIndex].Length == 0 ? null : _args[nameIndex].ToString();
        if (version != 0)
            _writer.Resp3 = version == 3;

        _writer.WriteMapHeader(7);
        _writer.WriteBulk("server"u8);
        _writer.WriteBulk("redis"u8);
        _writer.WriteBulk("version"u8);
        _writer.WriteBulk(ServerStrings.RedisVersion);
        _writer.WriteBulk("proto"u8);
        _writer.WriteInteger(ProtocolVersion);
        _writer.WriteBulk("id"u8);
        _writer.WriteInteger(ClientId);
        _writer.WriteBulk("mode"u8);
        _writer.WriteBulk("standalone"u8);
        _writer.WriteBulk("role"u8);
        _writer.WriteBulk("master"u8);
        _writer.WriteBulk("modules"u8);
        _writer.WriteArrayHeader(0);
    }

    private void Select()
    {
        // A cluster has one database, as Redis's does (checked before the index's range, as there).
        if (_cluster != null && NumberFormat.TryParseLong(_args[1].Span, out long asked) && asked != 0)
        {
            _writer.WriteError("ERR SELECT is not allowed in cluster mode"u8);
            return;
        }
        if (!TryReadDatabaseIndex(in _args[1], out int index))
            return;
        if (index != DatabaseIndex)
            SelectDatabase(index);
        _writer.WriteOk();
    }

    /// <summary>
    /// A database index argument (SELECT, MOVE, COPY ... DB), or false after writing Redis's error: not an integer, out of
    /// int range (Redis reads it as a long, then an int, with its own text for each), or no such database.
    /// </summary>
    private bool TryReadDatabaseIndex(in ArgSlice argument, out int index)
    {
        index = 0;
        if (!NumberFormat.TryParseLong(argument.Span, out long value))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return false;
        }
        if (value is < int.MinValue or > int.MaxValue)
        {
            _writer.WriteError(RespStrings.ErrIntOutOfRange);
            return false;
        }
        if (value < 0 || value >= _server.DatabaseCount)
        {
            _writer.WriteError(RespStrings.ErrDbIndexOutOfRange);
            return false;
        }
        index = (int)value;
        return true;
    }

    private void SwapDb()
    {
        if (_cluster != null)
        {
            _writer.WriteError("ERR SWAPDB is not allowed in cluster mode"u8);
            return;
        }
        if (!NumberFormat.TryParseInt(_args[1].Span, out int first))
        {
            _writer.WriteError(ConnectionStrings.ErrInvalidFirstDbIndex);
            return;
        }
        if (!NumberFormat.TryParseInt(_args[2].Span, out int second))
        {
            _writer.WriteError(ConnectionStrings.ErrInvalidSecondDbIndex);
            return;
        }
        if (first < 0 || first >= _server.DatabaseCount || second < 0 || second >= _server.DatabaseCount)
        {
            _writer.WriteError(RespStrings.ErrDbIndexOutOfRange);
            return;
        }
        _server.SwapDatabases(first, second);
        if (first != second && (first == DatabaseIndex || second == DatabaseIndex))
            RefreshDatabase();
        _writer.WriteOk();
    }

    /// <summary>RESET: back to a fresh connection's state (RESP2, database 0, no name, unauthenticated if a password is set).</summary>
    private void Reset()
    {
        _writer.Resp3 = false;
        if (DatabaseIndex != 0)
            SelectDatabase(0);
        ClientName = null;
        _noEvict = false;
        if (_noTouch)
        {
            _noTouch = false;
            RenewStoreSessions();
        }
        _replyMode = ReplyMode.On;
        ResetLogin(); // back to the default user (Acl/RespServerSession.Acl.cs)
        StopTracking(); // Tracking/: CLIENT TRACKING OFF
        ResetPubSub(closing: false); // leaves every channel and pattern
        StopMonitoring(); // Monitor/RespServerSession.Monitor.cs
        _clusterReadOnly = false; // READWRITE (Cluster/RespServerSession.Cluster.cs)
        _writer.WriteRaw(ConnectionStrings.Reset);
    }

    /// <summary>AUTH [username] password: logs in as the user (the default user when no name is given).</summary>
    private void Auth()
    {
        if (_argCount > 3)
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        if (_argCount == 2 && _server.Acl.DefaultUser.Current.NoPass)
        {
            _writer.WriteError(ConnectionStrings.ErrNoPasswordConfigured);
            return;
        }
        bool valid = _argCount == 2
            ? TryLogin(ConnectionStrings.DefaultUser, _args[1].Span)
            : TryLogin(_args[1].Span, _args[2].Span);
        if (!valid)
        {
            _writer.WriteError(ConnectionStrings.ErrWrongPass);
            return;
        }
        _writer.WriteOk();
    }

    /// <summary>Client names and library details must be printable ASCII without spaces, so CLIENT LIST stays splittable.</summary>
    private static bool IsValidClientAttribute(ReadOnlySpan<byte> value)
    {
        foreach (byte c in value)
        {
            if (c < '!' || c > '~')
                return false;
        }
        return true;
    }
}
