using System;
using System.Diagnostics;
using System.Text;
using System.Threading;
using NUnit.Framework;

namespace Garnet.test;

/// <summary>Small helpers shared by the string and protocol tests.</summary>
internal static class StringTestHelpers
{
    /// <summary>The reply of a bulk string, as raw RESP text.</summary>
    public static string Bulk(string value) => $"${Encoding.Latin1.GetByteCount(value)}\r\n{value}\r\n";

    /// <summary>The reply of an integer.</summary>
    public static string Integer(long value) => $":{value}\r\n";

    /// <summary>The reply of an error.</summary>
    public static string Error(string message) => $"-{message}\r\n";

    /// <summary>The RESP2 null bulk string.</summary>
    public const string Nil = "$-1\r\n";

    /// <summary>+OK</summary>
    public const string Ok = "+OK\r\n";

    /// <summary>Redis's arity error for <paramref name="command"/>.</summary>
    public static string WrongArity(string command) => Error($"ERR wrong number of arguments for '{command}' command");

    public const string SyntaxError = "-ERR syntax error\r\n";
    public const string NotInteger = "-ERR value is not an integer or out of range\r\n";
    public const string NotFloat = "-ERR value is not a valid float\r\n";

    /// <summary>Sends all commands in one write, then reads one reply per command, in order.</summary>
    public static string[] Pipeline(this RawClient client, params string[][] commands)
    {
        var builder = new StringBuilder();
        foreach (var command in commands)
            builder.Append(RawClient.Encode(command));
        client.SendRaw(builder.ToString());
        var replies = new string[commands.Length];
        for (int i = 0; i < replies.Length; i++)
            replies[i] = client.ReadReply();
        return replies;
    }

    /// <summary>
    /// Polls <paramref name="condition"/> until it holds, failing after <paramref name="timeoutMilliseconds"/>
    /// (generous, so slow machines only make the test slower, never fail it).
    /// </summary>
    public static void WaitUntil(Func<bool> condition, string what, int timeoutMilliseconds = 10000)
    {
        var clock = Stopwatch.StartNew();
        while (!condition())
        {
            if (clock.ElapsedMilliseconds > timeoutMilliseconds)
                Assert.Fail($"Timed out waiting until {what}.");
            Thread.Sleep(10);
        }
    }

    /// <summary>Polls GET until the key is gone; returns the time from <paramref name="since"/> until then.</summary>
    public static TimeSpan WaitUntilGone(RawClient client, string key, Stopwatch since)
    {
        WaitUntil(() => client.Execute("GET", key) == Nil, $"'{key}' expires");
        return since.Elapsed;
    }

    /// <summary>A string of every byte value 0..255, <paramref name="repeat"/> times.</summary>
    public static string AllBytes(int repeat = 1)
    {
        var builder = new StringBuilder(256 * repeat);
        for (int r = 0; r < repeat; r++)
        {
            for (int b = 0; b < 256; b++)
                builder.Append((char)b);
        }
        return builder.ToString();
    }

    /// <summary>A deterministic pseudo-random Latin-1 string of <paramref name="length"/> characters.</summary>
    public static string Pattern(int length, int seed = 1)
    {
        var chars = new char[length];
        uint state = (uint)seed * 2654435761u + 1;
        for (int i = 0; i < length; i++)
        {
            state = state * 1103515245u + 12345u;
            chars[i] = (char)(byte)(state >> 16);
        }
        return new string(chars);
    }
}
