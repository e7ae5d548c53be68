using System.Threading.Tasks;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Scripting;

/// <summary>
/// Disposing the server while a script loops forever on an event loop: the script is ended (even one that
/// wrote, which SCRIPT KILL refuses) so the loop's thread can be joined, and Dispose returns.
/// </summary>
[TestFixture]
public sealed class ScriptShutdownTests
{
    [TestCase("local i = 0\nwhile true do i = i + 1 end")]
    [TestCase("redis.call('SET', 'k', 'v')\nwhile true do end")]
    [TestCase("while true do pcall(function() while true do end end) end")]
    public void DisposeEndsALoopingScript(string script)
    {
        var server = new GarnetServer(new ServerOptions { Address = "127.0.0.1", Port = 0 });
        server.Start();
        using var admin = new RawClient(server.Port);
        using var runner = new RawClient(server.Port);
        Assert.That(admin.Execute("CONFIG", "SET", "lua-time-limit", "50"), Is.EqualTo("+OK\r\n"));
        runner.Send("EVAL", script, "0");
        Assert.That(ScriptConcurrencyTests.WaitForBusy(admin), Does.StartWith("-BUSY"));

        var dispose = Task.Run(server.Dispose);
        Assert.That(dispose.Wait(30_000), Is.True, "Dispose waited for the script");
    }
}
