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
    [TestCase(1)]
    [TestCase(33)]
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

/// <summary>
/// A value of Redis's maximum length, 512 MB, leaves memory with its page (written to the object log through the writer's
/// staging buffer, 4 MB at a time) and is read back from the device (4 MB at a time) when a command needs it. The log holds
/// 1 GB, so the block fits under it.
/// </summary>
[TestFixture]
public sealed class MaximumLengthValueStorageTierTests : ServerTestBase
{
    private const long MB = 1 << 20;

    protected override TestServerOptions ServerOptions => new() { PageSize = 1L << 20, MemorySize = 1L << 30, StorageTier = true };

    [Test]
    public void AValueOfTheMaximumLengthLeavesMemoryAndComesBack()
    {
        using var client = ConnectRaw();
        const long max = 512L * MB;
        string maxText = max.ToString(System.Globalization.CultureInfo.InvariantCulture);
        // Made on the server (SETRANGE zero-fills), so the test does not ship it over the socket; the pattern marks its
        // first and last bytes and a place in the middle, which cross the staging buffer's 4 MB boundaries.
        Assert.That(client.Execute("SETRANGE", "max", (max - 4).ToString(System.Globalization.CultureInfo.InvariantCulture), "last"), Is.EqualTo($":{maxText}\r\n"));
        Assert.That(client.Execute("SETRANGE", "max", "0", "first"), Is.EqualTo($":{maxText}\r\n"));
        long middle = (4 * MB * 64) - 3;
        Assert.That(client.Execute("SETRANGE", "max", middle.ToString(System.Globalization.CultureInfo.InvariantCulture), "middle"), Is.EqualTo($":{maxText}\r\n"));

        string filler = new('f', 200_000);
        for (int i = 0; i < 5 * 560; i++)
            Assert.That(client.Execute("SET", "filler:" + i.ToString(System.Globalization.CultureInfo.InvariantCulture), filler), Is.EqualTo("+OK\r\n"));
        var memory = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(memory["large_values"], Is.EqualTo("0"), "the block left memory with its page");

        Assert.That(client.Execute("STRLEN", "max"), Is.EqualTo($":{maxText}\r\n"));
        Assert.That(client.Execute("GETRANGE", "max", "0", "4"), Is.EqualTo("$5\r\nfirst\r\n"));
        Assert.That(client.Execute("GETRANGE", "max", "-6", "-1"), Is.EqualTo("$6\r\n\0\0last\r\n"));
        string from = (middle - 1).ToString(System.Globalization.CultureInfo.InvariantCulture);
        string to = (middle + 6).ToString(System.Globalization.CultureInfo.InvariantCulture);
        Assert.That(client.Execute("GETRANGE", "max", from, to), Is.EqualTo("$8\r\n\0middle\0\r\n"));
        Assert.That(client.Execute("APPEND", "max", "x"), Does.StartWith("-ERR string exceeds maximum allowed size"));
        Assert.That(client.Execute("DEL", "max"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXISTS", "max"), Is.EqualTo(":0\r\n"));
    }
}
