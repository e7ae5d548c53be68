using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;
using System.Threading;
using NUnit.Framework;

namespace Garnet.test.Storage;

/// <summary>
/// Compaction of the storage tier's files (--compaction-freq, --compaction-max-segments, --compaction-type): under
/// ten rounds of overwrites of a live set larger than memory the files come back to the limit and every key keeps
/// its newest value.
/// </summary>
[TestFixture(Tsavorite.CompactionType.Lookup)]
[TestFixture(Tsavorite.CompactionType.Scan)]
public sealed class CompactionServerTests(Tsavorite.CompactionType type) : ServerTestBase
{
    private const long Segment = 256L << 10;
    private const int MaxSegments = 24;

    /// <summary>Only a guard against a hung test; no assertion depends on how long compaction takes.</summary>
    private static readonly TimeSpan HangGuard = TimeSpan.FromSeconds(90);

    protected override TestServerOptions ServerOptions => new()
    {
        MemorySize = 4L << 20,
        PageSize = 16L << 10,
        Databases = 1,
        StorageTier = true,
        SegmentSize = Segment,
        CompactionFrequencySecs = 1,
        CompactionMaxSegments = MaxSegments,
        CompactionType = type,
    };

    private int LogFiles() => Directory.GetFiles(LogDirectory!, "hlog.*", SearchOption.AllDirectories).Length;

    [Test]
    public void OverwritesOfALiveSetLargerThanMemoryKeepTheFilesBounded()
    {
        using var client = ConnectRaw();
        const int Keys = 20_000;
        var model = new Dictionary<int, string>();
        var random = new Random(23);
        // About 8 MB live (twice the memory), written ten times over.
        for (int round = 0; round < 10; round++)
        {
            for (int start = 0; start < Keys; start += 500)
            {
                var batch = new StringBuilder();
                for (int k = start; k < start + 500; k++)
                {
                    if (random.Next(3) != 0 && round > 0)
                        continue; // a third of the keys each round: the rest stay where they were, older and older
                    string value = round.ToString(CultureInfo.InvariantCulture) + ":" + new string((char)('a' + (k % 26)), random.Next(100, 700));
                    model[k] = value;
                    batch.Append(RawClient.Encode("SET", "key:" + k.ToString(CultureInfo.InvariantCulture), value));
                }
                if (batch.Length == 0)
                    continue;
                client.SendRaw(batch.ToString());
                string text = batch.ToString();
                int count = 0;
                for (int i = text.IndexOf("*3\r\n", StringComparison.Ordinal); i >= 0; i = text.IndexOf("*3\r\n", i + 4, StringComparison.Ordinal))
                    count++;
                for (int i = 0; i < count; i++)
                    Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
            }
        }

        // Compaction runs every second: the files come back to the limit (the memory's pages are in files too).
        int limit = MaxSegments + 2;
        Assert.That(SpinWait.SpinUntil(() => LogFiles() <= limit, HangGuard), Is.True, $"files: {LogFiles()}");
        var info = Garnet.test.Server.ReplyText.InfoFields(client.Execute("INFO", "memory"));
        Assert.That(long.Parse(info["log_compactions"], CultureInfo.InvariantCulture), Is.GreaterThan(0));
        Assert.That(long.Parse(info["log_records_compacted"], CultureInfo.InvariantCulture), Is.GreaterThan(0), "live records were kept");
        Assert.That(info["log_compaction_failures"], Is.EqualTo("0"));
        foreach (var (key, value) in model)
            Assert.That(client.Execute("GET", "key:" + key.ToString(CultureInfo.InvariantCulture)), Is.EqualTo($"${value.Length}\r\n{value}\r\n"), "key " + key);
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo($":{Keys}\r\n"));
    }
}
