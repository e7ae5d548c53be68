using System.Globalization;
using NUnit.Framework;

namespace Garnet.test.Storage;

/// <summary>--readcache: with data four times the memory, a hot set is served from the read cache, and writes drop its copies.</summary>
[TestFixture]
public sealed class ReadCacheServerTests : ServerTestBase
{
    protected override TestServerOptions ServerOptions => new()
    {
        MemorySize = 2L << 20,
        PageSize = 16L << 10,
        Databases = 1,
        StorageTier = true,
        ReadCache = true,
        ReadCacheMemorySize = 512L << 10,
        ReadCachePageSize = 16L << 10,
    };

    private static long Field(RawClient client, string name)
        => long.Parse(Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"))[name], CultureInfo.InvariantCulture);

    private static string Key(int i) => "key:" + i.ToString(CultureInfo.InvariantCulture);

    private static string Value(int i) => "value-" + i.ToString(CultureInfo.InvariantCulture) + new string('v', 200);

    private static void AssertValue(RawClient client, int i)
        => Assert.That(client.Execute("GET", Key(i)), Does.EndWith(Value(i) + "\r\n"), Key(i));

    [Test]
    public void AHotSetIsServedFromTheReadCacheAndWritesDropItsCopies()
    {
        using var client = ConnectRaw();
        const int Keys = 40_000; // about 9 MB: over four times the memory
        for (int i = 0; i < Keys; i++)
            client.Execute("SET", Key(i), Value(i));
        Assert.That(Field(client, "read_cache"), Is.EqualTo(1));
        Assert.That(Field(client, "log_disk_bytes"), Is.GreaterThan(3L * ServerOptions.MemorySize));

        // The first 200 keys were written first: they are on disk. Read them, with a stream of cold keys in between.
        const int Hot = 200;
        int cold = Hot;
        for (int round = 0; round < 5; round++)
        {
            for (int i = 0; i < Hot; i++)
                AssertValue(client, i);
            for (int n = 0; n < 1000; n++, cold++)
                AssertValue(client, cold);
        }
        Assert.That(Field(client, "read_cache_inserts"), Is.GreaterThanOrEqualTo(Hot + 4000));
        Assert.That(Field(client, "read_cache_evictions"), Is.GreaterThan(0), "the cold keys went through the cache");
        Assert.That(Field(client, "read_cache_bytes"), Is.LessThanOrEqualTo(512L << 10));

        long pending = Field(client, "log_pending_reads");
        long hits = Field(client, "read_cache_hits");
        for (int i = 0; i < Hot; i++)
            AssertValue(client, i);
        Assert.That(Field(client, "log_pending_reads"), Is.EqualTo(pending), "the hot set came from memory");
        Assert.That(Field(client, "read_cache_hits") - hits, Is.EqualTo(Hot));

        long invalidations = Field(client, "read_cache_invalidations");
        Assert.That(client.Execute("SET", Key(7), "new"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", Key(7)), Is.EqualTo("$3\r\nnew\r\n"));
        Assert.That(client.Execute("APPEND", Key(9), "!"), Is.EqualTo(":" + (Value(9).Length + 1).ToString(CultureInfo.InvariantCulture) + "\r\n"));
        Assert.That(client.Execute("GET", Key(9)), Does.EndWith("v!\r\n"));
        Assert.That(client.Execute("DEL", Key(8)), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("GET", Key(8)), Is.EqualTo("$-1\r\n"));
        Assert.That(Field(client, "read_cache_invalidations") - invalidations, Is.EqualTo(3));
        AssertValue(client, 10);
    }
}
