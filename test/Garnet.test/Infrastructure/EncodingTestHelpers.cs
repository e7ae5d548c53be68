using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;

namespace Garnet.test;

/// <summary>Helpers of the OBJECT ENCODING tests: the reported encoding, and commands with many arguments.</summary>
internal static class EncodingTestHelpers
{
    /// <summary>OBJECT ENCODING's answer for <paramref name="key"/>, or null for a missing key.</summary>
    public static string? EncodingOf(this RawClient client, string key)
    {
        string reply = client.Execute("OBJECT", "ENCODING", key);
        if (reply == "$-1\r\n")
            return null;
        Assert.That(reply, Does.StartWith("$"), reply);
        return reply.Substring(reply.IndexOf('\n') + 1).TrimEnd('\r', '\n');
    }

    /// <summary>Runs <paramref name="command"/> <paramref name="key"/> followed by <paramref name="arguments"/>.</summary>
    public static string Run(this RawClient client, string command, string key, IEnumerable<string> arguments)
        => client.Execute(new[] { command, key }.Concat(arguments).ToArray());

    /// <summary>"prefix0", "prefix1", ... (<paramref name="count"/> of them, from <paramref name="from"/>).</summary>
    public static IEnumerable<string> Names(string prefix, int count, int from = 0)
        => Enumerable.Range(from, count).Select(i => prefix + i);

    /// <summary>Field/value (or score/member) pairs: each name followed, or preceded, by a value.</summary>
    public static IEnumerable<string> Pairs(IEnumerable<string> names, string value, bool valueFirst = false)
        => names.SelectMany(name => valueFirst ? new[] { value, name } : new[] { name, value });
}
