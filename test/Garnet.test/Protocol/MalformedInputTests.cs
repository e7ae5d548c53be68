using System.Collections.Generic;
using NUnit.Framework;

namespace Garnet.test.Protocol;

/// <summary>
/// Malformed requests get Redis's exact protocol error, then the server closes that connection (after
/// replying to the commands before the bad one) and keeps serving everyone else.
/// </summary>
[TestFixture]
public sealed class MalformedInputTests : ServerTestBase
{
    private const string InvalidMultibulk = "-ERR Protocol error: invalid multibulk length\r\n";
    private const string InvalidBulk = "-ERR Protocol error: invalid bulk length\r\n";

    private static IEnumerable<TestCaseData> BadFrames()
    {
        yield return Case("*abc\r\n", InvalidMultibulk, "non-numeric count");
        yield return Case("*\r\n", InvalidMultibulk, "empty count");
        yield return Case("*1x\r\n", InvalidMultibulk, "trailing junk in count");
        yield return Case("*+1\r\n$4\r\nPING\r\n", InvalidMultibulk, "plus sign in count");
        yield return Case("*01\r\n$4\r\nPING\r\n", InvalidMultibulk, "leading zero in count");
        yield return Case("*-0\r\n", InvalidMultibulk, "minus zero count");
        yield return Case("* 1\r\n", InvalidMultibulk, "space in count");
        yield return Case("*1\n$4\r\nPING\r\n", InvalidMultibulk, "count ended by a bare newline");
        yield return Case("*2147483648\r\n", InvalidMultibulk, "count above INT_MAX");
        yield return Case("*99999999999999999999\r\n", InvalidMultibulk, "count overflowing 64 bits");
        yield return Case("*1\r\n$abc\r\n", InvalidBulk, "non-numeric bulk length");
        yield return Case("*1\r\n$\r\n", InvalidBulk, "empty bulk length");
        yield return Case("*1\r\n$-1\r\n", InvalidBulk, "null bulk string in a request");
        yield return Case("*1\r\n$-5\r\n", InvalidBulk, "negative bulk length");
        yield return Case("*1\r\n$-0\r\n", InvalidBulk, "minus zero bulk length");
        yield return Case("*1\r\n$04\r\nPING\r\n", InvalidBulk, "leading zero in bulk length");
        yield return Case("*1\r\n$+4\r\nPING\r\n", InvalidBulk, "plus sign in bulk length");
        yield return Case("*1\r\n$4x\r\nPING\r\n", InvalidBulk, "trailing junk in bulk length");
        yield return Case("*1\r\n$536870913\r\n", InvalidBulk, "bulk over 512 MB");
        yield return Case("*1\r\n$9999999999\r\n", InvalidBulk, "huge bulk length");
        yield return Case("*1\r\n$99999999999999999999\r\n", InvalidBulk, "bulk length overflowing 64 bits");
        yield return Case("*1\r\n+PING\r\n", "-ERR Protocol error: expected '$', got '+'\r\n", "simple string in a request");
        yield return Case("*1\r\n:1\r\n", "-ERR Protocol error: expected '$', got ':'\r\n", "integer in a request");
        yield return Case("*2\r\n$4\r\nECHO\r\n*1\r\n", "-ERR Protocol error: expected '$', got '*'\r\n", "nested array");
        yield return Case("*1\r\n\u00ff\r\n", "-ERR Protocol error: expected '$', got '\u00ff'\r\n", "the byte is shown as is");
        yield return Case("*1\r\n\r\n", "-ERR Protocol error: expected '$', got ' '\r\n", "a carriage return is shown as a space");
        yield return Case("*" + new string('1', 70000), "-ERR Protocol error: too big mbulk count string\r\n", "count line over 64 KB");
        yield return Case("*1\r\n$" + new string('1', 70000), "-ERR Protocol error: too big bulk count string\r\n", "bulk length line over 64 KB");
        yield return Case(new string('A', 70000), "-ERR Protocol error: too big inline request\r\n", "inline line over 64 KB");
        yield return Case("ECHO \"abc\r\n", "-ERR Protocol error: unbalanced quotes in request\r\n", "unclosed double quote");
        yield return Case("ECHO 'abc\r\n", "-ERR Protocol error: unbalanced quotes in request\r\n", "unclosed single quote");
        yield return Case("ECHO \"a\"b\r\n", "-ERR Protocol error: unbalanced quotes in request\r\n", "closing quote not followed by a space");
        yield return Case("ECHO \"a\\\r\n", "-ERR Protocol error: unbalanced quotes in request\r\n", "escaped closing quote");
    }

    private static TestCaseData Case(string input, string error, string name) => new TestCaseData(input, error).SetName("{m}: " + name);

    [TestCaseSource(nameof(BadFrames))]
    public void ErrorThenClose(string input, string expected)
    {
        using var bad = new ByteClient(Port);
        bad.Send(input);
        string received = bad.ReadUntilClosed(out bool closed);
        Assert.That(received, Is.EqualTo(expected));
        Assert.That(closed, Is.True, "the server closes the connection");

        using var other = ConnectRaw();
        Assert.That(other.Execute("PING"), Is.EqualTo("+PONG\r\n"), "the server keeps serving other clients");
    }

    [Test]
    public void CommandsBeforeTheBadFrameAreAnswered()
    {
        using var client = new ByteClient(Port);
        client.Send(RawClient.Encode("SET", "k", "v") + RawClient.Encode("ECHO", "hi") + "*1\r\n+x\r\n" + RawClient.Encode("SET", "k", "after"));
        Assert.That(client.ReadUntilClosed(out bool closed), Is.EqualTo("+OK\r\n$2\r\nhi\r\n-ERR Protocol error: expected '$', got '+'\r\n"));
        Assert.That(closed, Is.True);
        using var other = ConnectRaw();
        Assert.That(other.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"), "nothing after the bad frame ran");
    }

    [Test]
    public void ErrorInAFrameSplitAcrossReads()
    {
        using var client = new ByteClient(Port);
        client.SendInPieces("*2\r\n$4\r\nECHO\r\n$-7\r\n", pieceLength: 3);
        Assert.That(client.ReadUntilClosed(out bool closed), Is.EqualTo(InvalidBulk));
        Assert.That(closed, Is.True);
    }

    [TestCase("*0\r\n")]
    [TestCase("*-1\r\n")]
    [TestCase("*-5\r\n")]
    [TestCase("\r\n")]
    [TestCase("\n")]
    [TestCase("   \r\n")]
    [TestCase("\t \r\n")]
    public void EmptyRequestsAreIgnored(string empty)
    {
        using var client = new ByteClient(Port);
        client.Send(empty + empty + "*1\r\n$4\r\nPING\r\n" + empty + "PING\r\n");
        Assert.That(client.Read(14), Is.EqualTo("+PONG\r\n+PONG\r\n"));
    }

    [Test]
    public void BulkDataIsTakenByLengthNotByTerminator()
    {
        // Like Redis, the two bytes after the data are skipped unchecked.
        using var client = new ByteClient(Port);
        client.Send("*2\r\n$4\r\nECHO\r\n$3\r\na\r\nxy*1\r\n$4\r\nPING\r\n");
        Assert.That(client.Read(16), Is.EqualTo("$3\r\na\r\n\r\n+PONG\r\n"));
    }

    [Test]
    public void AClientDisconnectingMidFrameHarmsNoOne()
    {
        using (var quitter = new ByteClient(Port))
        {
            quitter.Send("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$100\r\nonly part of the value");
            quitter.Abort();
        }
        using (var closer = new ByteClient(Port))
        {
            closer.Send("*2\r\n$3\r\nGET\r\n$1\r");
        }
        using (var half = new ByteClient(Port))
        {
            half.Send("SET k inline-but-never-finished");
        }

        using var other = ConnectRaw();
        Assert.That(other.Execute("GET", "k"), Is.EqualTo("$-1\r\n"), "the unfinished SET never ran");
        Assert.That(other.Execute("SET", "k", "v"), Is.EqualTo("+OK\r\n"));
        Assert.That(other.Execute("GET", "k"), Is.EqualTo("$1\r\nv\r\n"));
    }

    [Test]
    public void ManyBadClientsInARow()
    {
        for (int i = 0; i < 50; i++)
        {
            using var bad = new ByteClient(Port);
            bad.Send(i % 2 == 0 ? "*x\r\n" : "*1\r\n$-2\r\n");
            bad.ReadUntilClosed(out bool closed);
            Assert.That(closed, Is.True);
        }
        using var other = ConnectRaw();
        Assert.That(other.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }
}

/// <summary>Before AUTH, Redis caps the size of a request; the caps close the connection like other protocol errors.</summary>
[TestFixture]
public sealed class UnauthenticatedLimitTests : ServerTestBase
{
    protected override TestServerOptions ServerOptions => new() { Password = "secret" };

    [Test]
    public void MoreThanTenArgumentsAreRefused()
    {
        using var client = new ByteClient(Port);
        client.Send("*11\r\n");
        Assert.That(client.ReadUntilClosed(out bool closed), Is.EqualTo("-ERR Protocol error: unauthenticated multibulk length\r\n"));
        Assert.That(closed, Is.True);
    }

    [Test]
    public void ArgumentsOver16KilobytesAreRefused()
    {
        using var client = new ByteClient(Port);
        client.Send("*2\r\n$4\r\nECHO\r\n$16385\r\n");
        Assert.That(client.ReadUntilClosed(out bool closed), Is.EqualTo("-ERR Protocol error: unauthenticated bulk length\r\n"));
        Assert.That(closed, Is.True);
    }

    [Test]
    public void RequestsWithinTheCapsGetNoAuth()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("ECHO", new string('x', 16384)), Is.EqualTo("-NOAUTH Authentication required.\r\n"));
        var ten = new string[10];
        ten[0] = "MGET";
        for (int i = 1; i < ten.Length; i++)
            ten[i] = "k" + i;
        Assert.That(client.Execute(ten), Is.EqualTo("-NOAUTH Authentication required.\r\n"));
    }
}
