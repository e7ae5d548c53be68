using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;
using NUnit.Framework;

namespace Garnet.test.Storage;

/// <summary>
/// The log kept in two directories (--storage-tiers): the first keeps only the newest part of the log, the second all
/// of it; a data set four times the memory reads back whole, the old records from the second directory.
/// </summary>
[TestFixture]
public sealed class StorageTiersServerTests : ServerTestBase
{
    private const long Memory = 4L << 20;
    private const long Segment = 256L << 10;
    private const long FastTierBytes = 4 * Segment;

    protected override TestServerOptions ServerOptions => new()
    {
        MemorySize = Memory,
        PageSize = 16L << 10,
        MaxMemory = Memory,
        Databases = 1,
        StorageTier = true,
        SegmentSize = Segment,
        LogTierCapacities = new[] { FastTierBytes, -1L },
    };

    private string[] LogFiles(int tier) => Directory.GetFiles(Path.Combine(LogDirectory!, "tier" + tier), "hlog.*", SearchOption.AllDirectories);

    [Test]
    public void TheFastTierKeepsTheNewestSegmentsAndEveryKeyReadsBack()
    {
        using var client = ConnectRaw();
        var model = new Dictionary<string, string>();
        var random = new Random(5);
        long written = 0;
        for (int next = 0; written < 4 * Memory; next += 200)
        {
            var batch = new StringBuilder();
            for (int i = next; i < next + 200; i++)
            {
                string key = "key:" + i.ToString(CultureInfo.InvariantCulture);
                string value = i.ToString(CultureInfo.InvariantCulture) + new string((char)('a' + (i % 26)), random.Next(10, 600));
                model[key] = value;
                written += key.Length + value.Length + 32;
                batch.Append(RawClient.Encode("SET", key, value));
            }
            client.SendRaw(batch.ToString());
            for (int i = 0; i < 200; i++)
                Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
        }

        // Both directories received the log; the fast one deleted its oldest files past its capacity.
        int fast = LogFiles(0).Length, slow = LogFiles(1).Length;
        Assert.That(slow, Is.GreaterThanOrEqualTo(12), "the slow tier keeps every segment written (the log is 16 MB)");
        Assert.That(fast, Is.LessThanOrEqualTo((int)(FastTierBytes / Segment) + 1), $"fast tier files: {fast}, slow: {slow}");
        Assert.That(fast, Is.GreaterThan(0));

        // The oldest keys are only in the slow tier now; every key reads back exactly.
        foreach (var (key, value) in model)
            Assert.That(client.Execute("GET", key), Is.EqualTo($"${value.Length}\r\n{value}\r\n"), key);
        var info = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(long.Parse(info["log_pending_reads"], CultureInfo.InvariantCulture), Is.GreaterThan(0));
        Assert.That(info.GetValueOrDefault("log_device_read_errors", "0"), Is.EqualTo("0"));
    }
}
