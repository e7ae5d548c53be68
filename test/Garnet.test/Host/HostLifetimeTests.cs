using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using NUnit.Framework;
using static Garnet.test.Host.HostTestHelpers;

namespace Garnet.test.Host;

/// <summary>
/// The generic host around the server: the hosted service starts and disposes it, the SHUTDOWN
/// command and cancellation stop the host, and <see cref="GarnetHost.RunAsync(string[], TextWriter?, TextWriter?, CancellationToken)"/>
/// returns the executable's exit codes.
/// </summary>
[TestFixture]
public sealed class HostLifetimeTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(15);

    [Test]
    public async Task HostedServiceStartsAndStopsTheServer()
    {
        using IHost host = GarnetHost.CreateHost(SmallSettings(0));
        var service = host.Services.GetRequiredService<GarnetHostedService>();
        Assert.That(service.Server, Is.Null, "nothing runs before the host starts");

        await host.StartAsync();
        GarnetServer server = service.Server!;
        int port = server.Port;
        using (var client = new RawClient(port))
            Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));

        await host.StopAsync();
        Assert.That(IsListening(port), Is.False);
    }

    [Test]
    public void TheHostHasTheConsoleLifetime()
    {
        using IHost host = GarnetHost.CreateHost(SmallSettings(0));
        Assert.That(host.Services.GetRequiredService<IHostLifetime>().GetType().Name, Is.EqualTo("ConsoleLifetime"),
            "Ctrl-C and SIGTERM stop the host");
    }

    [Test]
    public async Task ShutdownCommandStopsTheHost()
    {
        using IHost host = GarnetHost.CreateHost(SmallSettings(0));
        await host.StartAsync();
        int port = host.Services.GetRequiredService<GarnetHostedService>().Server!.Port;
        var stopping = host.Services.GetRequiredService<IHostApplicationLifetime>().ApplicationStopping;

        using (var client = new RawClient(port))
        {
            Assert.That(client.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
            client.Send("SHUTDOWN");
            await host.WaitForShutdownAsync().WaitAsync(Timeout);
        }
        Assert.That(stopping.IsCancellationRequested, Is.True);
        Assert.That(IsListening(port), Is.False);
    }

    [Test]
    public async Task RunEndsWithZeroOnCancellation()
    {
        int port = FreePort();
        using var cancellation = new CancellationTokenSource();
        var error = new StringWriter();
        Task<int> run = GarnetHost.RunAsync(SmallSettings(port), error, cancellation.Token);
        Assert.That(WaitUntilListening(port, Timeout), Is.True, error.ToString());
        using (var client = new RawClient(port))
            Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));

        cancellation.Cancel();
        Assert.That(await run.WaitAsync(Timeout), Is.Zero);
        Assert.That(error.ToString(), Is.Empty);
        Assert.That(IsListening(port), Is.False);
    }

    [Test]
    public async Task RunEndsWithZeroOnShutdownCommand()
    {
        int port = FreePort();
        var error = new StringWriter();
        Task<int> run = GarnetHost.RunAsync(new[] { "--port", port.ToString(), "--quiet", "--logger-level", "None", "--memory", "16m", "--page", "1m", "--index", "1m" }, TextWriter.Null, error);
        Assert.That(WaitUntilListening(port, Timeout), Is.True, error.ToString());

        using (var client = new RawClient(port))
        {
            Assert.That(client.Execute("INCR", "n"), Is.EqualTo(":1\r\n"));
            client.Send("SHUTDOWN");
            Assert.That(await run.WaitAsync(Timeout), Is.Zero);
        }
        Assert.That(error.ToString(), Is.Empty);
        Assert.That(IsListening(port), Is.False);
    }

    [Test]
    public async Task TakenPortIsAOneLineStartupError()
    {
        var taken = new TcpListener(IPAddress.Loopback, 0);
        taken.Start();
        try
        {
            int port = ((IPEndPoint)taken.LocalEndpoint).Port;
            var error = new StringWriter();
            int code = await GarnetHost.RunAsync(SmallSettings(port), error).WaitAsync(Timeout);
            Assert.That(code, Is.EqualTo(GarnetHost.StartFailedExitCode));
            string line = error.ToString().TrimEnd();
            Assert.That(line, Does.StartWith($"error: cannot start the server on 127.0.0.1:{port}"));
            Assert.That(line, Does.Not.Contain("\n"));
        }
        finally
        {
            taken.Stop();
        }
    }

    [Test]
    public async Task RunPrintsHelpVersionAndErrors()
    {
        var output = new StringWriter();
        var error = new StringWriter();
        Assert.That(await GarnetHost.RunAsync(new[] { "--help" }, output, error), Is.Zero);
        Assert.That(output.ToString(), Does.Contain("Usage: GarnetServer [options]"));
        Assert.That(error.ToString(), Is.Empty);

        output = new StringWriter();
        Assert.That(await GarnetHost.RunAsync(new[] { "--version" }, output, error), Is.Zero);
        Assert.That(output.ToString(), Is.EqualTo(OptionsParser.VersionText + Environment.NewLine));

        output = new StringWriter();
        Assert.That(await GarnetHost.RunAsync(new[] { "--port", "x" }, output, error), Is.EqualTo(2));
        Assert.That(output.ToString(), Is.Empty);
        Assert.That(error.ToString(), Is.EqualTo("error: --port: 'x' is not a whole number" + Environment.NewLine));
    }

    [Test]
    public async Task RunCancelledBeforeStartReturnsZero()
    {
        using var cancellation = new CancellationTokenSource();
        cancellation.Cancel();
        Assert.That(await GarnetHost.RunAsync(SmallSettings(0), TextWriter.Null, cancellation.Token).WaitAsync(Timeout), Is.Zero);
    }
}
