using System.Collections.Concurrent;
using System.Threading.Tasks;
using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.List;

/// <summary>Several clients on one list: no element is lost or duplicated.</summary>
[TestFixture]
public sealed class ListConcurrencyTests : ServerTestBase
{
    private const int Clients = 4;
    private const int PerClient = 500;

    [Test]
    public void ConcurrentPushesThenConcurrentPops()
    {
        Parallel.For(0, Clients, c =>
        {
            using var client = ConnectRaw();
            var commands = new string[PerClient][];
            for (int i = 0; i < PerClient; i++)
                commands[i] = new[] { i % 2 == 0 ? "LPUSH" : "RPUSH", "shared", $"{c}:{i}" };
            client.Pipeline(commands);
        });
        using (var check = ConnectRaw())
            Assert.That(check.Execute("LLEN", "shared"), Is.EqualTo(Integer(Clients * PerClient)));

        var popped = new ConcurrentDictionary<string, int>();
        Parallel.For(0, Clients, c =>
        {
            using var client = ConnectRaw();
            var commands = new string[PerClient][];
            for (int i = 0; i < PerClient; i++)
                commands[i] = new[] { c % 2 == 0 ? "LPOP" : "RPOP", "shared" };
            foreach (var reply in client.Pipeline(commands))
                popped.AddOrUpdate(reply, 1, (_, n) => n + 1);
        });
        Assert.That(popped.ContainsKey(Nil), Is.False);
        Assert.That(popped.Count, Is.EqualTo(Clients * PerClient), "every element popped exactly once");
        foreach (var count in popped.Values)
            Assert.That(count, Is.EqualTo(1));
        using (var check = ConnectRaw())
            Assert.That(check.Execute("EXISTS", "shared"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void ConcurrentMovesKeepEveryElement()
    {
        using (var setup = ConnectRaw())
        {
            var push = new string[2 + 1000];
            push[0] = "RPUSH";
            push[1] = "a";
            for (int i = 0; i < 1000; i++)
                push[2 + i] = "v" + i;
            setup.Execute(push);
        }
        Parallel.For(0, Clients, c =>
        {
            using var client = ConnectRaw();
            var commands = new string[300][];
            for (int i = 0; i < commands.Length; i++)
                commands[i] = c % 2 == 0 ? new[] { "LMOVE", "a", "b", "LEFT", "RIGHT" } : new[] { "RPOPLPUSH", "b", "a" };
            client.Pipeline(commands);
        });
        using var check = ConnectRaw();
        string a = check.Execute("LLEN", "a");
        string b = check.Execute("LLEN", "b");
        long total = long.Parse(a.Substring(1).Trim()) + long.Parse(b.Substring(1).Trim());
        Assert.That(total, Is.EqualTo(1000));
    }
}
