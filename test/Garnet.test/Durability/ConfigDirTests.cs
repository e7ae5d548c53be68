using System.IO;
using NUnit.Framework;

namespace Garnet.test.Durability;

/// <summary>CONFIG SET dir (and Garnet's checkpointdir): the next checkpoints go to the new directory.</summary>
[TestFixture]
public sealed class ConfigDirTests
{
    private OperationLogTestServer _server = null!;
    private string _other = null!;

    [SetUp]
    public void SetUp()
    {
        _server = new OperationLogTestServer();
        _other = Path.Combine(Path.GetTempPath(), "garnet-dir-" + System.Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_other);
    }

    [TearDown]
    public void TearDown()
    {
        _server.Dispose();
        Directory.Delete(_other, recursive: true);
    }

    [Test]
    public void SaveGoesToTheNewDirectoryAndRecoversFromIt()
    {
        _server.Start(configure: o =>
        {
            o.EnableAof = false;
            o.ConfigParameters["enable-protected-configs"] = "yes";
        });
        using (var c = _server.Connect())
        {
            Assert.That(c.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
            Assert.That(c.Execute("CONFIG", "SET", "dir", _other), Is.EqualTo("+OK\r\n"));
            Assert.That(c.Execute("CONFIG", "GET", "dir"), Does.Contain(_other));
            Assert.That(c.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
        }
        Assert.That(Directory.GetFiles(Path.Combine(_other, "checkpoints")), Is.Not.Empty, "the checkpoint is in the new directory");

        // A server started on the new directory finds the data there.
        _server.Stop();
        var moved = new OperationLogTestServer(_other);
        try
        {
            moved.Start(recover: true, configure: o => o.EnableAof = false);
            using var c = moved.Connect();
            Assert.That(c.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
        }
        finally
        {
            moved.Stop();
        }
    }

    [Test]
    public void ErrorsAsRedisAndWhileTheLogRuns()
    {
        _server.Start(configure: o => o.ConfigParameters["enable-protected-configs"] = "yes");
        using var c = _server.Connect();
        Assert.That(c.Execute("CONFIG", "SET", "dir", Path.Combine(_other, "missing")),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'dir') - No such file or directory\r\n"));
        string file = Path.Combine(_other, "file");
        File.WriteAllText(file, "x");
        Assert.That(c.Execute("CONFIG", "SET", "dir", file),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'dir') - Not a directory\r\n"));
        Assert.That(c.Execute("CONFIG", "SET", "checkpointdir", _other),
            Does.StartWith("-ERR CONFIG SET failed (possibly related to argument 'checkpointdir') - can't change the directory while appendonly is on"));
    }

    [Test]
    public void ProtectedUnlessAllowed()
    {
        _server.Start(configure: o => o.EnableAof = false);
        using var c = _server.Connect();
        Assert.That(c.Execute("CONFIG", "SET", "dir", _other),
            Is.EqualTo("-ERR CONFIG SET failed (possibly related to argument 'dir') - can't set protected config\r\n"));
    }
}
