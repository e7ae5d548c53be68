using NUnit.Framework;

namespace Garnet.test.Streams;

/// <summary>XADD and XLEN: IDs (explicit, "ms-*", "*"), NOMKSTREAM, trimming options and Redis's exact errors.</summary>
public class StreamAddTests : ServerTestBase
{
    private const string InvalidId = "-ERR Invalid stream ID specified as stream command argument\r\n";
    private const string NotGreater = "-ERR The ID specified in XADD is equal or smaller than the target stream top item\r\n";

    [Test]
    public void ExplicitIdsMustGrow()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("XADD", "s", "1-1", "a", "1"), Is.EqualTo("$3\r\n1-1\r\n"));
        Assert.That(client.Execute("XADD", "s", "1-1", "a", "1"), Is.EqualTo(NotGreater));
        Assert.That(client.Execute("XADD", "s", "1-0", "a", "1"), Is.EqualTo(NotGreater));
        Assert.That(client.Execute("XADD", "s", "0-0", "a", "1"), Is.EqualTo("-ERR The ID specified in XADD must be greater than 0-0\r\n"));
        Assert.That(client.Execute("XADD", "t", "0", "a", "1"), Is.EqualTo("-ERR The ID specified in XADD must be greater than 0-0\r\n"));
        Assert.That(client.Execute("XADD", "s", "+5", "a", "1"), Is.EqualTo("$3\r\n5-0\r\n"), "strtoull takes a plus sign");
        Assert.That(client.Execute("XADD", "s", "06", "a", "1"), Is.EqualTo("$3\r\n6-0\r\n"));
        Assert.That(client.Execute("XLEN", "s"), Is.EqualTo(":3\r\n"));
        Assert.That(client.Execute("XLEN", "missing"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void AutoSequence()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("XADD", "s", "0-*", "a", "1"), Is.EqualTo("$3\r\n0-1\r\n"));
        Assert.That(client.Execute("XADD", "s", "2-*", "a", "1"), Is.EqualTo("$3\r\n2-0\r\n"));
        Assert.That(client.Execute("XADD", "s", "2-*", "b", "2", "c", "3"), Is.EqualTo("$3\r\n2-1\r\n"));
        Assert.That(client.Execute("XADD", "s", "1-*", "a", "1"), Is.EqualTo(NotGreater));
        Assert.That(client.Execute("XADD", "s", "2-18446744073709551615", "a", "1"), Is.EqualTo("$22\r\n2-18446744073709551615\r\n"));
        Assert.That(client.Execute("XADD", "s", "2-*", "a", "1"), Is.EqualTo(NotGreater));
    }

    [Test]
    public void AutoIdsStayMonotonicWhenTheClockIsBehind()
    {
        using var client = ConnectRaw();
        // A last ID far in the future stands for a clock that went back.
        client.Execute("XADD", "s", "99999999999999-5", "a", "1");
        Assert.That(client.Execute("XADD", "s", "*", "a", "1"), Is.EqualTo("$16\r\n99999999999999-6\r\n"));
        client.Execute("XADD", "t", "99999999999999-18446744073709551615", "a", "1");
        Assert.That(client.Execute("XADD", "t", "*", "a", "1"), Is.EqualTo("$17\r\n100000000000000-0\r\n"));
        var reply = client.Execute("XADD", "u", "*", "a", "1");
        Assert.That(reply, Does.Match(@"^\$\d+\r\n\d{13}-0\r\n$"));
    }

    [Test]
    public void ExhaustedStream()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("XADD", "s", "18446744073709551615-18446744073709551615", "a", "1"), Is.EqualTo("$41\r\n18446744073709551615-18446744073709551615\r\n"));
        const string exhausted = "-ERR The stream has exhausted the last possible ID, unable to add more items\r\n";
        Assert.That(client.Execute("XADD", "s", "*", "a", "1"), Is.EqualTo(exhausted));
        Assert.That(client.Execute("XADD", "s", "5-*", "a", "1"), Is.EqualTo(exhausted));
        Assert.That(client.Execute("XADD", "s", "3-5", "a", "1"), Is.EqualTo(exhausted));
    }

    [Test]
    public void NoMkStream()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("XADD", "s", "NOMKSTREAM", "*", "a", "1"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("EXISTS", "s"), Is.EqualTo(":0\r\n"));
        client.Execute("XADD", "s", "1-1", "a", "1");
        Assert.That(client.Execute("XADD", "s", "nomkstream", "nomkstream", "2-1", "a", "1"), Is.EqualTo("$3\r\n2-1\r\n"));
    }

    [Test]
    public void ArgumentErrors()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "str", "x");
        Assert.That(client.Execute("XADD", "s", "1", "a"), Is.EqualTo("-ERR wrong number of arguments for 'xadd' command\r\n"));
        Assert.That(client.Execute("XADD", "s", "1", "a", "1", "b"), Is.EqualTo("-ERR wrong number of arguments for 'xadd' command\r\n"));
        Assert.That(client.Execute("XADD", "s", "nomkstream", "nomkstream", "nomkstream"), Is.EqualTo("-ERR wrong number of arguments for 'xadd' command\r\n"));
        Assert.That(client.Execute("XADD", "s", "MAXLEN", "-1", "*", "a", "1"), Is.EqualTo("-ERR The MAXLEN argument must be >= 0.\r\n"));
        Assert.That(client.Execute("XADD", "s", "MAXLEN", "abc", "*", "a", "1"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("XADD", "s", "MAXLEN", "=", "1", "LIMIT", "5", "*", "a", "1"), Is.EqualTo("-ERR syntax error, LIMIT cannot be used without the special ~ option\r\n"));
        Assert.That(client.Execute("XADD", "s", "MAXLEN", "~", "1", "LIMIT", "-1", "*", "a", "1"), Is.EqualTo("-ERR The LIMIT argument must be >= 0.\r\n"));
        Assert.That(client.Execute("XADD", "s", "MAXLEN", "1", "LIMIT", "abc", "*", "a", "1"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("XADD", "s", "MAXLEN", "1", "MINID", "1", "*", "a", "1"), Is.EqualTo("-ERR syntax error, MAXLEN and MINID options at the same time are not compatible\r\n"));
        Assert.That(client.Execute("XADD", "s", "MAXLEN", "1", "MAXLEN", "2", "*", "a", "1"), Is.EqualTo("-ERR syntax error, MAXLEN and MINID options at the same time are not compatible\r\n"));
        Assert.That(client.Execute("XADD", "s", "LIMIT", "1", "*", "a", "1"), Is.EqualTo("-ERR syntax error, LIMIT cannot be used without specifying a trimming strategy\r\n"));
        Assert.That(client.Execute("XADD", "s", "MINID", "abc", "*", "a", "1"), Is.EqualTo(InvalidId));
        Assert.That(client.Execute("XADD", "s", "MINID", "1-*", "*", "a", "1"), Is.EqualTo(InvalidId));
        foreach (var id in new[] { "abc", "1-x", "-", "+", "-1", "1-2-3", "18446744073709551616", "5-18446744073709551616" })
            Assert.That(client.Execute("XADD", "s", id, "a", "1"), Is.EqualTo(InvalidId), id);
        // Arguments are checked before the key's type, as in Redis.
        Assert.That(client.Execute("XADD", "str", "abc", "a", "1"), Is.EqualTo(InvalidId));
        Assert.That(client.Execute("XADD", "str", "0-0", "a", "1"), Is.EqualTo("-ERR The ID specified in XADD must be greater than 0-0\r\n"));
        Assert.That(client.Execute("XADD", "str", "*", "a", "1"), Is.EqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"));
        Assert.That(client.Execute("XLEN", "str"), Is.EqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"));
        Assert.That(client.Execute("EXISTS", "s"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void AddTrims()
    {
        using var client = ConnectRaw();
        for (int i = 1; i <= 10; i++)
            client.Execute("XADD", "s", "MAXLEN", "5", $"{i}-0", "f", "v");
        Assert.That(client.Execute("XLEN", "s"), Is.EqualTo(":5\r\n"));
        Assert.That(client.Execute("XRANGE", "s", "-", "+", "COUNT", "1"), Is.EqualTo("*1\r\n*2\r\n$3\r\n6-0\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n"));
        client.Execute("XADD", "s", "MINID", "=", "9", "11-0", "f", "v");
        Assert.That(client.Execute("XLEN", "s"), Is.EqualTo(":3\r\n"));
        // '~' removes whole nodes only: a stream in one node keeps everything.
        client.Execute("XADD", "s", "MAXLEN", "~", "1", "12-0", "f", "v");
        Assert.That(client.Execute("XLEN", "s"), Is.EqualTo(":4\r\n"));
        Assert.That(client.Execute("XADD", "s", "MAXLEN", "~", "10", "LIMIT", "0", "*", "a", "1"), Does.StartWith("$"));
    }
}
