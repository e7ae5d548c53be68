using System.Linq;
using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>LATENCY LATEST/HISTORY/RESET/GRAPH/DOCTOR/HISTOGRAM/HELP, latency-monitor-threshold, latency-tracking and INFO latencystats.</summary>
public class LatencyTests : ServerTestBase
{
    protected override TestServerOptions ServerOptions => new() { EnableDebugCommand = true };

    [Test]
    public void ACommandPastTheThresholdIsASpikeOfTheCommandEvent()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("LATENCY", "LATEST"), Is.EqualTo("*0\r\n"));
        // Off by default: nothing is recorded.
        client.Execute("DEBUG", "SLEEP", "0.06");
        Assert.That(client.Execute("LATENCY", "LATEST"), Is.EqualTo("*0\r\n"));

        // Connected (and its commands' code compiled) before the monitor is on: a threshold well above what any command
        // here takes on a busy machine keeps the spikes to the DEBUG SLEEPs.
        using var redis = Connect();
        var server = redis.GetServer(redis.GetEndPoints()[0]);
        Assert.That(server.LatencyLatest(), Is.Empty);
        Assert.That(client.Execute("CONFIG", "SET", "latency-monitor-threshold", "200"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "latency-monitor-threshold"), Is.EqualTo("*2\r\n$25\r\nlatency-monitor-threshold\r\n$3\r\n200\r\n"));
        client.Execute("SET", "fast", "1");
        client.Execute("DEBUG", "SLEEP", "0.25");

        var latest = server.LatencyLatest();
        Assert.That(latest, Has.Length.EqualTo(1));
        Assert.That(latest[0].EventName, Is.EqualTo("command"));
        Assert.That(latest[0].DurationMilliseconds, Is.GreaterThanOrEqualTo(250));
        Assert.That(latest[0].MaxDurationMilliseconds, Is.EqualTo(latest[0].DurationMilliseconds));
        Assert.That(latest[0].Timestamp, Is.EqualTo(System.DateTime.UtcNow).Within(System.TimeSpan.FromMinutes(1)));

        var history = server.LatencyHistory("command");
        Assert.That(history, Has.Length.EqualTo(1));
        Assert.That(history[0].DurationMilliseconds, Is.EqualTo(latest[0].DurationMilliseconds));

        // A shorter spike later: the all-time high stays.
        client.Execute("DEBUG", "SLEEP", "0.21");
        Assert.That(server.LatencyLatest()[0].MaxDurationMilliseconds, Is.GreaterThanOrEqualTo(250));

        Assert.That(client.Execute("LATENCY", "RESET", "nosuchevent"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("LATENCY", "RESET"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("LATENCY", "LATEST"), Is.EqualTo("*0\r\n"));
        Assert.That(client.Execute("LATENCY", "HISTORY", "command"), Is.EqualTo("*0\r\n"));
    }

    [Test]
    public void ResetNamesEventsAndCountsThoseThatHadSamples()
    {
        using var client = ConnectRaw();
        client.Execute("CONFIG", "SET", "latency-monitor-threshold", "200");
        client.Execute("DEBUG", "SLEEP", "0.21");
        Assert.That(client.Execute("LATENCY", "RESET", "command", "fast-command", "command"), Is.EqualTo(":1\r\n"));
        Assert.That(client.Execute("LATENCY", "RESET"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void GraphAndDoctorDescribeTheSpikes()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("LATENCY", "GRAPH", "command"), Is.EqualTo("-ERR No samples available for event 'command'\r\n"));
        string offReport = ReplyText.Payload(client.Execute("LATENCY", "DOCTOR"));
        Assert.That(offReport, Does.Contain("latency-monitor-threshold is 0"));

        client.Execute("CONFIG", "SET", "latency-monitor-threshold", "200");
        client.Execute("DEBUG", "SLEEP", "0.21");
        string graph = ReplyText.Payload(client.Execute("LATENCY", "GRAPH", "command"));
        var lines = graph.Split('\n');
        Assert.That(lines[0], Does.Match(@"^command - high \d+ ms, low \d+ ms \(all time high \d+ ms\)$"));
        Assert.That(lines[1], Is.EqualTo(new string('-', 80)));
        // One sample: one column, full height, then how long ago ("0s" or "1s", written downwards).
        Assert.That(lines.Skip(2).Take(4), Is.EqualTo(new[] { "#", "|", "|", "|" }));
        Assert.That(lines[7], Does.Match("^[0-9]$"));
        Assert.That(lines[8], Is.EqualTo("s"));

        string report = ReplyText.Payload(client.Execute("LATENCY", "DOCTOR"));
        Assert.That(report, Does.Contain("1. command: 1 spike(s)"));
        Assert.That(report, Does.Contain("SLOWLOG GET"));
    }

    [Test]
    public void HistogramCountsEachCommandInPowerOfTwoBuckets()
    {
        using var client = ConnectRaw();
        client.Execute("CONFIG", "RESETSTAT");
        // CONFIG RESETSTAT itself is timed after the reset.
        string all = client.Execute("LATENCY", "HISTOGRAM");
        Assert.That(all, Does.StartWith("*2\r\n$16\r\nconfig|resetstat\r\n*4\r\n$5\r\ncalls\r\n:1\r\n$14\r\nhistogram_usec\r\n*"));

        client.Execute("CONFIG", "RESETSTAT");
        client.Execute("SET", "a", "b");
        client.Execute("SET", "c", "d");
        client.Execute("GET", "a");
        string set = client.Execute("LATENCY", "HISTOGRAM", "set");
        Assert.That(set, Does.StartWith("*2\r\n$3\r\nset\r\n*4\r\n$5\r\ncalls\r\n:2\r\n$14\r\nhistogram_usec\r\n*"));
        // Cumulative: the last bucket holds every call.
        Assert.That(set, Does.EndWith(":2\r\n"));
        // Unknown names are skipped; commands never timed are left out.
        Assert.That(client.Execute("LATENCY", "HISTOGRAM", "blabla", "zadd"), Is.EqualTo("*0\r\n"));
        string two = client.Execute("LATENCY", "HISTOGRAM", "blabla", "set", "get");
        Assert.That(two, Does.StartWith("*4\r\n$3\r\nset\r\n"));
        Assert.That(two, Does.Contain("$3\r\nget\r\n*4\r\n$5\r\ncalls\r\n:1\r\n"));

        // A container names its subcommands; "parent|sub" one of them.
        client.Execute("CONFIG", "RESETSTAT");
        client.Execute("CLIENT", "ID");
        client.Execute("CLIENT", "INFO");
        string clients = client.Execute("LATENCY", "HISTOGRAM", "client");
        Assert.That(clients, Does.StartWith("*4\r\n$9\r\nclient|id\r\n"));
        Assert.That(clients, Does.Contain("$11\r\nclient|info\r\n"));
        Assert.That(client.Execute("LATENCY", "HISTOGRAM", "CLIENT|ID"), Does.StartWith("*2\r\n$9\r\nclient|id\r\n*4\r\n$5\r\ncalls\r\n:1\r\n"));

        // RESP3: maps.
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("LATENCY", "HISTOGRAM", "client|id"), Does.StartWith("%1\r\n$9\r\nclient|id\r\n%2\r\n$5\r\ncalls\r\n:1\r\n$14\r\nhistogram_usec\r\n%1\r\n:"));
    }

    [Test]
    public void TrackingOffRecordsNoHistograms()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "GET", "latency-tracking"), Is.EqualTo("*2\r\n$16\r\nlatency-tracking\r\n$3\r\nyes\r\n"));
        client.Execute("CONFIG", "SET", "latency-tracking", "no");
        client.Execute("CONFIG", "RESETSTAT");
        client.Execute("SET", "a", "b");
        Assert.That(client.Execute("LATENCY", "HISTOGRAM", "set"), Is.EqualTo("*0\r\n"));
        Assert.That(ReplyText.Payload(client.Execute("INFO", "latencystats")), Is.EqualTo("# Latencystats\r\n"));
        // Calls are still counted.
        Assert.That(ReplyText.Payload(client.Execute("INFO", "commandstats")), Does.Contain("cmdstat_set:calls=1,"));
    }

    [Test]
    public void InfoLatencyStatsReportsTheConfiguredPercentiles()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "GET", "latency-tracking-info-percentiles"), Is.EqualTo("*2\r\n$33\r\nlatency-tracking-info-percentiles\r\n$10\r\n50 99 99.9\r\n"));
        client.Execute("CONFIG", "RESETSTAT");
        client.Execute("SET", "a", "b");
        client.Execute("DEBUG", "SLEEP", "0.01");
        string info = ReplyText.Payload(client.Execute("INFO", "latencystats"));
        Assert.That(info, Does.Match(@"latency_percentiles_usec_set:p50=\d+\.\d{3},p99=\d+\.\d{3},p99\.9=\d+\.\d{3}\r\n"));
        var debug = System.Text.RegularExpressions.Regex.Match(info, @"latency_percentiles_usec_debug:p50=(\d+\.\d{3})");
        Assert.That(debug.Success, Is.True, info);
        // DEBUG SLEEP 0.01 took at least 10 ms; buckets are within about 6%.
        Assert.That(double.Parse(debug.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture), Is.InRange(10_000, 200_000));

        Assert.That(client.Execute("CONFIG", "SET", "latency-tracking-info-percentiles", "0 75.5 100"), Is.EqualTo("+OK\r\n"));
        info = ReplyText.Payload(client.Execute("INFO", "latencystats"));
        Assert.That(info, Does.Match(@"latency_percentiles_usec_set:p0=\d+\.\d{3},p75\.5=\d+\.\d{3},p100=\d+\.\d{3}\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "latency-tracking-info-percentiles", "50 101"),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'latency-tracking-info-percentiles') - Invalid latency-tracking-info-percentiles parameters\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "latency-tracking-info-percentiles", "abc"), Does.StartWith("-ERR CONFIG SET failed"));
        Assert.That(client.Execute("CONFIG", "SET", "latency-tracking-info-percentiles", ""), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "latency-tracking-info-percentiles"), Is.EqualTo("*2\r\n$33\r\nlatency-tracking-info-percentiles\r\n$0\r\n\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "latency-monitor-threshold", "-1"), Does.StartWith("-ERR CONFIG SET failed"));
    }

    [Test]
    public void SubcommandsAreCountedUnderTheirOwnNameInCommandStats()
    {
        using var client = ConnectRaw();
        client.Execute("CONFIG", "RESETSTAT");
        client.Execute("CLIENT", "ID");
        client.Execute("CLIENT", "ID");
        client.Execute("CLIENT", "GETNAME", "extra");
        string stats = ReplyText.Payload(client.Execute("INFO", "commandstats"));
        Assert.That(stats, Does.Contain("cmdstat_client|id:calls=2,"));
        Assert.That(stats, Does.Contain("cmdstat_client|getname:calls=1,"));
        Assert.That(stats, Does.Not.Contain("cmdstat_client:"));
    }

    [Test]
    public void HelpListsTheSubcommandsAndTakesNoArguments()
    {
        using var client = ConnectRaw();
        string help = client.Execute("LATENCY", "HELP");
        Assert.That(help, Does.StartWith("*17\r\n+LATENCY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n"));
        Assert.That(help, Does.Contain("+HISTOGRAM [COMMAND ...]\r\n"));
        Assert.That(client.Execute("LATENCY", "HELP", "xxx"), Is.EqualTo("-ERR wrong number of arguments for 'latency|help' command\r\n"));
        Assert.That(client.Execute("LATENCY", "NOPE"), Does.StartWith("-ERR unknown subcommand 'NOPE'. Try LATENCY HELP."));
        Assert.That(client.Execute("LATENCY"), Is.EqualTo("-ERR wrong number of arguments for 'latency' command\r\n"));
        Assert.That(client.Execute("LATENCY", "HISTORY"), Is.EqualTo("-ERR wrong number of arguments for 'latency|history' command\r\n"));
    }
}
