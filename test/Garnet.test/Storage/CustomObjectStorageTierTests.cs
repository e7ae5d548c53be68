using System;
using System.Globalization;
using System.Text;
using Garnet.server;
using Garnet.test.Extensions;
using NUnit.Framework;

namespace Garnet.test.Storage;

/// <summary>
/// Objects of a type registered through the embedding API leave memory with the storage tier like the built-in ones:
/// serialized by their factory when their page is flushed, deserialized by it when a command reads them back, and an
/// update makes them live objects at the tail again.
/// </summary>
[TestFixture]
public sealed class CustomObjectStorageTierTests : ServerTestBase
{
    private const long Memory = 4L << 20;
    private const int Keys = 6000;
    private const int FieldsPerKey = 20;

    protected override TestServerOptions ServerOptions => new()
    {
        MemorySize = Memory,
        PageSize = 16L << 10,
        MaxMemory = Memory,
        Databases = 1,
        StorageTier = true,
    };

    protected override void BeforeStart(GarnetServer server)
    {
        server.Register.NewObjectCommand(new DictSet());
        server.Register.NewObjectCommand(new DictGet());
        server.Register.NewObjectCommand(new DictDel());
    }

    private static string Field(int key, int field) => "f" + field.ToString(CultureInfo.InvariantCulture);

    private static string Value(int key, int field) => key.ToString(CultureInfo.InvariantCulture) + "/" + field.ToString(CultureInfo.InvariantCulture) + new string('v', 100);

    [Test]
    public void CustomObjectsLeaveMemoryAndComeBack()
    {
        using var client = ConnectRaw();
        // 6,000 dictionaries of 20 fields: the sample type reports ~1 KB of heap each, 6 MB over a 4 MB budget.
        for (int k = 0; k < Keys; k++)
        {
            var batch = new StringBuilder();
            for (int f = 0; f < FieldsPerKey; f++)
                batch.Append(RawClient.Encode("MYDICTSET", "dict:" + k.ToString(CultureInfo.InvariantCulture), Field(k, f), Value(k, f)));
            client.SendRaw(batch.ToString());
            for (int f = 0; f < FieldsPerKey; f++)
                Assert.That(client.ReadReply(), Is.EqualTo(":1\r\n"));
        }
        var info = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(long.Parse(info["log_disk_bytes"], CultureInfo.InvariantCulture), Is.GreaterThan(0), "objects left memory");
        Assert.That(long.Parse(info["used_memory"], CultureInfo.InvariantCulture), Is.LessThan(3 * Memory), "their heap copies were released");
        long pendingBefore = long.Parse(info["log_pending_reads"], CultureInfo.InvariantCulture);

        // The first dictionaries are on the device: reads deserialize them through the registered factory.
        for (int k = 0; k < Keys; k += 13)
        {
            string key = "dict:" + k.ToString(CultureInfo.InvariantCulture);
            string value = Value(k, 7);
            Assert.That(client.Execute("MYDICTGET", key, Field(k, 7)), Is.EqualTo($"${value.Length}\r\n{value}\r\n"), key);
            Assert.That(client.Execute("TYPE", key), Is.EqualTo("+mydict\r\n"), key);
        }
        info = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(long.Parse(info["log_pending_reads"], CultureInfo.InvariantCulture), Is.GreaterThan(pendingBefore), "reads went to the device");

        // Updates of on-device dictionaries: a new field, an overwrite, a removal; then they read back as updated.
        Assert.That(client.Execute("MYDICTSET", "dict:0", "extra", "x"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("MYDICTSET", "dict:1", Field(1, 0), "changed"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("MYDICTDEL", "dict:2", Field(2, 0)), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("MYDICTGET", "dict:0", "extra"), Is.EqualTo("$1\r\nx\r\n"));
        Assert.That(client.Execute("MYDICTGET", "dict:0", Field(0, 19)), Is.EqualTo($"${Value(0, 19).Length}\r\n{Value(0, 19)}\r\n"), "the copy kept the other fields");
        Assert.That(client.Execute("MYDICTGET", "dict:1", Field(1, 0)), Is.EqualTo("$7\r\nchanged\r\n"));
        Assert.That(client.Execute("MYDICTGET", "dict:2", Field(2, 0)), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("DEL", "dict:3"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("EXISTS", "dict:3"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("SET", "dict:4", "now a string"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("MYDICTGET", "dict:4", Field(4, 0)), Does.StartWith("-WRONGTYPE"));

        // Push the updated ones out too, and read them back from the device once more.
        for (int i = 0; i < 1000; i++)
            Assert.That(client.Execute("SET", "filler:" + i.ToString(CultureInfo.InvariantCulture), new string('x', 10_000)), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("MYDICTGET", "dict:0", "extra"), Is.EqualTo("$1\r\nx\r\n"));
        Assert.That(client.Execute("MYDICTGET", "dict:1", Field(1, 0)), Is.EqualTo("$7\r\nchanged\r\n"));
        Assert.That(client.Execute("MYDICTGET", "dict:2", Field(2, 1)), Is.EqualTo($"${Value(2, 1).Length}\r\n{Value(2, 1)}\r\n"));
        Assert.That(client.Execute("DUMP", "dict:5"), Does.StartWith("$"), "DUMP serializes an on-device custom object");
    }
}
