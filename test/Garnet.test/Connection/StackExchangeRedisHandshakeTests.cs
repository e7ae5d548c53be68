using System;
using System.Collections.Generic;
using System.IO;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.Connection;

/// <summary>
/// What StackExchange.Redis (RESP3) says to the server when it connects, seen through a recording proxy, and
/// what it concludes about the server from the replies.
/// </summary>
public sealed class StackExchangeRedisHandshakeTests : ServerTestBase
{
    /// <summary>The Redis version the server reports in HELLO and INFO server.</summary>
    private const string ReportedVersion = "7.2.5";

    /// <summary>The only errors Redis 7.2 itself gives this handshake: it has no sentinel and no cluster mode either.</summary>
    private static readonly Dictionary<string, string> s_expectedErrors = new()
    {
        ["SENTINEL MASTERS"] = "-ERR unknown command 'SENTINEL', with args beginning with: 'MASTERS' \r\n",
        ["CLUSTER SLOTS"] = "-ERR This instance has cluster support disabled\r\n",
        ["CLUSTER NODES"] = "-ERR This instance has cluster support disabled\r\n",
    };

    [Test]
    public void HandshakeGetsRedisRepliesOnBothConnections()
    {
        using var proxy = new RecordingProxy(Port);
        var options = ClientOptions();
        options.EndPoints.Clear();
        options.EndPoints.Add("127.0.0.1", proxy.Port);
        var log = new StringWriter();
        using var redis = ConnectionMultiplexer.Connect(options, log);
        // A round trip on each connection: every reply to the handshake before it has passed the proxy.
        redis.GetDatabase().Ping();
        redis.GetSubscriber().Ping();

        var connections = proxy.Exchanges();
        var seen = new HashSet<string>();
        foreach (var connection in connections)
        {
            foreach (var (command, reply) in connection)
            {
                TestContext.Out.WriteLine(command + " -> " + reply.Replace("\r\n", "\\r\\n"));
                string name = command.Split(' ')[0];
                seen.Add(name == "CLIENT" || name == "CONFIG" || name == "INFO" || name == "CLUSTER" ? string.Join(' ', command.Split(' ', 3)[..2]) : name);
                if (s_expectedErrors.TryGetValue(command, out string? expected))
                    Assert.That(reply, Is.EqualTo(expected), command);
                else
                    Assert.That(reply, Does.Not.StartWith("-").And.Not.StartWith("!").And.Not.EqualTo("(no reply)"), command);
            }
        }
        Assert.That(seen, Is.SupersetOf(new[] { "HELLO", "CLIENT SETNAME", "CLIENT SETINFO", "CONFIG GET", "INFO server", "CLUSTER NODES", "ECHO", "GET", "SUBSCRIBE" }));
        Assert.That(connections, Has.Count.EqualTo(2), "an interactive and a subscription connection");

        string text = log.ToString();
        Assert.That(text, Does.Contain("Auto-configured (HELLO) protocol: Resp3"));
        Assert.That(text, Does.Contain("Standalone v" + ReportedVersion + ", primary"));
        Assert.That(text, Does.Not.Contain("Exception").And.Not.Contain("fail").IgnoreCase);
    }

    [Test]
    public void ClientBelievesTheVersionTheServerReports()
    {
        using var redis = Connect();
        var server = redis.GetServer(redis.GetEndPoints()[0]);
        Assert.That(server.Version, Is.EqualTo(new Version(ReportedVersion)));
        Assert.That(server.Protocol, Is.EqualTo(RedisProtocol.Resp3));
        Assert.That(server.ServerType, Is.EqualTo(ServerType.Standalone));
        Assert.That(server.DatabaseCount, Is.EqualTo(16));
        var features = server.Features;
        // Gated on by 7.2 and used by the client on its own (RESP3 handshake, SCAN for Keys(), SET options, variadic pushes).
        Assert.That(features.Resp3 && features.Hello && features.Scan && features.SetConditional && features.SetKeepTtl
            && features.SetAndGet && features.PushMultiple && features.SetVaradicAddRemove && features.ClientName, Is.True);
        // Believed by the client (streams came in 5.0) though this server has none yet.
        Assert.That(features.Streams, Is.True);
        // Later than 7.2: not believed.
        Assert.That(features.SetWithValueCheck, Is.False);
        Assert.That(features.DeleteWithValueCheck, Is.False);
    }
}
