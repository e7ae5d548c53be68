using System;
using System.Threading;
using NUnit.Framework;
using static Garnet.test.Scripting.EvalTests;

namespace Garnet.test.Scripting;

/// <summary>Functions against other clients: atomic calls while libraries are replaced, and a function that wrote cannot be killed. Invariants and replies, never timings.</summary>
public class FunctionConcurrencyTests : ServerTestBase
{
    private const string Counter = "#!lua name=counter\n"
        + "redis.register_function('bump', function(keys)\n"
        + "  local v = tonumber(redis.call('GET', keys[1]) or '0')\n"
        + "  redis.call('SET', keys[1], v + 1)\n"
        + "  return v + 1\n"
        + "end)";

    [Test]
    public void CallsStayAtomicWhileTheLibraryIsReplaced()
    {
        const int Callers = 4;
        const int Calls = 200;
        using (var setup = ConnectRaw())
            Assert.That(setup.Execute("FUNCTION", "LOAD", Counter), Is.EqualTo(Bulk("counter")));

        Exception? failure = null;
        int callersLeft = Callers;
        var threads = new Thread[Callers + 1];
        for (int t = 0; t < Callers; t++)
        {
            threads[t] = new Thread(() =>
            {
                try
                {
                    using var client = ConnectRaw();
                    for (int i = 0; i < Calls; i++)
                        Assert.That(client.Execute("FCALL", "bump", "1", "n"), Does.StartWith(":"));
                }
                catch (Exception e)
                {
                    Interlocked.CompareExchange(ref failure, e, null);
                }
                finally
                {
                    Interlocked.Decrement(ref callersLeft);
                }
            });
        }
        // Meanwhile the library is replaced again and again: each session reloads it on its next call.
        threads[Callers] = new Thread(() =>
        {
            try
            {
                using var loader = ConnectRaw();
                for (int i = 0; i < 1000 && Volatile.Read(ref callersLeft) > 0; i++)
                    Assert.That(loader.Execute("FUNCTION", "LOAD", "REPLACE", Counter), Is.EqualTo(Bulk("counter")));
            }
            catch (Exception e)
            {
                Interlocked.CompareExchange(ref failure, e, null);
            }
        });
        foreach (var thread in threads)
            thread.Start();
        foreach (var thread in threads)
            thread.Join();
        if (failure != null)
            throw failure;

        using var check = ConnectRaw();
        Assert.That(check.Execute("GET", "n"), Is.EqualTo(Bulk((Callers * Calls).ToString())));
    }

    [Test]
    public void FunctionThatWroteCannotBeKilled()
    {
        using var admin = ConnectRaw();
        admin.Execute("CONFIG", "SET", "lua-time-limit", "100");
        // Writes, then spins for a while (bounded, so the test ends whatever happens).
        const string Library = "#!lua name=busy\n"
            + "redis.register_function('writespin', function()\n"
            + "  redis.call('SET', 'x', '1')\n"
            + "  local t = os.clock()\n"
            + "  while os.clock() - t < 1.5 do end\n"
            + "  return 'done'\n"
            + "end)";
        Assert.That(admin.Execute("FUNCTION", "LOAD", Library), Is.EqualTo(Bulk("busy")));
        using var runner = ConnectRaw();
        runner.Send("FCALL", "writespin", "0");
        Assert.That(ScriptConcurrencyTests.WaitForBusy(admin), Does.StartWith("-BUSY"));
        Assert.That(admin.Execute("FUNCTION", "KILL"), Does.StartWith("-UNKILLABLE Sorry the script already executed write commands against the dataset."));
        Assert.That(runner.ReadReply(), Is.EqualTo(Bulk("done")));
        Assert.That(admin.Execute("GET", "x"), Is.EqualTo(Bulk("1")));
    }
}
