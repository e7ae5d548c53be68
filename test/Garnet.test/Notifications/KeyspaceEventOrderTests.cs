using System;
using System.Globalization;
using System.Threading;
using NUnit.Framework;

namespace Garnet.test.Notifications;

/// <summary>
/// Events of the commands Redis reports with more than one event, in Redis's order (moves, BITFIELD, GETEX, stream
/// groups, RENAME/COPY/MOVE/RESTORE adding their destination), keymiss, expired, and the two channel shapes.
/// </summary>
public class KeyspaceEventOrderTests : KeyspaceEventTestBase
{
    /// <summary>Nothing else was published (the marker's own events are those of EA, without "new").</summary>
    protected override void ExpectNone()
    {
        Enable("EA");
        base.ExpectNone();
    }

    [Test]
    public void MovesPublishThePushBeforeThePop()
    {
        Enable("EAn");
        Run("RPUSH", "src", "a", "b");
        Run("LMOVE", "src", "dst", "LEFT", "RIGHT");
        Run("RPOPLPUSH", "src", "dst");
        Expect("new src", "rpush src", "new dst", "rpush dst", "lpop src", "lpush dst", "rpop src", "del src");
        Run("RPUSH", "one", "x");
        Run("LMOVE", "one", "one", "LEFT", "RIGHT"); // a rotation within one list: push, then pop
        Run("BLMOVE", "dst", "dst", "RIGHT", "LEFT", "0");
        Expect("new one", "rpush one", "rpush one", "lpop one", "lpush dst", "rpop dst");
        Run("SADD", "s1", "m");
        Run("SMOVE", "s1", "s2", "m");
        Expect("new s1", "sadd s1", "srem s1", "del s1", "new s2", "sadd s2");
        Run("SET", "str", "v");
        Run("SADD", "s3", "m");
        Assert.That(Run("SMOVE", "s3", "str", "m"), Does.StartWith("-WRONGTYPE"));
        Expect("new str", "set str", "new s3", "sadd s3");
        ExpectNone();
    }

    [Test]
    public void BitFieldPublishesSetbitWhenItWrites()
    {
        Enable("EAn");
        Run("BITFIELD", "bf", "SET", "u8", "0", "200");
        Run("BITFIELD", "bf", "GET", "u8", "0");
        Run("BITFIELD", "bf", "OVERFLOW", "FAIL", "INCRBY", "u8", "0", "100"); // overflows: nothing written
        Run("BITFIELD", "bf", "INCRBY", "u8", "0", "1");
        Expect("new bf", "setbit bf", "setbit bf");
        ExpectNone();
    }

    [Test]
    public void GetExPublishesExpirePersistAndDel()
    {
        Run("SET", "g", "v");
        Run("GETEX", "g", "EX", "100");
        Expect("set g", "expire g");
        Run("GETEX", "g", "PERSIST");
        Expect("persist g");
        Run("GETEX", "g", "PERSIST"); // no time to live left: nothing
        Run("GETEX", "g");
        Assert.That(Run("GETEX", "g", "PXAT", "1"), Is.EqualTo("$1\r\nv\r\n"));
        Expect("del g");
        ExpectNone();
    }

    [Test]
    public void StreamGroupsPublishTheirEvents()
    {
        Enable("EAn");
        Run("XGROUP", "CREATE", "st", "grp", "$", "MKSTREAM");
        Run("XGROUP", "CREATECONSUMER", "st", "grp", "c1");
        Run("XGROUP", "CREATECONSUMER", "st", "grp", "c1");
        Run("XGROUP", "SETID", "st", "grp", "0");
        Run("XGROUP", "DELCONSUMER", "st", "grp", "c1");
        Run("XGROUP", "DELCONSUMER", "st", "grp", "c1");
        Expect("new st", "xgroup-create st", "xgroup-createconsumer st", "xgroup-setid st", "xgroup-delconsumer st");
        Run("XADD", "st", "1-1", "f", "v");
        Run("XADD", "st", "MAXLEN", "1", "1-2", "f", "v");
        Run("XREADGROUP", "GROUP", "grp", "c2", "COUNT", "1", "STREAMS", "st", ">");
        Run("XCLAIM", "st", "grp", "c3", "0", "1-2");
        Run("XGROUP", "DESTROY", "st", "grp");
        Run("XGROUP", "DESTROY", "st", "grp");
        Expect("xadd st", "xadd st", "xtrim st", "xgroup-createconsumer st", "xgroup-createconsumer st", "xgroup-destroy st");
        ExpectNone();
    }

    [Test]
    public void RenameCopyMoveAndRestoreAddTheirDestination()
    {
        Enable("EAn");
        Run("SET", "a", "1");
        Run("SET", "b", "2");
        Run("RENAME", "a", "b"); // Redis deletes the destination and adds it again: "new" even though it existed
        Run("COPY", "b", "c");
        Expect("new a", "set a", "new b", "set b", "new b", "rename_from a", "rename_to b", "new c", "copy_to c");
        string dump = Run("DUMP", "c");
        int headerEnd = dump.IndexOf("\r\n", StringComparison.Ordinal);
        string payload = dump.Substring(headerEnd + 2, int.Parse(dump.AsSpan(1, headerEnd - 1), CultureInfo.InvariantCulture));
        Assert.That(Run("RESTORE", "r", "0", payload), Is.EqualTo("+OK\r\n"));
        Expect("new r", "restore r");
        ExpectNone();
    }

    [Test]
    public void KeyMissFromReadCommandsOnly()
    {
        Enable("Em");
        Run("GET", "none");
        Run("HGET", "none-h", "f");
        Run("GETEX", "none-x");
        Run("GETSET", "none-gs", "v");
        Run("BITFIELD", "none-b", "GET", "u8", "0");
        Run("TTL", "none"); // TTL, TYPE and EXISTS look keys up without a keymiss
        Run("TYPE", "none");
        Run("EXISTS", "none");
        Run("GET", "final");
        Expect("keymiss none", "keymiss none-h", "keymiss none-x", "keymiss none-gs", "keymiss none-b", "keymiss final");
    }

    [Test]
    public void WriteOnAnExpiredKeyPublishesExpiredFirst()
    {
        Enable("EAn");
        Run("SET", "w", "1", "PX", "1");
        Run("SADD", "ws", "m");
        // Long enough that PEXPIRE itself never finds the time already past (that would delete the key: "del").
        Run("PEXPIRE", "ws", "20");
        Thread.Sleep(60);
        Run("SET", "w", "2");
        Run("SREM", "ws", "m");
        Expect("new w", "set w", "expire w", "new ws", "sadd ws", "expire ws", "expired w", "new w", "set w", "expired ws");
        ExpectNone();
    }

    [Test]
    public void ActiveExpirationPublishesExpired()
    {
        Run("SET", "soon", "1", "PX", "50");
        Expect("set soon", "expire soon");
        // The expiration task runs every few tenths of a second: wait for its event, bounded by the read timeout.
        Expect("expired soon");
    }

    [Test]
    public void StoresPublishTheirCommandsEvents()
    {
        Run("GEOADD", "geo", "13.361389", "38.115556", "Palermo");
        Run("ZADD", "z1", "1", "a");
        Run("ZADD", "z2", "2", "a");
        Run("ZUNIONSTORE", "zu", "2", "z1", "z2");
        Run("ZINTERSTORE", "zi", "2", "z1", "z2");
        Run("RPUSH", "list", "3", "1", "2");
        Run("SORT", "list", "STORE", "sorted");
        Expect("zadd geo", "zadd z1", "zadd z2", "zunionstore zu", "zinterstore zi", "rpush list", "sortstore sorted");
        ExpectNone();
    }

    [Test]
    public void KeyspaceOnlyAndKeyeventOnlyChannels()
    {
        var spaceListener = ConnectRaw();
        var eventListener = ConnectRaw();
        try
        {
            Assert.That(spaceListener.Execute("SUBSCRIBE", "__keyspace@0__:k"), Does.StartWith("*3\r\n$9\r\nsubscribe\r\n"));
            Assert.That(eventListener.Execute("SUBSCRIBE", "__keyevent@0__:set"), Does.StartWith("*3\r\n$9\r\nsubscribe\r\n"));
            Enable("K$");
            Run("SET", "k", "v");
            Assert.That(spaceListener.ReadReply(), Is.EqualTo("*3\r\n$7\r\nmessage\r\n$16\r\n__keyspace@0__:k\r\n$3\r\nset\r\n"));
            Enable("E$");
            Run("SET", "k", "w");
            Assert.That(eventListener.ReadReply(), Is.EqualTo("*3\r\n$7\r\nmessage\r\n$18\r\n__keyevent@0__:set\r\n$1\r\nk\r\n"));
            // With K only no key-event message was sent, and with E only no keyspace one: the next of each is the marker.
            Enable("KE$");
            Run("SET", "k", "x");
            Assert.That(spaceListener.ReadReply(), Does.EndWith("$3\r\nset\r\n"));
            Assert.That(eventListener.ReadReply(), Does.EndWith("$1\r\nk\r\n"));
            Assert.That(Run("PUBSUB", "NUMSUB", "__keyspace@0__:k"), Does.EndWith(":1\r\n"));
        }
        finally
        {
            spaceListener.Dispose();
            eventListener.Dispose();
        }
    }
}
