using System;
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;

namespace Garnet.server;

/// <summary>
/// The values of the Redis parameters that tune parts of Redis this server does not have (active defragmentation,
/// lazy freeing, replication, cluster gossip ...): CONFIG GET reports them, CONFIG SET changes them after Redis's
/// checks and CONFIG REWRITE writes them, so tools that manage a Redis configuration keep working. Besides
/// enable-protected-configs, which CONFIG SET itself obeys, nothing reads them (website/docs/compatibility.md).
/// </summary>
internal sealed class RedisOnlySettings
{
    private static readonly ConditionalWeakTable<StoreWrapper, RedisOnlySettings> s_settings = new();

    private readonly ConcurrentDictionary<string, string> _values = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>The settings of <paramref name="server"/>.</summary>
    public static RedisOnlySettings Of(StoreWrapper server) => s_settings.GetValue(server, static _ => new RedisOnlySettings());

    /// <summary>The value of the parameter named <paramref name="name"/> (its primary name), or its default when never set.</summary>
    public string Get(string name, string defaultValue) => _values.TryGetValue(name, out string? value) ? value : defaultValue;

    /// <summary>Sets an already checked and normalised value.</summary>
    public void Set(string name, string value) => _values[name] = value;
}
