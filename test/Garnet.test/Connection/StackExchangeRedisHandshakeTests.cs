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

    [Test]
    public void CommandsTheClientPicksByVersionWork()
    {
        using var proxy = new RecordingProxy(Port);
        var options = ClientOptions();
        options.EndPoints.Clear();
        options.EndPoints.Add("127.0.0.1", proxy.Port);
        using var redis = Connect(options);
        var db = redis.GetDatabase();
        var server = redis.GetServer(redis.GetEndPoints()[0]);

        // SetConditional, SetKeepTtl, SetAndGet, MillisecondExpiry: options of SET and PEXPIRE/PTTL.
        Assert.That(db.StringSet("s", "1", TimeSpan.FromSeconds(100), When.NotExists), Is.True);
        Assert.That(db.StringSet("s", "2", (TimeSpan?)null, keepTtl: true), Is.True);
        Assert.That((string?)db.StringSetAndGet("s", "3"), Is.EqualTo("2"));
        Assert.That(db.KeyExpire("s", TimeSpan.FromMilliseconds(90500)), Is.True);
        Assert.That(db.KeyTimeToLive("s"), Is.Not.Null);
        // PushMultiple, SetVaradicAddRemove, HashVaradicDelete, MultipleRandom, SetPopMultiple: variadic forms.
        Assert.That(db.ListRightPush("l", new RedisValue[] { "a", "b", "c" }), Is.EqualTo(3));
        Assert.That(db.SetAdd("set", new RedisValue[] { "a", "b", "c" }), Is.EqualTo(3));
        Assert.That(db.SetRandomMembers("set", 2), Has.Length.EqualTo(2));
        Assert.That(db.SetPop("set", 2), Has.Length.EqualTo(2));
        db.HashSet("h", new[] { new HashEntry("f1", "1"), new HashEntry("f2", "2"), new HashEntry("f3", "3") });
        Assert.That(db.HashDelete("h", new RedisValue[] { "f1", "f2" }), Is.EqualTo(2));
        db.SortedSetAdd("z", new[] { new SortedSetEntry("m1", 1), new SortedSetEntry("m2", 2) });
        // Scan: Keys() and the collection scans use cursors rather than KEYS / HGETALL / SMEMBERS / ZRANGE.
        Assert.That(server.Keys(pattern: "*", pageSize: 2), Has.Exactly(5).Items);
        Assert.That(db.HashScan("h", "*", pageSize: 1), Has.Exactly(1).Items);
        Assert.That(db.SetScan("set", "*", pageSize: 1), Has.Exactly(1).Items);
        Assert.That(db.SortedSetScan("z", "*", pageSize: 1), Has.Exactly(2).Items);
        // Scripting: a prepared script is sent by its hash once loaded.
        var script = LuaScript.Prepare("return redis.call('GET', @key)");
        var loaded = script.Load(server);
        Assert.That((string?)loaded.Evaluate(db, new { key = (RedisKey)"s" }), Is.EqualTo("3"));
        Assert.That((string?)db.ScriptEvaluate("return 'x'"), Is.EqualTo("x"));
        // Another database: SELECT, then UNLINK-free DEL.
        var other = redis.GetDatabase(3);
        other.StringSet("o", "1");
        Assert.That(other.KeyDelete("o"), Is.True);
        // ExecAbort: a transaction with a condition (WATCH ... MULTI ... EXEC).
        var transaction = db.CreateTransaction();
        transaction.AddCondition(Condition.KeyExists("s"));
        _ = transaction.StringIncrementAsync("n");
        Assert.That(transaction.Execute(), Is.True);
        // PingOnSubscriber and the subscription connection's own round trip.
        Assert.That(redis.GetSubscriber().Ping(), Is.GreaterThanOrEqualTo(TimeSpan.Zero));
        db.Ping();

        var sent = new HashSet<string>();
        foreach (var connection in proxy.Exchanges())
        {
            foreach (var (command, reply) in connection)
            {
                sent.Add(command.Split(' ')[0]);
                if (!s_expectedErrors.ContainsKey(command))
                    Assert.That(reply, Does.Not.StartWith("-").And.Not.EqualTo("(no reply)"), command);
            }
        }
        Assert.That(sent, Is.SupersetOf(new[] { "SET", "PEXPIRE", "PTTL", "RPUSH", "SADD", "SRANDMEMBER", "SPOP", "HDEL", "SCAN", "HSCAN", "SSCAN", "ZSCAN", "SCRIPT", "EVALSHA", "SELECT", "WATCH", "MULTI", "EXEC" }));
        Assert.That(sent, Has.No.Member("KEYS").And.No.Member("HGETALL").And.No.Member("SMEMBERS"));
    }
}
