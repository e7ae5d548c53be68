using Garnet.server;
using NUnit.Framework;
using static Garnet.test.Host.OptionsParserTests;

namespace Garnet.test.Host;

/// <summary>The storage tier's options (--storage-tier, --logdir, --storage-tiers, --segment, compaction, --copy-reads-to-tail, --readcache): defaults, values and every kind of bad value.</summary>
[TestFixture]
public sealed class StorageTierOptionsTests
{
    [Test]
    public void WithoutThemTheLogIsACacheWithoutFiles()
    {
        ServerOptions server = Settings().Server;
        Assert.Multiple(() =>
        {
            Assert.That(server.StorageTier, Is.False);
            Assert.That(server.LogDir, Is.Null);
            Assert.That(server.LogTiers, Is.Null);
            Assert.That(server.SegmentSize, Is.EqualTo(1L << 30));
            Assert.That(server.CompactionFrequencySecs, Is.Zero);
            Assert.That(server.CompactionMaxSegments, Is.EqualTo(32));
            Assert.That(server.CompactionType, Is.EqualTo(Tsavorite.CompactionType.None));
            Assert.That(server.CopyReadsToTail, Is.False);
            Assert.That(server.ReadCache, Is.False);
            Assert.That(server.ReadCacheMemorySize, Is.EqualTo(1L << 30));
            Assert.That(server.ReadCachePageSize, Is.EqualTo(1L << 22));
        });
    }

    [Test]
    public void TheReadCacheOptionsSetTheirSettings()
    {
        ServerOptions server = Settings("--storage-tier", "--readcache", "--readcache-memory", "256m", "--readcache-page", "1m").Server;
        Assert.Multiple(() =>
        {
            Assert.That(server.ReadCache, Is.True);
            Assert.That(server.ReadCacheMemorySize, Is.EqualTo(256L << 20));
            Assert.That(server.ReadCachePageSize, Is.EqualTo(1L << 20));
        });
    }

    [Test]
    public void TheStorageTierKeepsItsFilesInTheCurrentDirectoryUnlessToldWhere()
    {
        Assert.That(Settings("--storage-tier").Server.LogDir, Is.EqualTo(System.IO.Directory.GetCurrentDirectory()));
        Assert.That(Settings("--storage-tier", "--logdir", "/tmp/tier").Server.LogDir, Is.EqualTo("/tmp/tier"));
    }

    [Test]
    public void EachOptionSetsItsSetting()
    {
        ServerOptions server = Settings("--storage-tier", "--logdir", "/tmp/tier", "--segment", "64m", "--compaction-freq", "10",
            "--compaction-max-segments", "8", "--compaction-type", "scan", "--copy-reads-to-tail").Server;
        Assert.Multiple(() =>
        {
            Assert.That(server.StorageTier, Is.True);
            Assert.That(server.SegmentSize, Is.EqualTo(64L << 20));
            Assert.That(server.CompactionFrequencySecs, Is.EqualTo(10));
            Assert.That(server.CompactionMaxSegments, Is.EqualTo(8));
            Assert.That(server.CompactionType, Is.EqualTo(Tsavorite.CompactionType.Scan));
            Assert.That(server.CopyReadsToTail, Is.True);
        });
    }

    [Test]
    public void StorageTiersListsTheDirectoriesFastestFirst()
    {
        ServerOptions server = Settings("--storage-tier", "--segment", "64m", "--storage-tiers", "/nvme/g:1g, /ssd/g:256m ,/hdd/g").Server;
        Assert.That(server.LogDir, Is.Null, "the tiers replace --logdir");
        Assert.That(server.LogTiers, Is.EqualTo(new[]
        {
            new LogTier("/nvme/g", 1L << 30),
            new LogTier("/ssd/g", 256L << 20),
            new LogTier("/hdd/g", -1),
        }));
        // What follows the last ':' is a size only when it parses as one.
        Assert.That(Settings("--storage-tier", "--storage-tiers", "/a:b,/c").Server.LogTiers, Is.EqualTo(new[] { new LogTier("/a:b", -1), new LogTier("/c", -1) }));
    }

    [TestCase(new[] { "--segment", "64m" }, "--segment and --compaction-freq with a --compaction-type work on the files of --storage-tier, which is off")]
    [TestCase(new[] { "--compaction-freq", "5", "--compaction-type", "lookup" }, "work on the files of --storage-tier, which is off")]
    [TestCase(new[] { "--copy-reads-to-tail" }, "--copy-reads-to-tail copies what reads find on the disk of --storage-tier, which is off")]
    [TestCase(new[] { "--storage-tiers", "/a:1g,/b" }, "--storage-tiers keeps the log files of --storage-tier, which is off")]
    [TestCase(new[] { "--readcache" }, "--readcache caches what reads find on the disk of --storage-tier, which is off")]
    [TestCase(new[] { "--storage-tier", "--readcache", "--readcache-page", "3m" }, "--readcache-page: 3m (3145728 bytes) is not a power of two")]
    [TestCase(new[] { "--storage-tier", "--readcache", "--readcache-page", "1k" }, "--readcache-page: 1k is out of range")]
    [TestCase(new[] { "--storage-tier", "--readcache", "--readcache-memory", "8m" }, "--readcache-memory: 8m is out of range (16m to any)")] // four pages
    [TestCase(new[] { "--storage-tier", "--readcache", "--readcache-memory", "much" }, "--readcache-memory: 'much' is not a size")]
    [TestCase(new[] { "--storage-tier", "--page", "1m", "--segment", "3m" }, "--segment: 3m (3145728 bytes) is not a power of two")]
    [TestCase(new[] { "--storage-tier", "--segment", "1k" }, "--segment: 1k is out of range (32m to 1t)")] // at least a page
    [TestCase(new[] { "--storage-tier", "--segment", "lots" }, "--segment: 'lots' is not a size")]
    [TestCase(new[] { "--storage-tier", "--compaction-freq", "-1" }, "--compaction-freq: -1 is out of range")]
    [TestCase(new[] { "--storage-tier", "--compaction-freq", "often" }, "--compaction-freq: 'often' is not a whole number")]
    [TestCase(new[] { "--storage-tier", "--compaction-max-segments", "0" }, "--compaction-max-segments: 0 is out of range")]
    [TestCase(new[] { "--storage-tier", "--compaction-type", "Squash" }, "--compaction-type: 'Squash' is not one of None, Shift, Scan, Lookup")]
    [TestCase(new[] { "--storage-tier", "--compaction-type", "7" }, "--compaction-type: '7' is not one of")]
    [TestCase(new[] { "--storage-tier", "--logdir", "/x", "--storage-tiers", "/a:1g,/b" }, "--storage-tiers and --logdir both say where the log files go")]
    [TestCase(new[] { "--storage-tier", "--storage-tiers", "/a" }, "--storage-tiers: give at least two directories")]
    [TestCase(new[] { "--storage-tier", "--segment", "64m", "--storage-tiers", "/a:1g,/b:1g" }, "--storage-tiers: the last directory (/b) keeps everything, so it takes no size")]
    [TestCase(new[] { "--storage-tier", "--segment", "64m", "--storage-tiers", "/a:1g,,/b" }, "--storage-tiers: '/a:1g,,/b' has an empty directory")]
    [TestCase(new[] { "--storage-tier", "--segment", "64m", "--storage-tiers", "/a:100m,/b" }, "--storage-tiers: /a:100m keeps less than two --segment files of 64m")]
    public void BadValuesAreOneLineErrors(string[] args, string expected)
        => Assert.That(Error(args), Does.Contain(expected));
}
