using System;
using System.IO;
using Garnet.server;
using NUnit.Framework;
using static Garnet.test.Host.OptionsParserTests;

namespace Garnet.test.Host;

/// <summary>
/// CONFIG REWRITE of the file the server started from (JSON and redis.conf), CONFIG parameters at start, and the
/// host options' Redis names.
/// </summary>
[TestFixture]
public sealed class ConfigRewriteTests
{
    private string _directory = null!;

    [SetUp]
    public void CreateDirectory()
    {
        _directory = Path.Combine(Path.GetTempPath(), "garnet-rewrite-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_directory);
    }

    [TearDown]
    public void DeleteDirectory() => Directory.Delete(_directory, recursive: true);

    private string Write(string name, string text)
    {
        string path = Path.Combine(_directory, name);
        File.WriteAllText(path, text);
        return path;
    }

    private static GarnetServer Start(params string[] args)
    {
        var server = new GarnetServer(Settings([.. args, "--port", "0", "--memory", "16m", "--page", "1m", "--quiet"]).Server);
        server.Start();
        return server;
    }

    private static string Get(RawClient client, string name) => Garnet.test.Server.ConfigTests.ConfigGet(client, name)[name];

    [Test]
    public void JsonRoundTripKeepsTheRestOfTheFile()
    {
        string path = Write("garnet.json", """
            {
              // settings of this instance
              "MaxMemoryPolicy": "allkeys-lru",
              "slowlog-max-len": 64,
              "hz": "15",
              "Password": "old",
              "databases": 4,
            }
            """);
        using (var server = Start("--config-import-path", path))
        {
            using var client = new RawClient(server.Port);
            Assert.That(client.Execute("AUTH", "old"), Is.EqualTo("+OK\r\n"));
            Assert.That(Get(client, "slowlog-max-len"), Is.EqualTo("64"));
            Assert.That(Get(client, "hz"), Is.EqualTo("15"));
            Assert.That(client.Execute("CONFIG", "SET", "maxmemory-policy", "allkeys-lfu", "slowlog-max-len", "32", "activedefrag", "yes",
                "requirepass", "new", "hash-max-listpack-entries", "99"), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("CONFIG", "REWRITE"), Is.EqualTo("+OK\r\n"));
        }
        string text = File.ReadAllText(path);
        Assert.That(text, Does.Contain("// settings of this instance"));
        Assert.That(text, Does.Contain("\"MaxMemoryPolicy\": \"allkeys-lfu\""), "an option is updated under the name the file gives it");
        Assert.That(text, Does.Contain("\"Password\": \"new\""));
        Assert.That(text, Does.Contain("\"hz\": \"15\""), "an unchanged value is left as written");
        Assert.That(text, Does.Contain("\"databases\": 4"));
        Assert.That(text, Does.Contain("\"activedefrag\": \"yes\"").And.Contain("\"hash-max-listpack-entries\": \"99\""));
        Assert.That(Directory.GetFiles(_directory), Has.Length.EqualTo(1), "no temporary file is left");

        using (var server = Start("--config-import-path", path))
        {
            using var client = new RawClient(server.Port);
            Assert.That(client.Execute("AUTH", "new"), Is.EqualTo("+OK\r\n"));
            Assert.That(Get(client, "maxmemory-policy"), Is.EqualTo("allkeys-lfu"));
            Assert.That(Get(client, "slowlog-max-len"), Is.EqualTo("32"));
            Assert.That(Get(client, "activedefrag"), Is.EqualTo("yes"));
            Assert.That(Get(client, "hash-max-listpack-entries"), Is.EqualTo("99"));
            Assert.That(Get(client, "databases"), Is.EqualTo("4"));
        }
    }

    [Test]
    public void RedisConfRoundTripAsTheFirstArgument()
    {
        string path = Write("redis.conf", """
            # Redis configuration
            save 3600 1
            save 300 100
            slave-serve-stale-data yes
            maxmemory 64mb
            appendonly no
            appendfsync everysec
            daemonize no
            dir "./"
            client-output-buffer-limit pubsub 32mb 8mb 60

            """);
        Assert.That(Settings(path).Server.ConfigFile, Is.EqualTo(Path.GetFullPath(path)));
        using (var server = Start(path))
        {
            using var client = new RawClient(server.Port);
            Assert.That(Get(client, "save"), Is.EqualTo("3600 1 300 100"));
            Assert.That(Get(client, "appendfsync"), Is.EqualTo("everysec"));
            Assert.That(Get(client, "maxmemory"), Is.EqualTo((64L << 20).ToString()));
            Assert.That(client.Execute("CONFIG", "SET", "save", "900 1", "replica-serve-stale-data", "no", "maxmemory", "32mb",
                "proc-title-template", "{title} x y", "hz", "25"), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("CONFIG", "REWRITE"), Is.EqualTo("+OK\r\n"));
        }
        string[] lines = File.ReadAllLines(path);
        Assert.That(lines[0], Is.EqualTo("# Redis configuration"));
        Assert.That(lines, Does.Contain("save 900 1"));
        Assert.That(lines, Does.Not.Contain("save 300 100"), "a parameter's other lines go");
        Assert.That(lines, Does.Contain("slave-serve-stale-data no"), "updated under the name the file uses");
        Assert.That(lines, Does.Contain("maxmemory 33554432"));
        Assert.That(lines, Does.Contain("daemonize no").And.Contain("dir \"./\"").And.Contain("appendfsync everysec"));
        Assert.That(lines, Does.Contain("# Generated by CONFIG REWRITE").And.Contain("proc-title-template \"{title} x y\"").And.Contain("hz 25"));

        using (var server = Start(path))
        {
            using var client = new RawClient(server.Port);
            Assert.That(Get(client, "save"), Is.EqualTo("900 1"));
            Assert.That(Get(client, "replica-serve-stale-data"), Is.EqualTo("no"));
            Assert.That(Get(client, "proc-title-template"), Is.EqualTo("{title} x y"));
            Assert.That(Get(client, "hz"), Is.EqualTo("25"));
            Assert.That(Get(client, "maxmemory"), Is.EqualTo((32L << 20).ToString()));
        }
    }

    [Test]
    public void RewriteWithoutAFileFailsAsRedis()
    {
        using var server = Start();
        using var client = new RawClient(server.Port);
        Assert.That(client.Execute("CONFIG", "REWRITE"), Is.EqualTo("-ERR The server is running without a config file\r\n"));
    }

    [Test]
    public void EmbeddersGiveTheFileAndParametersInServerOptions()
    {
        string path = Write("embedded.conf", "hz 12\n");
        var options = HostTestHelpers.SmallSettings(0).Server;
        options.ConfigFile = path;
        options.ConfigParameters["hz"] = "12";
        options.ConfigParameters["tcp-backlog"] = "100";
        using (var server = new GarnetServer(options))
        {
            server.Start();
            using var client = new RawClient(server.Port);
            Assert.That(Get(client, "tcp-backlog"), Is.EqualTo("100"));
            Assert.That(client.Execute("CONFIG", "SET", "hz", "13"), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("CONFIG", "REWRITE"), Is.EqualTo("+OK\r\n"));
        }
        Assert.That(File.ReadAllText(path), Is.EqualTo("hz 13\n"));
        var bad = HostTestHelpers.SmallSettings(0).Server;
        bad.ConfigParameters["hz"] = "fast";
        Assert.That(() => new GarnetServer(bad), Throws.ArgumentException.With.Message.Contains("argument couldn't be parsed into an integer"));
    }

    [Test]
    public void RedisNamesOfHostOptions()
    {
        HostSettings settings = Settings("--appendonly", "yes", "--appendfsync", "no", "--dir", "/tmp/d", "--busy-reply-threshold", "77",
            "--requirepass", "pw", "--maxmemory", "64mb", "--aclfile", "/tmp/users.acl", "--auth", "ACL");
        Assert.Multiple(() =>
        {
            Assert.That(settings.Server.EnableAof, Is.True);
            Assert.That(settings.Server.AofCommitFrequencyMs, Is.EqualTo(-1));
            Assert.That(settings.Server.CheckpointDir, Is.EqualTo("/tmp/d"));
            Assert.That(settings.Server.LuaTimeLimitMilliseconds, Is.EqualTo(77));
            Assert.That(settings.Server.Password, Is.EqualTo("pw"));
            Assert.That(settings.Server.MaxMemory, Is.EqualTo(64L << 20));
        });
        Assert.That(Settings("--appendfsync", "everysec").Server.AofCommitFrequencyMs, Is.EqualTo(1000), "kept while the AOF is off, as Redis");
        Assert.That(Error("--appendfsync", "sometimes"), Does.Contain("--appendfsync: 'sometimes' is not one of always, everysec, no"));
        Assert.That(Error("--aof", "--appendonly", "no"), Does.Contain("same option"));
        Assert.That(Error("--dir", "/a", "--checkpointdir", "/b"), Does.Contain("same option"));

        string json = Write("names.json", """{ "appendonly": "yes", "dir": "/tmp/j", "busy-reply-threshold": 9, "slowlog-log-slower-than": 5 }""");
        settings = Settings("--config-import-path", json);
        Assert.That(settings.Server.EnableAof, Is.True);
        Assert.That(settings.Server.CheckpointDir, Is.EqualTo("/tmp/j"));
        Assert.That(settings.Server.LuaTimeLimitMilliseconds, Is.EqualTo(9));
        Assert.That(settings.Server.ConfigParameters["slowlog-log-slower-than"], Is.EqualTo("5"));
    }

    [Test]
    public void ConfigParametersOnTheCommandLine()
    {
        HostSettings settings = Settings("--hz", "20", "--oom-score-adj-values", "0", "100", "200", "--port", "7001");
        Assert.That(settings.Server.ConfigParameters["hz"], Is.EqualTo("20"));
        Assert.That(settings.Server.ConfigParameters["oom-score-adj-values"], Is.EqualTo("0 100 200"));
        Assert.That(settings.Server.Port, Is.EqualTo(7001));
        Assert.That(Error("--hz", "fast"), Does.Contain("--hz: 'fast': argument couldn't be parsed into an integer"));
        Assert.That(Error("--hz"), Does.Contain("--hz needs a value"));
        Assert.That(Error("--port", "0", "--cluster-enabled", "yes"), Does.Contain("can't set immutable config"));
        string conf = Write("bad.conf", "hz 10\nnot-a-thing 1\n");
        Assert.That(Error(conf), Does.Contain("bad.conf:2: Bad directive or wrong number of arguments"));
        Assert.That(Error(Write("include.conf", "include other.conf\n")), Does.Contain("include is not supported"));
        Assert.That(Error(conf, "--config-import-path", conf), Does.Contain("both name a configuration file"));
    }
}
