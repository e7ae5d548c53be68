using System;
using System.Globalization;

namespace Garnet.server;

/// <summary>
/// The CONFIG parameters of the encoding thresholds (<see cref="EncodingThresholds"/>), under Redis's names
/// and its older <c>*-ziplist-*</c> aliases, with Redis's value syntax: counts are integers, byte lengths are
/// memory values (<c>hash-max-listpack-value 1kb</c>) except <c>set-max-listpack-value</c>, an integer as in
/// Redis. New values apply to later writes.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private static ConfigParameter[] s_encodingConfigParameters =>
    [
        .. Threshold("hash-max-listpack-entries", "hash-max-ziplist-entries", ConfigValue.Integer, static t => t.HashMaxListpackEntries, static (t, v) => t.HashMaxListpackEntries = v),
        .. Threshold("hash-max-listpack-value", "hash-max-ziplist-value", ConfigValue.Memory, static t => t.HashMaxListpackValue, static (t, v) => t.HashMaxListpackValue = v),
        .. Threshold("set-max-intset-entries", null, ConfigValue.Integer, static t => t.SetMaxIntsetEntries, static (t, v) => t.SetMaxIntsetEntries = v),
        .. Threshold("set-max-listpack-entries", null, ConfigValue.Integer, static t => t.SetMaxListpackEntries, static (t, v) => t.SetMaxListpackEntries = v),
        .. Threshold("set-max-listpack-value", null, ConfigValue.Integer, static t => t.SetMaxListpackValue, static (t, v) => t.SetMaxListpackValue = v),
        .. Threshold("zset-max-listpack-entries", "zset-max-ziplist-entries", ConfigValue.Integer, static t => t.ZSetMaxListpackEntries, static (t, v) => t.ZSetMaxListpackEntries = v),
        .. Threshold("zset-max-listpack-value", "zset-max-ziplist-value", ConfigValue.Memory, static t => t.ZSetMaxListpackValue, static (t, v) => t.ZSetMaxListpackValue = v),
        .. Threshold("list-max-listpack-size", "list-max-ziplist-size", ConfigValue.Integer, static t => t.ListMaxListpackSize, static (t, v) => t.ListMaxListpackSize = (int)v, int.MinValue, int.MaxValue),
    ];

    /// <summary>A threshold parameter and, if Redis has one, its alias: the same value under both names.</summary>
    private static ConfigParameter[] Threshold(string name, string? alias, ConfigValue syntax, Func<EncodingThresholds, long> get, Action<EncodingThresholds, long> set, long min = 0, long max = long.MaxValue)
    {
        string Get(RespServerSession session) => get(session._server.Options.EncodingThresholds).ToString(CultureInfo.InvariantCulture);
        void Set(StoreWrapper server, string value) => set(server.Options.EncodingThresholds, ParseThreshold(syntax, value));
        var parameter = new ConfigParameter(name, ConfigKind.Mutable, Get, Set, syntax, min, max);
        return alias == null ? [parameter] : [parameter, new ConfigParameter(alias, ConfigKind.Mutable, Get, Set, syntax, min, max)];
    }

    /// <summary>A value CONFIG SET already checked.</summary>
    private static long ParseThreshold(ConfigValue syntax, string value)
    {
        if (syntax == ConfigValue.Memory && TryParseMemoryValue(value, out long bytes))
            return bytes;
        return long.Parse(value, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
    }
}
