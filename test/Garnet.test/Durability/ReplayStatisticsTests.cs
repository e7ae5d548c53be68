using System.Collections.Generic;
using Garnet.test.Server;
using NUnit.Framework;
using static Garnet.test.Durability.OperationLogTestServer;

namespace Garnet.test.Durability;

/// <summary>
/// Commands replayed from the operation log at recovery are not clients' commands: as Redis's AOF loading (which runs
/// them without its call path), they stay out of INFO commandstats and total_commands_processed.
/// </summary>
[TestFixture]
public sealed class ReplayStatisticsTests
{
    private OperationLogTestServer _server = null!;

    [SetUp]
    public void SetUp() => _server = new OperationLogTestServer();

    [TearDown]
    public void TearDown() => _server.Dispose();

    private static Dictionary<string, string> Fields(RawClient client, string section)
        => ReplyText.InfoFields(client.Execute("INFO", section));

    [Test]
    public void ReplayedCommandsAreNotCounted()
    {
        _server.Start();
        using (var c = _server.Connect())
        {
            for (int i = 0; i < 20; i++)
                Ok(c, "SET", "k" + i, "v");
            Ok(c, "INCR", "n");
            Ok(c, "HSET", "h", "f", "v");
            Ok(c, "PFADD", "hll", "a");
            Assert.That(Fields(c, "commandstats"), Does.ContainKey("cmdstat_set"));
        }

        _server.Restart();
        using var client = _server.Connect();
        Assert.That(client.Execute("DBSIZE"), Is.EqualTo(":23\r\n"), "the log was replayed");
        var commands = Fields(client, "commandstats");
        foreach (string command in new[] { "set", "incr", "hset", "pfadd" })
            Assert.That(commands, Does.Not.ContainKey("cmdstat_" + command));
        // DBSIZE and the first INFO (a batch's commands are added when it ends, so this INFO is not counted yet).
        Assert.That(Fields(client, "stats")["total_commands_processed"], Is.EqualTo("2"));
        Assert.That(client.Execute("SLOWLOG", "LEN"), Is.EqualTo(":0\r\n"));

        // The server's own commands count again.
        Ok(client, "SET", "after", "1");
        Assert.That(Fields(client, "commandstats")["cmdstat_set"], Does.StartWith("calls=1,"));
    }
}
