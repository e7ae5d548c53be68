using System.Linq;
using NUnit.Framework;
using static Garnet.test.EncodingTestHelpers;

namespace Garnet.test.Set;

/// <summary>
/// OBJECT ENCODING of sets: intset for up to set-max-intset-entries integers (default 512), listpack for up
/// to set-max-listpack-entries members (128) of at most set-max-listpack-value bytes (64), hashtable beyond;
/// with Redis's transitions between them.
/// </summary>
public class SetEncodingTests : ServerTestBase
{
    [Test]
    public void IntsetBoundary()
    {
        using var client = ConnectRaw();
        client.Run("SADD", "s", Enumerable.Range(0, 512).Select(i => i.ToString()));
        Assert.That(client.EncodingOf("s"), Is.EqualTo("intset"));
        client.Execute("SADD", "s", "512");
        Assert.That(client.EncodingOf("s"), Is.EqualTo("hashtable"), "an intset past its limit becomes a hashtable");
        client.Run("SADD", "once", Enumerable.Range(0, 513).Select(i => i.ToString()));
        Assert.That(client.EncodingOf("once"), Is.EqualTo("hashtable"));
        client.Execute("SADD", "negative", "-9223372036854775808", "9223372036854775807");
        Assert.That(client.EncodingOf("negative"), Is.EqualTo("intset"));
        client.Execute("SADD", "notcanonical", "007");
        Assert.That(client.EncodingOf("notcanonical"), Is.EqualTo("listpack"));
    }

    [Test]
    public void AnIntsetTakingAStringBecomesAListpackIfItFits()
    {
        using var client = ConnectRaw();
        client.Run("SADD", "fits", Enumerable.Range(0, 127).Select(i => i.ToString()));
        client.Execute("SADD", "fits", "a");
        Assert.That(client.EncodingOf("fits"), Is.EqualTo("listpack"));
        client.Run("SADD", "full", Enumerable.Range(0, 128).Select(i => i.ToString()));
        client.Execute("SADD", "full", "a");
        Assert.That(client.EncodingOf("full"), Is.EqualTo("hashtable"));
        client.Execute("SADD", "long", "1");
        client.Execute("SADD", "long", new string('m', 65));
        Assert.That(client.EncodingOf("long"), Is.EqualTo("hashtable"));
    }

    [Test]
    public void ListpackBoundary()
    {
        using var client = ConnectRaw();
        client.Run("SADD", "s", Names("m", 128));
        Assert.That(client.EncodingOf("s"), Is.EqualTo("listpack"));
        client.Execute("SADD", "s", "m128");
        Assert.That(client.EncodingOf("s"), Is.EqualTo("hashtable"));
        client.Run("SADD", "once", Names("m", 129));
        Assert.That(client.EncodingOf("once"), Is.EqualTo("hashtable"));
        client.Execute("SADD", "at", new string('m', 64));
        client.Execute("SADD", "past", new string('m', 65));
        Assert.That(client.EncodingOf("at"), Is.EqualTo("listpack"));
        Assert.That(client.EncodingOf("past"), Is.EqualTo("hashtable"));
        // A listpack stays one when integers join it.
        client.Execute("SADD", "mixed", "a");
        client.Execute("SADD", "mixed", "1", "2");
        Assert.That(client.EncodingOf("mixed"), Is.EqualTo("listpack"));
    }

    [Test]
    public void RemovingMembersNeverConvertsBack()
    {
        using var client = ConnectRaw();
        client.Run("SADD", "s", Names("m", 129));
        client.Run("SREM", "s", Names("m", 128));
        Assert.That(client.EncodingOf("s"), Is.EqualTo("hashtable"));
        client.Execute("SADD", "i", "1", "a");
        client.Execute("SREM", "i", "a");
        Assert.That(client.EncodingOf("i"), Is.EqualTo("listpack"));
    }

    [Test]
    public void PoppingMostOfAHashtableRebuildsIt()
    {
        using var client = ConnectRaw();
        client.Run("SADD", "most", Names("m", 200));
        // 30 left of 200: Redis builds a new set of the 30 (30 * 5 <= 170), starting as a listpack.
        client.Execute("SPOP", "most", "170");
        Assert.That(client.EncodingOf("most"), Is.EqualTo("listpack"));
        client.Run("SADD", "some", Names("m", 200));
        client.Execute("SPOP", "some", "100");
        Assert.That(client.EncodingOf("some"), Is.EqualTo("hashtable"));
    }

    [Test]
    public void ConfigChangesApplyToLaterWrites()
    {
        using var client = ConnectRaw();
        client.Execute("CONFIG", "SET", "set-max-intset-entries", "3");
        client.Execute("SADD", "three", "1", "2", "3");
        client.Execute("SADD", "four", "1", "2", "3", "4");
        Assert.That(client.EncodingOf("three"), Is.EqualTo("intset"));
        Assert.That(client.EncodingOf("four"), Is.EqualTo("listpack"), "a new set too big for an intset starts as a listpack");
        client.Execute("SADD", "three", "4");
        Assert.That(client.EncodingOf("three"), Is.EqualTo("hashtable"));

        client.Execute("CONFIG", "SET", "set-max-listpack-value", "3");
        client.Execute("SADD", "digits", "12345");
        client.Execute("SADD", "digits", "a");
        Assert.That(client.EncodingOf("digits"), Is.EqualTo("hashtable"), "its integer is longer than a listpack member may be");

        client.Execute("CONFIG", "SET", "set-max-listpack-entries", "2", "set-max-listpack-value", "64");
        client.Execute("SADD", "two", "a", "b");
        Assert.That(client.EncodingOf("two"), Is.EqualTo("listpack"));
        client.Execute("SADD", "two", "c");
        Assert.That(client.EncodingOf("two"), Is.EqualTo("hashtable"));
    }

    [Test]
    public void SetsBuiltWholeReplayTheirMembers()
    {
        using var client = ConnectRaw();
        client.Execute("SADD", "a", "1", "2", "3", "x");
        client.Execute("SADD", "b", "1", "2", "y");
        client.Execute("SINTERSTORE", "ints", "a", "b");
        client.Execute("SUNIONSTORE", "mixed", "a", "b");
        Assert.That(client.EncodingOf("ints"), Is.EqualTo("intset"));
        Assert.That(client.EncodingOf("mixed"), Is.EqualTo("listpack"));
        client.Run("SADD", "big", Names("m", 200));
        client.Execute("SDIFFSTORE", "diff", "big", "a");
        Assert.That(client.EncodingOf("diff"), Is.EqualTo("hashtable"));
        client.Execute("SMOVE", "a", "newint", "1");
        client.Execute("SMOVE", "a", "newstring", "x");
        Assert.That(client.EncodingOf("newint"), Is.EqualTo("intset"));
        Assert.That(client.EncodingOf("newstring"), Is.EqualTo("listpack"));
    }

    [Test]
    public void CopyKeepsAndRestoreDecides()
    {
        using var client = ConnectRaw();
        client.Execute("SADD", "s", "1", new string('m', 65));
        client.Execute("SREM", "s", new string('m', 65));
        client.Execute("COPY", "s", "copied");
        Assert.That(client.EncodingOf("copied"), Is.EqualTo("hashtable"));
        string payload = Keyspace.Resp.Bulk(client.Execute("DUMP", "s"))!;
        client.Execute("RESTORE", "restored", "0", payload);
        Assert.That(client.EncodingOf("restored"), Is.EqualTo("intset"));
    }
}
