using System.Globalization;
using System.Linq;
using System.Text;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.Set;

/// <summary>A set of a million members, loaded in big variadic SADDs.</summary>
[TestFixture]
public sealed class SetLargeTests : ServerTestBase
{
    private const int Total = 1_000_000;
    private const int Batch = 50_000;

    [Test]
    public void MillionMembers()
    {
        using var client = ConnectRaw();
        var command = new StringBuilder();
        for (int start = 0; start < Total; start += Batch)
        {
            command.Clear();
            command.Append("*").Append(Batch + 2).Append("\r\n$4\r\nSADD\r\n$3\r\nbig\r\n");
            for (int i = start; i < start + Batch; i++)
            {
                string member = i.ToString(CultureInfo.InvariantCulture);
                command.Append('$').Append(member.Length).Append("\r\n").Append(member).Append("\r\n");
            }
            client.SendRaw(command.ToString());
            Assert.That(client.ReadReply(), Is.EqualTo($":{Batch}\r\n"));
        }
        Assert.That(client.Execute("SCARD", "big"), Is.EqualTo($":{Total}\r\n"));
        Assert.That(client.Execute("SADD", "big", "0", "999999", Total.ToString(CultureInfo.InvariantCulture)), Is.EqualTo(":1\r\n"));

        using var redis = Connect();
        var db = redis.GetDatabase();
        Assert.That(db.SetLength("big"), Is.EqualTo(Total + 1));

        foreach (int probe in new[] { 0, 1, 12345, 500_000, 999_999, Total })
            Assert.That(db.SetContains("big", probe), Is.True, $"member {probe}");
        Assert.That(db.SetContains("big", -1), Is.False);
        Assert.That(db.SetContains("big", Total + 1), Is.False);

        var sample = db.SetRandomMembers("big", 1000);
        Assert.That(sample.Distinct().Count(), Is.EqualTo(1000));
        var popped = db.SetPop("big");
        Assert.That(popped.HasValue, Is.True);
        Assert.That(db.SetContains("big", popped), Is.False);
        Assert.That(db.SetLength("big"), Is.EqualTo(Total));
    }
}
