using NUnit.Framework;

namespace Garnet.test.Streams;

/// <summary>XRANGE, XREVRANGE, XDEL and XTRIM with Redis's exact replies and errors.</summary>
public class StreamRangeTests : ServerTestBase
{
    private const string InvalidId = "-ERR Invalid stream ID specified as stream command argument\r\n";

    private static string Entry(string id, params string[] fieldsAndValues)
    {
        var text = $"*2\r\n${id.Length}\r\n{id}\r\n*{fieldsAndValues.Length}\r\n";
        foreach (var item in fieldsAndValues)
            text += $"${item.Length}\r\n{item}\r\n";
        return text;
    }

    private static void Fill(RawClient client)
    {
        client.Execute("XADD", "s", "1-1", "a", "1");
        client.Execute("XADD", "s", "2-0", "a", "1");
        client.Execute("XADD", "s", "2-1", "b", "2", "c", "3");
        client.Execute("XADD", "s", "3-0", "a", "1");
    }

    [Test]
    public void RangesAndBounds()
    {
        using var client = ConnectRaw();
        Fill(client);
        string all = Entry("1-1", "a", "1") + Entry("2-0", "a", "1") + Entry("2-1", "b", "2", "c", "3") + Entry("3-0", "a", "1");
        Assert.That(client.Execute("XRANGE", "s", "-", "+"), Is.EqualTo("*4\r\n" + all));
        Assert.That(client.Execute("XREVRANGE", "s", "+", "-", "COUNT", "2"), Is.EqualTo("*2\r\n" + Entry("3-0", "a", "1") + Entry("2-1", "b", "2", "c", "3")));
        Assert.That(client.Execute("XRANGE", "s", "2", "2"), Is.EqualTo("*2\r\n" + Entry("2-0", "a", "1") + Entry("2-1", "b", "2", "c", "3")), "incomplete IDs cover the millisecond");
        Assert.That(client.Execute("XRANGE", "s", "(2-0", "(3-0"), Is.EqualTo("*1\r\n" + Entry("2-1", "b", "2", "c", "3")));
        Assert.That(client.Execute("XREVRANGE", "s", "(3-0", "(1-1"), Is.EqualTo("*2\r\n" + Entry("2-1", "b", "2", "c", "3") + Entry("2-0", "a", "1")));
        Assert.That(client.Execute("XRANGE", "s", "-", "+", "COUNT", "0"), Is.EqualTo("*-1\r\n"));
        Assert.That(client.Execute("XRANGE", "s", "-", "+", "COUNT", "-1"), Is.EqualTo("*-1\r\n"));
        Assert.That(client.Execute("XRANGE", "s", "4", "+"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("XRANGE", "missing", "-", "+", "COUNT", "0"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("XRANGE", "s", "(18446744073709551615-18446744073709551615", "+"), Is.EqualTo("-ERR invalid start ID for the interval\r\n"));
        Assert.That(client.Execute("XRANGE", "s", "-", "(0-0"), Is.EqualTo("-ERR invalid end ID for the interval\r\n"));
        Assert.That(client.Execute("XRANGE", "s", "(-", "+"), Is.EqualTo(InvalidId));
        Assert.That(client.Execute("XRANGE", "s", "-", "(+"), Is.EqualTo(InvalidId));
        Assert.That(client.Execute("XRANGE", "s", "x", "+"), Is.EqualTo(InvalidId));
        Assert.That(client.Execute("XRANGE", "s", "-", "+", "COUNT"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("XRANGE", "s", "-", "+", "COUNT", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        client.Execute("SET", "str", "x");
        Assert.That(client.Execute("XRANGE", "str", "x", "+"), Is.EqualTo(InvalidId));
        Assert.That(client.Execute("XRANGE", "str", "-", "+"), Is.EqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"));
    }

    [Test]
    public void RangesAcrossManyNodes()
    {
        using var client = ConnectRaw();
        for (int i = 1; i <= 1000; i++)
            client.Execute("XADD", "s", $"{i}-0", i % 7 == 0 ? "other" : "f", i.ToString());
        Assert.That(client.Execute("XLEN", "s"), Is.EqualTo(":1000\r\n"));
        Assert.That(client.Execute("XRANGE", "s", "500", "501"), Is.EqualTo("*2\r\n" + Entry("500-0", "f", "500") + Entry("501-0", "f", "501")));
        Assert.That(client.Execute("XREVRANGE", "s", "701", "699"), Is.EqualTo("*3\r\n" + Entry("701-0", "f", "701") + Entry("700-0", "other", "700") + Entry("699-0", "f", "699")));
        Assert.That(client.Execute("XDEL", "s", "700-0", "701-0", "9999-0"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("XREVRANGE", "s", "701", "699"), Is.EqualTo("*1\r\n" + Entry("699-0", "f", "699")));
        Assert.That(client.Execute("XTRIM", "s", "MAXLEN", "~", "900"), Is.EqualTo(":0\r\n"), "first node holds 100 entries: removing it would go below 900");
        Assert.That(client.Execute("XTRIM", "s", "MAXLEN", "~", "800"), Is.EqualTo(":100\r\n"));
        Assert.That(client.Execute("XTRIM", "s", "MINID", "250"), Is.EqualTo(":149\r\n"));
        Assert.That(client.Execute("XRANGE", "s", "-", "+", "COUNT", "1"), Is.EqualTo("*1\r\n" + Entry("250-0", "f", "250")));
        Assert.That(client.Execute("XTRIM", "s", "MAXLEN", "0"), Is.EqualTo(":749\r\n"));
        Assert.That(client.Execute("EXISTS", "s"), Is.EqualTo(":1\r\n"), "an emptied stream stays");
    }

    [Test]
    public void DeleteAndTrim()
    {
        using var client = ConnectRaw();
        Fill(client);
        Assert.That(client.Execute("XDEL", "s", "2-1", "2-2", "9-9"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("XDEL", "s", "x"), Is.EqualTo(InvalidId));
        Assert.That(client.Execute("XDEL", "missing", "x"), Is.EqualTo(":0\r\n"), "the key is looked up before the IDs are checked");
        Assert.That(client.Execute("XTRIM", "s", "MAXLEN", "2"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("XRANGE", "s", "-", "+"), Is.EqualTo("*2\r\n" + Entry("2-0", "a", "1") + Entry("3-0", "a", "1")));
        Assert.That(client.Execute("XTRIM", "s", "foo", "1"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("XTRIM", "s", "MINID", "3"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("XTRIM", "s", "MAXLEN", "=", "0", "LIMIT", "1"), Is.EqualTo("-ERR syntax error, LIMIT cannot be used without the special ~ option\r\n"));
        Assert.That(client.Execute("XTRIM", "s", "MAXLEN", "~", "0", "LIMIT", "1"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("XTRIM", "missing", "MAXLEN", "0"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("XLEN", "s"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("TYPE", "s"), Is.EqualTo("+stream\r\n"));
        client.Execute("SET", "str", "x");
        Assert.That(client.Execute("XDEL", "str", "x"), Is.EqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"));
        Assert.That(client.Execute("XTRIM", "str", "MAXLEN", "0"), Is.EqualTo("-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"));
    }

    [Test]
    public void SetId()
    {
        using var client = ConnectRaw();
        client.Execute("XADD", "s", "1-1", "a", "1");
        client.Execute("XADD", "s", "3-1", "a", "1");
        Assert.That(client.Execute("XSETID", "s", "2"), Is.EqualTo("-ERR The ID specified in XSETID is smaller than the target stream top item\r\n"));
        Assert.That(client.Execute("XSETID", "s", "5", "ENTRIESADDED", "1"), Is.EqualTo("-ERR The entries_added specified in XSETID is smaller than the target stream length\r\n"));
        Assert.That(client.Execute("XSETID", "missing", "1"), Is.EqualTo("-ERR no such key\r\n"));
        Assert.That(client.Execute("XSETID", "s", "x"), Is.EqualTo(InvalidId));
        Assert.That(client.Execute("XSETID", "s", "1", "foo"), Is.EqualTo("-ERR syntax error\r\n"));
        Assert.That(client.Execute("XSETID", "s", "1", "ENTRIESADDED", "-1"), Is.EqualTo("-ERR entries_added must be positive\r\n"));
        Assert.That(client.Execute("XSETID", "s", "1", "MAXDELETEDID", "2"), Is.EqualTo("-ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id\r\n"));
        Assert.That(client.Execute("XSETID", "s", "10-0"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("XADD", "s", "9-9", "a", "1"), Is.EqualTo("-ERR The ID specified in XADD is equal or smaller than the target stream top item\r\n"));
        Assert.That(client.Execute("XADD", "s", "*", "a", "1"), Does.Match(@"^\$\d+\r\n\d{13}-0\r\n$"));
    }
}
