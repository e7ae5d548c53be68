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
    /// DEBUG OBJECT key: Redis's one-line description. "Value at" shows the key's hash (there is no
    /// stable object address); the encoding is the one Redis would pick; access times are not tracked.
    /// </summary>
    private void DebugObject()
    {
        var key = _args[2].Span;
        var output = default(StringOutput);
        var status = ReadString(key, RespCommand.GET, ref output);
        if (!status.Found)
        {
            _writer.WriteError(RespStrings.ErrNoSuchKey);
            return;
        }
        if (output.Result == StringResult.WrongType)
        {
            DebugObjectOfObject(key);
            return;
        }
        var value = _output.Span;
        string encoding = StringEncoding(value);
        long serializedLength = SerializedLength(value);
        string line = string.Create(CultureInfo.InvariantCulture,
            $"Value at:0x{KeyHash.Hash(key):x16} refcount:1 encoding:{encoding} serializedlength:{serializedLength} lru:0 lru_seconds_idle:0");
        _writer.WriteSimpleString(System.Text.Encoding.ASCII.GetBytes(line));
    }

    /// <summary>
    /// DEBUG OBJECT of a list, hash, set or sorted set: the encoding Redis would report for its size
    /// (compact listpack up to Redis's default thresholds of 128 entries) and the length of this
    /// server's serialized form.
    /// </summary>
    private void DebugObjectOfObject(ReadOnlySpan<byte> key)
    {
        if (ReadObjectSnapshot(key, GarnetObjectType.None, out var obj) != ObjectResult.Ok || obj == null)
        {
            _writer.WriteError(RespStrings.ErrNoSuchKey);
            return;
        }
        bool compact = obj.Count <= 128;
        string encoding = obj.Type switch
        {
            GarnetObjectType.List => compact ? "listpack" : "quicklist",
            GarnetObjectType.SortedSet => compact ? "listpack" : "skiplist",
            _ => compact ? "listpack" : "hashtable",
        };
        using var stream = new System.IO.MemoryStream();
        using (var writer = new System.IO.BinaryWriter(stream, System.Text.Encoding.UTF8, leaveOpen: true))
            obj.Serialize(writer);
        string line = string.Create(CultureInfo.InvariantCulture,
            $"Value at:0x{KeyHash.Hash(key):x16} refcount:1 encoding:{encoding} serializedlength:{stream.Length} lru:0 lru_seconds_idle:0 ql_nodes:1");
        if (obj.Type != GarnetObjectType.List)
            line = line[..line.LastIndexOf(" ql_nodes", StringComparison.Ordinal)];
        _writer.WriteSimpleString(System.Text.Encoding.ASCII.GetBytes(line));
    }

    /// <summary>The encoding Redis gives a string: "int" for integers, "embstr" up to 44 bytes, else "raw".</summary>
    internal static string StringEncoding(ReadOnlySpan<byte> value)
    {
        if (value.Length <= 20 && NumberFormat.TryParseLong(value, out _))
            return "int";
        return value.Length <= 44 ? "embstr" : "raw";
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
