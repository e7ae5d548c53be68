using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>
/// INFO errorstats, total_error_replies and failed_calls for errors passed through scripts (counted once, where they
/// arose, as Redis 7.2 counts them), and error counting from many clients at once.
/// </summary>
[TestFixture]
public sealed class ErrorStatisticsTests : ServerTestBase
{
    private static Dictionary<string, string> Fields(RawClient client, string section)
        => ReplyText.InfoFields(client.Execute("INFO", section));

    private static Dictionary<string, long> CommandStat(RawClient client, string command)
        => Fields(client, "commandstats")["cmdstat_" + command].Split(',').Select(p => p.Split('='))
            .ToDictionary(p => p[0], p => (long)double.Parse(p[1], System.Globalization.CultureInfo.InvariantCulture));

    private static long TotalErrors(RawClient client) => long.Parse(Fields(client, "stats")["total_error_replies"]);

    [Test]
    public void ARedisCallErrorRaisedByTheScriptCountsOnce()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "x");
        client.Execute("CONFIG", "RESETSTAT");
        Assert.That(client.Execute("EVAL", "return redis.call('INCR', KEYS[1])", "1", "s"), Does.StartWith("-ERR value is not an integer or out of range"));
        Assert.That(Fields(client, "errorstats")["errorstat_ERR"], Is.EqualTo("count=1"));
        Assert.That(TotalErrors(client), Is.EqualTo(1));
        Assert.That(CommandStat(client, "incr")["failed_calls"], Is.EqualTo(1));
        Assert.That(CommandStat(client, "eval")["failed_calls"], Is.EqualTo(1), "the script failed too, as in Redis");
    }

    [Test]
    public void APcallErrorReturnedOrCaughtCountsOnce()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a");
        client.Execute("CONFIG", "RESETSTAT");

        // Caught: the script succeeds.
        Assert.That(client.Execute("EVAL", "redis.pcall('GET', KEYS[1]) return 1", "1", "l"), Is.EqualTo(":1\r\n"));
        Assert.That(Fields(client, "errorstats")["errorstat_WRONGTYPE"], Is.EqualTo("count=1"));
        Assert.That(CommandStat(client, "eval")["failed_calls"], Is.EqualTo(0));

        // Returned (alone or in an array): the reply carries it, counted already.
        Assert.That(client.Execute("EVAL", "return redis.pcall('GET', KEYS[1])", "1", "l"), Does.StartWith("-WRONGTYPE"));
        Assert.That(client.Execute("EVAL", "return {1, redis.pcall('GET', KEYS[1])}", "1", "l"), Does.StartWith("*2\r\n:1\r\n-WRONGTYPE"));
        Assert.That(Fields(client, "errorstats")["errorstat_WRONGTYPE"], Is.EqualTo("count=3"));
        Assert.That(TotalErrors(client), Is.EqualTo(3));
        Assert.That(CommandStat(client, "get")["failed_calls"], Is.EqualTo(3));
        Assert.That(CommandStat(client, "eval")["failed_calls"], Is.EqualTo(2));
    }

    [Test]
    public void AScriptsOwnErrorsCountAsUsual()
    {
        using var client = ConnectRaw();
        client.Execute("CONFIG", "RESETSTAT");
        Assert.That(client.Execute("EVAL", "return redis.error_reply('MYCODE went wrong')", "0"), Is.EqualTo("-MYCODE went wrong\r\n"));
        Assert.That(client.Execute("EVAL", "return {err='OTHER bad'}", "0"), Is.EqualTo("-OTHER bad\r\n"));
        Assert.That(client.Execute("EVAL", "error('boom')", "0"), Does.StartWith("-ERR user_script:1: boom"));
        // A table that only looks like a command's error is the script's own.
        Assert.That(client.Execute("EVAL", "return {err='FAKE x', ignore_error_stats_update=false}", "0"), Is.EqualTo("-FAKE x\r\n"));
        var errors = Fields(client, "errorstats");
        Assert.That(errors["errorstat_MYCODE"], Is.EqualTo("count=1"));
        Assert.That(errors["errorstat_OTHER"], Is.EqualTo("count=1"));
        Assert.That(errors["errorstat_ERR"], Is.EqualTo("count=1"));
        Assert.That(errors["errorstat_FAKE"], Is.EqualTo("count=1"));
        Assert.That(TotalErrors(client), Is.EqualTo(4));
        Assert.That(CommandStat(client, "eval")["failed_calls"], Is.EqualTo(4));
    }

    [Test]
    public void ErrorsFromManyClientsAreAllCountedUnderTheirCodes()
    {
        // More codes than the table keeps (128), first seen in any order: each kept code has every one of its errors,
        // the rest count only in the total.
        const int Clients = 8, PerClient = 1000, Codes = 400; // odd j: 200 codes
        using (var setup = ConnectRaw())
        {
            setup.Execute("RPUSH", "l", "a");
            setup.Execute("CONFIG", "RESETSTAT");
        }
        var expected = new Dictionary<string, long> { ["WRONGTYPE"] = Clients * PerClient / 2 };
        for (int i = 0; i < Clients; i++)
        {
            for (int j = 1; j < PerClient; j += 2)
            {
                string code = "C" + ((i * PerClient) + j) % Codes;
                expected[code] = expected.GetValueOrDefault(code) + 1;
            }
        }
        Parallel.For(0, Clients, i =>
        {
            using var client = ConnectRaw();
            var commands = new List<string[]>();
            for (int j = 0; j < PerClient; j++)
                commands.Add(j % 2 == 0 ? ["GET", "l"] : ["EVAL", "return redis.error_reply(ARGV[1])", "0", $"C{((i * PerClient) + j) % Codes} x"]);
            foreach (string reply in client.Pipeline(commands.ToArray()))
                Assert.That(reply, Does.StartWith("-"));
        });
        using var observer = ConnectRaw();
        Assert.That(TotalErrors(observer), Is.EqualTo(Clients * PerClient));
        var errors = Fields(observer, "errorstats");
        Assert.That(errors.Count, Is.EqualTo(128));
        foreach (var (field, value) in errors)
        {
            string code = field.Substring("errorstat_".Length);
            Assert.That(value, Is.EqualTo($"count={expected[code]}"), code);
        }
    }
}
