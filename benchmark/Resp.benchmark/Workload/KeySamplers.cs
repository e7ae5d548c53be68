using System;

namespace Resp.benchmark;

/// <summary>A small, fast, seedable generator (SplitMix64) so request streams are repeatable.</summary>
public sealed class FastRandom
{
    private ulong _state;

    /// <summary>Creates a generator whose stream is fixed by <paramref name="seed"/>.</summary>
    public FastRandom(long seed) => _state = (ulong)seed;

    /// <summary>The next 64 random bits.</summary>
    public ulong NextUInt64()
    {
        ulong z = _state += 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }

    /// <summary>A uniform integer in [0, <paramref name="bound"/>).</summary>
    public long NextLong(long bound) => (long)Math.BigMul(NextUInt64(), (ulong)bound, out _);

    /// <summary>A uniform double in [0, 1).</summary>
    public double NextDouble() => (NextUInt64() >> 11) * (1.0 / (1UL << 53));
}

/// <summary>Picks the key index of each generated command.</summary>
public interface IKeySampler
{
    /// <summary>The next key index, in [0, number of keys).</summary>
    long Next();
}

/// <summary>Every key equally likely.</summary>
public sealed class UniformKeySampler : IKeySampler
{
    private readonly FastRandom _random;
    private readonly long _keys;

    /// <summary>Samples from <paramref name="keys"/> keys.</summary>
    public UniformKeySampler(long keys, FastRandom random)
    {
        _keys = keys;
        _random = random;
    }

    /// <inheritdoc/>
    public long Next() => _random.NextLong(_keys);
}

/// <summary>
/// Zipf-distributed keys: key <c>i</c> (0-based) has probability proportional to 1/(i+1)^theta,
/// so key 0 is the hottest. Uses the rejection-free method of Gray et al. ("Quickly generating
/// billion-record synthetic databases"): the normalising constant zeta(n, theta) is computed once
/// up front, after which each sample costs one random draw and one power.
/// </summary>
public sealed class ZipfKeySampler : IKeySampler
{
    /// <summary>Up to this many keys zeta is summed exactly; beyond, the tail is integrated.</summary>
    private const long ExactZetaTerms = 1 << 20;

    private readonly FastRandom _random;
    private readonly long _keys;
    private readonly double _theta;
    private readonly double _alpha;
    private readonly double _zetaN;
    private readonly double _eta;
    private readonly double _secondThreshold;

    /// <summary>Samples from <paramref name="keys"/> keys with exponent <paramref name="theta"/> in (0, 1).</summary>
    public ZipfKeySampler(long keys, double theta, FastRandom random)
    {
        if (keys <= 0)
            throw new ArgumentOutOfRangeException(nameof(keys));
        if (!(theta > 0 && theta < 1))
            throw new ArgumentOutOfRangeException(nameof(theta), theta, "The Zipf exponent must be in (0, 1).");
        _keys = keys;
        _theta = theta;
        _random = random;
        _alpha = 1.0 / (1.0 - theta);
        _zetaN = Zeta(keys, theta);
        double zeta2 = Zeta(2, theta);
        _eta = (1.0 - Math.Pow(2.0 / keys, 1.0 - theta)) / (1.0 - (zeta2 / _zetaN));
        _secondThreshold = 1.0 + Math.Pow(0.5, theta);
    }

    /// <inheritdoc/>
    public long Next()
    {
        double u = _random.NextDouble();
        double uz = u * _zetaN;
        if (uz < 1.0 || _keys == 1)
            return 0;
        if (uz < _secondThreshold)
            return 1;
        long index = (long)(_keys * Math.Pow((_eta * u) - _eta + 1.0, _alpha));
        return Math.Min(index, _keys - 1);
    }

    /// <summary>The probability of key <paramref name="index"/> (for tests).</summary>
    public double Probability(long index) => 1.0 / Math.Pow(index + 1, _theta) / _zetaN;

    /// <summary>sum over i in 1..n of 1/i^theta; exact for the first terms, an Euler-Maclaurin integral for the rest.</summary>
    public static double Zeta(long n, double theta)
    {
        long exact = Math.Min(n, ExactZetaTerms);
        double sum = 0;
        for (long i = 1; i <= exact; i++)
            sum += 1.0 / Math.Pow(i, theta);
        if (n > exact)
        {
            double power = 1.0 - theta;
            sum += (Math.Pow(n + 0.5, power) - Math.Pow(exact + 0.5, power)) / power;
        }
        return sum;
    }
}
