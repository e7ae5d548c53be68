using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using Garnet.server;
using Microsoft.Extensions.Logging;
using NUnit.Framework;

namespace Garnet.test.Host;

/// <summary>Small settings and port helpers shared by the host tests.</summary>
internal static class HostTestHelpers
{
    /// <summary>Host settings for a cheap server on <paramref name="port"/> that logs nothing.</summary>
    public static HostSettings SmallSettings(int port) => new()
    {
        Server = new ServerOptions
        {
            Address = "127.0.0.1",
            Port = port,
            IndexSize = 1L << 20,
            MemorySize = 1L << 24,
            PageSize = 1L << 20,
        },
        LogLevel = LogLevel.None,
        Quiet = true,
    };

    /// <summary>The configuration this test build was built in (the tests run from test/Garnet.test/bin/&lt;configuration&gt;/&lt;framework&gt;).</summary>
    public static string BuildConfiguration() => new DirectoryInfo(TestContext.CurrentContext.TestDirectory).Parent!.Name;

    /// <summary>The repository's root directory: the one holding Garnet.sln above the tests' directory.</summary>
    public static string RepositoryRoot()
    {
        var testDirectory = new DirectoryInfo(TestContext.CurrentContext.TestDirectory);
        DirectoryInfo? root = testDirectory;
        while (root != null && !File.Exists(Path.Combine(root.FullName, "Garnet.sln")))
            root = root.Parent;
        Assert.That(root, Is.Not.Null, "repository root (Garnet.sln) above " + testDirectory.FullName);
        return root!.FullName;
    }

    /// <summary>src/GarnetServer's build output for this test build's configuration and framework, to run as a child process.</summary>
    public static string ServerDll()
    {
        string framework = new DirectoryInfo(TestContext.CurrentContext.TestDirectory).Name;
        string dll = Path.Combine(RepositoryRoot(), "src", "GarnetServer", "bin", BuildConfiguration(), framework, "GarnetServer.dll");
        Assert.That(File.Exists(dll), Is.True, $"{dll} is missing: build the solution first (dotnet build Garnet.sln -c {BuildConfiguration()})");
        return dll;
    }

    /// <summary>A loopback port that was free a moment ago.</summary>
    public static int FreePort()
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        int port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }

    /// <summary>Whether something accepts connections on the loopback <paramref name="port"/>.</summary>
    public static bool IsListening(int port)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            socket.Connect(IPAddress.Loopback, port);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    /// <summary>Waits until <paramref name="port"/> accepts connections; false after <paramref name="timeout"/>.</summary>
    public static bool WaitUntilListening(int port, TimeSpan timeout)
    {
        DateTime deadline = DateTime.UtcNow + timeout;
        while (DateTime.UtcNow < deadline)
        {
            if (IsListening(port))
                return true;
            Thread.Sleep(20);
        }
        return false;
    }
}
