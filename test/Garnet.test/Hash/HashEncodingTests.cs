using System.Linq;
using NUnit.Framework;
using static Garnet.test.EncodingTestHelpers;

namespace Garnet.test.Hash;

/// <summary>
/// OBJECT ENCODING of hashes: listpack up to hash-max-listpack-entries fields (default 512) whose fields and
/// values are at most hash-max-listpack-value bytes (default 64), hashtable once a write goes past either;
/// never back.
/// </summary>
public class HashEncodingTests : ServerTestBase
{
    [Test]
    public void FieldCountBoundary()
    {
        using var client = ConnectRaw();
        client.Run("HSET", "h", Pairs(Names("f", 512), "v"));
        Assert.That(client.EncodingOf("h"), Is.EqualTo("listpack"));
        client.Execute("HSET", "h", "f0", "updated");
        Assert.That(client.EncodingOf("h"), Is.EqualTo("listpack"), "updating a field adds none");
        client.Execute("HSET", "h", "f512", "v");
        Assert.That(client.EncodingOf("h"), Is.EqualTo("hashtable"));
    }

    [Test]
    public void ACommandBringingTooManyPairsConvertsEvenWithRepeats()
    {
        using var client = ConnectRaw();
        // Redis sizes the hash by the pairs a command brings, before it finds repeated fields.
        client.Run("HSET", "h", Pairs(Enumerable.Repeat("same", 513), "v"));
        Assert.That(client.Execute("HLEN", "h"), Is.EqualTo(":1\r\n"));
        Assert.That(client.EncodingOf("h"), Is.EqualTo("hashtable"));
        client.Run("HMSET", "m", Pairs(Names("f", 513), "v"));
        Assert.That(client.EncodingOf("m"), Is.EqualTo("hashtable"));
    }

    [Test]
    public void ValueAndFieldLengthBoundary()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "at", new string('f', 64), new string('v', 64));
        client.Execute("HSET", "longvalue", "f", new string('v', 65));
        client.Execute("HSET", "longfield", new string('f', 65), "v");
        Assert.That(client.EncodingOf("at"), Is.EqualTo("listpack"));
        Assert.That(client.EncodingOf("longvalue"), Is.EqualTo("hashtable"));
        Assert.That(client.EncodingOf("longfield"), Is.EqualTo("hashtable"));
    }

    [Test]
    public void SetNxLooksAtItsArgumentsOnlyWhenItAdds()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "f", "v");
        Assert.That(client.Execute("HSETNX", "h", "f", new string('v', 65)), Is.EqualTo(":0\r\n"));
        Assert.That(client.EncodingOf("h"), Is.EqualTo("listpack"));
        Assert.That(client.Execute("HSETNX", "h", "g", new string('v', 65)), Is.EqualTo(":1\r\n"));
        Assert.That(client.EncodingOf("h"), Is.EqualTo("hashtable"));
    }

    [Test]
    public void IncrementsCheckTheFieldAndTheNewValue()
    {
        using var client = ConnectRaw();
        client.Execute("HINCRBY", "h", "counter", "5");
        Assert.That(client.EncodingOf("h"), Is.EqualTo("listpack"));
        client.Execute("HINCRBYFLOAT", "h", "float", "1e70");
        Assert.That(client.EncodingOf("h"), Is.EqualTo("hashtable"), "1e70 is written out in 71 digits");
        client.Execute("HINCRBY", "g", new string('f', 65), "1");
        Assert.That(client.EncodingOf("g"), Is.EqualTo("hashtable"));
    }

    [Test]
    public void ConversionIsOneWay()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "f", new string('v', 65), "g", "1");
        client.Execute("HDEL", "h", "f");
        Assert.That(client.EncodingOf("h"), Is.EqualTo("hashtable"));
        client.Execute("HSET", "h", "g", "2");
        Assert.That(client.EncodingOf("h"), Is.EqualTo("hashtable"));
    }

    [Test]
    public void ConfigChangesApplyToLaterWrites()
    {
        using var client = ConnectRaw();
        client.Run("HSET", "existing", Pairs(Names("f", 10), "v"));
        Assert.That(client.Execute("CONFIG", "SET", "hash-max-listpack-entries", "4"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.EncodingOf("existing"), Is.EqualTo("listpack"), "nothing converts until a write");
        client.Execute("HSET", "existing", "f0", "again");
        Assert.That(client.EncodingOf("existing"), Is.EqualTo("hashtable"));

        client.Run("HSET", "four", Pairs(Names("f", 4), "v"));
        client.Run("HSET", "five", Pairs(Names("f", 5), "v"));
        Assert.That(client.EncodingOf("four"), Is.EqualTo("listpack"));
        Assert.That(client.EncodingOf("five"), Is.EqualTo("hashtable"));

        client.Execute("CONFIG", "SET", "hash-max-ziplist-value", "8");
        client.Execute("HSET", "short", "f", "12345678");
        client.Execute("HSET", "long", "f", "123456789");
        Assert.That(client.EncodingOf("short"), Is.EqualTo("listpack"));
        Assert.That(client.EncodingOf("long"), Is.EqualTo("hashtable"));

        // Raising the limits converts nothing back.
        client.Execute("CONFIG", "SET", "hash-max-listpack-entries", "512", "hash-max-listpack-value", "64");
        client.Execute("HSET", "long", "g", "v");
        Assert.That(client.EncodingOf("long"), Is.EqualTo("hashtable"));
    }

    [Test]
    public void CopyKeepsAndRestoreDecides()
    {
        using var client = ConnectRaw();
        client.Execute("HSET", "h", "f", new string('v', 65), "g", "1");
        client.Execute("HDEL", "h", "f");
        client.Execute("COPY", "h", "copied");
        Assert.That(client.EncodingOf("copied"), Is.EqualTo("hashtable"));
        string payload = Keyspace.Resp.Bulk(client.Execute("DUMP", "h"))!;
        client.Execute("RESTORE", "restored", "0", payload);
        Assert.That(client.EncodingOf("restored"), Is.EqualTo("listpack"));
    }
}
