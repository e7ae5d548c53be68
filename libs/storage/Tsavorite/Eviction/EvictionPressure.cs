namespace Tsavorite;

/// <summary>
/// Whether the head mover lets the eviction policy drop live records, or copies them all forward. Redis evicts
/// only once the data fills maxmemory; a log always holds dead records too, and what the head finds live says how
/// full the data is. While the live share of the pages the head passes stays low, copying keeps every key at a
/// modest cost; once it climbs, copying would cost more than the writes themselves, and the policy decides.
/// </summary>
/// <remarks>
/// The live share is a running mean over the pages passed (each page weighs a quarter), with a gap between the
/// share that starts evicting and the one that stops it, so the mode does not flip with every page. It starts
/// at zero: a fresh store copies until it has seen what its pages hold. The head mover's thread alone uses it.
/// </remarks>
internal sealed class EvictionPressure
{
    /// <summary>Live share of the passed pages at which the policy starts dropping records.</summary>
    public const double StartShare = 0.8;

    /// <summary>Live share at which it stops again.</summary>
    public const double StopShare = 0.6;

    private double _liveShare;

    /// <summary>Whether the policy drops records now.</summary>
    public bool Evicting { get; private set; }

    /// <summary>The running mean of the live share of the pages passed.</summary>
    public double LiveShare => _liveShare;

    /// <summary>The head passed a page of <paramref name="pageSize"/> bytes holding <paramref name="liveBytes"/> of live records (copied or dropped by policy).</summary>
    public void OnPagePassed(long liveBytes, int pageSize)
    {
        _liveShare += (((double)liveBytes / pageSize) - _liveShare) / 4;
        if (_liveShare >= StartShare)
            Evicting = true;
        else if (_liveShare <= StopShare)
            Evicting = false;
    }
}
