using System.Linq;
using NUnit.Framework;
using static Garnet.test.List.ListTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.List;

/// <summary>LINSERT, LREM and LPOS.</summary>
[TestFixture]
public sealed class ListSearchAndEditTests : ServerTestBase
{
    private const string RankZero = "-ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the last match\r\n";

    [Test]
    public void InsertBeforeAndAfter()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a", "b", "c", "b");
        Assert.That(client.Execute("LINSERT", "l", "BEFORE", "b", "x"), Is.EqualTo(Integer(5)));
        Assert.That(client.Execute("LINSERT", "l", "after", "b", "y"), Is.EqualTo(Integer(6)));
        Assert.That(client.Execute("LINSERT", "l", "Before", "a", "head"), Is.EqualTo(Integer(7)));
        Assert.That(client.Execute("LINSERT", "l", "AFTER", "c", "\0"), Is.EqualTo(Integer(8)));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("head", "a", "x", "b", "y", "c", "\0", "b")));
        Assert.That(client.Execute("LINSERT", "l", "AFTER", "b", "tail"), Is.EqualTo(Integer(9)), "the first pivot from the head is used");
        Assert.That(client.Execute("LINDEX", "l", "4"), Is.EqualTo(Bulk("tail")));
    }

    [Test]
    public void InsertAtTheEnds()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a", "z");
        Assert.That(client.Execute("LINSERT", "l", "AFTER", "z", "end"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("LINSERT", "l", "BEFORE", "a", "start"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("start", "a", "z", "end")));
    }

    [Test]
    public void InsertManyInTheMiddle()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "left", "right");
        var expected = new System.Collections.Generic.List<string> { "left", "right" };
        for (int i = 0; i < 300; i++)
        {
            // Alternate pivots so the shifts go both ways around the ring buffer.
            string pivot = i % 2 == 0 ? "left" : "right";
            string where = i % 3 == 0 ? "AFTER" : "BEFORE";
            client.Execute("LINSERT", "l", where, pivot, "v" + i);
            int at = expected.IndexOf(pivot) + (where == "AFTER" ? 1 : 0);
            expected.Insert(at, "v" + i);
        }
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks(expected.ToArray())));
    }

    [Test]
    public void InsertPivotMissingKeyAndErrors()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a");
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("LINSERT", "l", "BEFORE", "nope", "x"), Is.EqualTo(Integer(-1)));
        Assert.That(client.Execute("LINSERT", "none", "BEFORE", "a", "x"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "none"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("LINSERT", "s", "BEFORE", "a", "x"), Is.EqualTo(WrongType));
        // The position is a syntax error before the key is looked up.
        Assert.That(client.Execute("LINSERT", "l", "MIDDLE", "a", "x"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("LINSERT", "s", "MIDDLE", "a", "x"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("LINSERT", "none", "MIDDLE", "a", "x"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("LINSERT", "l", "BEFORE", "a"), Is.EqualTo(WrongArity("linsert")));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("a")));
    }

    [Test]
    public void RemoveFromHeadTailOrAll()
    {
        using var client = ConnectRaw();
        string[] values = { "x", "a", "x", "b", "x", "c", "x" };
        client.Execute(new[] { "RPUSH", "l" }.Concat(values).ToArray());
        Assert.That(client.Execute("LREM", "l", "2", "x"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("a", "b", "x", "c", "x")));

        client.Execute("DEL", "l");
        client.Execute(new[] { "RPUSH", "l" }.Concat(values).ToArray());
        Assert.That(client.Execute("LREM", "l", "-3", "x"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("x", "a", "b", "c")));
        Assert.That(client.Execute("RPUSH", "l", "end"), Is.EqualTo(Integer(5)), "the list stays consistent after compacting toward the tail");
        Assert.That(client.Execute("LPUSH", "l", "start"), Is.EqualTo(Integer(6)));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("start", "x", "a", "b", "c", "end")));

        client.Execute("DEL", "l");
        client.Execute(new[] { "RPUSH", "l" }.Concat(values).ToArray());
        Assert.That(client.Execute("LREM", "l", "0", "x"), Is.EqualTo(Integer(4)));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("a", "b", "c")));
        Assert.That(client.Execute("LREM", "l", "0", "nope"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("LREM", "l", "100", "b"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("LREM", "l", "-9223372036854775808", "a"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("c")));
    }

    [Test]
    public void RemoveEverythingDeletesTheKey()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "x", "x", "x");
        Assert.That(client.Execute("LREM", "l", "0", "x"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("EXISTS", "l"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void RemoveErrorsAndMissingKey()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("LREM", "none", "0", "x"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("LREM", "s", "0", "x"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LREM", "s", "x", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("LREM", "none", "1.5", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("LREM", "s", "0"), Is.EqualTo(WrongArity("lrem")));
    }

    [Test]
    public void PositionBasics()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a", "b", "c", "1", "2", "3", "c", "c");
        Assert.That(client.Execute("LPOS", "l", "c"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("LPOS", "l", "a"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("LPOS", "l", "nope"), Is.EqualTo(Nil));
        Assert.That(client.Execute("LPOS", "l", "c", "RANK", "2"), Is.EqualTo(Integer(6)));
        Assert.That(client.Execute("LPOS", "l", "c", "RANK", "4"), Is.EqualTo(Nil));
        Assert.That(client.Execute("LPOS", "l", "c", "RANK", "-1"), Is.EqualTo(Integer(7)));
        Assert.That(client.Execute("LPOS", "l", "c", "RANK", "-3"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("LPOS", "l", "c", "COUNT", "2"), Is.EqualTo(Integers(2, 6)));
        Assert.That(client.Execute("LPOS", "l", "c", "COUNT", "0"), Is.EqualTo(Integers(2, 6, 7)));
        Assert.That(client.Execute("LPOS", "l", "c", "COUNT", "0", "RANK", "2"), Is.EqualTo(Integers(6, 7)));
        Assert.That(client.Execute("LPOS", "l", "c", "RANK", "-1", "COUNT", "2"), Is.EqualTo(Integers(7, 6)));
        Assert.That(client.Execute("LPOS", "l", "nope", "COUNT", "0"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("LPOS", "l", "c", "MAXLEN", "2"), Is.EqualTo(Nil));
        Assert.That(client.Execute("LPOS", "l", "c", "MAXLEN", "3"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("LPOS", "l", "c", "COUNT", "0", "MAXLEN", "7"), Is.EqualTo(Integers(2, 6)));
        Assert.That(client.Execute("LPOS", "l", "a", "RANK", "-1", "MAXLEN", "7"), Is.EqualTo(Nil));
        Assert.That(client.Execute("LPOS", "l", "a", "RANK", "-1", "MAXLEN", "0"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("LPOS", "l", "c", "rank", "1", "count", "1", "maxlen", "0"), Is.EqualTo(Integers(2)));
        Assert.That(client.Execute("LPOS", "l", "c", "RANK", "1", "RANK", "2"), Is.EqualTo(Integer(6)), "a repeated option takes the last value");
    }

    [Test]
    public void PositionMissingKeyAndWrongType()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("LPOS", "none", "a"), Is.EqualTo(Nil));
        Assert.That(client.Execute("LPOS", "none", "a", "COUNT", "0"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("LPOS", "s", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LPOS", "s", "a", "COUNT", "1"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("LPOS", "l"), Is.EqualTo(WrongArity("lpos")));
    }

    [Test]
    public void PositionOptionErrors()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a");
        client.Execute("SET", "s", "v");
        Assert.That(client.Execute("LPOS", "l", "a", "RANK", "0"), Is.EqualTo(RankZero));
        Assert.That(client.Execute("LPOS", "l", "a", "RANK", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("LPOS", "l", "a", "RANK", "-9223372036854775808"),
            Is.EqualTo("-ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807\r\n"));
        Assert.That(client.Execute("LPOS", "l", "a", "RANK", "-9223372036854775807"), Is.EqualTo(Nil));
        Assert.That(client.Execute("LPOS", "l", "a", "COUNT", "-1"), Is.EqualTo("-ERR COUNT can't be negative\r\n"));
        Assert.That(client.Execute("LPOS", "l", "a", "COUNT", "x"), Is.EqualTo("-ERR COUNT can't be negative\r\n"));
        Assert.That(client.Execute("LPOS", "l", "a", "MAXLEN", "-1"), Is.EqualTo("-ERR MAXLEN can't be negative\r\n"));
        Assert.That(client.Execute("LPOS", "l", "a", "MAXLEN", "x"), Is.EqualTo("-ERR MAXLEN can't be negative\r\n"));
        Assert.That(client.Execute("LPOS", "l", "a", "RANK"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("LPOS", "l", "a", "FOO", "1"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("LPOS", "l", "a", "COUNT", "1", "MAXLEN"), Is.EqualTo(SyntaxError));
        // Options are validated before the key lookup.
        Assert.That(client.Execute("LPOS", "s", "a", "RANK", "0"), Is.EqualTo(RankZero));
        Assert.That(client.Execute("LPOS", "none", "a", "FOO"), Is.EqualTo(SyntaxError));
    }

    [Test]
    public void PositionOfBinaryElements()
    {
        using var client = ConnectRaw();
        client.Execute("RPUSH", "l", "a\0b", "a\0c", "a", "a\0b");
        Assert.That(client.Execute("LPOS", "l", "a\0b", "COUNT", "0"), Is.EqualTo(Integers(0, 3)));
        Assert.That(client.Execute("LPOS", "l", "a"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("LREM", "l", "0", "a\0b"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("LINSERT", "l", "AFTER", "a\0c", "\0"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks("a\0c", "\0", "a")));
    }

    [Test]
    public void Resp3Shapes()
    {
        using var client = ConnectRaw();
        client.Execute("HELLO", "3");
        client.Execute("RPUSH", "l", "a");
        Assert.That(client.Execute("LPOS", "l", "b"), Is.EqualTo(Resp3Null));
        Assert.That(client.Execute("LPOS", "none", "b"), Is.EqualTo(Resp3Null));
        Assert.That(client.Execute("LPOS", "l", "a", "COUNT", "0"), Is.EqualTo(Integers(0)));
        Assert.That(client.Execute("LINDEX", "l", "5"), Is.EqualTo(Resp3Null));
    }
}
