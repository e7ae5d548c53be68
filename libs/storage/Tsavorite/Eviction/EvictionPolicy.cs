namespace Tsavorite;

/// <summary>
/// What happens to a live record that reaches the head of the log when the head must move (Redis's
/// <c>maxmemory-policy</c> names). Every policy reclaims dead space first: superseded, deleted and expired
/// records are dropped, and only live ones are subject to the policy.
/// </summary>
public enum EvictionPolicy : byte
{
    /// <summary>Every live record is copied to the tail; when live data fills the budget, writes get out-of-memory.</summary>
    NoEviction,

    /// <summary>Any record is dropped unless it was accessed since it was written or last moved (a second chance).</summary>
    AllKeysLru,

    /// <summary>Any record is dropped unless its decayed access frequency is above the running average.</summary>
    AllKeysLfu,

    /// <summary>Any record is dropped, regardless of access.</summary>
    AllKeysRandom,

    /// <summary>As <see cref="AllKeysLru"/>, for records with an expiration only; the others are copied.</summary>
    VolatileLru,

    /// <summary>As <see cref="AllKeysLfu"/>, for records with an expiration only; the others are copied.</summary>
    VolatileLfu,

    /// <summary>Records with an expiration are dropped; the others are copied.</summary>
    VolatileRandom,

    /// <summary>Records with an expiration are dropped unless their time to live is above the running average.</summary>
    VolatileTtl,
}

/// <summary>Facts about <see cref="EvictionPolicy"/> values.</summary>
public static class EvictionPolicies
{
    /// <summary>Whether the policy may drop records without an expiration.</summary>
    public static bool EvictsAnyKey(this EvictionPolicy policy)
        => policy is EvictionPolicy.AllKeysLru or EvictionPolicy.AllKeysLfu or EvictionPolicy.AllKeysRandom;

    /// <summary>Whether the policy may drop records at all.</summary>
    public static bool Evicts(this EvictionPolicy policy) => policy != EvictionPolicy.NoEviction;

    /// <summary>Whether records' access words hold LFU counters (else LRU clocks).</summary>
    public static bool TracksFrequency(this EvictionPolicy policy)
        => policy is EvictionPolicy.AllKeysLfu or EvictionPolicy.VolatileLfu;
}
