using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.IO.Compression;
using System.Reflection;
using Garnet.test.Host;
using NUnit.Framework;
using static Garnet.test.Host.HostTestHelpers;

namespace Garnet.test.Packaging;

/// <summary>
/// The packages as a user gets them: packs Garnet.DotNet and the Garnet.DotNet.Server tool once from
/// this build (no rebuild) into a temporary feed, then checks their contents, runs
/// playground/EmbeddedServer against the package and installs the tool and serves redis-cli with it.
/// Restores go to a temporary NUGET_PACKAGES folder from that feed and, for the dependencies, from the
/// machine's package cache used as an offline feed, so nothing stale is reused and no network is needed.
/// </summary>
[TestFixture]
public sealed class PackageTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(3);
    private static readonly string[] LibraryAssemblies =
        ["Garnet.host", "Garnet.cluster", "Garnet.server", "Garnet.network", "Garnet.common", "Tsavorite.core"];

    private string _root = null!;
    private string _work = null!;
    private string _feed = null!;
    private string _config = null!;
    private string _version = null!;
    private Dictionary<string, string?> _environment = null!;

    [OneTimeSetUp]
    public void PackIntoTemporaryFeed()
    {
        _root = RepositoryRoot();
        _version = PackageVersion();
        _work = Path.Combine(Path.GetTempPath(), "garnet-packages-" + Guid.NewGuid().ToString("N"));
        _feed = Path.Combine(_work, "feed");
        Directory.CreateDirectory(_feed);
        _environment = new Dictionary<string, string?>
        {
            ["NUGET_PACKAGES"] = Path.Combine(_work, "nuget-packages"),
            ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",
            ["DOTNET_NOLOGO"] = "1",
            ["DOTNET_SKIP_FIRST_TIME_EXPERIENCE"] = "1",
            ["MSBUILDDISABLENODEREUSE"] = "1",
        };

        // The machine's package cache, read before NUGET_PACKAGES is changed for the children.
        string cache = Dotnet(["nuget", "locals", "global-packages", "--list"], withEnvironment: false).Trim();
        const string Prefix = "global-packages: ";
        Assert.That(cache, Does.StartWith(Prefix));
        cache = cache.Substring(Prefix.Length);

        _config = Path.Combine(_work, "nuget.config");
        File.WriteAllText(_config, $"""
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <clear />
                <add key="packed" value="{_feed}" />
                <add key="machine-cache" value="{cache}" />
              </packageSources>
            </configuration>
            """);

        // From the solution's build: these two projects are not dependencies of the tests.
        string configuration = BuildConfiguration();
        foreach (string project in new[] { "src/Garnet.DotNet", "src/GarnetServer" })
        {
            Dotnet(["pack", Path.Combine(_root, project), "-c", configuration, "--no-build", "-o", _feed, "--disable-build-servers"],
                hint: $"build the solution first (dotnet build Garnet.sln -c {configuration})");
        }
    }

    [OneTimeTearDown]
    public void DeleteWorkDirectory()
    {
        if (_work != null && Directory.Exists(_work))
            Directory.Delete(_work, recursive: true);
    }

    [Test]
    public void LibraryPackageCarriesEveryAssemblyWithSymbolsAndDependsOnKeraLua()
    {
        using (var package = ZipFile.OpenRead(Path.Combine(_feed, $"Garnet.DotNet.{_version}.nupkg")))
        {
            foreach (string framework in new[] { "net10.0", "net8.0" })
            {
                foreach (string assembly in LibraryAssemblies)
                    Assert.That(package.GetEntry($"lib/{framework}/{assembly}.dll"), Is.Not.Null, $"{framework}/{assembly}.dll");
            }
            Assert.That(package.GetEntry("README.md"), Is.Not.Null);
            string nuspec = Read(package, "Garnet.DotNet.nuspec");
            Assert.That(nuspec, Does.Contain($"<version>{_version}</version>"));
            Assert.That(nuspec, Does.Contain("<license type=\"expression\">MIT</license>"));
            Assert.That(nuspec, Does.Contain("<readme>README.md</readme>"));
            Assert.That(nuspec, Does.Contain("<dependency id=\"KeraLua\""));
            // Every package a carried library uses is a dependency (src/Garnet.DotNet lists them by hand).
            foreach (string project in Directory.EnumerateFiles(Path.Combine(_root, "libs"), "*.csproj", SearchOption.AllDirectories))
            {
                foreach (System.Text.RegularExpressions.Match used in System.Text.RegularExpressions.Regex.Matches(File.ReadAllText(project), "<PackageReference Include=\"([^\"]+)\""))
                    Assert.That(nuspec, Does.Contain($"<dependency id=\"{used.Groups[1].Value}\""), $"{Path.GetFileName(project)} uses {used.Groups[1].Value}");
            }
            // The libraries travel inside: no dependency on packages of their own.
            Assert.That(nuspec, Does.Not.Contain("<dependency id=\"Garnet."));
            Assert.That(nuspec, Does.Not.Contain("<dependency id=\"Tsavorite."));
        }
        using var symbols = ZipFile.OpenRead(Path.Combine(_feed, $"Garnet.DotNet.{_version}.snupkg"));
        foreach (string framework in new[] { "net10.0", "net8.0" })
        {
            foreach (string assembly in LibraryAssemblies)
                Assert.That(symbols.GetEntry($"lib/{framework}/{assembly}.pdb"), Is.Not.Null, $"{framework}/{assembly}.pdb");
        }
    }

    [Test]
    public void EmbeddedServerSampleRunsFromThePackage()
    {
        string output = Dotnet(["run", "--project", Path.Combine(_root, "playground", "EmbeddedServer"),
            "--artifacts-path", Path.Combine(_work, "sample"), "--disable-build-servers",
            "--property:RestoreConfigFile=" + _config]);

        string restored = Path.Combine(_environment["NUGET_PACKAGES"]!, "garnet.dotnet", _version);
        Assert.That(Directory.Exists(restored), Is.True, "the sample restored the package from the feed into " + restored);
        Assert.That(output, Does.Contain("SETMAX high 1200 -> 1200\n"));
        Assert.That(output, Does.Contain("TALLYGET votes alice -> 2\n"));
        Assert.That(output, Does.Contain("TYPE votes -> tally\n"));
        Assert.That(output, Does.Contain("EVAL return 1 + 2 0 -> 3\n"), "Lua on the native library from KeraLua's package");
        Assert.That(output, Does.EndWith("embedded server sample: ok\n"));
    }

    [Test]
    public void ToolInstallsAndServesRedisCli()
    {
        if (!OperatingSystem.IsLinux() && !OperatingSystem.IsMacOS())
            Assert.Ignore("stops the server with SIGTERM");
        string? redisCli = ExternalProcess.FindOnPath("redis-cli");
        if (redisCli == null)
            Assert.Fail("redis-cli is not installed: apt-get install -y redis-tools (.ci/run does this)");

        string toolPath = Path.Combine(_work, "tools");
        string installed = Dotnet(["tool", "install", "--tool-path", toolPath, "--configfile", _config,
            "--version", _version, "Garnet.DotNet.Server"]);
        Assert.That(installed, Does.Contain("garnet-server"));

        int port = FreePort();
        string portText = port.ToString(CultureInfo.InvariantCulture);
        using var server = ExternalProcess.Start(Path.Combine(toolPath, "garnet-server"),
            ["--port", portText, "--memory", "16m", "--page", "1m", "--index", "1m"]);
        Assert.That(server.WaitForOutput($"listening on 127.0.0.1:{port}", Timeout), Is.True,
            $"startup line; output: {server.Output} error: {server.Error}");

        string Cli(params string[] arguments)
        {
            using var cli = ExternalProcess.Run(redisCli!, ["-h", "127.0.0.1", "-p", portText, .. arguments], Timeout);
            cli.WaitForExit(Timeout);
            Assert.That(cli.ExitCode, Is.Zero, cli.Error);
            return cli.Output;
        }
        Assert.That(Cli("PING"), Is.EqualTo("PONG\n"));
        Assert.That(Cli("SET", "tool", "installed"), Is.EqualTo("OK\n"));
        Assert.That(Cli("GET", "tool"), Is.EqualTo("installed\n"));
        Assert.That(Cli("EVAL", "return 'lua'", "0"), Is.EqualTo("lua\n"), "the tool carries the native Lua library");

        server.Terminate();
        server.WaitForExit(Timeout);
        Assert.That(server.ExitCode, Is.Zero, server.Error);
    }

    /// <summary>Runs dotnet to completion, asserts it succeeded and returns its standard output.</summary>
    private string Dotnet(IEnumerable<string> arguments, bool withEnvironment = true, string? hint = null)
    {
        string dotnet = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet";
        using var process = ExternalProcess.Run(dotnet, arguments, Timeout, environment: withEnvironment ? _environment : null);
        process.WaitForExit(Timeout);
        Assert.That(process.ExitCode, Is.Zero, $"dotnet {string.Join(' ', arguments)} ({hint ?? "see its output"})\n{process.Output}\n{process.Error}");
        return process.Output;
    }

    private static string Read(ZipArchive archive, string name)
    {
        var entry = archive.GetEntry(name);
        Assert.That(entry, Is.Not.Null, name);
        using var reader = new StreamReader(entry!.Open());
        return reader.ReadToEnd();
    }

    /// <summary>The version the packages were built with: this build's informational version, without a source revision.</summary>
    private static string PackageVersion()
    {
        string version = typeof(GarnetServer).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()!.InformationalVersion;
        int plus = version.IndexOf('+', StringComparison.Ordinal);
        return plus < 0 ? version : version.Substring(0, plus);
    }
}
