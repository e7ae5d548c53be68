using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using System.Threading;
using Garnet.networking;
using NUnit.Framework;
using Tsavorite;

namespace Garnet.test.Storage;

/// <summary>
/// Connections served on thread-pool threads (asynchronous sockets here; TLS takes the same path) wait for their own
/// device reads on the thread running their batch. With many such reads stuck in a slow device at once, every one of
/// them still reaches the device and other clients are still served: each waiting thread raises the pool's minimum, so
/// the pool starts threads for the others at once instead of adding one about every half second.
/// </summary>
[TestFixture]
public sealed class PoolThreadDiskReadTests : ServerTestBase
{
    private const long Memory = 4L << 20;

    /// <summary>More clients stuck in the device than the pool starts threads for at once (its minimum is the core count).</summary>
    private static readonly int StuckClients = Environment.ProcessorCount * 4 + 16;

    private GatedDevice? _device;

    protected override TestServerOptions ServerOptions => new()
    {
        MemorySize = Memory,
        PageSize = 16L << 10,
        MaxMemory = Memory,
        Databases = 1,
        StorageTier = true,
        SocketIo = SocketIoModel.AsyncEventArgs,
        LogDeviceFactory = (path, segment) => _device = new GatedDevice(new LocalFileDevice(path, segment, deleteOnClose: true)),
    };

    /// <summary>Runs before the base class stops the server: reads still stuck in the device must end first.</summary>
    [TearDown]
    public void OpenTheGate() => _device?.Open();

    private static string Value(int key) => key.ToString(CultureInfo.InvariantCulture) + new string('v', 300);

    private static string Bulk(string value) => $"${value.Length}\r\n{value}\r\n";

    [Test]
    public void ManyClientsStuckInTheDeviceHoldUpNobodyElse()
    {
        int keys = 0;
        using (var setup = ConnectRaw())
        {
            // Four times the memory, so the first keys are on the device.
            for (long written = 0; written < 4 * Memory; written += 200 * 340)
            {
                var batch = new StringBuilder();
                for (int i = 0; i < 200; i++, keys++)
                    batch.Append(RawClient.Encode("SET", "key:" + keys.ToString(CultureInfo.InvariantCulture), Value(keys)));
                setup.SendRaw(batch.ToString());
                for (int i = 0; i < 200; i++)
                    Assert.That(setup.ReadReply(), Is.EqualTo("+OK\r\n"));
            }
            // Reads as slow as a disk's: the pool is asked for threads only for slow reads.
            _device!.ReadDelay = TimeSpan.FromMilliseconds(2);
            for (int key = 0; key < 8; key++)
                Assert.That(setup.Execute("GET", "key:" + key.ToString(CultureInfo.InvariantCulture)), Is.EqualTo(Bulk(Value(key))));
            _device.ReadDelay = TimeSpan.Zero;
        }

        var device = _device!;
        var stuck = new List<RawClient>();
        var other = ConnectRaw();
        try
        {
            for (int c = 0; c < StuckClients; c++)
                stuck.Add(ConnectRaw());
            device.Close();
            for (int c = 0; c < StuckClients; c++)
                stuck[c].SendRaw(RawClient.Encode("GET", "key:" + (10 + c).ToString(CultureInfo.InvariantCulture)));
            // Each client's batch reaches the device on a thread of its own at once (measured: 19 ms for 24 clients);
            // the pool alone adds threads for them about two a second (20 s for those 24).
            var deadline = DateTime.UtcNow.AddSeconds(5);
            for (int c = 0; c < StuckClients; c++)
            {
                var left = deadline - DateTime.UtcNow;
                Assert.That(left > TimeSpan.Zero && device.WaitForAReader(left), Is.True, $"only {c} of {StuckClients} stuck clients reached the device within 5 s");
            }

            // With all of them waiting, another client is served.
            Assert.That(other.Execute("PING"), Is.EqualTo("+PONG\r\n"));
            Assert.That(other.Execute("SET", "fresh", "1"), Is.EqualTo("+OK\r\n"));
            Assert.That(other.Execute("GET", "fresh"), Is.EqualTo(Bulk("1")));

            device.Open();
            for (int c = 0; c < StuckClients; c++)
                Assert.That(stuck[c].ReadReply(), Is.EqualTo(Bulk(Value(10 + c))));
        }
        finally
        {
            device.Open();
            foreach (var client in stuck)
                client.Dispose();
            other.Dispose();
        }
    }
}
