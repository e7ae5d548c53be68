using System;
using System.Collections.Generic;
using System.Linq;

namespace Garnet.test.Set;

/// <summary>Helpers for the set tests: replies whose members come in no particular order.</summary>
internal static class SetTestHelpers
{
    /// <summary>
    /// The header type (e.g. '*' or '~') and bulk strings of a flat aggregate reply such as
    /// "*2\r\n$1\r\na\r\n$1\r\nb\r\n"; fails on anything else.
    /// </summary>
    public static (char Type, List<string> Items) ParseFlat(string reply)
    {
        char type = reply[0];
        if (type != '*' && type != '~')
            throw new FormatException("Not an aggregate reply: " + reply);
        int at = reply.IndexOf("\r\n", StringComparison.Ordinal);
        int count = int.Parse(reply.AsSpan(1, at - 1));
        at += 2;
        var items = new List<string>(count);
        for (int i = 0; i < count; i++)
        {
            if (reply[at] != '$')
                throw new FormatException("Not a bulk string at " + at + ": " + reply);
            int end = reply.IndexOf("\r\n", at, StringComparison.Ordinal);
            int length = int.Parse(reply.AsSpan(at + 1, end - at - 1));
            items.Add(reply.Substring(end + 2, length));
            at = end + 2 + length + 2;
        }
        if (at != reply.Length)
            throw new FormatException("Trailing data: " + reply);
        return (type, items);
    }

    /// <summary>The members of a flat aggregate reply, sorted.</summary>
    public static string[] Sorted(string reply) => ParseFlat(reply).Items.OrderBy(s => s, StringComparer.Ordinal).ToArray();

    /// <summary>The values, sorted (to compare with <see cref="Sorted"/>).</summary>
    public static string[] SortedOf(params string[] values) => values.OrderBy(s => s, StringComparer.Ordinal).ToArray();

    /// <summary>A command of <paramref name="head"/> followed by <paramref name="tail"/>.</summary>
    public static string[] Command(string[] head, IEnumerable<string> tail) => head.Concat(tail).ToArray();

    public const string WrongType = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    public const string EmptyArray = "*0\r\n";
}
