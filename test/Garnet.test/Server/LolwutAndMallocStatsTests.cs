using System;
using System.Linq;
using System.Text;
using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>LOLWUT and MEMORY MALLOC-STATS: text replies whose shape and figures follow from the server.</summary>
[TestFixture]
public sealed class LolwutAndMallocStatsTests : ServerTestBase
{
    private const string VersionLine = "Redis ver. 7.2.5\n";

    /// <summary>A bulk reply's text as UTF-8 (the raw client reads bytes as Latin-1).</summary>
    private static string Utf8Payload(string reply) => Encoding.UTF8.GetString(Encoding.Latin1.GetBytes(ReplyText.Payload(reply)));

    [Test]
    public void LolwutOfThisVersionIsTheVersionLine()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("LOLWUT"), Is.EqualTo($"${VersionLine.Length}\r\n{VersionLine}\r\n"));
        Assert.That(client.Execute("LOLWUT", "VERSION", "7"), Is.EqualTo($"${VersionLine.Length}\r\n{VersionLine}\r\n"));
        Assert.That(client.Execute("LOLWUT", "VERSION", "1"), Is.EqualTo($"${VersionLine.Length}\r\n{VersionLine}\r\n"));
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("LOLWUT"), Is.EqualTo($"={VersionLine.Length + 4}\r\ntxt:{VersionLine}\r\n"));
    }

    [Test]
    public void LolwutVersionFiveDrawsSquaresInBraille()
    {
        using var client = ConnectRaw();
        string text = Utf8Payload(client.Execute("LOLWUT", "VERSION", "5", "20", "4", "3"));
        string[] lines = text.TrimEnd('\n').Split('\n');
        Assert.That(lines[^1], Is.EqualTo("Georg Nees - schotter, plotter on paper, 1968. Redis ver. 7.2.5"));
        Assert.That(lines[^2], Is.Empty);
        var art = lines[..^2];
        // 40 dots across: 2 of margin each side and squares of 9 dots; 3 rows of squares and the margins make 31 dots down, 8 lines.
        Assert.That(art, Has.Length.EqualTo(8));
        Assert.That(art.All(line => line.Length == 20 && line.All(c => c >= '\u2800' && c <= '\u28FF')), Is.True);
        Assert.That(art.Any(line => line.Any(c => c != '\u2800')), Is.True, "something is drawn");

        // Defaults: 66 columns wide.
        string defaults = Utf8Payload(client.Execute("LOLWUT", "VERSION", "5"));
        Assert.That(defaults.Split('\n')[0], Has.Length.EqualTo(66));
        Assert.That(defaults, Does.EndWith("1968. Redis ver. 7.2.5\n"));
    }

    [Test]
    public void LolwutVersionSixDrawsASkyline()
    {
        using var client = ConnectRaw();
        string text = ReplyText.Payload(client.Execute("LOLWUT", "VERSION", "6", "30", "10"));
        string[] lines = text.TrimEnd('\n').Split('\n');
        Assert.That(lines[^1], Does.EndWith("Redis ver. 7.2.5"));
        Assert.That(lines[..10].All(line => line.Length == 30), Is.True);
        Assert.That(lines[9].Trim(), Is.Not.Empty, "towers stand on the bottom line");
    }

    [Test]
    public void LolwutErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("LOLWUT", "VERSION", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("LOLWUT", "VERSION", "5", "wide"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void MallocStatsReportsTheHeapAndTheEnginesNativeMemory()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        string reply = client.Execute("MEMORY", "MALLOC-STATS");
        Assert.That(reply, Does.StartWith("$"));
        string text = ReplyText.Payload(reply);
        Assert.That(text, Does.StartWith("___ Begin .NET memory statistics ___\n"));
        Assert.That(text, Does.EndWith("--- End .NET memory statistics ---\n"));
        Assert.That(text, Does.Contain("\n  gen0: size ").And.Contain("\n  gen2: size ").And.Contain("\n  large object heap: size "));
        Assert.That(text, Does.Match(@"\n  log pages in memory: [1-9]\d*, bytes [1-9]\d*\n"), "the key's page is in memory");
        Assert.That(client.Execute("MEMORY", "MALLOC-STATS", "x"), Is.EqualTo("-ERR wrong number of arguments for 'memory|malloc-stats' command\r\n"));
    }
}
