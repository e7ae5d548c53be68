using System;
using System.IO;
using Microsoft.Extensions.Logging;
using NUnit.Framework;
using static Garnet.test.Host.OptionsParserTests;

namespace Garnet.test.Host;

/// <summary>--config-import-path: both key styles, layering under the command line, and bad files.</summary>
[TestFixture]
public sealed class ConfigFileTests
{
    private string _directory = null!;

    [SetUp]
    public void CreateDirectory()
    {
        _directory = Path.Combine(Path.GetTempPath(), "garnet-config-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_directory);
    }

    [TearDown]
    public void DeleteDirectory() => Directory.Delete(_directory, recursive: true);

    private string Write(string json)
    {
        string path = Path.Combine(_directory, Guid.NewGuid().ToString("N") + ".json");
        File.WriteAllText(path, json);
        return path;
    }

    [Test]
    public void GarnetPropertyNames()
    {
        string path = Write("""
            {
              "Port": 7000,
              "Address": "0.0.0.0",
              "MemorySize": "2g",
              "PageSize": "16m",
              "IndexSize": "64m",
              "IndexMaxMemorySize": "512m",
              "Databases": 4,
              "LogDir": "/tmp/l",
              "CheckpointDir": "/tmp/c",
              "LogLevel": "Error",
              "QuietMode": true,
              "ThreadPoolMinThreads": 4,
              "ThreadPoolMaxThreads": 32,
              "UnixSocketPath": "/tmp/s.sock",
              "Password": "pw",
              "EnableDebugCommand": "yes",
              "ExpiredKeyDeletionScanFrequencySecs": 9,
              "NetworkBufferSize": "256k"
            }
            """);
        HostSettings settings = Settings("--config-import-path", path);
        Assert.Multiple(() =>
        {
            Assert.That(settings.Server.Port, Is.EqualTo(7000));
            Assert.That(settings.Server.Address, Is.EqualTo("0.0.0.0"));
            Assert.That(settings.Server.MemorySize, Is.EqualTo(2L << 30));
            Assert.That(settings.Server.PageSize, Is.EqualTo(16L << 20));
            Assert.That(settings.Server.IndexSize, Is.EqualTo(64L << 20));
            Assert.That(settings.Server.IndexMaxSize, Is.EqualTo(512L << 20));
            Assert.That(settings.Server.Databases, Is.EqualTo(4));
            Assert.That(settings.Server.LogDir, Is.EqualTo("/tmp/l"));
            Assert.That(settings.Server.CheckpointDir, Is.EqualTo("/tmp/c"));
            Assert.That(settings.LogLevel, Is.EqualTo(LogLevel.Error));
            Assert.That(settings.Quiet, Is.True);
            Assert.That(settings.MinThreads, Is.EqualTo(4));
            Assert.That(settings.MaxThreads, Is.EqualTo(32));
            Assert.That(settings.Server.UnixSocketPath, Is.EqualTo("/tmp/s.sock"));
            Assert.That(settings.Server.Password, Is.EqualTo("pw"));
            Assert.That(settings.Server.EnableDebugCommand, Is.True);
            Assert.That(settings.Server.ExpiredKeyDeletionScanFrequencySecs, Is.EqualTo(9));
            Assert.That(settings.Server.NetworkBufferSize, Is.EqualTo(256 << 10));
        });
    }

    [Test]
    public void LongOptionNames()
    {
        string path = Write("""
            {
              "port": 7001, "bind": "localhost", "memory": "1g", "page": "8m", "index": "1m", "index-max-size": "2m",
              "databases": 2, "logger-level": "Debug", "quiet": false, "password": "x",
              "enable-debug-command": "local", "expired-key-deletion-scan-freq": 0, "network-buffer": 4096,
              "minthreads": 2, "maxthreads": 16, "unixsocket": "/tmp/u.sock", "logdir": "/tmp/l2", "checkpointdir": "/tmp/c2"
            }
            """);
        HostSettings settings = Settings("--config-import-path", path);
        Assert.Multiple(() =>
        {
            Assert.That(settings.Server.Port, Is.EqualTo(7001));
            Assert.That(settings.Server.Address, Is.EqualTo("127.0.0.1"));
            Assert.That(settings.Server.MemorySize, Is.EqualTo(1L << 30));
            Assert.That(settings.Server.PageSize, Is.EqualTo(8L << 20));
            Assert.That(settings.Server.IndexSize, Is.EqualTo(1L << 20));
            Assert.That(settings.Server.IndexMaxSize, Is.EqualTo(2L << 20));
            Assert.That(settings.Server.Databases, Is.EqualTo(2));
            Assert.That(settings.LogLevel, Is.EqualTo(LogLevel.Debug));
            Assert.That(settings.Quiet, Is.False);
            Assert.That(settings.Server.Password, Is.EqualTo("x"));
            Assert.That(settings.Server.EnableDebugCommand, Is.True, "local on loopback");
            Assert.That(settings.Server.ExpiredKeyDeletionScanFrequencySecs, Is.Zero);
            Assert.That(settings.Server.NetworkBufferSize, Is.EqualTo(4096));
            Assert.That(settings.MinThreads, Is.EqualTo(2));
            Assert.That(settings.MaxThreads, Is.EqualTo(16));
            Assert.That(settings.Server.UnixSocketPath, Is.EqualTo("/tmp/u.sock"));
            Assert.That(settings.Server.LogDir, Is.EqualTo("/tmp/l2"));
            Assert.That(settings.Server.CheckpointDir, Is.EqualTo("/tmp/c2"));
        });
    }

    [Test]
    public void KeysIgnoreCaseAndNullMeansUnset()
    {
        string path = Write("""{ "PORT": 7002, "memorysize": "4g", "LogDir": null, "MaxDatabases": 8 }""");
        HostSettings settings = Settings("--config-import-path", path);
        Assert.That(settings.Server.Port, Is.EqualTo(7002));
        Assert.That(settings.Server.MemorySize, Is.EqualTo(4L << 30));
        Assert.That(settings.Server.LogDir, Is.Null);
        Assert.That(settings.Server.Databases, Is.EqualTo(8));
    }

    [Test]
    public void CommentsAndTrailingCommasAreAllowed()
    {
        string path = Write("""
            {
              /* Garnet's config files carry comments. */
              "Port": 7003, // and trailing commas
            }
            """);
        Assert.That(Settings("--config-import-path", path).Server.Port, Is.EqualTo(7003));
    }

    [Test]
    public void CommandLineOverridesTheFile()
    {
        string path = Write("""{ "Port": 7000, "MemorySize": "2g", "LogLevel": "Error", "databases": 3 }""");
        HostSettings settings = Settings("--port", "7100", "--config-import-path", path, "--logger-level", "Trace");
        Assert.Multiple(() =>
        {
            Assert.That(settings.Server.Port, Is.EqualTo(7100), "command line wins");
            Assert.That(settings.LogLevel, Is.EqualTo(LogLevel.Trace), "command line wins, whatever its position");
            Assert.That(settings.Server.MemorySize, Is.EqualTo(2L << 30), "file fills what the command line left out");
            Assert.That(settings.Server.Databases, Is.EqualTo(3));
            Assert.That(settings.Server.PageSize, Is.EqualTo(32L << 20), "defaults fill the rest");
        });
    }

    [Test]
    public void FileValuesAreValidatedToo()
    {
        string path = Write("""{ "PageSize": "3m" }""");
        Assert.That(Error("--config-import-path", path), Does.Contain("--page: 3m (3145728 bytes) is not a power of two"));
        // A valid command-line value replaces the bad file value before validation.
        Assert.That(Settings("--config-import-path", path, "--page", "4m").Server.PageSize, Is.EqualTo(4L << 20));
    }

    [Test]
    public void MissingFile()
    {
        string path = Path.Combine(_directory, "absent.json");
        Assert.That(Error("--config-import-path", path), Does.Contain($"file '{path}' does not exist"));
    }

    [TestCase("{ \"Port\": ")]
    [TestCase("not json")]
    [TestCase("")]
    public void MalformedJson(string json)
        => Assert.That(Error("--config-import-path", Write(json)), Does.Contain("is not valid JSON"));

    [Test]
    public void RootMustBeAnObject()
        => Assert.That(Error("--config-import-path", Write("[1, 2]")), Does.Contain("must hold a JSON object"));

    [Test]
    public void UnknownKey()
        => Assert.That(Error("--config-import-path", Write("""{ "Prot": 7000 }""")), Does.Contain("unknown option 'Prot'"));

    [Test]
    public void NestedImportIsNotAnOption()
        => Assert.That(Error("--config-import-path", Write("""{ "config-import-path": "x.json" }""")), Does.Contain("unknown option 'config-import-path'"));

    [TestCase("""{ "Port": [7000] }""", "'Port' must be a string, number or boolean")]
    [TestCase("""{ "QuietMode": 1 }""", "'QuietMode' must be true or false")]
    [TestCase("""{ "Port": "abc" }""", "--port: 'abc' is not a whole number")]
    public void BadValueTypes(string json, string expected)
        => Assert.That(Error("--config-import-path", Write(json)), Does.Contain(expected));
}
