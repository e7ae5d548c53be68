using System;
using System.IO;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Garnet.networking;
using NUnit.Framework;

namespace Garnet.test.Network;

/// <summary>The same protocol over a Unix domain socket and over TLS.</summary>
[TestFixture(SocketIoModel.Epoll)]
[TestFixture(SocketIoModel.AsyncEventArgs)]
public sealed class TransportTests(SocketIoModel socketIo) : NetworkTestBase(socketIo)
{
    private X509Certificate2? _certificate;

    [OneTimeTearDown]
    public void DisposeCertificate() => _certificate?.Dispose();

    [Test]
    public void UnixDomainSocketRoundTrip()
    {
        var path = NewSocketPath();
        var server = StartServer(endpoint: new UnixDomainSocketEndPoint(path));
        Assert.That(File.Exists(path), Is.True);

        using var client = Connect(server);
        client.Send("hello\nWHO\n");
        Assert.That(client.ReadLine(), Is.EqualTo("HELLO"));
        Assert.That(client.ReadLine(), Is.EqualTo($"{path}|{path}"));

        server.Server.Dispose();
        Assert.That(client.IsClosedByServer(), Is.True);
        Assert.That(File.Exists(path), Is.False, "Dispose deletes the socket file");
    }

    [Test]
    public void AStaleUnixSocketFileIsReplacedButALiveOneIsNot()
    {
        var path = NewSocketPath();
        File.WriteAllText(path, "left behind by a crashed server");

        var server = StartServer(endpoint: new UnixDomainSocketEndPoint(path));
        using (var client = Connect(server))
        {
            client.Send("ping\n");
            Assert.That(client.ReadLine(), Is.EqualTo("PING"));
        }

        var second = new NetworkServer(new UnixDomainSocketEndPoint(path), new LineSessionProvider(), new NetworkServerOptions());
        Assert.That(second.Start, Throws.InstanceOf<SocketException>());
        second.Dispose();
        Assert.That(File.Exists(path), Is.True, "the live server keeps its socket file");
        using var again = Connect(server);
        again.Send("still live\n");
        Assert.That(again.ReadLine(), Is.EqualTo("STILL LIVE"));
    }

    [Test]
    public void TlsRoundTrip()
    {
        var server = StartServer(TlsServerOptions(sendBufferSize: 1024));
        using var client = ConnectTls(server);

        client.Send("hello\nsecure world\nBIG 50000\nQUIT\n");

        Assert.That(client.ReadLine(), Is.EqualTo("HELLO"));
        Assert.That(client.ReadLine(), Is.EqualTo("SECURE WORLD"));
        var big = client.ReadLineBytes();
        Assert.That(big, Has.Length.EqualTo(50000));
        for (var i = 0; i < big.Length; i++)
        {
            if (big[i] != LineConsumer.PatternByte(i))
                Assert.Fail($"Reply byte {i} is {big[i]}.");
        }
        Assert.That(client.ReadLine(), Is.EqualTo("BYE"));
        Assert.That(client.IsClosedByServer(), Is.True);
        WaitUntil(() => server.Provider.DisposeCalls == 1, "the consumer is disposed");
    }

    [Test]
    public void TlsMessagesLargerThanTheReceiveBufferGrowIt()
    {
        var options = TlsServerOptions(sendBufferSize: 4096);
        options.ReceiveBufferSize = 4096;
        var server = StartServer(options);
        using var client = ConnectTls(server);

        var message = new byte[256 * 1024];
        Array.Fill(message, (byte)'x');
        client.Send([.. message, (byte)'\n']);

        var reply = client.ReadLineBytes();
        Assert.That(reply, Has.Length.EqualTo(message.Length));
        Assert.That(Array.TrueForAll(reply, b => b == (byte)'X'), Is.True);
    }

    [Test]
    public void AClientThatFailsTheTlsHandshakeHarmsNoOne()
    {
        var server = StartServer(TlsServerOptions(sendBufferSize: 4096));

        using (var plain = Connect(server))
        {
            plain.Send("this is not a TLS client hello\n");
            Assert.That(plain.IsClosedByServer(), Is.True);
        }

        using var client = ConnectTls(server);
        client.Send("ping\n");
        Assert.That(client.ReadLine(), Is.EqualTo("PING"));
        Assert.That(server.Provider.Consumers, Has.Count.EqualTo(1), "no consumer for a connection without a handshake");
        WaitUntil(() => server.Server.ActiveConnections == 1, "the failed connection leaves the server");
    }

    private NetworkServerOptions TlsServerOptions(int sendBufferSize)
        => new()
        {
            SendBufferSize = sendBufferSize,
            TlsOptions = new SslServerAuthenticationOptions { ServerCertificate = _certificate ??= CreateSelfSignedCertificate() },
        };

    /// <summary>
    /// A throwaway certificate for localhost. Exported and re-imported as PFX because on Linux SslStream cannot use
    /// the ephemeral private key of a certificate fresh from CertificateRequest.
    /// </summary>
    private static X509Certificate2 CreateSelfSignedCertificate()
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        var names = new SubjectAlternativeNameBuilder();
        names.AddDnsName("localhost");
        names.AddIpAddress(IPAddress.Loopback);
        request.CertificateExtensions.Add(names.Build());

        using var ephemeral = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(1));
        return X509CertificateLoader.LoadPkcs12(ephemeral.Export(X509ContentType.Pfx), password: null);
    }

    private string NewSocketPath()
    {
        // Unix socket paths are limited to about 100 bytes, so keep it short and in the temp directory.
        var path = Path.Combine(Path.GetTempPath(), $"garnet-net-{Guid.NewGuid():N}.sock");
        Track(new FileCleanup(path));
        return path;
    }

    /// <summary>Deletes a file at tear-down, after the servers using it are gone.</summary>
    private sealed class FileCleanup(string path) : IDisposable
    {
        public void Dispose() => File.Delete(path);
    }
}
