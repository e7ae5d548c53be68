using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Net;
using System.Net.Http;
using System.Net.Sockets;
using System.Threading.Tasks;
using Garnet.server;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using NUnit.Framework;
using static Garnet.test.Host.HostTestHelpers;

namespace Garnet.test.Host;

/// <summary>
/// --metrics-port: the Prometheus endpoint serves INFO's figures and the command latency histograms in the text
/// format, starts and stops with the host, and is not there when the option is off.
/// </summary>
[TestFixture]
public sealed class MetricsTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(15);

    private IHost? _host;
    private HttpClient? _http;
    private int _metricsPort;

    [TearDown]
    public void TearDown()
    {
        _http?.Dispose();
        _host?.Dispose();
    }

    /// <summary>Starts a host serving metrics on a free port; returns the server's port.</summary>
    private async Task<int> StartAsync()
    {
        _metricsPort = FreePort();
        _host = GarnetHost.CreateHost(new HostSettings
        {
            Server = SmallSettings(0).Server,
            LogLevel = Microsoft.Extensions.Logging.LogLevel.None,
            Quiet = true,
            MetricsPort = _metricsPort,
        });
        await _host.StartAsync();
        _http = new HttpClient { Timeout = Timeout };
        return _host.Services.GetRequiredService<GarnetHostedService>().Server!.Port;
    }

    private async Task<PrometheusText> ScrapeAsync()
    {
        using var response = await _http!.GetAsync($"http://127.0.0.1:{_metricsPort}/metrics");
        Assert.That(response.StatusCode, Is.EqualTo(HttpStatusCode.OK));
        Assert.That(response.Content.Headers.ContentType?.MediaType, Is.EqualTo("text/plain"));
        return PrometheusText.Parse(await response.Content.ReadAsStringAsync());
    }

    [Test]
    public async Task CountersAndGaugesReflectTheCommandsRun()
    {
        int port = await StartAsync();
        var before = await ScrapeAsync();
        double commandsBefore = before.Value("garnet_total_commands_processed_total");
        Assert.That(before.Value("garnet_connected_clients"), Is.Zero);

        using var client = new RawClient(port);
        Assert.That(client.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        for (int i = 0; i < 5; i++)
            Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
        Assert.That(client.Execute("GET", "missing"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("SELECT", "2"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SET", "a", "1", "EX", "100"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SET", "b", "2"), Is.EqualTo("+OK\r\n"));

        var after = await ScrapeAsync();
        Assert.Multiple(() =>
        {
            Assert.That(after.TypeOf("garnet_total_commands_processed_total"), Is.EqualTo("counter"));
            Assert.That(after.Value("garnet_total_commands_processed_total") - commandsBefore, Is.EqualTo(10));
            Assert.That(after.Value("garnet_total_connections_received_total"), Is.EqualTo(1));
            Assert.That(after.TypeOf("garnet_connected_clients"), Is.EqualTo("gauge"));
            Assert.That(after.Value("garnet_connected_clients"), Is.EqualTo(1));
            Assert.That(after.Value("garnet_keyspace_hits_total"), Is.EqualTo(5));
            Assert.That(after.Value("garnet_keyspace_misses_total"), Is.EqualTo(1));
            Assert.That(after.Value("garnet_commands_calls_total", "command", "get"), Is.EqualTo(6));
            Assert.That(after.Value("garnet_commands_calls_total", "command", "set"), Is.EqualTo(3));
            Assert.That(after.Contains("garnet_commands_calls_total", "command", "incr"), Is.False, "commands never called are left out");
            Assert.That(after.TypeOf("garnet_keyspace_keys"), Is.EqualTo("gauge"));
            Assert.That(after.Value("garnet_keyspace_keys", "db", "0"), Is.EqualTo(1));
            Assert.That(after.Value("garnet_keyspace_keys", "db", "2"), Is.EqualTo(2));
            Assert.That(after.Value("garnet_keyspace_expires", "db", "2"), Is.EqualTo(1));
            Assert.That(after.Value("garnet_keyspace_avg_ttl_seconds", "db", "2"), Is.InRange(1, 100));
            Assert.That(after.Contains("garnet_keyspace_keys", "db", "1"), Is.False, "empty databases are left out");
            Assert.That(after.Value("garnet_used_memory_bytes"), Is.GreaterThan(0));
            Assert.That(after.Value("garnet_index_buckets"), Is.GreaterThan(0));
            Assert.That(after.Value("garnet_log_tail_address", "db", "2"), Is.GreaterThan(after.Value("garnet_log_begin_address", "db", "2")));
            Assert.That(after.TypeOf("garnet_evicted_keys_total"), Is.EqualTo("counter"));
            Assert.That(after.Value("garnet_evicted_keys_total"), Is.Zero);
            Assert.That(after.Value("garnet_rdb_last_save_timestamp_seconds"), Is.GreaterThan(0));
        });
    }

    [Test]
    public async Task CommandLatencyIsAHistogramPerCommand()
    {
        int port = await StartAsync();
        using var client = new RawClient(port);
        Assert.That(client.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        const int Gets = 20;
        for (int i = 0; i < Gets; i++)
            Assert.That(client.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));

        var scrape = await ScrapeAsync();
        const string Name = "garnet_command_duration_seconds";
        Assert.That(scrape.TypeOf(Name), Is.EqualTo("histogram"));
        Assert.That(scrape.Value(Name + "_count", "command", "get"), Is.GreaterThanOrEqualTo(Gets));
        Assert.That(scrape.Value(Name + "_count", "command", "set"), Is.EqualTo(1));
        Assert.That(scrape.Value(Name + "_sum", "command", "get"), Is.GreaterThan(0));
        Assert.That(scrape.Contains(Name + "_count", "command", "incr"), Is.False, "a command never run has no histogram");

        var buckets = scrape.Samples(Name + "_bucket", "command", "get");
        Assert.That(buckets, Has.Count.GreaterThan(2));
        double previousBound = double.NegativeInfinity, previousCount = 0;
        foreach (var bucket in buckets)
        {
            double bound = bucket.Labels["le"] == "+Inf" ? double.PositiveInfinity : double.Parse(bucket.Labels["le"], System.Globalization.CultureInfo.InvariantCulture);
            Assert.That(bound, Is.GreaterThan(previousBound), "bounds ascend");
            Assert.That(bucket.Value, Is.GreaterThanOrEqualTo(previousCount), "buckets are cumulative");
            previousBound = bound;
            previousCount = bucket.Value;
        }
        Assert.That(buckets[^1].Labels["le"], Is.EqualTo("+Inf"));
        Assert.That(buckets[^1].Value, Is.EqualTo(scrape.Value(Name + "_count", "command", "get")));
    }

    [Test]
    public async Task CountersStayMonotonicAcrossResetStatAndEmptiedDatabasesGo()
    {
        int port = await StartAsync();
        using var client = new RawClient(port);
        for (int i = 0; i < 4; i++)
            Assert.That(client.Execute("INCR", "n"), Is.EqualTo($":{i + 1}\r\n"));
        var before = await ScrapeAsync();
        double commands = before.Value("garnet_total_commands_processed_total");
        Assert.That(before.Value("garnet_commands_calls_total", "command", "incr"), Is.EqualTo(4));
        Assert.That(before.Value("garnet_keyspace_keys", "db", "0"), Is.EqualTo(1));

        Assert.That(client.Execute("CONFIG", "RESETSTAT"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("FLUSHALL"), Is.EqualTo("+OK\r\n"));
        var after = await ScrapeAsync();
        Assert.That(after.Value("garnet_total_commands_processed_total"), Is.GreaterThanOrEqualTo(commands), "a reset is not a drop");
        Assert.That(after.Contains("garnet_commands_calls_total", "command", "incr"), Is.False, "reset to zero calls");
        Assert.That(after.Contains("garnet_keyspace_keys", "db", "0"), Is.False, "the flushed database is gone");

        Assert.That(client.Execute("INCR", "n"), Is.EqualTo(":1\r\n"));
        var again = await ScrapeAsync();
        Assert.That(again.Value("garnet_commands_calls_total", "command", "incr"), Is.EqualTo(5), "counting goes on from before the reset");
    }

    [Test]
    public async Task TheEndpointStopsWithTheHost()
    {
        await StartAsync();
        Assert.That(IsListening(_metricsPort), Is.True);
        await ScrapeAsync();

        await _host!.StopAsync();
        Assert.That(IsListening(_metricsPort), Is.False);
        Assert.That(async () => await _http!.GetStringAsync($"http://127.0.0.1:{_metricsPort}/metrics"), Throws.InstanceOf<HttpRequestException>());
    }

    [Test]
    public async Task WithoutTheOptionNothingListensOrIsMeasured()
    {
        using IHost host = GarnetHost.CreateHost(SmallSettings(0));
        await host.StartAsync();
        var service = host.Services.GetRequiredService<GarnetHostedService>();
        Assert.That(service.Metrics, Is.Null);
        Assert.That(service.Server!.Store.CommandLatency, Is.Null, "sessions time nothing");
        await host.StopAsync();
    }

    [Test]
    public async Task ATakenMetricsPortIsAOneLineStartupError()
    {
        var taken = new TcpListener(IPAddress.Loopback, 0);
        taken.Start();
        try
        {
            int metricsPort = ((IPEndPoint)taken.LocalEndpoint).Port;
            int serverPort = FreePort();
            var error = new StringWriter();
            var settings = new HostSettings { Server = SmallSettings(serverPort).Server, LogLevel = Microsoft.Extensions.Logging.LogLevel.None, Quiet = true, MetricsPort = metricsPort };
            int code = await GarnetHost.RunAsync(settings, error).WaitAsync(Timeout);
            Assert.That(code, Is.EqualTo(GarnetHost.StartFailedExitCode));
            string line = error.ToString().TrimEnd();
            Assert.That(line, Does.StartWith($"error: cannot serve metrics on 127.0.0.1:{metricsPort}"));
            Assert.That(line, Does.Not.Contain("\n"));
            Assert.That(IsListening(serverPort), Is.False, "the server stopped too");
        }
        finally
        {
            taken.Stop();
        }
    }

    [Test]
    public void RecordingALatencyDoesNotAllocate()
    {
        using var store = new StoreWrapper(SmallSettings(0).Server);
        using var endpoint = new MetricsEndpoint(store, "127.0.0.1", FreePort());
        var get = CommandTable.Get(RespCommand.GET);
        var latency = endpoint.Latency;
        long elapsed = Stopwatch.Frequency / 10_000;
        for (int i = 0; i < 100; i++)
            latency.Record(get, elapsed);
        // The runtime itself may allocate once on this thread while the loop runs (tiered compilation starts its
        // background worker from the thread that crosses a call-count threshold), so a round that allocates is
        // measured again; an allocation per call would show in every round, at 10,000 times its size.
        var rounds = new List<long>();
        for (int round = 0; round < 5; round++)
        {
            long allocated = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 10_000; i++)
                latency.Record(get, elapsed);
            rounds.Add(GC.GetAllocatedBytesForCurrentThread() - allocated);
            if (rounds[^1] == 0)
                break;
        }
        Assert.That(rounds[^1], Is.Zero, "bytes allocated by each round of 10,000 recordings: " + string.Join(", ", rounds));
    }

    [Test]
    public void TheOptionIsParsedAndChecked()
    {
        Assert.That(OptionsParserTests.Settings().MetricsPort, Is.Zero, "off by default");
        Assert.That(OptionsParserTests.Settings("--metrics-port", "9121").MetricsPort, Is.EqualTo(9121));
        Assert.That(OptionsParserTests.Settings("--metrics-port", "0").MetricsPort, Is.Zero);
        Assert.That(OptionsParserTests.Error("--metrics-port", "65536"), Is.EqualTo("error: --metrics-port: 65536 is out of range (0 to 65535)"));
        Assert.That(OptionsParserTests.Error("--metrics-port", "x"), Is.EqualTo("error: --metrics-port: 'x' is not a whole number"));
        Assert.That(OptionsParserTests.Error("--port", "7000", "--metrics-port", "7000"), Is.EqualTo("error: --metrics-port: 7000 is also --port"));

        string config = Path.Combine(Path.GetTempPath(), "garnet-metrics-" + Guid.NewGuid().ToString("N") + ".json");
        File.WriteAllText(config, """{ "MetricsPort": 9122 }""");
        try
        {
            Assert.That(OptionsParserTests.Settings("--config-import-path", config).MetricsPort, Is.EqualTo(9122), "Garnet's JSON name");
        }
        finally
        {
            File.Delete(config);
        }
    }
}
