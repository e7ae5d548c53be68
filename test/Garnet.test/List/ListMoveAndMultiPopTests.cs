using NUnit.Framework;
using static Garnet.test.List.ListTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.List;

/// <summary>LMOVE, RPOPLPUSH and LMPOP.</summary>
[TestFixture]
public sealed class ListMoveAndMultiPopTests : ServerTestBase
{
    [TestCase("LEFT", "LEFT", "a", new[] { "b", "c" }, new[] { "a", "x", "y" })]
    [TestCase("LEFT", "RIGHT", "a", new[] { "b", "c" }, new[] { "x", "y", "a" })]
    [TestCase("RIGHT", "LEFT", "c", new[] { "a", "b" }, new[] { "c", "x", "y" })]
    [TestCase("right", "right", "c", new[] { "a", "b" }, new[] { "x", "y", "c" })]
    public void MoveBetweenLists(string from, string to, string moved, string[] source, string[] destination)
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "src", "a", "b", "c");
        client.Execute("RPUSH", "dst", "x", "y");
        Assert.That(client.Execute("LMOVE", "src", "dst", from, to), Is.EqualTo(Bulk(moved)));
        Assert.That(client.Execute("LRANGE", "src", "0", "-1"), Is.EqualTo(Bulks(source)));
        Assert.That(client.Execute("LRANGE", "dst", "0", "-1"), Is.EqualTo(Bulks(destination)));
    }

    [Test]
    public void MoveCreatesTheDestinationAndDeletesAnEmptiedSource()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "src", "only\0one");
        Assert.That(client.Execute("LMOVE", "src", "dst", "LEFT", "RIGHT"), Is.EqualTo(Bulk("only\0one")));
        Assert.That(client.Execute("EXISTS", "src"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("LRANGE", "dst", "0", "-1"), Is.EqualTo(Bulks("only\0one")));
        Assert.That(client.Execute("LMOVE", "src", "dst", "LEFT", "RIGHT"), Is.EqualTo(Nil));
        Assert.That(client.Execute("LLEN", "dst"), Is.EqualTo(Integer(1)));
    }

    [Test]
    public void MoveWithinOneListRotates()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a", "b", "c");
        Assert.That(client.Execute("LMOVE", "l", "l", "LEFT", "RIGHT"), Is.EqualTo(Bulk("a")));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("b", "c", "a")));
        Assert.That(client.Execute("LMOVE", "l", "l", "RIGHT", "LEFT"), Is.EqualTo(Bulk("a")));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("a", "b", "c")));
        Assert.That(client.Execute("LMOVE", "l", "l", "LEFT", "LEFT"), Is.EqualTo(Bulk("a")));
        Assert.That(client.Execute("LMOVE", "l", "l", "RIGHT", "RIGHT"), Is.EqualTo(Bulk("c")));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("a", "b", "c")));
        Assert.That(client.Execute("RPOPLPUSH", "l", "l"), Is.EqualTo(Bulk("c")));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("c", "a", "b")));
        Assert.That(client.Execute("LMOVE", "none", "none", "LEFT", "RIGHT"), Is.EqualTo(Nil));
        Assert.That(client.Execute("EXISTS", "none"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void MoveTypeChecks()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a");
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("LMOVE", "s", "l", "LEFT", "LEFT"), Is.EqualTo(WrongType));
        // The destination is checked before anything is popped.
        Assert.That(client.Execute("LMOVE", "l", "s", "LEFT", "LEFT"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("RPOPLPUSH", "l", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("a")));
        Assert.That(client.Execute("LMOVE", "s", "s", "LEFT", "LEFT"), Is.EqualTo(WrongType));
        // A missing source answers nil, whatever the destination holds.
        Assert.That(client.Execute("LMOVE", "none", "s", "LEFT", "LEFT"), Is.EqualTo(Nil));
        Assert.That(client.Execute("RPOPLPUSH", "none", "s"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GET", "s"), Is.EqualTo(Bulk("v")));
    }

    [Test]
    public void MoveSyntaxAndArityErrors()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a");
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("LMOVE", "l", "d", "UP", "LEFT"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("LMOVE", "l", "d", "LEFT", "DOWN"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("LMOVE", "s", "d", "UP", "LEFT"), Is.EqualTo(SyntaxError), "syntax is checked before the type");
        Assert.That(client.Execute("LMOVE", "l", "d", "LEFT"), Is.EqualTo(WrongArity("lmove")));
        Assert.That(client.Execute("RPOPLPUSH", "l"), Is.EqualTo(WrongArity("rpoplpush")));
        Assert.That(client.Execute("LLEN", "l"), Is.EqualTo(Integer(1)));
    }

    [Test]
    public void RPopLPush()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "src", "a", "b", "c");
        Assert.That(client.Execute("RPOPLPUSH", "src", "dst"), Is.EqualTo(Bulk("c")));
        Assert.That(client.Execute("RPOPLPUSH", "src", "dst"), Is.EqualTo(Bulk("b")));
        Assert.That(client.Execute("LRANGE", "dst", "0", "-1"), Is.EqualTo(Bulks("b", "c")));
        Assert.That(client.Execute("LRANGE", "src", "0", "-1"), Is.EqualTo(Bulks("a")));
        Assert.That(client.Execute("RPOPLPUSH", "none", "dst"), Is.EqualTo(Nil));
    }

    [Test]
    public void MoveResp3Null()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("LMOVE", "none", "d", "LEFT", "LEFT"), Is.EqualTo(Resp3Null));
        Assert.That(client.Execute("RPOPLPUSH", "none", "d"), Is.EqualTo(Resp3Null));
    }

    [Test]
    public void MultiPopTakesTheFirstNonEmptyList()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "b", "1", "2", "3");
        client.Execute("RPUSH", "c", "x");
        Assert.That(client.Execute("LMPOP", "3", "a", "b", "c", "LEFT"), Is.EqualTo(Array(Bulk("b"), Bulks("1"))));
        Assert.That(client.Execute("LMPOP", "3", "a", "b", "c", "RIGHT", "COUNT", "5"), Is.EqualTo(Array(Bulk("b"), Bulks("3", "2"))));
        Assert.That(client.Execute("EXISTS", "b"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("LMPOP", "3", "a", "b", "c", "left", "count", "1"), Is.EqualTo(Array(Bulk("c"), Bulks("x"))));
        Assert.That(client.Execute("LMPOP", "3", "a", "b", "c", "LEFT"), Is.EqualTo(NilArray));
        Assert.That(client.Execute("EXISTS", "a", "b", "c"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void MultiPopCount()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a", "b", "c", "d");
        Assert.That(client.Execute("LMPOP", "1", "l", "LEFT", "COUNT", "2"), Is.EqualTo(Array(Bulk("l"), Bulks("a", "b"))));
        Assert.That(client.Execute("LMPOP", "1", "l", "RIGHT", "COUNT", "1"), Is.EqualTo(Array(Bulk("l"), Bulks("d"))));
        Assert.That(client.Execute("LLEN", "l"), Is.EqualTo(Integer(1)));
    }

    [Test]
    public void MultiPopWrongTypeStopsAtThatKey()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "v");
        client.Execute("RPUSH", "l", "a");
        Assert.That(client.Execute("LMPOP", "2", "s", "l", "LEFT"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LLEN", "l"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("LMPOP", "2", "l", "s", "LEFT"), Is.EqualTo(Array(Bulk("l"), Bulks("a"))), "keys after a non-empty list are not looked at");
        Assert.That(client.Execute("LMPOP", "2", "none", "s", "LEFT"), Is.EqualTo(WrongType));
    }

    [Test]
    public void MultiPopArgumentErrors()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a");
        const string NumKeys = "-ERR numkeys should be greater than 0\r\n";
        const string Count = "-ERR count should be greater than 0\r\n";
        Assert.That(client.Execute("LMPOP", "0", "l", "LEFT"), Is.EqualTo(NumKeys));
        Assert.That(client.Execute("LMPOP", "-1", "l", "LEFT"), Is.EqualTo(NumKeys));
        Assert.That(client.Execute("LMPOP", "x", "l", "LEFT"), Is.EqualTo(NumKeys));
        Assert.That(client.Execute("LMPOP", "2", "l", "LEFT"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("LMPOP", "9223372036854775807", "l", "LEFT"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("LMPOP", "1", "l", "UP"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("LMPOP", "1", "l", "LEFT", "COUNT"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("LMPOP", "1", "l", "LEFT", "COUNT", "0"), Is.EqualTo(Count));
        Assert.That(client.Execute("LMPOP", "1", "l", "LEFT", "COUNT", "-1"), Is.EqualTo(Count));
        Assert.That(client.Execute("LMPOP", "1", "l", "LEFT", "COUNT", "x"), Is.EqualTo(Count));
        Assert.That(client.Execute("LMPOP", "1", "l", "LEFT", "COUNT", "1", "COUNT", "1"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("LMPOP", "1", "l", "LEFT", "FOO"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("LMPOP", "1", "l"), Is.EqualTo(WrongArity("lmpop")));
        Assert.That(client.Execute("LLEN", "l"), Is.EqualTo(Integer(1)), "nothing was popped by a failed command");
    }

    [Test]
    public void MultiPopResp3()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("LMPOP", "1", "none", "LEFT"), Is.EqualTo(Resp3Null));
        client.Execute("RPUSH", "l", "a", "b");
        Assert.That(client.Execute("LMPOP", "1", "l", "RIGHT", "COUNT", "2"), Is.EqualTo(Array(Bulk("l"), Bulks("b", "a"))));
    }
}
