using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using NUnit.Framework;

namespace Garnet.test.Transactions;

/// <summary>
/// Transactions and multi-key commands under concurrency: the checks are invariants (a constant
/// total, no lost update, no lost or duplicated element), never timings.
/// </summary>
public class TransactionConcurrencyTests : ServerTestBase
{
    private const int Clients = 8;

    /// <summary>The bulk strings of a flat reply (nil bulks as null), in order.</summary>
    private static List<string?> Bulks(string reply)
    {
        var values = new List<string?>();
        int at = 0;
        while (at < reply.Length)
        {
            int end = reply.IndexOf("\r\n", at, StringComparison.Ordinal);
            string line = reply.Substring(at, end - at);
            at = end + 2;
            if (line[0] != '$')
                continue;
            int length = int.Parse(line.AsSpan(1));
            if (length < 0)
            {
                values.Add(null);
                continue;
            }
            values.Add(reply.Substring(at, length));
            at += length + 2;
        }
        return values;
    }

    /// <summary>Runs <paramref name="body"/> on <paramref name="count"/> threads, each with its own raw client; rethrows the first failure.</summary>
    private void RunClients(int count, Action<int, RawClient> body)
    {
        Exception? failure = null;
        var threads = new Thread[count];
        for (int t = 0; t < count; t++)
        {
            int index = t;
            threads[t] = new Thread(() =>
            {
                try
                {
                    using var client = ConnectRaw();
                    body(index, client);
                }
                catch (Exception e)
                {
                    Interlocked.CompareExchange(ref failure, e, null);
                }
            })
            { IsBackground = true };
            threads[t].Start();
        }
        foreach (var thread in threads)
            Assert.That(thread.Join(TimeSpan.FromMinutes(2)), Is.True, "a client did not finish");
        if (failure != null)
            throw new AssertionException("a client failed: " + failure);
    }

    /// <summary>
    /// Adds one to "counter" with WATCH, GET, MULTI, SET, EXEC, retrying until an EXEC runs; returns how
    /// many attempts aborted because another client wrote the key in between.
    /// </summary>
    private static int IncrementOptimistically(RawClient client)
    {
        for (int aborts = 0; ; aborts++)
        {
            client.Execute("WATCH", "counter");
            var value = Bulks(client.Execute("GET", "counter"))[0];
            long next = (value == null ? 0 : long.Parse(value)) + 1;
            client.SendRaw(RawClient.Encode("MULTI") + RawClient.Encode("SET", "counter", next.ToString(System.Globalization.CultureInfo.InvariantCulture)) + RawClient.Encode("EXEC"));
            client.ReadReply();
            client.ReadReply();
            string exec = client.ReadReply();
            if (exec == "*1\r\n+OK\r\n")
                return aborts;
            Assert.That(exec, Is.EqualTo("*-1\r\n"));
        }
    }

    [Test]
    public void TransfersInsideMultiExecKeepTheTotalConstant()
    {
        const int accounts = 10;
        const int transfers = 2000;
        const int readers = 3;
        using (var setup = ConnectRaw())
        {
            for (int i = 0; i < accounts; i++)
                setup.Execute("SET", "acct" + i, "1000");
        }
        var keys = Enumerable.Range(0, accounts).Select(i => "acct" + i).ToArray();
        int writersLeft = Clients;
        long audits = 0;

        RunClients(Clients + readers, (t, client) =>
        {
            if (t >= Clients)
            {
                // Readers: a MULTI of GETs, and a plain MGET (atomic over its keys), always see the whole total.
                while (Volatile.Read(ref writersLeft) > 0)
                {
                    // The last reader also runs KEYS inside the transaction: it cannot declare its keys, so it runs alone among lock holders.
                    bool keyspace = t == Clients + readers - 1;
                    var batch = RawClient.Encode("MULTI") + (keyspace ? RawClient.Encode("KEYS", "acct*") : "");
                    foreach (var key in keys)
                        batch += RawClient.Encode("GET", key);
                    client.SendRaw(batch + RawClient.Encode("EXEC"));
                    for (int i = 0; i <= accounts + (keyspace ? 1 : 0); i++)
                        client.ReadReply();
                    var values = Bulks(client.ReadReply());
                    if (keyspace)
                        Assert.That(values.Take(accounts).Order(), Is.EqualTo(keys.Order()));
                    Assert.That(values.Skip(keyspace ? accounts : 0).Sum(v => long.Parse(v!)), Is.EqualTo(accounts * 1000L));
                    Assert.That(Bulks(client.Execute(["MGET", .. keys])).Sum(v => long.Parse(v!)), Is.EqualTo(accounts * 1000L));
                    Interlocked.Increment(ref audits);
                }
                return;
            }
            var random = new Random(t);
            for (int n = 0; n < transfers; n++)
            {
                int from = random.Next(accounts);
                int to = (from + 1 + random.Next(accounts - 1)) % accounts;
                string amount = random.Next(1, 50).ToString(System.Globalization.CultureInfo.InvariantCulture);
                client.SendRaw(RawClient.Encode("MULTI") + RawClient.Encode("DECRBY", keys[from], amount)
                    + RawClient.Encode("INCRBY", keys[to], amount) + RawClient.Encode("EXEC"));
                Assert.That(client.ReadReply(), Is.EqualTo("+OK\r\n"));
                Assert.That(client.ReadReply(), Is.EqualTo("+QUEUED\r\n"));
                Assert.That(client.ReadReply(), Is.EqualTo("+QUEUED\r\n"));
                Assert.That(client.ReadReply(), Does.StartWith("*2\r\n:"));
            }
            Interlocked.Decrement(ref writersLeft);
        });

        using var check = ConnectRaw();
        Assert.That(Bulks(check.Execute(["MGET", .. keys])).Sum(v => long.Parse(v!)), Is.EqualTo(accounts * 1000L));
        Assert.That(audits, Is.GreaterThan(0));
    }

    [Test]
    public void OptimisticIncrementsWithWatchLoseNoUpdate()
    {
        const int increments = 300;
        long aborts = 0;
        RunClients(Clients, (t, client) =>
        {
            for (int done = 0; done < increments; done++)
                Interlocked.Add(ref aborts, IncrementOptimistically(client));
        });
        using var check = ConnectRaw();
        Assert.That(check.Execute("GET", "counter"), Is.EqualTo("$4\r\n" + (Clients * increments) + "\r\n"));
        TestContext.Out.WriteLine($"{aborts} aborted attempts");
    }

    /// <summary>
    /// Plain INCRs skip the watch versions while nobody watches (Transactions/WatchArming.cs). With
    /// the table disarming as soon as the watchers are gone, it arms and disarms all through the run,
    /// and an INCR that lands between a watcher's GET and its EXEC must still abort that EXEC: the
    /// total counts every INCR and every successful transaction.
    /// </summary>
    [Test]
    public void OptimisticIncrementsLoseNoUpdateWhileUnwatchedWritersIncrement()
    {
        const int watchers = 2;
        const int writers = 2;
        const int optimistic = 200;
        const int plain = 2000;
        Server.Store.WatchArming.DisarmDelay = TimeSpan.Zero;
        long aborts = 0;
        RunClients(watchers + writers, (t, client) =>
        {
            if (t >= watchers)
            {
                for (int i = 0; i < plain; i++)
                    Assert.That(client.Execute("INCR", "counter"), Does.StartWith(":"));
                return;
            }
            for (int done = 0; done < optimistic; done++)
                Interlocked.Add(ref aborts, IncrementOptimistically(client));
        });
        using var check = ConnectRaw();
        Assert.That(check.Execute("GET", "counter"), Is.EqualTo("$4\r\n" + ((watchers * optimistic) + (writers * plain)) + "\r\n"));
        Assert.That(Server.Store.WatchArming.Watchers, Is.Zero);
        TestContext.Out.WriteLine($"{aborts} aborted attempts");
    }

    [Test]
    public void ConcurrentListMovesNeitherLoseNorDuplicateElements()
    {
        const int lists = 4;
        const int elements = 100;
        const int moves = 1500;
        using (var setup = ConnectRaw())
        {
            for (int i = 0; i < elements; i++)
                setup.Execute("RPUSH", "list" + (i % lists), "e" + i);
        }
        int moversLeft = Clients;

        RunClients(Clients + 1, (t, client) =>
        {
            if (t == Clients)
            {
                // The auditor reads all lists in one transaction: every element exactly once.
                while (Volatile.Read(ref moversLeft) > 0)
                {
                    string batch = RawClient.Encode("MULTI");
                    for (int l = 0; l < lists; l++)
                        batch += RawClient.Encode("LRANGE", "list" + l, "0", "-1");
                    client.SendRaw(batch + RawClient.Encode("EXEC"));
                    for (int i = 0; i <= lists; i++)
                        client.ReadReply();
                    var seen = Bulks(client.ReadReply());
                    Assert.That(seen, Has.Count.EqualTo(elements));
                    Assert.That(seen.Distinct().Count(), Is.EqualTo(elements));
                }
                return;
            }
            var random = new Random(t);
            for (int n = 0; n < moves; n++)
            {
                string from = "list" + random.Next(lists);
                string to = "list" + random.Next(lists);
                string reply = (n % 3) switch
                {
                    0 => client.Execute("RPOPLPUSH", from, to),
                    1 => client.Execute("LMOVE", from, to, random.Next(2) == 0 ? "LEFT" : "RIGHT", random.Next(2) == 0 ? "LEFT" : "RIGHT"),
                    _ => client.Execute("BLMOVE", from, to, "RIGHT", "LEFT", "0.01"),
                };
                Assert.That(reply, Does.StartWith("$").Or.EqualTo("*-1\r\n"));
            }
            Interlocked.Decrement(ref moversLeft);
        });

        using var check = ConnectRaw();
        var all = new List<string?>();
        for (int l = 0; l < lists; l++)
            all.AddRange(Bulks(check.Execute("LRANGE", "list" + l, "0", "-1")));
        Assert.That(all.OrderBy(e => e), Is.EquivalentTo(Enumerable.Range(0, elements).Select(i => "e" + i)));
    }

    [Test]
    public void ConcurrentSetMovesAndRenamesKeepEveryMember()
    {
        const int sets = 3;
        const int members = 60;
        const int moves = 1500;
        using (var setup = ConnectRaw())
        {
            for (int i = 0; i < members; i++)
                setup.Execute("SADD", "set" + (i % sets), "m" + i);
        }

        RunClients(Clients, (t, client) =>
        {
            var random = new Random(t);
            for (int n = 0; n < moves; n++)
            {
                string from = "set" + random.Next(sets);
                string to = "set" + random.Next(sets);
                if (n % 10 == 0)
                {
                    // A rename through a temporary key inside a transaction: atomic, so no member is ever missing.
                    client.SendRaw(RawClient.Encode("MULTI") + RawClient.Encode("RENAME", from, "tmp" + t)
                        + RawClient.Encode("RENAME", "tmp" + t, from) + RawClient.Encode("EXEC"));
                    for (int i = 0; i < 3; i++)
                        client.ReadReply();
                    string exec = client.ReadReply();
                    Assert.That(exec, Is.EqualTo("*2\r\n+OK\r\n+OK\r\n").Or.EqualTo("*2\r\n-ERR no such key\r\n-ERR no such key\r\n"));
                }
                else
                {
                    client.Execute("SMOVE", from, to, "m" + random.Next(members));
                }
            }
        });

        using var check = ConnectRaw();
        var all = new List<string?>();
        for (int s = 0; s < sets; s++)
            all.AddRange(Bulks(check.Execute("SMEMBERS", "set" + s)));
        Assert.That(all.OrderBy(e => e), Is.EquivalentTo(Enumerable.Range(0, members).Select(i => "m" + i)));
    }
}
