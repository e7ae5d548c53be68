using System;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Threading.Tasks;
using NUnit.Framework;
using Resp.benchmark;

namespace Garnet.test.Benchmark;

/// <summary>
/// The TLS client path, against a minimal TLS responder with a self-signed certificate that
/// answers every request with +PONG (requests are RESP arrays, so the reply scanner counts them).
/// </summary>
public class BenchmarkTlsTests
{
    private TcpListener _listener = null!;
    private X509Certificate2 _certificate = null!;
    private Task _serving = Task.CompletedTask;

    [SetUp]
    public void Start()
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256);
        using var ephemeral = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(1));
        _certificate = X509CertificateLoader.LoadPkcs12(ephemeral.Export(X509ContentType.Pfx), null);
        _listener = new TcpListener(IPAddress.Loopback, 0);
        _listener.Start();
        _serving = Task.Run(ServeAsync);
    }

    [TearDown]
    public void Stop()
    {
        _listener.Stop();
        try
        {
            _serving.Wait(TimeSpan.FromSeconds(5));
        }
        catch (AggregateException)
        {
        }
        _certificate.Dispose();
    }

    private async Task ServeAsync()
    {
        while (true)
        {
            Socket socket;
            try
            {
                socket = await _listener.AcceptSocketAsync();
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException)
            {
                return;
            }
            _ = Task.Run(() => Respond(socket));
        }
    }

    private void Respond(Socket socket)
    {
        using var tls = new SslStream(new NetworkStream(socket, ownsSocket: true));
        try
        {
            tls.AuthenticateAsServer(_certificate);
            var requests = new ReplyScanner();
            var buffer = new byte[1 << 16];
            var pongs = new byte[1 << 16];
            for (int i = 0; i + 7 <= pongs.Length; i += 7)
                "+PONG\r\n"u8.CopyTo(pongs.AsSpan(i));
            while (true)
            {
                int read = tls.Read(buffer);
                if (read == 0)
                    return;
                int complete = requests.Feed(buffer.AsSpan(0, read));
                while (complete > 0)
                {
                    int now = Math.Min(complete, pongs.Length / 7);
                    tls.Write(pongs.AsSpan(0, now * 7));
                    complete -= now;
                }
            }
        }
        catch (Exception e) when (e is System.IO.IOException or System.Security.Authentication.AuthenticationException or ObjectDisposedException)
        {
        }
    }

    private BenchmarkOptions Options(bool insecure) => new()
    {
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port,
        Tls = true,
        TlsInsecure = insecure,
        TlsHost = "localhost",
        Op = "PING",
        SkipLoad = true,
        TotalOps = 2000,
        BatchSize = 100,
        Timeout = 10,
    };

    [Test]
    public void OfflineOverTls()
    {
        var result = new BenchmarkRunner(Options(insecure: true)).RunOnce(2);
        Assert.That(result.Requests, Is.EqualTo(2000));
        Assert.That(result.Replies, Is.EqualTo(2000));
        Assert.That(result.Errors, Is.Zero);
    }

    [Test]
    public void OnlineOverTls()
    {
        var options = Options(insecure: true);
        options.Online = true;
        options.OpWorkload = new[] { "PING" };
        options.OpPercent = new[] { 100 };
        options.Itp = 5;
        var result = new BenchmarkRunner(options).RunOnce(1);
        Assert.That(result.Replies, Is.EqualTo(2000));
        Assert.That(result.Latencies[0].Count, Is.EqualTo(2000));
    }

    [Test]
    public void UntrustedCertificateIsRefusedWithoutInsecure() =>
        Assert.Throws<InvalidOperationException>(() => new BenchmarkRunner(Options(insecure: false)).RunOnce(1));
}
