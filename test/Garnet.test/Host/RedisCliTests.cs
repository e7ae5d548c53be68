using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using NUnit.Framework;

namespace Garnet.test.Host;

/// <summary>
/// The real redis-cli against an in-process server. redis-cli must be installed (package
/// redis-tools; .ci/run installs it): without it these tests fail rather than skip, so a CI machine
/// that lost it cannot pass silently.
/// </summary>
[TestFixture]
public sealed class RedisCliTests : ServerTestBase
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    private static string RedisCli
    {
        get
        {
            string? path = ExternalProcess.FindOnPath("redis-cli");
            if (path == null)
                Assert.Fail("redis-cli is not installed: apt-get install -y redis-tools (.ci/run does this)");
            return path!;
        }
    }

    /// <summary>Runs redis-cli against the test server and returns its standard output.</summary>
    private string CliWithInput(string? input, params string[] arguments)
    {
        var all = new List<string> { "-h", "127.0.0.1", "-p", Port.ToString(CultureInfo.InvariantCulture) };
        all.AddRange(arguments);
        using var process = ExternalProcess.Run(RedisCli, all, Timeout, input);
        process.WaitForExit(Timeout);
        Assert.That(process.ExitCode, Is.Zero, $"redis-cli {string.Join(' ', arguments)}: {process.Error}");
        return process.Output;
    }

    private string Cli(params string[] arguments) => CliWithInput(null, arguments);

    [Test]
    public void Ping()
    {
        Assert.That(Cli("PING"), Is.EqualTo("PONG\n"));
        Assert.That(Cli("PING", "hello"), Is.EqualTo("hello\n"));
    }

    [Test]
    public void SetAndGet()
    {
        Assert.That(Cli("SET", "greeting", "hello world"), Is.EqualTo("OK\n"));
        Assert.That(Cli("GET", "greeting"), Is.EqualTo("hello world\n"));
        Assert.That(Cli("GET", "missing"), Is.EqualTo("\n"), "nil prints as an empty line when output is not a terminal");
    }

    [Test]
    public void Incr()
    {
        Assert.That(Cli("INCR", "counter"), Is.EqualTo("1\n"));
        Assert.That(Cli("INCRBY", "counter", "41"), Is.EqualTo("42\n"));
    }

    [Test]
    public void RepeatedCommand()
    {
        string output = Cli("-r", "100", "INCR", "repeated");
        string[] lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.That(lines, Has.Length.EqualTo(100));
        Assert.That(lines[^1], Is.EqualTo("100"));
        using var client = ConnectRaw();
        Assert.That(client.Execute("GET", "repeated"), Is.EqualTo("$3\r\n100\r\n"));
    }

    [Test]
    public void PipeMassInsert()
    {
        const int Count = 5000;
        var input = new StringBuilder();
        for (int i = 0; i < Count; i++)
            input.Append(RawClient.Encode("SET", "key:" + i, "value:" + i));
        string output = CliWithInput(input.ToString(), "--pipe");
        Assert.That(output, Does.Contain($"errors: 0, replies: {Count}"));

        using var client = ConnectRaw();
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo($":{Count}\r\n"));
        Assert.That(client.Execute("GET", "key:4321"), Is.EqualTo("$10\r\nvalue:4321\r\n"));
    }

    [Test]
    public void ErrorReply()
    {
        Assert.That(Cli("SET", "text", "abc"), Is.EqualTo("OK\n"));
        Assert.That(Cli("INCR", "text"), Does.StartWith("ERR value is not an integer or out of range\n"));
        Assert.That(Cli("NOSUCHCOMMAND"), Does.StartWith("ERR unknown command 'NOSUCHCOMMAND'"));
    }
}
