using System.Globalization;
using NUnit.Framework;

namespace Garnet.test.Storage;

/// <summary>--copy-reads-to-tail: a hot set read from disk once is then served from memory, and updates of it stay exact.</summary>
[TestFixture]
public sealed class CopyReadsToTailServerTests : ServerTestBase
{
    protected override TestServerOptions ServerOptions => new()
    {
        MemorySize = 4L << 20,
        PageSize = 16L << 10,
        Databases = 1,
        StorageTier = true,
        CopyReadsToTail = true,
    };

    private static long Field(RawClient client, string name)
        => long.Parse(Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"))[name], CultureInfo.InvariantCulture);

    [Test]
    public void AHotSetReadFromDiskOnceIsServedFromMemory()
    {
        using var client = ConnectRaw();
        for (int i = 0; i < 40_000; i++)
            client.Execute("SET", "key:" + i.ToString(CultureInfo.InvariantCulture), "value-" + i.ToString(CultureInfo.InvariantCulture) + new string('v', 200));
        // The first hundred keys were written first: they are on disk.
        for (int i = 0; i < 100; i++)
            Assert.That(client.Execute("GET", "key:" + i.ToString(CultureInfo.InvariantCulture)), Does.Contain("value-" + i.ToString(CultureInfo.InvariantCulture) + "v"));
        long pending = Field(client, "log_pending_reads");
        Assert.That(Field(client, "log_reads_copied_to_tail"), Is.EqualTo(100));
        for (int round = 0; round < 5; round++)
        {
            for (int i = 0; i < 100; i++)
                Assert.That(client.Execute("GET", "key:" + i.ToString(CultureInfo.InvariantCulture)), Does.Contain("value-" + i.ToString(CultureInfo.InvariantCulture) + "v"));
        }
        Assert.That(Field(client, "log_pending_reads"), Is.EqualTo(pending), "the hot set came from memory");
        Assert.That(client.Execute("APPEND", "key:7", "!"), Is.EqualTo(":208\r\n"));
        Assert.That(client.Execute("GET", "key:7"), Does.EndWith("v!\r\n"));
        Assert.That(client.Execute("DEL", "key:8"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("GET", "key:8"), Is.EqualTo("$-1\r\n"));
    }
}
