using System;
using System.Threading;
using NUnit.Framework;
using static Garnet.test.Scripting.EvalTests;

namespace Garnet.test.Scripting;

/// <summary>
/// Scripts against other clients: atomic read-modify-write on declared keys, -BUSY while a script runs
/// past the time limit, SCRIPT KILL. Checks are invariants and replies, never timings.
/// </summary>
public class ScriptConcurrencyTests : ServerTestBase
{
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
            });
            threads[t].Start();
        }
        foreach (var thread in threads)
            thread.Join();
        if (failure != null)
            throw failure;
    }

    /// <summary>Sends commands from another client until one is refused with -BUSY (bounded).</summary>
    /// <summary>PINGs until the server answers -BUSY (a script passed its time limit); returns that reply.</summary>
    internal static string WaitForBusy(RawClient client)
    {
        for (int i = 0; i < 1000; i++)
        {
            string reply = client.Execute("PING");
            if (reply.StartsWith("-BUSY", StringComparison.Ordinal))
                return reply;
            Thread.Sleep(10);
        }
        return "never busy";
    }

    [Test]
    public void ReadModifyWriteScriptsLoseNoUpdate()
    {
        const int Clients = 6;
        const int Rounds = 300;
        const string Increment = "local v = tonumber(redis.call('GET', KEYS[1]) or '0') redis.call('SET', KEYS[1], v + 1) return v + 1";
        const string Transfer = "local a = tonumber(redis.call('GET', KEYS[1])) local b = tonumber(redis.call('GET', KEYS[2])) "
            + "redis.call('SET', KEYS[1], a - 1) redis.call('SET', KEYS[2], b + 1) return a + b";
        using (var setup = ConnectRaw())
            setup.Execute("MSET", "a", "1000", "b", "1000");
        RunClients(Clients, (index, client) =>
        {
            for (int i = 0; i < Rounds; i++)
            {
                Assert.That(client.Execute("EVAL", Increment, "1", "counter"), Does.StartWith(":"));
                // Every transfer sees a consistent total.
                Assert.That(index % 2 == 0 ? client.Execute("EVAL", Transfer, "2", "a", "b") : client.Execute("EVAL", Transfer, "2", "b", "a"), Is.EqualTo(":2000\r\n"));
            }
        });
        using var check = ConnectRaw();
        Assert.That(check.Execute("GET", "counter"), Is.EqualTo(Bulk((Clients * Rounds).ToString())));
        Assert.That(check.Execute("EVAL", "return redis.call('GET', 'a') + redis.call('GET', 'b')", "0"), Is.EqualTo(":2000\r\n"));
    }

    [Test]
    public void LoopingScriptIsBusyUntilKilled()
    {
        using var admin = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "lua-time-limit", "100"), Is.EqualTo("+OK\r\n"));
        using var runner = ConnectRaw();
        const string Loop = "local i = 0\nwhile true do i = i + 1 end";
        runner.Send("EVAL", Loop, "0");

        Assert.That(WaitForBusy(admin), Is.EqualTo("-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n"));
        using (var other = ConnectRaw())
        {
            Assert.That(other.Execute("GET", "k"), Does.StartWith("-BUSY"));
            Assert.That(other.Execute("EVAL", "return 1", "0"), Does.StartWith("-BUSY"));
            Assert.That(other.Execute("FUNCTION", "LIST"), Does.StartWith("-BUSY"));
            // The commands Redis flags allow-busy still run.
            Assert.That(other.Execute("RESET"), Is.EqualTo("+RESET\r\n"));
            Assert.That(other.Execute("MULTI"), Is.EqualTo("+OK\r\n"));
            Assert.That(other.Execute("DISCARD"), Is.EqualTo("+OK\r\n"));
        }
        Assert.That(admin.Execute("SCRIPT", "KILL"), Is.EqualTo("+OK\r\n"));
        Assert.That(runner.ReadReply(), Is.EqualTo($"-ERR Script killed by user with SCRIPT KILL... script: {Sha1(Loop)}, on @user_script:2.\r\n"));
        Assert.That(admin.Execute("PING"), Is.EqualTo("+PONG\r\n"));
        Assert.That(admin.Execute("SCRIPT", "KILL"), Is.EqualTo("-NOTBUSY No scripts in execution right now.\r\n"));
        // The killed session runs scripts again.
        Assert.That(runner.Execute("EVAL", "return 7", "0"), Is.EqualTo(":7\r\n"));
    }

    // Scripts without loops of their own run without the instruction-count hook until they load code.
    [TestCase("return loadstring('while true do end')()")]
    [TestCase("local co = coroutine.wrap(load('local n = 0 while true do n = n + 1 end'))\nreturn co()")]
    [TestCase("return pcall(loadstring('repeat until false'))")]
    public void LoadedLoopIsBusyUntilKilled(string script)
    {
        using var admin = ConnectRaw();
        admin.Execute("CONFIG", "SET", "lua-time-limit", "100");
        using var runner = ConnectRaw();
        runner.Send("EVAL", script, "0");
        Assert.That(WaitForBusy(admin), Does.StartWith("-BUSY"));
        Assert.That(admin.Execute("SCRIPT", "KILL"), Is.EqualTo("+OK\r\n"));
        Assert.That(runner.ReadReply(), Does.StartWith("-ERR Script killed by user with SCRIPT KILL..."));
        // The next script of that session runs without the hook again, and still completes.
        Assert.That(runner.Execute("EVAL", "return redis.call('PING')", "0"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void ScriptThatWroteCannotBeKilled()
    {
        using var admin = ConnectRaw();
        admin.Execute("CONFIG", "SET", "lua-time-limit", "100");
        using var runner = ConnectRaw();
        // Writes, then spins for a while (bounded, so the test ends whatever happens).
        runner.Send("EVAL", "redis.call('SET', 'x', '1') local t = os.clock() while os.clock() - t < 1.5 do end return 'done'", "0");
        Assert.That(WaitForBusy(admin), Does.StartWith("-BUSY"));
        Assert.That(admin.Execute("SCRIPT", "KILL"), Does.StartWith("-UNKILLABLE Sorry the script already executed write commands against the dataset."));
        Assert.That(runner.ReadReply(), Is.EqualTo(Bulk("done")));
        Assert.That(admin.Execute("GET", "x"), Is.EqualTo(Bulk("1")));
    }

    [Test]
    public void ReadOnlyScriptCanBeKilledInsidePcall()
    {
        using var admin = ConnectRaw();
        admin.Execute("CONFIG", "SET", "lua-time-limit", "100");
        using var runner = ConnectRaw();
        // pcall cannot swallow the kill.
        runner.Send("EVAL_RO", "pcall(function() while true do end end) return 'escaped'", "0");
        Assert.That(WaitForBusy(admin), Does.StartWith("-BUSY"));
        Assert.That(admin.Execute("SCRIPT", "KILL"), Is.EqualTo("+OK\r\n"));
        Assert.That(runner.ReadReply(), Does.StartWith("-ERR Script killed by user with SCRIPT KILL..."));
    }
}
