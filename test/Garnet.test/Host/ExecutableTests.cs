using System;
using System.IO;
using NUnit.Framework;
using static Garnet.test.Host.HostTestHelpers;

namespace Garnet.test.Host;

/// <summary>The built GarnetServer executable, run as a user would (everything else is tested in-process).</summary>
[TestFixture]
public sealed class ExecutableTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    [Test]
    public void VersionThenServeUntilSigterm()
    {
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsMacOS())
            Assert.Ignore("sends SIGTERM");
        string dll = ServerDll();
        string dotnet = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet";

        using (var version = ExternalProcess.Run(dotnet, new[] { dll, "--version" }, Timeout))
        {
            Assert.That(version.ExitCode, Is.Zero, version.Error);
            Assert.That(version.Output, Is.EqualTo(OptionsParser.VersionText + "\n"));
        }

        using (var bad = ExternalProcess.Run(dotnet, new[] { dll, "--port", "none" }, Timeout))
        {
            Assert.That(bad.ExitCode, Is.EqualTo(2));
            Assert.That(bad.Output, Is.Empty);
            Assert.That(bad.Error, Is.EqualTo("error: --port: 'none' is not a whole number\n"));
        }

        int port = FreePort();
        using var server = ExternalProcess.Start(dotnet, new[] { dll, "--port", port.ToString(), "--memory", "16m", "--page", "1m", "--index", "1m" });
        Assert.That(server.WaitForOutput($"listening on 127.0.0.1:{port}", Timeout), Is.True, $"startup line; output: {server.Output} error: {server.Error}");
        Assert.That(server.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries), Has.Length.EqualTo(1), "one startup line");
        using (var client = new RawClient(port))
            Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));

        server.Terminate();
        server.WaitForExit(Timeout);
        Assert.That(server.ExitCode, Is.Zero, server.Error);
        Assert.That(server.Output, Does.Contain("Shutting down"));
        Assert.That(server.Error, Is.Empty);
    }

    [Test]
    public void UnderALowDescriptorLimitMaxClientsIsLoweredAndExtraClientsAreRefused()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("sets the descriptor limit with the shell's ulimit");
        string dll = ServerDll();
        string dotnet = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet";
        int port = FreePort();
        // The child gets a limit of 256 descriptors: without maxclients fitted to it, accept runs out and the process dies.
        using var server = ExternalProcess.Start("bash", new[] { "-c", "ulimit -n 256 && exec \"$0\" \"$@\"", dotnet, dll,
            "--port", port.ToString(), "--memory", "16m", "--page", "1m", "--index", "1m" });
        Assert.That(server.WaitForOutput($"listening on 127.0.0.1:{port}", Timeout), Is.True, $"startup line; output: {server.Output} error: {server.Error}");
        // The warning follows the startup line.
        Assert.That(server.WaitForOutput("maxclients has been reduced to", Timeout), Is.True, server.Output);

        var clients = new System.Collections.Generic.List<RawClient>();
        RawClient? admitted = null;
        try
        {
            int refused = 0;
            for (int i = 0; i < 300; i++)
            {
                var client = new RawClient(port);
                clients.Add(client);
                client.Send("PING");
                string reply = client.ReadReply();
                if (reply == "-ERR max number of clients reached\r\n")
                    refused++;
                else
                {
                    Assert.That(reply, Is.EqualTo("+PONG\r\n"));
                    admitted = client;
                }
            }
            Assert.That(refused, Is.GreaterThan(44), "clients past maxclients (at most 256 minus the server's own descriptors) are refused");
            Assert.That(server.HasExited, Is.False);

            // The admitted clients are still served.
            Assert.That(admitted, Is.Not.Null);
            Assert.That(admitted!.Execute("INFO", "clients"), Does.Match("maxclients:(1[0-9][0-9]|[1-9][0-9]|[1-9])\r\n"));
        }
        finally
        {
            foreach (var client in clients)
                client.Dispose();
        }
        server.Terminate();
        server.WaitForExit(Timeout);
        Assert.That(server.ExitCode, Is.Zero, server.Error);
    }
}
