using NUnit.Framework;

namespace Garnet.test.Streams;

/// <summary>XINFO STREAM [FULL], GROUPS, CONSUMERS and HELP: fields, entries-read and lag as Redis 7.2 computes them.</summary>
public class StreamInfoTests : ServerTestBase
{
    [Test]
    public void StreamSummaryAndGroupCounters()
    {
        using var client = ConnectRaw();
        client.Execute("XADD", "s", "1-1", "a", "1");
        client.Execute("XADD", "s", "2-1", "a", "1");
        client.Execute("XADD", "s", "3-1", "a", "1");
        client.Execute("XDEL", "s", "2-1");
        client.Execute("XGROUP", "CREATE", "s", "g", "0");
        client.Execute("XGROUP", "CREATE", "s", "g2", "0-0", "ENTRIESREAD", "1");
        client.Execute("XGROUP", "CREATE", "s", "g3", "$");
        Assert.That(client.Execute("XINFO", "STREAM", "s"), Is.EqualTo(
            "*20\r\n$6\r\nlength\r\n:2\r\n$15\r\nradix-tree-keys\r\n:1\r\n$16\r\nradix-tree-nodes\r\n:2\r\n$17\r\nlast-generated-id\r\n$3\r\n3-1\r\n"
            + "$20\r\nmax-deleted-entry-id\r\n$3\r\n2-1\r\n$13\r\nentries-added\r\n:3\r\n$23\r\nrecorded-first-entry-id\r\n$3\r\n1-1\r\n$6\r\ngroups\r\n:3\r\n"
            + "$11\r\nfirst-entry\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n$10\r\nlast-entry\r\n*2\r\n$3\r\n3-1\r\n*2\r\n$1\r\na\r\n$1\r\n1\r\n"));
        const string group = "*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n$-1\r\n";
        const string group2 = "*12\r\n$4\r\nname\r\n$2\r\ng2\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n0-0\r\n$12\r\nentries-read\r\n:1\r\n$3\r\nlag\r\n$-1\r\n";
        const string group3 = "*12\r\n$4\r\nname\r\n$2\r\ng3\r\n$9\r\nconsumers\r\n:0\r\n$7\r\npending\r\n:0\r\n$17\r\nlast-delivered-id\r\n$3\r\n3-1\r\n$12\r\nentries-read\r\n$-1\r\n$3\r\nlag\r\n:0\r\n";
        Assert.That(client.Execute("XINFO", "GROUPS", "s"), Is.EqualTo("*3\r\n" + group + group2 + group3));
        client.Execute("XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", ">");
        Assert.That(client.Execute("XINFO", "GROUPS", "s"), Does.StartWith("*3\r\n*12\r\n$4\r\nname\r\n$1\r\ng\r\n$9\r\nconsumers\r\n:1\r\n$7\r\npending\r\n:2\r\n$17\r\nlast-delivered-id\r\n$3\r\n3-1\r\n$12\r\nentries-read\r\n:3\r\n$3\r\nlag\r\n:0\r\n"));
        Assert.That(client.Execute("XINFO", "CONSUMERS", "s", "g"), Does.Match(@"^\*1\r\n\*8\r\n\$4\r\nname\r\n\$1\r\nc\r\n\$7\r\npending\r\n:2\r\n\$4\r\nidle\r\n:\d+\r\n\$8\r\ninactive\r\n:\d+\r\n$"));
        Assert.That(client.Execute("XINFO", "STREAM", "s", "FULL", "COUNT", "1"), Does.Contain("$7\r\nentries\r\n*1\r\n*2\r\n$3\r\n1-1\r\n").And.Contain("$9\r\npel-count\r\n:2\r\n$7\r\npending\r\n*1\r\n*4\r\n$3\r\n1-1\r\n$1\r\nc\r\n"));
    }

    [Test]
    public void Errors()
    {
        using var client = ConnectRaw();
        client.Execute("XADD", "s", "1-1", "a", "1");
        Assert.That(client.Execute("XINFO", "foo"), Is.EqualTo("-ERR unknown subcommand 'foo'. Try XINFO HELP.\r\n"));
        Assert.That(client.Execute("XINFO", "STREAM"), Is.EqualTo("-ERR wrong number of arguments for 'xinfo|stream' command\r\n"));
        Assert.That(client.Execute("XINFO", "STREAM", "nokey"), Is.EqualTo("-ERR no such key\r\n"));
        Assert.That(client.Execute("XINFO", "GROUPS", "nokey"), Is.EqualTo("-ERR no such key\r\n"));
        Assert.That(client.Execute("XINFO", "CONSUMERS", "nokey", "g"), Is.EqualTo("-ERR no such key\r\n"));
        Assert.That(client.Execute("XINFO", "STREAM", "s", "FULL", "COUNT", "x"), Is.EqualTo("-ERR value is not an integer or out of range\r\n"));
        Assert.That(client.Execute("XINFO", "stream", "s", "foo"), Is.EqualTo("-ERR unknown subcommand or wrong number of arguments for 'stream'. Try XINFO HELP.\r\n"));
        Assert.That(client.Execute("XINFO", "CONSUMERS", "s", "nog"), Is.EqualTo("-NOGROUP No such consumer group 'nog' for key name 's'\r\n"));
        Assert.That(client.Execute("XINFO", "HELP"), Is.EqualTo("*9\r\n+XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+CONSUMERS <key> <groupname>\r\n+    Show consumers of <groupname>.\r\n+GROUPS <key>\r\n+    Show the stream consumer groups.\r\n+STREAM <key> [FULL [COUNT <count>]\r\n+    Show information about the stream.\r\n+HELP\r\n+    Prints this help.\r\n"));
    }
}
