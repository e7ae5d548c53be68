using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;

namespace Garnet.test.Keyspace;

/// <summary>KEYS, SCAN and RANDOMKEY (DBSIZE: DbSizeTests).</summary>
public class KeysScanTests : ServerTestBase
{
    private static void SetMany(RawClient client, string prefix, int count)
    {
        var batch = new System.Text.StringBuilder();
        for (int i = 0; i < count; i++)
            batch.Append(RawClient.Encode("SET", prefix + i, "v" + i));
        client.SendRaw(batch.ToString());
        for (int i = 0; i < count; i++)
            Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
    }

    /// <summary>Runs a SCAN iteration to the end; returns every key returned and the number of calls.</summary>
    private static (List<string> Keys, int Calls) ScanAll(RawClient client, params string[] options)
    {
        var keys = new List<string>();
        string cursor = "0";
        int calls = 0;
        do
        {
            var (next, batch) = Resp.ScanReply(client.Execute(new[] { "SCAN", cursor }.Concat(options).ToArray()));
            keys.AddRange(batch);
            cursor = next;
            Assert.That(++calls, Is.LessThan(100_000), "the iteration must end");
        }
        while (cursor != "0");
        return (keys, calls);
    }

    [Test]
    public void KeysMatchesPatterns()
    {
        using var client = ConnectRaw();
        foreach (var key in new[] { "hello", "hallo", "hillo", "hllo", "heeeello", "h*llo", "other" })
            client.Execute("SET", key, "v");
        List<string> Keys(string pattern) => Resp.Strings(client.Execute("KEYS", pattern)).OrderBy(k => k, System.StringComparer.Ordinal).ToList();

        Assert.That(Keys("*"), Is.EqualTo(new[] { "h*llo", "hallo", "heeeello", "hello", "hillo", "hllo", "other" }));
        Assert.That(Keys("h?llo"), Is.EqualTo(new[] { "h*llo", "hallo", "hello", "hillo" }));
        Assert.That(Keys("h*llo"), Is.EqualTo(new[] { "h*llo", "hallo", "heeeello", "hello", "hillo", "hllo" }));
        Assert.That(Keys("h[ae]llo"), Is.EqualTo(new[] { "hallo", "hello" }));
        Assert.That(Keys("h[^e]llo"), Is.EqualTo(new[] { "h*llo", "hallo", "hillo" }));
        Assert.That(Keys("h[a-e]llo"), Is.EqualTo(new[] { "hallo", "hello" }));
        Assert.That(Keys(@"h\*llo"), Is.EqualTo(new[] { "h*llo" }));
        Assert.That(Keys("nothing*"), Is.Empty);
        Assert.That(client.Execute("KEYS", "nothing*"), Is.EqualTo("*0\r\n"));
    }

    [Test]
    public void KeysSkipsDeletedAndExpiredKeysAndIsBinarySafe()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "a\0one", "v");
        client.Execute("SET", "a\0two", "v");
        client.Execute("SET", "deleted", "v");
        client.Execute("DEL", "deleted");
        client.Execute("SET", "expired", "v", "PX", "1");
        System.Threading.Thread.Sleep(20);
        Assert.That(Resp.Strings(client.Execute("KEYS", "*")).OrderBy(k => k, System.StringComparer.Ordinal), Is.EqualTo(new[] { "a\0one", "a\0two" }));
        Assert.That(Resp.Strings(client.Execute("KEYS", "a\0t*")), Is.EqualTo(new[] { "a\0two" }));
        Assert.That(client.Execute("KEYS"), Is.EqualTo(Resp.WrongArity("keys")));
    }

    [Test]
    public void KeysReportsARewrittenKeyOnce()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "short");
        for (int i = 0; i < 20; i++)
            client.Execute("SET", "k", new string('x', i * 13));
        Assert.That(Resp.Strings(client.Execute("KEYS", "*")), Is.EqualTo(new[] { "k" }));
    }

    [Test]
    public void KeysUnderConcurrentRewritesReturnsEveryKey()
    {
        const int count = 10_000;
        using var client = ConnectRaw();
        SetMany(client, "hot:", count);
        using var stop = new System.Threading.CancellationTokenSource();
        var writers = Enumerable.Range(0, 2).Select(w => System.Threading.Tasks.Task.Run(() =>
        {
            using var other = ConnectRaw();
            var random = new System.Random(w);
            // Values of changing sizes move keys to new records, during the walks too.
            while (!stop.IsCancellationRequested)
            {
                var batch = new System.Text.StringBuilder();
                for (int i = 0; i < 100; i++)
                    batch.Append(RawClient.Encode("SET", "hot:" + random.Next(count), new string('x', random.Next(1, 300))));
                other.SendRaw(batch.ToString());
                for (int i = 0; i < 100; i++)
                    other.ReadReply();
            }
        })).ToArray();
        try
        {
            for (int round = 0; round < 10; round++)
            {
                var keys = new HashSet<string>(Resp.Strings(client.Execute("KEYS", "hot:*")));
                Assert.That(keys, Has.Count.EqualTo(count), $"round {round}");
            }
        }
        finally
        {
            stop.Cancel();
            System.Threading.Tasks.Task.WaitAll(writers);
        }
    }

    [Test]
    public void ScanOfAnEmptyDatabase()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SCAN", "0"), Is.EqualTo("*2\r\n$1\r\n0\r\n*0\r\n"));
    }

    [TestCase(1)]
    [TestCase(7)]
    [TestCase(100)]
    [TestCase(5000)]
    public void ScanReturnsEveryKey(int count)
    {
        using var client = ConnectRaw();
        SetMany(client, "key:", 1000);
        var (keys, calls) = ScanAll(client, "COUNT", count.ToString());
        var distinct = new HashSet<string>(keys);
        Assert.That(distinct, Has.Count.EqualTo(1000));
        Assert.That(distinct, Is.EquivalentTo(Enumerable.Range(0, 1000).Select(i => "key:" + i)));
        Assert.That(calls, Is.GreaterThanOrEqualTo(1000 / count));
    }

    [Test]
    public void ScanDefaultCountReturnsBatches()
    {
        using var client = ConnectRaw();
        SetMany(client, "k", 100);
        var (cursor, keys) = Resp.ScanReply(client.Execute("SCAN", "0"));
        Assert.That(cursor, Is.Not.EqualTo("0"));
        Assert.That(keys, Has.Count.EqualTo(10));
        var (all, _) = ScanAll(client);
        Assert.That(new HashSet<string>(all), Has.Count.EqualTo(100));
    }

    [Test]
    public void ScanWithMatchAndType()
    {
        using var client = ConnectRaw();
        SetMany(client, "user:", 300);
        SetMany(client, "order:", 300);
        var (users, _) = ScanAll(client, "MATCH", "user:*", "COUNT", "25");
        Assert.That(new HashSet<string>(users), Is.EquivalentTo(Enumerable.Range(0, 300).Select(i => "user:" + i)));
        var (tens, _) = ScanAll(client, "match", "order:1?", "count", "1000");
        Assert.That(new HashSet<string>(tens), Is.EquivalentTo(Enumerable.Range(10, 10).Select(i => "order:" + i)));

        var (strings, _) = ScanAll(client, "TYPE", "string", "COUNT", "50");
        Assert.That(new HashSet<string>(strings), Has.Count.EqualTo(600));
        var (upper, _) = ScanAll(client, "TYPE", "STRING", "MATCH", "user:*");
        Assert.That(new HashSet<string>(upper), Has.Count.EqualTo(300));
        var (lists, calls) = ScanAll(client, "TYPE", "list", "COUNT", "50");
        Assert.That(lists, Is.Empty);
        Assert.That(calls, Is.GreaterThan(1), "the iteration still walks the database");
        var (unknown, _) = ScanAll(client, "TYPE", "nosuchtype");
        Assert.That(unknown, Is.Empty);
    }

    [Test]
    public void ScanWhileKeysAreAddedAndDeletedReturnsEveryStableKey()
    {
        using var client = ConnectRaw();
        using var writer = ConnectRaw();
        SetMany(client, "stable:", 500);
        SetMany(client, "churn:", 500);

        var seen = new HashSet<string>();
        string cursor = "0";
        int round = 0;
        do
        {
            var (next, keys) = Resp.ScanReply(client.Execute("SCAN", cursor, "COUNT", "10"));
            seen.UnionWith(keys);
            cursor = next;
            // Between calls: new keys, deletions, and in-place rewrites of stable keys.
            writer.Execute("SET", "new:" + round, "v");
            writer.Execute("DEL", "churn:" + round);
            writer.Execute("SET", "stable:" + (round * 7 % 500), "w" + (round % 10));
            round++;
        }
        while (cursor != "0");

        for (int i = 0; i < 500; i++)
            Assert.That(seen, Does.Contain("stable:" + i));
        // Churn keys deleted after the iteration ended were present throughout as well.
        for (int i = round; i < 500; i++)
            Assert.That(seen, Does.Contain("churn:" + i));
    }

    [Test]
    public void ScanStillReturnsKeysThatMovedToTheTail()
    {
        using var client = ConnectRaw();
        SetMany(client, "k", 200);
        var seen = new HashSet<string>();
        string cursor = "0";
        int round = 0;
        do
        {
            var (next, keys) = Resp.ScanReply(client.Execute("SCAN", cursor, "COUNT", "20"));
            seen.UnionWith(keys);
            cursor = next;
            // A value that no longer fits moves its key to a new record at the tail, past the cursor.
            client.Execute("SET", "k" + (199 - round), new string('x', 200 + round));
            round++;
        }
        while (cursor != "0");
        Assert.That(seen, Has.Count.EqualTo(200));
    }

    [Test]
    public void ScanErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("SCAN", "abc"), Is.EqualTo(Resp.Error("ERR invalid cursor")));
        Assert.That(client.Execute("SCAN", "-1"), Is.EqualTo(Resp.Error("ERR invalid cursor")));
        Assert.That(client.Execute("SCAN", ""), Is.EqualTo(Resp.Error("ERR invalid cursor")));
        Assert.That(client.Execute("SCAN", "18446744073709551616"), Is.EqualTo(Resp.Error("ERR invalid cursor")));
        Assert.That(client.Execute("SCAN", "abc", "COUNT", "0"), Is.EqualTo(Resp.Error("ERR invalid cursor")), "the cursor is checked first");
        Assert.That(client.Execute("SCAN", "0", "COUNT", "0"), Is.EqualTo(Resp.Error("ERR syntax error")));
        Assert.That(client.Execute("SCAN", "0", "COUNT", "-5"), Is.EqualTo(Resp.Error("ERR syntax error")));
        Assert.That(client.Execute("SCAN", "0", "COUNT", "many"), Is.EqualTo(Resp.Error("ERR value is not an integer or out of range")));
        Assert.That(client.Execute("SCAN", "0", "MATCH"), Is.EqualTo(Resp.Error("ERR syntax error")));
        Assert.That(client.Execute("SCAN", "0", "FOO", "bar"), Is.EqualTo(Resp.Error("ERR syntax error")));
        Assert.That(client.Execute("SCAN"), Is.EqualTo(Resp.WrongArity("scan")));
    }

    [Test]
    public void ScanWithArbitraryCursorsIsSafe()
    {
        using var client = ConnectRaw();
        SetMany(client, "some:key:", 300);
        client.Execute("SET", "trap", new string('\xff', 64) + "\x7f\x7f\x7f\x7f" + new string('\x01', 64));
        // Cursors need not be positions the server handed out: none may crash it or return junk.
        var all = new HashSet<string>(Enumerable.Range(0, 300).Select(i => "some:key:" + i)) { "trap" };
        foreach (string cursor in new[] { "1", "7", "63", "65", "100", "1001", "4099", "12345", "18446744073709551615", "9223372036854775807", "+5" })
        {
            var (next, keys) = Resp.ScanReply(client.Execute("SCAN", cursor, "COUNT", "1000"));
            Assert.That(keys, Is.SubsetOf(all), cursor);
            Assert.That(next, Is.EqualTo("0"), cursor);
        }
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":301\r\n"));
    }

    [Test]
    public void RandomKey()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("RANDOMKEY"), Is.EqualTo("$-1\r\n"));
        client.Execute("SET", "only\0", "v");
        Assert.That(client.Execute("RANDOMKEY"), Is.EqualTo("$5\r\nonly\0\r\n"));
        SetMany(client, "r", 50);
        var picked = new HashSet<string>();
        for (int i = 0; i < 200; i++)
            picked.Add(Resp.Bulk(client.Execute("RANDOMKEY"))!);
        Assert.That(picked, Is.SubsetOf(Enumerable.Range(0, 50).Select(i => "r" + i).Append("only\0")));
        Assert.That(picked.Count, Is.GreaterThan(10), "keys are picked at random");
        client.Execute("FLUSHDB");
        client.Execute("SET", "gone", "v", "PX", "1");
        System.Threading.Thread.Sleep(20);
        Assert.That(client.Execute("RANDOMKEY"), Is.EqualTo("$-1\r\n"));
        Assert.That(client.Execute("RANDOMKEY", "x"), Is.EqualTo(Resp.WrongArity("randomkey")));
    }
}
