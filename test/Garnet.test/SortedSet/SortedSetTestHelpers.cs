using System.Text;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.SortedSet;

/// <summary>Raw-reply builders for the sorted-set tests.</summary>
internal static class SortedSetTestHelpers
{
    public const string WrongType = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    public const string EmptyArray = "*0\r\n";
    public const string NullArray = "*-1\r\n";
    public const string Null3 = "_\r\n";

    /// <summary>An array of bulk strings.</summary>
    public static string Array(params string[] items)
    {
        var builder = new StringBuilder();
        builder.Append('*').Append(items.Length).Append("\r\n");
        foreach (var item in items)
            builder.Append(Bulk(item));
        return builder.ToString();
    }

    /// <summary>An array of already-encoded replies.</summary>
    public static string ArrayOf(params string[] encoded)
    {
        var builder = new StringBuilder();
        builder.Append('*').Append(encoded.Length).Append("\r\n");
        foreach (var item in encoded)
            builder.Append(item);
        return builder.ToString();
    }

    /// <summary>A RESP3 double.</summary>
    public static string Double3(string text) => $",{text}\r\n";

    /// <summary>A RESP3 [member, score] pair.</summary>
    public static string Pair3(string member, string score) => ArrayOf(Bulk(member), Double3(score));

    /// <summary>Creates <paramref name="key"/> with the given score/member pairs.</summary>
    public static void Add(RawClient client, string key, params string[] scoreMemberPairs)
    {
        var args = new string[scoreMemberPairs.Length + 2];
        args[0] = "ZADD";
        args[1] = key;
        scoreMemberPairs.CopyTo(args, 2);
        client.Execute(args);
    }

    /// <summary>A RESP3 connection.</summary>
    public static RawClient Resp3(RawClient client)
    {
        client.Execute("HELLO", "3");
        return client;
    }
}
