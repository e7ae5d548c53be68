using NUnit.Framework;
using static Garnet.test.Scripting.EvalTests;

namespace Garnet.test.Scripting;

/// <summary>SCRIPT LOAD / EXISTS / FLUSH / KILL / HELP and CONFIG lua-time-limit.</summary>
public class ScriptCommandTests : ServerTestBase
{
    [Test]
    public void LoadExistsFlush()
    {
        using var client = ConnectRaw();
        const string Script = "return ARGV[1] .. '!'";
        string sha = Sha1(Script);
        Assert.That(client.Execute("SCRIPT", "EXISTS", sha, "nope"), Is.EqualTo("*2\r\n:0\r\n:0\r\n"));
        Assert.That(client.Execute("SCRIPT", "LOAD", Script), Is.EqualTo(Bulk(sha)));
        Assert.That(client.Execute("script", "exists", sha, sha.ToUpperInvariant(), "nope"), Is.EqualTo("*3\r\n:1\r\n:1\r\n:0\r\n"));
        Assert.That(client.Execute("EVALSHA", sha, "0", "hi"), Is.EqualTo(Bulk("hi!")));
        using (var other = ConnectRaw())
            Assert.That(other.Execute("EVALSHA", sha, "0", "there"), Is.EqualTo(Bulk("there!")));

        Assert.That(client.Execute("SCRIPT", "FLUSH"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SCRIPT", "EXISTS", sha), Is.EqualTo("*1\r\n:0\r\n"));
        Assert.That(client.Execute("EVALSHA", sha, "0"), Is.EqualTo("-NOSCRIPT No matching script. Please use EVAL.\r\n"));
        client.Execute("SCRIPT", "LOAD", Script);
        Assert.That(client.Execute("SCRIPT", "FLUSH", "ASYNC"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SCRIPT", "FLUSH", "sync"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("SCRIPT", "FLUSH", "LATER"), Is.EqualTo("-ERR SCRIPT FLUSH only support SYNC|ASYNC option\r\n"));
        Assert.That(client.Execute("SCRIPT", "EXISTS", sha), Is.EqualTo("*1\r\n:0\r\n"));
    }

    [Test]
    public void LoadRejectsScriptsThatDoNotCompile()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SCRIPT", "LOAD", "return +"), Does.StartWith("-ERR Error compiling script (new function): user_script:1:"));
        Assert.That(client.Execute("SCRIPT", "EXISTS", Sha1("return +")), Is.EqualTo("*1\r\n:0\r\n"));
    }

    [Test]
    public void ArityHelpAndUnknownSubcommands()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SCRIPT", "LOAD"), Is.EqualTo("-ERR wrong number of arguments for 'script|load' command\r\n"));
        Assert.That(client.Execute("SCRIPT", "EXISTS"), Is.EqualTo("-ERR wrong number of arguments for 'script|exists' command\r\n"));
        Assert.That(client.Execute("SCRIPT", "KILL", "x"), Is.EqualTo("-ERR wrong number of arguments for 'script|kill' command\r\n"));
        Assert.That(client.Execute("SCRIPT"), Is.EqualTo("-ERR wrong number of arguments for 'script' command\r\n"));
        Assert.That(client.Execute("SCRIPT", "NOPE"), Is.EqualTo("-ERR unknown subcommand 'NOPE'. Try SCRIPT HELP.\r\n"));
        string help = client.Execute("SCRIPT", "HELP");
        Assert.That(help, Does.StartWith("*17\r\n+SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n").And.Contain("+LOAD <script>\r\n").And.Contain("+KILL\r\n"));
    }

    [Test]
    public void KillWhenIdle()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SCRIPT", "KILL"), Is.EqualTo("-NOTBUSY No scripts in execution right now.\r\n"));
    }

    [Test]
    public void TimeLimitConfiguration()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("CONFIG", "GET", "lua-time-limit"), Is.EqualTo("*2\r\n$14\r\nlua-time-limit\r\n$4\r\n5000\r\n"));
        Assert.That(client.Execute("CONFIG", "SET", "lua-time-limit", "250"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("CONFIG", "GET", "lua-time-limit"), Is.EqualTo("*2\r\n$14\r\nlua-time-limit\r\n$3\r\n250\r\n"));
    }
}
