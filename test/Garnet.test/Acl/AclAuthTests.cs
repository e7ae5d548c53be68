using System.IO;
using System.Security.Cryptography;
using System.Text;
using NUnit.Framework;

namespace Garnet.test.Acl;

/// <summary>Logging in as ACL users (AUTH, HELLO ... AUTH, RESET), closing their connections on DELUSER, CLIENT LIST's user=.</summary>
[TestFixture]
public sealed class AclAuthTests : ServerTestBase
{
    private const string WrongPass = "-WRONGPASS invalid username-password pair or user is disabled.\r\n";

    [Test]
    public void AuthAsUsers()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("ACL", "SETUSER", "u", "on", ">secret", "+@all", "~*"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("ACL", "SETUSER", "off-user", "off", ">secret", "+@all"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("ACL", "SETUSER", "free", "on", "nopass", "+@all"), Is.EqualTo("+OK\r\n"));

        using var client = ConnectRaw();
        Assert.That(client.Execute("AUTH", "u", "wrong"), Is.EqualTo(WrongPass));
        Assert.That(client.Execute("AUTH", "nosuch", "secret"), Is.EqualTo(WrongPass));
        Assert.That(client.Execute("AUTH", "off-user", "secret"), Is.EqualTo(WrongPass));
        Assert.That(client.Execute("ACL", "WHOAMI"), Is.EqualTo("$7\r\ndefault\r\n"));
        Assert.That(client.Execute("AUTH", "u", "secret"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("ACL", "WHOAMI"), Is.EqualTo("$1\r\nu\r\n"));
        Assert.That(client.Execute("CLIENT", "INFO"), Does.Contain(" user=u "));
        Assert.That(admin.Execute("CLIENT", "LIST"), Does.Contain(" user=u ").And.Contain(" user=default "));
        Assert.That(admin.Execute("CLIENT", "KILL", "USER", "nosuch"), Is.EqualTo("-ERR No such user 'nosuch'\r\n"));
        Assert.That(admin.Execute("CLIENT", "KILL", "USER", "free"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("AUTH", "free", "anything"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("ACL", "WHOAMI"), Is.EqualTo("$4\r\nfree\r\n"));
        // The one-argument form means the default user, which has no password here.
        Assert.That(client.Execute("AUTH", "x"), Does.StartWith("-ERR AUTH <password> called without any password configured for the default user."));
        Assert.That(client.Execute("RESET"), Is.EqualTo("+RESET\r\n"));
        Assert.That(client.Execute("ACL", "WHOAMI"), Is.EqualTo("$7\r\ndefault\r\n"));
        Assert.That(client.Execute("AUTH", "free", "x"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("CLIENT", "KILL", "USER", "free"), Is.EqualTo(":1\r\n"));
        Assert.That(client.IsClosedByServer(), Is.True);
    }

    [Test]
    public void HelloAuth()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("ACL", "SETUSER", "u", "on", ">secret", "+@all", "~*"), Is.EqualTo("+OK\r\n"));
        using var client = ConnectRaw();
        Assert.That(client.Execute("HELLO", "3", "AUTH", "u", "wrong"), Is.EqualTo(WrongPass));
        Assert.That(client.Execute("HELLO", "3", "AUTH", "u", "secret"), Does.StartWith("%7\r\n"));
        Assert.That(client.Execute("ACL", "WHOAMI"), Is.EqualTo("$1\r\nu\r\n"));
        Assert.That(admin.Execute("ACL", "LOG"), Does.Contain("$6\r\nobject\r\n$5\r\nHELLO\r\n"));
    }

    [Test]
    public void DefaultUserWithAPasswordRequiresAuth()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("ACL", "SETUSER", "default", "resetpass", ">pw"), Is.EqualTo("+OK\r\n"));
        // Connections made while the default user had nopass stay logged in, as in Redis.
        Assert.That(admin.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        using var client = ConnectRaw();
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("-NOAUTH Authentication required.\r\n"));
        Assert.That(client.Execute("AUTH", "wrong"), Is.EqualTo(WrongPass));
        Assert.That(client.Execute("AUTH", "pw"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$-1\r\n"));
        using var third = ConnectRaw();
        Assert.That(admin.Execute("ACL", "SETUSER", "default", "nopass", "-get"), Is.EqualTo("+OK\r\n"));
        Assert.That(third.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(third.Execute("GET", "k"), Is.EqualTo("-NOPERM User default has no permissions to run the 'get' command\r\n"));
    }

    [Test]
    public void ConfigSetRequirePassIsTheDefaultUsersPassword()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "requirepass", "pw"), Is.EqualTo("+OK\r\n"));
        string hash = System.Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes("pw"))).ToLowerInvariant();
        Assert.That(admin.Execute("ACL", "LIST"), Does.Contain($"user default on #{hash} ~* &* +@all\r\n"));
        using var client = ConnectRaw();
        Assert.That(client.Execute("AUTH", "default", "pw"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("CONFIG", "SET", "requirepass", ""), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("ACL", "LIST"), Does.Contain("user default on nopass ~* &* +@all\r\n"));
    }

    [Test]
    public void DeletedUsersAreDisconnected()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("ACL", "SETUSER", "u", "on", ">p", "+@all", "~*"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("ACL", "SETUSER", "keep", "on", ">p", "+@all", "~*"), Is.EqualTo("+OK\r\n"));
        using var victim = ConnectRaw();
        using var survivor = ConnectRaw();
        Assert.That(victim.Execute("AUTH", "u", "p"), Is.EqualTo("+OK\r\n"));
        Assert.That(survivor.Execute("AUTH", "keep", "p"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("ACL", "DELUSER", "u"), Is.EqualTo(":1\r\n"));
        Assert.That(victim.IsClosedByServer(), Is.True);
        Assert.That(survivor.Execute("PING"), Is.EqualTo("+PONG\r\n"));

        // A connection deleting its own user gets the reply, then is closed.
        Assert.That(survivor.Execute("ACL", "DELUSER", "keep"), Is.EqualTo(":1\r\n"));
        Assert.That(survivor.IsClosedByServer(), Is.True);
    }
}

/// <summary>A server started with --password: the default user has it instead of nopass.</summary>
[TestFixture]
public sealed class AclPasswordTests : ServerTestBase
{
    protected override TestServerOptions ServerOptions => new() { Password = "pw" };

    [Test]
    public void DefaultUserHasThePassword()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("ACL", "WHOAMI"), Is.EqualTo("-NOAUTH Authentication required.\r\n"));
        Assert.That(client.Execute("AUTH", "default", "pw"), Is.EqualTo("+OK\r\n"));
        string hash = System.Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes("pw"))).ToLowerInvariant();
        string line = $"user default on #{hash} ~* &* +@all";
        Assert.That(client.Execute("ACL", "LIST"), Is.EqualTo($"*1\r\n${line.Length}\r\n{line}\r\n"));
    }
}

/// <summary>A server started with an ACL file: loading at start, ACL SAVE and ACL LOAD.</summary>
[TestFixture]
public sealed class AclFileTests : ServerTestBase
{
    private readonly string _file = Path.Combine(Path.GetTempPath(), "garnet-acl-" + System.Guid.NewGuid().ToString("N") + ".acl");

    protected override TestServerOptions ServerOptions
    {
        get
        {
            File.WriteAllText(_file, "user default on nopass ~* &* +@all\nuser alice on >a ~a:* resetchannels -@all +get (~b:* +set)\n\n");
            return new() { AclFile = _file };
        }
    }

    [TearDown]
    public void DeleteFile()
    {
        File.Delete(_file);
        File.Delete(_file + ".tmp");
    }

    private static string Sha(string password) => System.Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(password))).ToLowerInvariant();

    [Test]
    public void UsersComeFromTheFile()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("ACL", "LIST"), Does.Contain($"user alice on #{Sha("a")} ~a:* resetchannels -@all +get (~b:* resetchannels -@all +set)\r\n"));
        Assert.That(client.Execute("AUTH", "alice", "a"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SET", "b:1", "v"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void SaveThenLoadRoundTrips()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("ACL", "SETUSER", "bob", "on", ">b", "%R~r:*", "&ch", "+@read", "-get"), Is.EqualTo("+OK\r\n"));
        string before = admin.Execute("ACL", "LIST");
        Assert.That(admin.Execute("ACL", "SAVE"), Is.EqualTo("+OK\r\n"));
        Assert.That(File.ReadAllText(_file), Does.Contain("user bob on #" + Sha("b") + " %R~r:* resetchannels &ch -@all +@read -get\n"));

        using var bob = ConnectRaw();
        Assert.That(bob.Execute("AUTH", "bob", "b"), Is.EqualTo("+OK\r\n"));
        using var alice = ConnectRaw();
        Assert.That(alice.Execute("AUTH", "alice", "a"), Is.EqualTo("+OK\r\n"));

        Assert.That(admin.Execute("ACL", "SETUSER", "bob", "+get"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("ACL", "SETUSER", "carol", "on"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("ACL", "LOAD"), Is.EqualTo("+OK\r\n"));
        Assert.That(admin.Execute("ACL", "LIST"), Is.EqualTo(before));
        // bob's rules changed back, so his connection is closed; alice's did not change.
        Assert.That(bob.IsClosedByServer(), Is.True);
        Assert.That(alice.Execute("GET", "a:1"), Is.EqualTo("$-1\r\n"));
    }

    [Test]
    public void ABadFileChangesNothing()
    {
        using var admin = ConnectRaw();
        string before = admin.Execute("ACL", "LIST");
        File.WriteAllText(_file, "user default on nopass ~* &* +@all\nuser x on +nosuch\nnot a user line\n");
        string error = admin.Execute("ACL", "LOAD");
        Assert.That(error, Does.StartWith("-ERR ").And.Contain(":2: Unknown command or category name in ACL.").And.Contain(":3: should start with user keyword."));
        Assert.That(admin.Execute("ACL", "LIST"), Is.EqualTo(before));
    }
}
