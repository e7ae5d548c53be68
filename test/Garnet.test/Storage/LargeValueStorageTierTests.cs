using NUnit.Framework;

namespace Garnet.test.Storage;

/// <summary>
/// With the storage tier values are not kept out of line yet (a flushed page would carry the block's address, not
/// its bytes): a value must fit in a page, one that does not is refused, and the connection and store go on.
/// </summary>
[TestFixture]
public sealed class LargeValueStorageTierTests : ServerTestBase
{
    protected override TestServerOptions ServerOptions => new() { PageSize = 1L << 20, MemorySize = 8L << 20, StorageTier = true };

    [Test]
    public void AValueLargerThanAPageIsRefusedAndTheStoreGoesOn()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SET", "k", new string('x', 2 << 20)), Does.StartWith("-ERR "));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
        string fits = new('y', 600_000); // over a quarter of a page: inline here
        Assert.That(client.Execute("SET", "k", fits), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("STRLEN", "k"), Is.EqualTo(":600000\r\n"));
        var memory = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(memory["large_values"], Is.EqualTo("0"));
    }
}
