using System;
using System.Runtime.CompilerServices;

namespace Garnet.common;

/// <summary>
/// Redis's glob-style patterns (KEYS, SCAN MATCH, CONFIG GET...), over bytes: <c>*</c> matches any
/// run of bytes, <c>?</c> any one byte, <c>[abc]</c> one of a set, <c>[^abc]</c> one not in it,
/// <c>[a-z]</c> a range (either order), and <c>\x</c> the byte x itself, also inside a set. An
/// unclosed set ends at the end of the pattern; a trailing lone <c>\</c> matches a backslash.
/// </summary>
/// <remarks>
/// Matching is iterative: on a mismatch it backtracks only to the last <c>*</c> (the earlier ones
/// can never need to match more), so it takes O(pattern × text) steps at worst, needs no recursion
/// and allocates nothing.
/// </remarks>
public static class GlobPattern
{
    /// <summary>Whether <paramref name="pattern"/> is "*", which Redis treats as "every key" without matching.</summary>
    public static bool MatchesEverything(ReadOnlySpan<byte> pattern) => pattern.Length == 1 && pattern[0] == '*';

    /// <summary>Whether <paramref name="text"/> matches <paramref name="pattern"/>, optionally ignoring ASCII case.</summary>
    public static bool IsMatch(ReadOnlySpan<byte> pattern, ReadOnlySpan<byte> text, bool ignoreCase = false)
    {
        // Redis's matcher stops as soon as the text is empty: an empty text matches only an empty pattern, not even
        // "*" (KEYS and SCAN list the empty key for "*" only because they skip matching for it: MatchesEverything).
        if (text.IsEmpty)
            return pattern.IsEmpty;
        int p = 0;
        int t = 0;
        int starPattern = -1; // pattern position after the last '*' seen
        int starText = 0;     // text position that '*' was last tried to end at
        while (true)
        {
            if (p < pattern.Length && pattern[p] == '*')
            {
                while (p < pattern.Length && pattern[p] == '*')
                    p++;
                if (p == pattern.Length)
                    return true;
                starPattern = p;
                starText = t;
                continue;
            }
            if (t == text.Length)
                return p == pattern.Length; // only stars could match the empty rest, and they were skipped above
            if (p < pattern.Length && MatchOne(pattern, p, text[t], ignoreCase, out int next))
            {
                p = next;
                t++;
                continue;
            }
            if (starPattern < 0)
                return false;
            // Let the last '*' swallow one more byte and try the rest of the pattern from there.
            starText++;
            t = starText;
            p = starPattern;
        }
    }

    /// <summary>Matches the single-byte element at <paramref name="p"/> (not '*') against <paramref name="c"/>.</summary>
    private static bool MatchOne(ReadOnlySpan<byte> pattern, int p, byte c, bool ignoreCase, out int next)
    {
        switch (pattern[p])
        {
            case (byte)'?':
                next = p + 1;
                return true;
            case (byte)'[':
                return MatchSet(pattern, p + 1, c, ignoreCase, out next);
            case (byte)'\\' when pattern.Length - p >= 2:
                next = p + 2;
                return Same(pattern[p + 1], c, ignoreCase);
            default:
                next = p + 1;
                return Same(pattern[p], c, ignoreCase);
        }
    }

    /// <summary>Matches a set whose content starts at <paramref name="i"/> (after the '[').</summary>
    private static bool MatchSet(ReadOnlySpan<byte> pattern, int i, byte c, bool ignoreCase, out int next)
    {
        bool negate = i < pattern.Length && pattern[i] == '^';
        if (negate)
            i++;
        bool match = false;
        while (i < pattern.Length && pattern[i] != ']')
        {
            int left = pattern.Length - i;
            if (pattern[i] == '\\' && left >= 2)
            {
                i++;
                match |= Same(pattern[i], c, ignoreCase);
            }
            else if (left >= 3 && pattern[i + 1] == '-')
            {
                match |= InRange(pattern[i], pattern[i + 2], c, ignoreCase);
                i += 2;
            }
            else
            {
                match |= Same(pattern[i], c, ignoreCase);
            }
            i++;
        }
        // Past the closing ']', or at the end of an unclosed set.
        next = Math.Min(i + 1, pattern.Length);
        return match != negate;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool Same(byte a, byte b, bool ignoreCase) => a == b || (ignoreCase && Lower(a) == Lower(b));

    private static bool InRange(byte start, byte end, byte c, bool ignoreCase)
    {
        if (ignoreCase)
        {
            start = Lower(start);
            end = Lower(end);
            c = Lower(c);
        }
        if (start > end)
            (start, end) = (end, start);
        return c >= start && c <= end;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static byte Lower(byte c) => c >= 'A' && c <= 'Z' ? (byte)(c | 0x20) : c;
}
