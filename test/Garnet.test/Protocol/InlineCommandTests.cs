using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Protocol;

/// <summary>Inline commands (a line of text, as typed in telnet), split and unquoted as Redis's sdssplitargs does.</summary>
[TestFixture]
public sealed class InlineCommandTests : ServerTestBase
{
    private string Run(string request, int replyLength)
    {
        using var client = new ByteClient(Port);
        client.Send(request);
        return client.Read(replyLength);
    }

    private string RunEcho(string line)
    {
        using var client = new ByteClient(Port);
        client.Send(line);
        // The reply is one bulk string: read its header, then the body.
        string header = "";
        while (!header.EndsWith("\r\n"))
            header += client.Read(1);
        Assert.That(header, Does.StartWith("$"), "a bulk reply");
        int length = int.Parse(header.Substring(1, header.Length - 3));
        string body = client.Read(length + 2);
        return body.Substring(0, length);
    }

    [TestCase("PING\r\n")]
    [TestCase("PING\n")]
    [TestCase("ping\r\n")]
    [TestCase("   PING   \r\n")]
    [TestCase("\tPING\t\r\n")]
    [TestCase("PING\r\r\n")]
    public void Ping(string line) => Assert.That(Run(line, 7), Is.EqualTo("+PONG\r\n"));

    [Test]
    public void SetAndGetInline()
    {
        using var client = new ByteClient(Port);
        client.Send("SET a b\nGET a\r\nSET  spaced   out \r\nGET spaced\n");
        string expected = Ok + Bulk("b") + Ok + Bulk("out");
        Assert.That(client.Read(expected.Length), Is.EqualTo(expected));
    }

    [TestCase("ECHO \"\\x41\\x4a\\n\"\r\n", "AJ\n")]
    [TestCase("ECHO \"\\x4\"\r\n", "x4")]
    [TestCase("ECHO \"\\xZZ\"\r\n", "xZZ")]
    [TestCase("ECHO \"\\xe9\\xFF\\x00\"\r\n", "\u00e9\u00ff\0")]
    [TestCase("ECHO \"a\\tb\\rc\\bd\\ae\"\r\n", "a\tb\rc\bd\ae")]
    [TestCase("ECHO \"a\\qb\"\r\n", "aqb")]
    [TestCase("ECHO \"\\\"\"\r\n", "\"")]
    [TestCase("ECHO \"\\\\\"\r\n", "\\")]
    [TestCase("ECHO \"a b\"\r\n", "a b")]
    [TestCase("ECHO 'a b'\r\n", "a b")]
    [TestCase("ECHO 'it\\'s'\r\n", "it's")]
    [TestCase("ECHO 'a\\nb'\r\n", "a\\nb")]
    [TestCase("ECHO 'a\"b'\r\n", "a\"b")]
    [TestCase("ECHO \"a'b\"\r\n", "a'b")]
    [TestCase("ECHO \"\"\r\n", "")]
    [TestCase("ECHO ''\r\n", "")]
    [TestCase("ECHO a\"b\"\r\n", "ab")]
    [TestCase("ECHO \"quoted\"\r\n", "quoted")]
    [TestCase("ECHO \"trailing\"   \r\n", "trailing")]
    public void QuotingAndEscapes(string line, string expected) => Assert.That(RunEcho(line), Is.EqualTo(expected));

    [Test]
    public void QuotedArgumentsCountOnce()
    {
        using var client = new ByteClient(Port);
        client.Send("SET \"my key\" 'my value'\r\nGET \"my key\"\r\nECHO \"a\" \"b\"\r\n");
        string expected = Ok + Bulk("my value") + WrongArity("echo");
        Assert.That(client.Read(expected.Length), Is.EqualTo(expected));
    }

    [Test]
    public void InlineAndResp2MixedInOneWrite()
    {
        using var client = new ByteClient(Port);
        client.Send("SET k 1\r\n" + RawClient.Encode("INCR", "k") + "INCR k\n" + RawClient.Encode("GET", "k"));
        string expected = Ok + Integer(2) + Integer(3) + Bulk("3");
        Assert.That(client.Read(expected.Length), Is.EqualTo(expected));
    }

    [Test]
    public void CarriageReturnsInsideALineSeparateArguments()
    {
        Assert.That(Run("ECHO a\rb\r\n", WrongArity("echo").Length), Is.EqualTo(WrongArity("echo")));
    }

    [Test]
    public void ALineNearTheLimitIsAccepted()
    {
        string value = new('v', 60000);
        Assert.That(RunEcho("ECHO " + value + "\r\n"), Is.EqualTo(value));
    }

    [Test]
    public void UnknownInlineCommand()
    {
        string expected = "-ERR unknown command 'FOO', with args beginning with: 'bar' 'baz' \r\n";
        Assert.That(Run("FOO bar \"baz\"\r\n", expected.Length), Is.EqualTo(expected));
    }
}
