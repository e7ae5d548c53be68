using System;
using NUnit.Framework;

namespace Garnet.test.Storage;

/// <summary>
/// With the storage tier a large value's block goes to the object log when its record's page is flushed, and leaves
/// memory when the head passes the page; a read of the key from the device loads it back, byte for byte.
/// </summary>
[TestFixture]
public sealed class LargeValueStorageTierTests : ServerTestBase
{
    private const int MB = 1 << 20;

    protected override TestServerOptions ServerOptions => new() { PageSize = 1L << 20, MemorySize = 256L << 20, StorageTier = true };

    private long LargeValues()
    {
        using var client = ConnectRaw();
        return long.Parse(Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"))["large_values"]);
    }

    /// <summary>Writes inline values (under a quarter of a page) until <paramref name="megabytes"/> went by, pushing older pages to the device.</summary>
    private static void PushPagesOut(StackExchange.Redis.IDatabase db, int megabytes)
    {
        byte[] filler = new byte[200_000];
        for (int i = 0; i < megabytes * 5; i++)
            db.StringSet($"filler:{i}", filler);
    }

    // The log holds 256 MB: an APPEND to a value read back holds the copy read and the new value, 200 MB here.
    [TestCase(100)]
    public void ALargeValueEvictedToTheDeviceReadsBackExactly(int megabytes)
    {
        var options = ClientOptions();
        options.SyncTimeout = 120_000;
        using var redis = Connect(options);
        var db = redis.GetDatabase();
        byte[] value = Garnet.test.Strings.LargeValueTests.Pattern(megabytes * MB, megabytes);
        Assert.That(db.StringSet("big", value), Is.True);
        PushPagesOut(db, 272 - megabytes);
        Assert.That(LargeValues(), Is.Zero, "the block left memory with its page");

        Assert.That(((byte[])db.StringGet("big")!).AsSpan().SequenceEqual(value), Is.True, "GET from the device");
        Assert.That(db.StringLength("big"), Is.EqualTo(value.Length));
        Assert.That((byte[])db.StringGetRange("big", -3, -1)!, Is.EqualTo(value[^3..]));
        Assert.That(db.StringAppend("big", "end"), Is.EqualTo(value.Length + 3), "APPEND copies the value from the device");
        Assert.That((byte[])db.StringGetRange("big", -4, -1)!, Is.EqualTo((byte[])[value[^1], (byte)'e', (byte)'n', (byte)'d']));
        Assert.That(LargeValues(), Is.EqualTo(1), "the appended value is in memory; the block read back was given up");
        Assert.That(db.KeyDelete("big"), Is.True);
        Assert.That(db.KeyExists("big"), Is.False);
    }
}
