using System.Collections.Generic;
using NUnit.Framework;
using static Garnet.test.List.ListTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.List;

/// <summary>
/// Lists whose records left the mutable region of the log (other writes filled it), so the next
/// update reaches them by a copy to the tail instead of in place.
/// </summary>
[TestFixture]
public sealed class ListLogPressureTests : ServerTestBase
{
    // 16 pages of 16 KB, 14 of them mutable and 2 kept for the head of the log to copy live records into:
    // four 3500-byte values fill a page (larger ones, over a quarter of a page, would live out of line and leave
    // the pages empty), so some 56 of them fill what writers may use, and page 0 (where the lists are) is
    // read-only by then.
    protected override TestServerOptions ServerOptions => new() { PageSize = 1L << 14, MemorySize = 1L << 18 };

    [Test]
    public void ListsSurviveCopyUpdates()
    {
        using var client = ConnectRaw();
        var expected = new List<string>();
        for (int i = 0; i < 50; i++)
            expected.Add("e" + i);
        var push = new List<string> { "RPUSH", "l" };
        push.AddRange(expected);
        Assert.That(client.Execute(push.ToArray()), Is.EqualTo(Integer(expected.Count)));
        Assert.That(client.Execute("RPUSH", "single", "only"), Is.EqualTo(Integer(1)));

        // Live data fills the budget: the head of the log copies the fillers forward until it finds no room.
        const string OutOfMemory = "-OOM command not allowed when used memory > 'maxmemory'.\r\n";
        int fillers = 0;
        string reply;
        while ((reply = client.Execute("SET", "filler" + fillers, Pattern(3500, seed: fillers))) == Ok)
            fillers++;
        Assert.That(reply, Is.EqualTo(OutOfMemory));
        Assert.That(fillers, Is.InRange(48, 62));

        // Commands that may grow data are refused, LMOVE included, before it pops anything.
        Assert.That(client.Execute("RPUSH", "l", "x"), Is.EqualTo(OutOfMemory));
        Assert.That(client.Execute("LMOVE", "l", "other", "LEFT", "RIGHT"), Is.EqualTo(OutOfMemory));
        Assert.That(client.Execute("RPOPLPUSH", "l", "other"), Is.EqualTo(OutOfMemory));
        Assert.That(client.Execute("EXISTS", "other"), Is.EqualTo(Integer(0)));

        // Reads of the read-only record, then updates that copy it (pops and removals are allowed
        // however full memory is; pushes are not, so none is attempted).
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks(expected.ToArray())));
        Assert.That(client.Execute("LPOP", "l"), Is.EqualTo(Bulk("e0")));
        expected.RemoveAt(0);
        Assert.That(client.Execute("RPOP", "l", "2"), Is.EqualTo(Bulks("e49", "e48")));
        expected.RemoveRange(expected.Count - 2, 2);
        Assert.That(client.Execute("LREM", "l", "0", "e10"), Is.EqualTo(Integer(1)));
        expected.Remove("e10");
        Assert.That(client.Execute("LTRIM", "l", "1", "-2"), Is.EqualTo(Ok));
        expected.RemoveAt(0);
        expected.RemoveAt(expected.Count - 1);
        Assert.That(client.Execute("LRANGE", "l", "0", "-1"), Is.EqualTo(Bulks(expected.ToArray())));
        Assert.That(client.Execute("LLEN", "l"), Is.EqualTo(Integer(expected.Count)));

        // A copy update that empties the list deletes the key.
        Assert.That(client.Execute("LPOP", "single"), Is.EqualTo(Bulk("only")));
        Assert.That(client.Execute("EXISTS", "single"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("LPOP", "single"), Is.EqualTo(Nil));

        Assert.That(client.Execute("LMPOP", "2", "single", "l", "LEFT", "COUNT", "1000"), Is.EqualTo(Array(Bulk("l"), Bulks(expected.ToArray()))));
        Assert.That(client.Execute("EXISTS", "l"), Is.EqualTo(Integer(0)));
    }
}
