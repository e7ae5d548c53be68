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

    private static string Value(int key) => DeviceKeys.Value(key);

    private static string Bulk(string value) => DeviceKeys.Bulk(value);

    [Test]
    public void ManyClientsStuckInTheDeviceHoldUpNobodyElse()
    {
        using (var setup = ConnectRaw())
        {
            DeviceKeys.Fill(setup, Memory);
            // Reads as slow as a disk's: the pool is asked for threads only for slow reads.
            _device!.ReadDelay = TimeSpan.FromMilliseconds(2);
            for (int key = 0; key < 8; key++)
                Assert.That(setup.Execute("GET", DeviceKeys.Key(key)), Is.EqualTo(Bulk(Value(key))));
            _device.ReadDelay = TimeSpan.Zero;
        }

        var device = _device!;
        var stuck = new List<RawClient>();
        var other = ConnectRaw();
        try
        {
            for (int c = 0; c < StuckClients; c++)
                stuck.Add(ConnectRaw());
            ThreadPool.GetMinThreads(out int minimumBefore, out _);
            device.Close();
            for (int c = 0; c < StuckClients; c++)
                stuck[c].SendRaw(RawClient.Encode("GET", DeviceKeys.Key(10 + c)));
            // Each thread waiting in the device raised the pool's minimum by one, so every client's batch got a thread at
            // once (19 ms for 24 clients here; the pool alone adds about two threads a second: 20 s). The deadline only
            // guards a hung test; what is checked is the pool's minimum while they wait.
            var deadline = DateTime.UtcNow.AddSeconds(60);
            for (int c = 0; c < StuckClients; c++)
            {
                var left = deadline - DateTime.UtcNow;
                Assert.That(left > TimeSpan.Zero && device.WaitForAReader(left), Is.True, $"only {c} of {StuckClients} stuck clients reached the device");
            }
            ThreadPool.GetMinThreads(out int raised, out _);
            Assert.That(raised, Is.GreaterThanOrEqualTo(minimumBefore + StuckClients), "each waiting thread raised the pool's minimum");

            // With all of them waiting, another client is served.
            Assert.That(other.Execute("PING"), Is.EqualTo("+PONG\r\n"));
            Assert.That(other.Execute("SET", "fresh", "1"), Is.EqualTo("+OK\r\n"));
            Assert.That(other.Execute("GET", "fresh"), Is.EqualTo(Bulk("1")));

            device.Open();
            for (int c = 0; c < StuckClients; c++)
                Assert.That(stuck[c].ReadReply(), Is.EqualTo(Bulk(Value(10 + c))));
            ThreadPool.GetMinThreads(out int after, out _);
            Assert.That(after, Is.EqualTo(minimumBefore), "the minimum went back once the reads were done");
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
