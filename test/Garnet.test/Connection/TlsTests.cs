using System;
using System.Diagnostics;
using System.IO;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Threading;
using Garnet.test.Host;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.Connection;

/// <summary>
/// --tls with --cert-file-name: redis-cli --tls and StackExchange.Redis over TLS, and a certificate file replaced while
/// the server runs is picked up by new connections (--cert-refresh-freq).
/// </summary>
[TestFixture]
public sealed class TlsTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);
    private string _directory = null!;

    [SetUp]
    public void CreateDirectory() => _directory = Directory.CreateTempSubdirectory("garnet-tls-").FullName;

    [TearDown]
    public void DeleteDirectory() => Directory.Delete(_directory, recursive: true);

    /// <summary>Writes a self-signed certificate for <paramref name="subject"/> with its key, as one PEM file.</summary>
    private static void WritePem(string path, string subject)
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest($"CN={subject}", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(1));
        string pem = certificate.ExportCertificatePem() + "\n" + key.ExportPkcs8PrivateKeyPem() + "\n";
        string temporary = path + ".new";
        File.WriteAllText(temporary, pem);
        File.Move(temporary, path, overwrite: true);
    }

    /// <summary>The subject the server's certificate shows in a fresh handshake.</summary>
    private static string ServerSubject(int port)
    {
        using var client = new TcpClient("127.0.0.1", port);
        using var tls = new SslStream(client.GetStream(), false, (_, _, _, _) => true);
        tls.AuthenticateAsClient("localhost");
        return tls.RemoteCertificate!.Subject;
    }

    [Test]
    public void ClientsTalkOverTlsAndARenewedCertificateIsUsedForNewConnections()
    {
        string certificatePath = Path.Combine(_directory, "server.pem");
        WritePem(certificatePath, "first");
        var settings = OptionsParserTests.Settings("--port", "0", "--memory", "16m", "--page", "1m",
            "--tls", "--cert-file-name", certificatePath, "--cert-refresh-freq", "1");
        using var server = new GarnetServer(settings.Server);
        server.Start();

        // redis-cli (Debian's is built with TLS).
        string? redisCli = ExternalProcess.FindOnPath("redis-cli");
        Assert.That(redisCli, Is.Not.Null, "redis-cli is not installed: apt-get install -y redis-tools (.ci/run does this)");
        using (var cli = ExternalProcess.Run(redisCli!, new[] { "-h", "127.0.0.1", "-p", server.Port.ToString(), "--tls", "--insecure", "SET", "over", "tls" }, Timeout))
        {
            Assert.That(cli.ExitCode, Is.Zero, cli.Error);
            Assert.That(cli.Output, Is.EqualTo("OK\n"));
        }

        // StackExchange.Redis over TLS.
        var configuration = new ConfigurationOptions
        {
            EndPoints = { { "127.0.0.1", server.Port } },
            Ssl = true,
            SslHost = "localhost",
            ConnectTimeout = 5000,
            SyncTimeout = 5000,
            AbortOnConnectFail = true,
            Protocol = RedisProtocol.Resp3,
        };
        configuration.CertificateValidation += (_, _, _, _) => true;
        using (var redis = ConnectionMultiplexer.Connect(configuration))
        {
            Assert.That(redis.GetServer("127.0.0.1", server.Port).Protocol, Is.EqualTo(RedisProtocol.Resp3));
            var db = redis.GetDatabase();
            Assert.That((string?)db.StringGet("over"), Is.EqualTo("tls"));
            db.StringSet("client", "dotnet");
            Assert.That((string?)db.StringGet("client"), Is.EqualTo("dotnet"));
        }

        // New connections get the certificate the file holds now.
        Assert.That(ServerSubject(server.Port), Is.EqualTo("CN=first"));
        WritePem(certificatePath, "second");
        var clock = Stopwatch.StartNew();
        while (ServerSubject(server.Port) != "CN=second")
        {
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(20)), "the renewed certificate is loaded");
            Thread.Sleep(100);
        }
    }

    [Test]
    public void TlsWithoutACertificateIsAnOptionError()
    {
        Assert.That(OptionsParserTests.Error("--tls"), Does.Contain("--tls: needs --cert-file-name"));
        Assert.That(OptionsParserTests.Error("--tls", "--cert-file-name", "/nonexistent/cert.pfx"), Does.Contain("--cert-file-name"));
    }

    [Test]
    public void WithClientCertificateRequiredAClientWithoutOneIsRefused()
    {
        string certificatePath = Path.Combine(_directory, "server.pem");
        WritePem(certificatePath, "server");
        var settings = OptionsParserTests.Settings("--port", "0", "--memory", "16m", "--page", "1m",
            "--tls", "--cert-file-name", certificatePath, "--client-certificate-required");
        using var server = new GarnetServer(settings.Server);
        server.Start();

        using var client = new TcpClient("127.0.0.1", server.Port);
        using var tls = new SslStream(client.GetStream(), false, (_, _, _, _) => true);
        Assert.That(() =>
        {
            tls.AuthenticateAsClient("localhost");
            // TLS 1.3 may finish the client's side before the server refuses: the first exchange then fails.
            var ping = "*1\r\n$4\r\nPING\r\n"u8.ToArray();
            tls.Write(ping);
            if (tls.Read(new byte[16]) == 0)
                throw new IOException("closed by the server");
        }, Throws.InstanceOf<IOException>().Or.InstanceOf<System.Security.Authentication.AuthenticationException>());
    }
}
