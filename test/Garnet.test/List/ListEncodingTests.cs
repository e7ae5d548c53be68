using System.Linq;
using NUnit.Framework;

namespace Garnet.test.List;

/// <summary>
/// OBJECT ENCODING of lists: listpack while the list fits one node of list-max-listpack-size (default -2:
/// 8 KB of listpack bytes, counting 7 bytes of header and per element its encoding and back-length),
/// quicklist beyond; back to listpack once a shrinking list fits half a node. A 100-byte element takes
/// 103 bytes, so 79 of them make a listpack of 8,144 bytes and the 80th does not fit (8,144 + 100 > 8,192).
/// </summary>
public class ListEncodingTests : ServerTestBase
{
    private static readonly string Hundred = new('x', 100);

    private static void PushHundreds(RawClient client, string key, int count)
    {
        for (int i = 0; i < count; i++)
            client.Execute("RPUSH", key, Hundred);
    }

    [Test]
    public void ANodeIsFullAtEightKilobytes()
    {
        using var client = ConnectRaw();
        // A new list's listpack has 7 bytes; the check adds the new element's raw length.
        client.Execute("RPUSH", "at", new string('a', 8192 - 7));
        client.Execute("RPUSH", "past", new string('a', 8192 - 7 + 1));
        Assert.That(client.EncodingOf("at"), Is.EqualTo("listpack"));
        Assert.That(client.EncodingOf("past"), Is.EqualTo("quicklist"));
    }

    [Test]
    public void ElementsAreCountedAsTheListpackStoresThem()
    {
        using var client = ConnectRaw();
        PushHundreds(client, "k", 79);
        Assert.That(client.EncodingOf("k"), Is.EqualTo("listpack"));
        client.Execute("LPUSH", "k", Hundred);
        Assert.That(client.EncodingOf("k"), Is.EqualTo("quicklist"));

        // Small integers take 2 bytes each: 4,000 of them make 8,007 bytes, which leaves room for 185 more.
        client.Run("RPUSH", "ints", Enumerable.Repeat("5", 4000));
        client.Execute("RPUSH", "ints", new string('b', 185));
        Assert.That(client.EncodingOf("ints"), Is.EqualTo("listpack"));
        client.Execute("RPUSH", "ints", "c");
        Assert.That(client.EncodingOf("ints"), Is.EqualTo("quicklist"));
    }

    [Test]
    public void OnePushOfManyElementsIsCheckedAsAWholeByRawLength()
    {
        using var client = ConnectRaw();
        // As in Redis the check adds the elements' raw lengths: 7 + 81 * 100 fits, though the listpack then takes 8,350 bytes.
        client.Run("RPUSH", "fits", Enumerable.Repeat(Hundred, 81));
        Assert.That(client.EncodingOf("fits"), Is.EqualTo("listpack"));
        client.Execute("RPUSH", "fits", "a");
        Assert.That(client.EncodingOf("fits"), Is.EqualTo("quicklist"));
        client.Run("RPUSH", "over", Enumerable.Repeat(Hundred, 82));
        Assert.That(client.EncodingOf("over"), Is.EqualTo("quicklist"));
    }

    [Test]
    public void AShrinkingListGoesBackWithinHalfANode()
    {
        using var client = ConnectRaw();
        PushHundreds(client, "k", 80);
        Assert.That(client.EncodingOf("k"), Is.EqualTo("quicklist"));
        // 40 elements take 4,127 bytes (over 4,096); 39 take 4,024.
        client.Execute("RPOP", "k", "40");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("quicklist"));
        client.Execute("RPOP", "k");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("listpack"));
    }

    [TestCase("LREM", "k", "1", "HUNDRED")]
    [TestCase("LTRIM", "k", "0", "38")]
    [TestCase("LPOP", "k")]
    [TestCase("LMPOP", "1", "k", "LEFT")]
    [TestCase("BLPOP", "k", "0")]
    [TestCase("RPOPLPUSH", "k", "other")]
    public void EveryRemovalChecksTheShrink(params string[] command)
    {
        using var client = ConnectRaw();
        PushHundreds(client, "k", 80);
        client.Execute("LTRIM", "k", "0", "39");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("quicklist"), "40 elements are over half a node");
        client.Execute(command.Select(argument => argument == "HUNDRED" ? Hundred : argument).ToArray());
        Assert.That(client.Execute("LLEN", "k"), Is.EqualTo(":39\r\n"));
        Assert.That(client.EncodingOf("k"), Is.EqualTo("listpack"));
    }

    [Test]
    public void PushesNeverConvertBack()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "k", new string('a', 9000));
        client.Execute("LSET", "k", "0", "small");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("listpack"), "LSET shrinks it");
        client.Execute("RPUSH", "k2", new string('a', 9000));
        client.Execute("LPUSH", "k2", "b");
        Assert.That(client.EncodingOf("k2"), Is.EqualTo("quicklist"));
    }

    [Test]
    public void InsertAndSetCheckTheGrowthFirst()
    {
        using var client = ConnectRaw();
        PushHundreds(client, "k", 79);
        // Redis converts before it looks for the pivot or checks the index.
        Assert.That(client.Execute("LINSERT", "k", "BEFORE", "nosuch", Hundred), Is.EqualTo(":-1\r\n"));
        Assert.That(client.EncodingOf("k"), Is.EqualTo("quicklist"));
        PushHundreds(client, "s", 79);
        Assert.That(client.Execute("LSET", "s", "1000", Hundred), Is.EqualTo("-ERR index out of range\r\n"));
        Assert.That(client.EncodingOf("s"), Is.EqualTo("quicklist"));
    }

    [Test]
    public void MovingBetweenListsChecksBoth()
    {
        using var client = ConnectRaw();
        PushHundreds(client, "source", 80);
        PushHundreds(client, "destination", 79);
        client.Execute("LTRIM", "source", "0", "39");
        Assert.That(client.EncodingOf("source"), Is.EqualTo("quicklist"));
        client.Execute("LMOVE", "source", "destination", "RIGHT", "LEFT");
        Assert.That(client.EncodingOf("source"), Is.EqualTo("listpack"));
        Assert.That(client.EncodingOf("destination"), Is.EqualTo("quicklist"));
    }

    [Test]
    public void ACountLimitCountsElements()
    {
        using var client = ConnectRaw();
        client.Execute("CONFIG", "SET", "list-max-listpack-size", "4");
        client.Execute("RPUSH", "k", "1", "2", "3", "4");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("listpack"));
        client.Execute("RPUSH", "k", "5");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("quicklist"));
        client.Execute("RPOP", "k", "2");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("quicklist"));
        client.Execute("RPOP", "k");
        Assert.That(client.EncodingOf("k"), Is.EqualTo("listpack"));
    }

    [Test]
    public void OtherSizeLimits()
    {
        using var client = ConnectRaw();
        client.Execute("CONFIG", "SET", "list-max-ziplist-size", "-1");
        client.Execute("RPUSH", "at", new string('a', 4096 - 7));
        client.Execute("RPUSH", "past", new string('a', 4096 - 7 + 1));
        Assert.That(client.EncodingOf("at"), Is.EqualTo("listpack"));
        Assert.That(client.EncodingOf("past"), Is.EqualTo("quicklist"));
        client.Execute("CONFIG", "SET", "list-max-listpack-size", "-100");
        client.Execute("RPUSH", "big", new string('a', 60000));
        Assert.That(client.EncodingOf("big"), Is.EqualTo("listpack"), "sizes below -5 are 64 KB");
    }

    [Test]
    public void ListsBuiltWholeAreDecidedByTheirContents()
    {
        using var client = ConnectRaw();
        for (int i = 0; i < 80; i++)
            client.Execute("RPUSH", "source", i.ToString("D3") + new string('x', 97));
        client.Execute("SORT", "source", "ALPHA", "STORE", "sorted");
        Assert.That(client.EncodingOf("sorted"), Is.EqualTo("quicklist"));
        client.Execute("SORT", "source", "ALPHA", "LIMIT", "0", "79", "STORE", "fits");
        Assert.That(client.EncodingOf("fits"), Is.EqualTo("listpack"));

        // RESTORE decides again; COPY keeps the encoding.
        client.Execute("LTRIM", "source", "0", "59");
        Assert.That(client.EncodingOf("source"), Is.EqualTo("quicklist"));
        client.Execute("COPY", "source", "copied");
        Assert.That(client.EncodingOf("copied"), Is.EqualTo("quicklist"));
        string payload = Keyspace.Resp.Bulk(client.Execute("DUMP", "source"))!;
        client.Execute("RESTORE", "restored", "0", payload);
        Assert.That(client.EncodingOf("restored"), Is.EqualTo("listpack"));
    }
}
