using System;
using System.Globalization;
using System.Threading;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// DEBUG SLEEP / SET-ACTIVE-EXPIRE / OBJECT / HELP, for tests. Refused unless
/// <see cref="ServerOptions.EnableDebugCommand"/> is on, since SLEEP stalls a connection's thread.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private static readonly string[] s_debugHelp =
    [
        "OBJECT <key>",
        "    Show low-level information about the key's value.",
        "SET-ACTIVE-EXPIRE <0|1>",
        "    Turn the background deletion of expired keys off (0) or on (1).",
        "SLEEP <seconds>",
        "    Stop this connection's thread for the given seconds (fractions allowed).",
    ];

    private void DebugCommand()
    {
        if (!_server.Options.EnableDebugCommand)
        {
            _writer.WriteError(ServerStrings.ErrDebugNotAllowed);
            return;
        }
        ref readonly var subcommand = ref _args[1];
        if (subcommand.EqualsUpper("HELP"u8) && _argCount == 2)
            WriteHelp(s_debugHelp);
        else if (subcommand.EqualsUpper("SLEEP"u8) && _argCount == 3)
            DebugSleep();
        else if (subcommand.EqualsUpper("SET-ACTIVE-EXPIRE"u8) && _argCount == 3)
            DebugSetActiveExpire();
        else if (subcommand.EqualsUpper("OBJECT"u8) && _argCount == 3)
            DebugObject();
        else
            WriteSubcommandSyntaxError("DEBUG");
    }

    /// <summary>
    /// DEBUG SLEEP seconds. Like Redis, a value that does not parse sleeps 0 seconds. The epoch is
    /// released meanwhile so the sleeping thread does not hold up other sessions' log progress.
    /// </summary>
    private void DebugSleep()
    {
        if (!NumberFormat.TryParseDouble(_args[2].Span, out double seconds) || !(seconds > 0))
            seconds = 0;
        double milliseconds = Math.Min(seconds * 1000, int.MaxValue);
        EndBatch();
        try
        {
            Thread.Sleep((int)milliseconds);
        }
        finally
        {
            BeginBatch();
        }
        _writer.WriteOk();
    }

    private void DebugSetActiveExpire()
    {
        if (!NumberFormat.TryParseLong(_args[2].Span, out long enabled))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        _server.ActiveExpirationEnabled = enabled != 0;
        _writer.WriteOk();
    }

    /// <summary>
    /// DEBUG OBJECT key: Redis's one-line description, with what OBJECT reports (refcount, encoding, access
    /// clock and idle time) and, for a quicklist, its nodes as Redis would fill them. "Value at" shows the
    /// key's hash (there is no stable object address); the serialized length is that of Redis's RDB form for
    /// a string and of this server's form for an object. As in Redis, looking is not an access of the key.
    /// </summary>
    private void DebugObject()
    {
        var key = _args[2].Span;
        var output = default(StringOutput);
        if (!TryInspect(key, out var facts) || !ReadString(key, RespCommand.DEBUG, ref output).Found)
        {
            _writer.WriteError(RespStrings.ErrNoSuchKey);
            return;
        }
        long serializedLength;
        string extra = "";
        if (output.Result == StringResult.WrongType)
        {
            if (ReadObjectSnapshot(key, GarnetObjectType.None, out var obj, RespCommand.DEBUG) != ObjectResult.Ok || obj == null)
            {
                _writer.WriteError(RespStrings.ErrNoSuchKey);
                return;
            }
            using var stream = new System.IO.MemoryStream();
            using (var writer = new System.IO.BinaryWriter(stream, System.Text.Encoding.UTF8, leaveOpen: true))
                obj.Serialize(writer);
            serializedLength = stream.Length;
            if (obj is ListObject list && facts.Encoding == ValueEncoding.Quicklist)
                extra = list.DescribeQuicklist(_server.Options.EncodingThresholds);
        }
        else
        {
            serializedLength = SerializedLength(Output.Span);
        }
        uint word = facts.AccessWord;
        string line = string.Create(CultureInfo.InvariantCulture,
            $"Value at:0x{KeyHash.Hash(key):x16} refcount:{RefCount(facts, Store.Store.Budget)} encoding:{System.Text.Encoding.ASCII.GetString(facts.Encoding.Name())} serializedlength:{serializedLength} lru:{word & RecordAccess.ValueMask} lru_seconds_idle:{RecordAccess.IdleSeconds(word)}{extra}");
        _writer.WriteSimpleString(System.Text.Encoding.ASCII.GetBytes(line));
    }

    /// <summary>The length of the value in Redis's RDB encoding (uncompressed): a small integer form, or a length prefix and the bytes.</summary>
    private static long SerializedLength(ReadOnlySpan<byte> value)
    {
        if (value.Length <= 11 && NumberFormat.TryParseLong(value, out long number))
        {
            if (number >= sbyte.MinValue && number <= sbyte.MaxValue)
                return 2;
            if (number >= short.MinValue && number <= short.MaxValue)
                return 3;
            if (number >= int.MinValue && number <= int.MaxValue)
                return 5;
        }
        int prefix = value.Length < 64 ? 1 : value.Length < 16384 ? 2 : 5;
        return prefix + value.Length;
    }
}
