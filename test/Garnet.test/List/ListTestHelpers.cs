using System.Linq;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.List;

/// <summary>Reply builders and error texts shared by the list tests.</summary>
internal static class ListTestHelpers
{
    public const string WrongType = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    public const string MustBePositive = "-ERR value is out of range, must be positive\r\n";
    public const string IndexOutOfRange = "-ERR index out of range\r\n";
    public const string NoSuchKey = "-ERR no such key\r\n";
    public const string NilArray = "*-1\r\n";
    public const string EmptyArray = "*0\r\n";
    public const string Resp3Null = "_\r\n";

    /// <summary>An array of raw replies.</summary>
    public static string Array(params string[] items) => $"*{items.Length}\r\n" + string.Concat(items);

    /// <summary>An array of bulk strings.</summary>
    public static string Bulks(params string[] values) => Array(values.Select(Bulk).ToArray());

    /// <summary>An array of integers.</summary>
    public static string Integers(params long[] values) => Array(values.Select(v => Integer(v)).ToArray());

    /// <summary>Sends a command built from a fixed prefix and extra arguments.</summary>
    public static string Run(this RawClient client, string[] prefix, params string[] rest) => client.Execute(prefix.Concat(rest).ToArray());
}
