using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>The hash index starts small and doubles as clients add keys; INFO memory reports it.</summary>
[TestFixture]
public sealed class IndexGrowthServerTests : ServerTestBase
{
    private const long InitialBuckets = 64;

    /// <summary>Only a guard against a hung test; no assertion depends on how long anything takes.</summary>
    private static readonly TimeSpan HangGuard = TimeSpan.FromSeconds(60);

    protected override TestServerOptions ServerOptions => new() { IndexSize = InitialBuckets * 64, IndexMaxSize = 1L << 20 };

    private static Dictionary<string, string> Memory(RawClient client) => ReplyText.InfoFields(client.Execute("INFO", "memory"));

    [Test]
    public void KeysAddedByFourClientsSurviveGrowthAndTransactionsStayExact()
    {
        const int clients = 4;
        const int keysPerClient = 2_000;
        int writersDone = 0;
        long transactions = 0;
        var writers = new Task[clients + 1];
        // The writers wait for the first transaction, so transactions overlap growth even when the thread pool
        // is slow to start the fifth task (on two cores the writers could otherwise finish before it runs once).
        using var firstTransactionDone = new ManualResetEventSlim();
        for (int c = 0; c < clients; c++)
        {
            int self = c;
            writers[c] = Task.Factory.StartNew(() =>
            {
                using var client = ConnectRaw();
                Assert.That(firstTransactionDone.Wait(HangGuard), Is.True, "first transaction ran");
                for (int i = 0; i < keysPerClient; i++)
                    Assert.That(client.Execute("SET", $"key:{self}:{i}", $"value:{self}:{i}"), Is.EqualTo("+OK\r\n"));
                Interlocked.Increment(ref writersDone);
            }, TaskCreationOptions.LongRunning);
        }
        // Transactions latch their keys' buckets across the resizes the writers cause.
        writers[clients] = Task.Factory.StartNew(() =>
        {
            using var client = ConnectRaw();
            do
            {
                Assert.That(client.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
                client.Execute("INCRBY", "from", "-1");
                client.Execute("INCRBY", "to", "1");
                Assert.That(client.Execute("EXEC"), Does.StartWith("*2\r\n"));
                transactions++;
                firstTransactionDone.Set();
            }
            while (Volatile.Read(ref writersDone) < clients);
        }, TaskCreationOptions.LongRunning);
        Assert.That(Task.WaitAll(writers, HangGuard), Is.True, "clients finished");

        using var check = ConnectRaw();
        Assert.That(check.Execute("DBSIZE"), Is.EqualTo($":{(clients * keysPerClient) + 2}\r\n"));
        for (int c = 0; c < clients; c++)
        {
            for (int i = 0; i < keysPerClient; i++)
            {
                string expected = $"value:{c}:{i}";
                Assert.That(check.Execute("GET", $"key:{c}:{i}"), Is.EqualTo($"${expected.Length}\r\n{expected}\r\n"));
            }
        }
        string count = transactions.ToString(System.Globalization.CultureInfo.InvariantCulture);
        Assert.That(check.Execute("GET", "to"), Is.EqualTo($"${count.Length}\r\n{count}\r\n"));

        // Growth runs in the background: wait for the first doubling to finish.
        Assert.That(SpinWait.SpinUntil(() => long.Parse(Memory(check)["index_resizes"]) > 0, HangGuard), Is.True);
        var fields = Memory(check);
        Assert.That(long.Parse(fields["index_buckets"]), Is.GreaterThan(InitialBuckets));
        Assert.That(long.Parse(fields["index_entries"]), Is.GreaterThanOrEqualTo(clients * keysPerClient / 2), "keys rarely share an entry");
        Assert.That(long.Parse(fields["index_memory"]), Is.GreaterThanOrEqualTo(long.Parse(fields["index_buckets"]) * 64));
        Assert.That(long.Parse(fields["used_memory_overhead"]), Is.EqualTo(long.Parse(fields["index_memory"])));
    }
}
