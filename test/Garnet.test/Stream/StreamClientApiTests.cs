using System.Linq;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.Streams;

/// <summary>The StackExchange.Redis stream API end to end.</summary>
public class StreamClientApiTests : ServerTestBase
{
    [Test]
    public void ProducerAndGroupThroughTheClient()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        var first = db.StreamAdd("orders", new[] { new NameValueEntry("item", "book"), new NameValueEntry("qty", 1) });
        var second = db.StreamAdd("orders", "item", "pen");
        Assert.That(db.StreamLength("orders"), Is.EqualTo(2));
        var range = db.StreamRange("orders");
        Assert.That(range.Select(e => e.Id.ToString()), Is.EqualTo(new[] { first.ToString(), second.ToString() }));
        Assert.That(range[0]["qty"].ToString(), Is.EqualTo("1"));
        Assert.That(db.StreamRange("orders", "-", "+", count: 1, messageOrder: Order.Descending)[0].Id, Is.EqualTo(second));
        Assert.That(db.StreamRead("orders", first).Single().Id, Is.EqualTo(second));

        Assert.That(db.StreamCreateConsumerGroup("orders", "billing", StreamPosition.Beginning), Is.True);
        var delivered = db.StreamReadGroup("orders", "billing", "alice", StreamPosition.NewMessages, count: 10);
        Assert.That(delivered.Length, Is.EqualTo(2));
        var pending = db.StreamPending("orders", "billing");
        Assert.That(pending.PendingMessageCount, Is.EqualTo(2));
        Assert.That(pending.Consumers.Single().Name.ToString(), Is.EqualTo("alice"));
        Assert.That(db.StreamAcknowledge("orders", "billing", first), Is.EqualTo(1));

        var claim = db.StreamAutoClaim("orders", "billing", "bob", 0, "0-0", 10);
        Assert.That(claim.ClaimedEntries.Single().Id, Is.EqualTo(second));
        Assert.That(claim.NextStartId.ToString(), Is.EqualTo("0-0"));
        Assert.That(db.StreamPendingMessages("orders", "billing", 10, "bob").Single().MessageId, Is.EqualTo(second));

        var info = db.StreamInfo("orders");
        Assert.That(info.Length, Is.EqualTo(2));
        Assert.That(info.ConsumerGroupCount, Is.EqualTo(1));
        Assert.That(info.LastGeneratedId, Is.EqualTo(second));
        Assert.That(info.FirstEntry.Id, Is.EqualTo(first));
        var groups = db.StreamGroupInfo("orders");
        Assert.That(groups.Single().Name, Is.EqualTo("billing"));
        Assert.That(groups.Single().PendingMessageCount, Is.EqualTo(1));
        Assert.That(db.StreamConsumerInfo("orders", "billing").Select(c => c.Name).OrderBy(n => n), Is.EqualTo(new[] { "alice", "bob" }));

        Assert.That(db.StreamDelete("orders", new[] { first }), Is.EqualTo(1));
        Assert.That(db.StreamTrim("orders", 0), Is.EqualTo(1));
        Assert.That(db.KeyType("orders"), Is.EqualTo(RedisType.Stream));
    }
}
