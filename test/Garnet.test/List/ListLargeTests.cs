using System.Text;
using NUnit.Framework;
using static Garnet.test.List.ListTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.List;

/// <summary>A million-element list: built in big variadic, pipelined pushes and read at both ends.</summary>
[TestFixture]
public sealed class ListLargeTests : ServerTestBase
{
    private const int Total = 1_000_000;
    private const int Batch = 10_000;

    /// <summary>Pushes 0..Total-1 with RPUSH (or Total-1..0 with LPUSH, so the list reads the same).</summary>
    private static void Fill(RawClient client, string key, bool left)
    {
        var request = new StringBuilder();
        for (int start = 0; start < Total; start += Batch)
        {
            request.Append("*").Append(Batch + 2).Append("\r\n");
            request.Append(left ? "$5\r\nLPUSH\r\n" : "$5\r\nRPUSH\r\n");
            request.Append('$').Append(key.Length).Append("\r\n").Append(key).Append("\r\n");
            for (int i = 0; i < Batch; i++)
            {
                string value = (left ? Total - 1 - (start + i) : start + i).ToString();
                request.Append('$').Append(value.Length).Append("\r\n").Append(value).Append("\r\n");
            }
        }
        client.SendRaw(request.ToString());
        for (int start = 0; start < Total; start += Batch)
            Assert.That(client.ReadReply(), Is.EqualTo(Integer(start + Batch)));
    }

    [TestCase(false)]
    [TestCase(true)]
    public void MillionElements(bool left)
    {
        using var client = ConnectRaw();
        Fill(client, "big", left);
        Assert.That(client.Execute("LLEN", "big"), Is.EqualTo(Integer(Total)));
        Assert.That(client.Execute("LINDEX", "big", "0"), Is.EqualTo(Bulk("0")));
        Assert.That(client.Execute("LINDEX", "big", "-1"), Is.EqualTo(Bulk("999999")));
        Assert.That(client.Execute("LINDEX", "big", "500000"), Is.EqualTo(Bulk("500000")));
        Assert.That(client.Execute("LINDEX", "big", "-500000"), Is.EqualTo(Bulk("500000")));
        Assert.That(client.Execute("LRANGE", "big", "0", "2"), Is.EqualTo(Bulks("0", "1", "2")));
        Assert.That(client.Execute("LRANGE", "big", "-3", "-1"), Is.EqualTo(Bulks("999997", "999998", "999999")));
        Assert.That(client.Execute("LRANGE", "big", "999999", "2000000"), Is.EqualTo(Bulks("999999")));
        Assert.That(client.Execute("LSET", "big", "654321", "changed"), Is.EqualTo(Ok));
        Assert.That(client.Execute("LINDEX", "big", "654321"), Is.EqualTo(Bulk("changed")));
        Assert.That(client.Execute("LPOS", "big", "999998"), Is.EqualTo(Integer(999998)));
        Assert.That(client.Execute("LPOS", "big", "5", "RANK", "-1"), Is.EqualTo(Integer(5)));

        Assert.That(client.Execute("LPOP", "big", "3"), Is.EqualTo(Bulks("0", "1", "2")));
        Assert.That(client.Execute("RPOP", "big", "2"), Is.EqualTo(Bulks("999999", "999998")));
        Assert.That(client.Execute("LLEN", "big"), Is.EqualTo(Integer(Total - 5)));
        Assert.That(client.Execute("LTRIM", "big", "100", "-100"), Is.EqualTo(Ok));
        Assert.That(client.Execute("LLEN", "big"), Is.EqualTo(Integer(Total - 5 - 199)));
        Assert.That(client.Execute("LINDEX", "big", "0"), Is.EqualTo(Bulk("103")));
        Assert.That(client.Execute("LTRIM", "big", "0", "9"), Is.EqualTo(Ok));
        Assert.That(client.Execute("LRANGE", "big", "0", "-1"), Is.EqualTo(Bulks("103", "104", "105", "106", "107", "108", "109", "110", "111", "112")));
        Assert.That(client.Execute("DEL", "big"), Is.EqualTo(Integer(1)));
    }

    [Test]
    public void MillionElementsInOneReply()
    {
        using var client = ConnectRaw();
        Fill(client, "big", left: false);
        // The whole list in one reply (read through StackExchange.Redis: the raw test client is slow on a 7 MB reply).
        using (var redis = Connect())
        {
            var all = redis.GetDatabase().ListRange("big");
            Assert.That(all.Length, Is.EqualTo(Total));
            for (int i = 0; i < Total; i += 99_991)
                Assert.That((string?)all[i], Is.EqualTo(i.ToString()));
            Assert.That((string?)all[Total - 1], Is.EqualTo("999999"));
        }
    }
}
