using System;
using System.IO;
using System.Threading;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Extensions;

/// <summary>REGISTERCS and MODULE LOADCS with the playground's SampleModule, from an allow-listed directory.</summary>
[TestFixture]
public sealed class ModuleLoadingTests
{
    private GarnetServer _server = null!;
    private string _allowed = null!;
    private string _module = null!;

    [SetUp]
    public void StartServer()
    {
        _allowed = Path.Combine(Path.GetTempPath(), "garnet-ext-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_allowed);
        _module = Path.Combine(_allowed, "SampleModule.dll");
        File.Copy(BuiltSampleModule(), _module);
        _server = new GarnetServer(new ServerOptions { Address = "127.0.0.1", Port = 0, ExtensionDirectories = [_allowed] });
        _server.Start();
    }

    [TearDown]
    public void StopServer()
    {
        _server.Dispose();
        try
        {
            Directory.Delete(_allowed, recursive: true);
        }
        catch (UnauthorizedAccessException)
        {
            // The loaded assembly may stay mapped on some platforms.
        }
    }

    /// <summary>playground/SampleModule's build output for this test build's configuration and framework.</summary>
    private static string BuiltSampleModule()
    {
        var testDirectory = new DirectoryInfo(TestContext.CurrentContext.TestDirectory);
        string framework = testDirectory.Name, configuration = testDirectory.Parent!.Name;
        var root = testDirectory;
        while (root != null && !File.Exists(Path.Combine(root.FullName, "Garnet.sln")))
            root = root.Parent;
        Assert.That(root, Is.Not.Null, "repository root not found");
        string path = Path.Combine(root!.FullName, "playground", "SampleModule", "bin", configuration, framework, "SampleModule.dll");
        Assert.That(File.Exists(path), Is.True, path + " is not built");
        return path;
    }

    private RawClient Raw() => new(_server.Port);

    [Test]
    public void ModuleLoadCsRegistersTheSampleCommands()
    {
        using var client = Raw();
        Assert.That(client.Execute("RATELIMIT", "k", "2", "100000"), Does.StartWith("-ERR unknown command"));
        Assert.That(client.Execute("MODULE", "LIST"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("MODULE", "LOADCS", _module), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("RATELIMIT", "k", "2", "100000"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("RATELIMIT", "k", "2", "100000"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("RATELIMIT", "k", "2", "100000"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("RATELIMIT", "k", "2"), Is.EqualTo("-ERR wrong number of arguments for 'ratelimit' command\r\n"));
        Assert.That(client.Execute("COMMAND", "INFO", "BANKTRANSFER"), Does.Contain("banktransfer"));

        client.Execute("SET", "a", "100");
        Assert.That(client.Execute("BANKTRANSFER", "a", "b", "30"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("BANKTRANSFER", "a", "b", "300"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("MGET", "a", "b", "banktransfer:calls"), Is.EqualTo("*3\r\n$2\r\n70\r\n$2\r\n30\r\n$1\r\n2\r\n"));

        // The sliding-window limiter object type.
        Assert.That(client.Execute("RLCOUNT", "rl", "100000"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("RLACQUIRE", "rl", "2", "100000"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("RLACQUIRE", "rl", "2", "100000"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("RLACQUIRE", "rl", "2", "100000"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("RLCOUNT", "rl", "100000"), Is.EqualTo(":2\r\n"));
        Assert.That(client.Execute("TYPE", "rl"), Is.EqualTo("+ratelimiter\r\n"));
        Assert.That(client.Execute("RLACQUIRE", "a", "2", "100000"), Does.StartWith("-WRONGTYPE"));

        // Loading the same commands again is refused.
        Assert.That(client.Execute("MODULE", "LOADCS", _module), Does.StartWith("-ERR the command"));

        string list = client.Execute("MODULE", "LIST");
        Assert.That(list, Does.StartWith("*1\r\n*8\r\n$4\r\nname\r\n$12\r\nSampleModule\r\n$3\r\nver\r\n:1\r\n$4\r\npath\r\n"));
        Assert.That(list, Does.EndWith("$4\r\nargs\r\n*0\r\n"));
    }

    [Test]
    public void RegisterCsLoadsToo()
    {
        using var client = Raw();
        Assert.That(client.Execute("REGISTERCS", "SRC", _module), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("RATELIMIT", "k", "1", "100000"), Is.EqualTo(":1\r\n"));
    }

    [Test]
    public void PathsOutsideTheAllowedDirectoriesAreRefused()
    {
        using var client = Raw();
        Assert.That(client.Execute("MODULE", "LOADCS", BuiltSampleModule()), Does.StartWith("-ERR the path"));
        Assert.That(client.Execute("MODULE", "LOADCS", Path.Combine(_allowed, "..", "SampleModule.dll")), Does.StartWith("-ERR the path"));
        Assert.That(client.Execute("REGISTERCS", BuiltSampleModule()), Does.StartWith("-ERR the path"));
        Assert.That(client.Execute("MODULE", "LOADCS", Path.Combine(_allowed, "missing.dll")), Does.StartWith("-ERR no such file"));
        Assert.That(client.Execute("RATELIMIT", "k", "1", "1000"), Does.StartWith("-ERR unknown command"));
    }

    [Test]
    public void LoadingIsOffWithoutAnExtensionDirectory()
    {
        using var plain = new GarnetServer(new ServerOptions { Address = "127.0.0.1", Port = 0 });
        plain.Start();
        using var client = new RawClient(plain.Port);
        Assert.That(client.Execute("MODULE", "LOADCS", _module), Does.StartWith("-ERR loading extensions is disabled"));
    }

    [Test]
    public void BankTransferKeepsTheTotalUnderConcurrentClients()
    {
        using (var setup = Raw())
        {
            Assert.That(setup.Execute("MODULE", "LOADCS", _module), Is.EqualTo("+OK\r\n"));
            setup.Execute("MSET", "x", "500", "y", "500", "z", "500");
        }
        string[] accounts = ["x", "y", "z"];
        int failures = 0;
        var threads = new Thread[3];
        for (int t = 0; t < threads.Length; t++)
        {
            int seed = t;
            threads[t] = new Thread(() =>
            {
                var random = new Random(seed);
                using var client = Raw();
                for (int i = 0; i < 200; i++)
                {
                    int from = random.Next(3);
                    string reply = client.Execute("BANKTRANSFER", accounts[from], accounts[(from + 1 + random.Next(2)) % 3], random.Next(1, 200).ToString());
                    if (reply is not (":1\r\n" or ":0\r\n"))
                        Interlocked.Increment(ref failures);
                }
            });
            threads[t].Start();
        }
        foreach (var thread in threads)
            thread.Join();
        Assert.That(failures, Is.Zero);
        using var check = Raw();
        var parts = check.Execute("MGET", "x", "y", "z").Split("\r\n");
        Assert.That(long.Parse(parts[2]) + long.Parse(parts[4]) + long.Parse(parts[6]), Is.EqualTo(1500));
        Assert.That(check.Execute("GET", "banktransfer:calls"), Is.EqualTo("$3\r\n600\r\n"));
    }
}
