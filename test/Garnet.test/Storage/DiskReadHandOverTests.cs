using System;
using System.Globalization;
using System.Text;
using System.Threading;
using Garnet.networking;
using NUnit.Framework;
using Tsavorite;

namespace Garnet.test.Storage;

/// <summary>
/// A client whose command waits for a slow disk holds up only itself: with one event loop, while a GET of a key on the
/// device is stuck in the device (a gate the test holds shut), other clients of that loop are served, and the stuck
/// client gets its replies, in order, once the read completes. The loop hands over only once it has seen that reads
/// are slow (page-cache reads are cheaper than a hand-over), so the tests make the device's reads slow first.
/// </summary>
[TestFixture]
public sealed class DiskReadHandOverTests : ServerTestBase
{
    private const long Memory = 4L << 20;

    private GatedDevice? _device;

    protected override TestServerOptions ServerOptions => new()
    {
        MemorySize = Memory,
        PageSize = 16L << 10,
        MaxMemory = Memory,
        Databases = 1,
        StorageTier = true,
        EventLoops = 1,
        SocketIo = SocketIoModel.Epoll,
        LogDeviceFactory = (path, segment) => _device = new GatedDevice(new LocalFileDevice(path, segment, deleteOnClose: true)),
    };

    /// <summary>Runs before the base class stops the server: a read still stuck in the device must end first.</summary>
    [TearDown]
    public void OpenTheGate() => _device?.Open();

    private static string Value(int key) => DeviceKeys.Value(key);

    private static string Bulk(string value) => DeviceKeys.Bulk(value);

    private static int Fill(RawClient client) => DeviceKeys.Fill(client, Memory);

    [Test]
    public void OtherClientsOfTheLoopAreServedWhileOneWaitsForTheDisk()
    {
        using var stuck = ConnectRaw();
        using var other = ConnectRaw();
        int keys = Fill(stuck);
        var device = _device!;
        long handOversBefore = Server.EventLoopCounters.HandOvers;

        // A slow read first, as from a disk rather than the page cache: the loop hands over only for slow reads.
        device.ReadDelay = TimeSpan.FromMilliseconds(2);
        Assert.That(other.Execute("GET", "key:5"), Is.EqualTo(Bulk(Value(5))));
        device.ReadDelay = TimeSpan.Zero;

        device.Close();
        // A pipeline: the on-device key first, then a key in memory; the replies must come in this order.
        stuck.SendRaw(RawClient.Encode("GET", "key:0") + RawClient.Encode("GET", "key:" + (keys - 1).ToString(CultureInfo.InvariantCulture)));
        Assert.That(device.WaitForAReader(TimeSpan.FromSeconds(30)), Is.True, "the GET reached the device");

        // The loop's only other thread of work is this client: it is served while the read waits.
        Assert.That(other.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(other.Execute("GET", "key:" + (keys - 2).ToString(CultureInfo.InvariantCulture)), Is.EqualTo(Bulk(Value(keys - 2))));
        Assert.That(other.Execute("SET", "fresh", "1"), Is.EqualTo("+OK\r\n"));
        Assert.That(Server.EventLoopCounters.HandOvers, Is.GreaterThan(handOversBefore));

        device.Open();
        Assert.That(stuck.ReadReply(), Is.EqualTo(Bulk(Value(0))));
        Assert.That(stuck.ReadReply(), Is.EqualTo(Bulk(Value(keys - 1))));
        // Both connections go on as usual, the stuck one back on the loop.
        Assert.That(stuck.Execute("GET", "key:1"), Is.EqualTo(Bulk(Value(1))));
        Assert.That(stuck.Execute("GET", "fresh"), Is.EqualTo(Bulk("1")));
        Assert.That(other.Execute("GET", "key:2"), Is.EqualTo(Bulk(Value(2))));
    }

    [Test]
    public void ManyClientsReadingTheDiskAtOnceAllGetTheirValuesInOrder()
    {
        int keys;
        using (var setup = ConnectRaw())
            keys = Fill(setup);
        // Reads as slow as a disk's, so that the loop hands over for them.
        _device!.ReadDelay = TimeSpan.FromMilliseconds(0.2);
        var clients = new Thread[8];
        var failures = new System.Collections.Concurrent.ConcurrentQueue<string>();
        for (int c = 0; c < clients.Length; c++)
        {
            int self = c;
            clients[c] = new Thread(() =>
            {
                try
                {
                    using var client = ConnectRaw();
                    var random = new Random(self);
                    for (int round = 0; round < 40; round++)
                    {
                        var picked = new int[20];
                        var batch = new StringBuilder();
                        for (int i = 0; i < picked.Length; i++)
                        {
                            picked[i] = random.Next(keys);
                            batch.Append(RawClient.Encode("GET", "key:" + picked[i].ToString(CultureInfo.InvariantCulture)));
                        }
                        client.SendRaw(batch.ToString());
                        foreach (int key in picked)
                        {
                            string reply = client.ReadReply();
                            if (reply != Bulk(Value(key)))
                                failures.Enqueue($"client {self}: key:{key} got {reply[..Math.Min(40, reply.Length)]}");
                        }
                    }
                }
                catch (Exception e)
                {
                    failures.Enqueue($"client {self}: {e.Message}");
                }
            });
            clients[c].Start();
        }
        foreach (var thread in clients)
            thread.Join();
        Assert.That(failures, Is.Empty);
        Assert.That(Server.EventLoopCounters.HandOvers, Is.GreaterThan(0), "reads of the device handed the loop over");

        // The threads those hand-overs started end once they have been idle for a while: the loop is back to one.
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (Server.EventLoopCounters.Threads > 1 && DateTime.UtcNow < deadline)
            Thread.Sleep(100);
        Assert.That(Server.EventLoopCounters.Threads, Is.EqualTo(1), "idle followers ended");
        using var after = ConnectRaw();
        _device.ReadDelay = TimeSpan.FromMilliseconds(2);
        for (int key = 0; key < 20; key++)
            Assert.That(after.Execute("GET", "key:" + key.ToString(CultureInfo.InvariantCulture)), Is.EqualTo(Bulk(Value(key))));
    }
}
