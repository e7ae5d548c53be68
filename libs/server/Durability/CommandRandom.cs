using System;
using System.Runtime.CompilerServices;

namespace Garnet.server;

/// <summary>
/// The random numbers of commands that write at random (SPOP). Each thread has its own generator; with the operation
/// log on, the session seeds it before each write and logs the seed, so that replaying the command draws the same
/// numbers and removes the same members. Without a seed a thread's generator starts from a random state.
/// </summary>
internal static class CommandRandom
{
    // SplitMix64: one 64-bit word of state, so seeding is one store and a draw is a few multiplies.
    [ThreadStatic]
    private static ulong t_state;

    [ThreadStatic]
    private static bool t_seeded;

    /// <summary>Starts this thread's sequence at <paramref name="seed"/>.</summary>
    public static void Seed(ulong seed)
    {
        t_state = seed;
        t_seeded = true;
    }

    // Seeds come from a second SplitMix64 sequence per thread, started at random: a seed costs a few multiplies.
    [ThreadStatic]
    private static ulong t_seedSource;

    /// <summary>A fresh seed for a command about to run (and be logged).</summary>
    public static ulong NewSeed()
    {
        if (t_seedSource == 0)
            t_seedSource = (ulong)Random.Shared.NextInt64() | 1;
        return Mix(t_seedSource += 0x9E3779B97F4A7C15UL);
    }

    /// <summary>A number in [0, <paramref name="maxExclusive"/>).</summary>
    public static int Next(int maxExclusive) => maxExclusive <= 1 ? 0 : (int)(NextWord() % (ulong)maxExclusive);

    /// <summary>A number in [<paramref name="minInclusive"/>, <paramref name="maxExclusive"/>).</summary>
    public static int Next(int minInclusive, int maxExclusive) => minInclusive + Next(maxExclusive - minInclusive);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong NextWord()
    {
        if (!t_seeded)
            Seed(NewSeed());
        return Mix(t_state += 0x9E3779B97F4A7C15UL);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Mix(ulong z)
    {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }
}
