using System;
using System.IO;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Threading;

namespace Garnet;

/// <summary>
/// The server certificate read from a file (PKCS#12 / .pfx, or PEM with the certificate and its private key), and read
/// again every <c>--cert-refresh-freq</c> seconds when the file changed, so a renewed certificate is used by new
/// connections without a restart (connections already open keep the one they were set up with).
/// </summary>
public sealed class CertificateFile : IDisposable
{
    private readonly string _path;
    private readonly string? _password;
    private readonly Timer? _refresh;
    private X509Certificate2 _current;
    private DateTime _loadedWriteTime;
    private long _reloads;

    /// <summary>Loads the certificate; throws when the file is missing, unreadable or has no private key.</summary>
    /// <param name="path">A .pfx file, or a PEM file holding the certificate and its private key.</param>
    /// <param name="password">The .pfx password, or the PEM key's; null for none.</param>
    /// <param name="refreshSeconds">How often to look for a changed file; 0 never.</param>
    public CertificateFile(string path, string? password, int refreshSeconds)
    {
        _path = Path.GetFullPath(path);
        _password = password;
        _loadedWriteTime = File.GetLastWriteTimeUtc(_path);
        _current = Load(_path, _password);
        if (refreshSeconds > 0)
            _refresh = new Timer(static state => ((CertificateFile)state!).RefreshIfChanged(), this, refreshSeconds * 1000L, refreshSeconds * 1000L);
    }

    /// <summary>The certificate new connections get.</summary>
    public X509Certificate2 Current => Volatile.Read(ref _current);

    /// <summary>How many times a changed file was loaded since start.</summary>
    public long Reloads => Interlocked.Read(ref _reloads);

    /// <summary>
    /// Loads the file again if it changed since it was last loaded. A file that does not load (half written, wrong
    /// password) leaves the current certificate in use; the next look tries again.
    /// </summary>
    public void RefreshIfChanged()
    {
        try
        {
            var writeTime = File.GetLastWriteTimeUtc(_path);
            if (writeTime == _loadedWriteTime)
                return;
            var loaded = Load(_path, _password);
            _loadedWriteTime = writeTime;
            Volatile.Write(ref _current, loaded);
            Interlocked.Increment(ref _reloads);
            // The old certificate is not disposed: a handshake in progress may still be using it.
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or CryptographicException or ArgumentException)
        {
            // Keep serving with the certificate that works.
        }
    }

    /// <summary>Reads a .pfx, or a PEM file with the certificate and private key, and checks it can serve TLS.</summary>
    public static X509Certificate2 Load(string path, string? password)
    {
        byte[] bytes = File.ReadAllBytes(path);
        X509Certificate2 certificate;
        if (LooksLikePem(bytes))
        {
            certificate = password == null
                ? X509Certificate2.CreateFromPemFile(path)
                : X509Certificate2.CreateFromEncryptedPemFile(path, password);
            // On Linux a certificate with an ephemeral key from PEM works for SslStream; export/import makes it persistent elsewhere.
            if (!OperatingSystem.IsLinux())
                certificate = LoadPkcs12(certificate.Export(X509ContentType.Pkcs12), null);
        }
        else
        {
            certificate = LoadPkcs12(bytes, password);
        }
        if (!certificate.HasPrivateKey)
            throw new CryptographicException($"{path} has no private key.");
        return certificate;
    }

    private static X509Certificate2 LoadPkcs12(byte[] bytes, string? password)
#if NET9_0_OR_GREATER
        => X509CertificateLoader.LoadPkcs12(bytes, password);
#else
        => new(bytes, password);
#endif

    private static bool LooksLikePem(byte[] bytes)
    {
        var start = System.Text.Encoding.ASCII.GetString(bytes, 0, Math.Min(bytes.Length, 64));
        return start.TrimStart().StartsWith("-----BEGIN", StringComparison.Ordinal);
    }

    /// <inheritdoc/>
    public void Dispose() => _refresh?.Dispose();
}
