using System;
using System.Buffers.Binary;
using System.Text;
using Garnet.common;
using NUnit.Framework;
using StackExchange.Redis;

namespace Garnet.test.Keyspace;

/// <summary>DUMP and RESTORE: [type][value][version LE16][CRC-64 LE].</summary>
public class DumpRestoreTests : ServerTestBase
{
    private static string Payload(byte type, string value, ushort version = 1)
    {
        var bytes = new byte[1 + Encoding.Latin1.GetByteCount(value) + 10];
        bytes[0] = type;
        Encoding.Latin1.GetBytes(value, bytes.AsSpan(1));
        BinaryPrimitives.WriteUInt16LittleEndian(bytes.AsSpan(bytes.Length - 10), version);
        BinaryPrimitives.WriteUInt64LittleEndian(bytes.AsSpan(bytes.Length - 8), Crc64.Compute(bytes.AsSpan(0, bytes.Length - 8)));
        return Encoding.Latin1.GetString(bytes);
    }

    [Test]
    public void DumpFormat()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("DUMP", "missing"), Is.EqualTo("$-1\r\n"));
        client.Execute("SET", "k", "hello\0world");
        string payload = Resp.Bulk(client.Execute("DUMP", "k"))!;
        Assert.That(payload, Is.EqualTo(Payload(0, "hello\0world")));
        client.Execute("EXPIRE", "k", "100");
        Assert.That(Resp.Bulk(client.Execute("DUMP", "k")), Is.EqualTo(payload), "the TTL is not part of the payload");
        client.Execute("SET", "empty", "");
        Assert.That(Resp.Bulk(client.Execute("DUMP", "empty")), Is.EqualTo(Payload(0, "")));
    }

    [Test]
    public void RoundTrip()
    {
        using var client = ConnectRaw();
        var random = new Random(3);
        foreach (int length in new[] { 0, 1, 7, 100, 70_000 })
        {
            var value = new byte[length];
            random.NextBytes(value);
            string text = Encoding.Latin1.GetString(value);
            client.Execute("SET", "source", text);
            string payload = Resp.Bulk(client.Execute("DUMP", "source"))!;
            Assert.That(client.Execute("RESTORE", "copy" + length, "0", payload), Is.EqualTo("+OK\r\n"));
            Assert.That(Resp.Bulk(client.Execute("GET", "copy" + length)), Is.EqualTo(text));
            Assert.That(client.Execute("TTL", "copy" + length), Is.EqualTo(":-1\r\n"));
        }
    }

    [Test]
    public void RestoreWithTtl()
    {
        using var client = ConnectRaw();
        string payload = Payload(0, "v");
        Assert.That(client.Execute("RESTORE", "rel", "5000", payload), Is.EqualTo("+OK\r\n"));
        Assert.That(Resp.Integer(client.Execute("PTTL", "rel")), Is.InRange(4000, 5000));
        long at = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() + 100_000;
        Assert.That(client.Execute("RESTORE", "abs", at.ToString(), payload, "ABSTTL"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "abs"), Is.EqualTo($":{at}\r\n"));
        Assert.That(client.Execute("RESTORE", "zero", "0", payload, "absttl"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("TTL", "zero"), Is.EqualTo(":-1\r\n"));
    }

    [Test]
    public void RestoreWithAPastTimeLeavesNoKey()
    {
        using var client = ConnectRaw();
        string payload = Payload(0, "v");
        Assert.That(client.Execute("RESTORE", "past", "1000", payload, "ABSTTL"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("EXISTS", "past"), Is.EqualTo(":0\r\n"));
        client.Execute("SET", "old", "x");
        Assert.That(client.Execute("RESTORE", "old", "1", payload, "ABSTTL", "REPLACE"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("EXISTS", "old"), Is.EqualTo(":0\r\n"), "replaced by a value that has already expired");
    }

    [Test]
    public void BusyKeyAndReplace()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "old", "EX", "100");
        string payload = Payload(0, "new");
        Assert.That(client.Execute("RESTORE", "k", "0", payload), Is.EqualTo(Resp.Error("BUSYKEY Target key name already exists.")));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$3\r\nold\r\n"));
        Assert.That(client.Execute("RESTORE", "k", "0", payload, "REPLACE"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$3\r\nnew\r\n"));
        Assert.That(client.Execute("TTL", "k"), Is.EqualTo(":-1\r\n"));
        // The existing key is reported before a bad TTL, as in Redis.
        Assert.That(client.Execute("RESTORE", "k", "-1", payload), Is.EqualTo(Resp.Error("BUSYKEY Target key name already exists.")));
    }

    [Test]
    public void RestoreOverAnExpiredKey()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "k", "old", "PX", "1");
        System.Threading.Thread.Sleep(20);
        Assert.That(client.Execute("RESTORE", "k", "0", Payload(0, "new")), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("GET", "k"), Is.EqualTo("$3\r\nnew\r\n"));
    }

    [Test]
    public void BadTtl()
    {
        using var client = ConnectRaw();
        string payload = Payload(0, "v");
        Assert.That(client.Execute("RESTORE", "k", "-1", payload), Is.EqualTo(Resp.Error("ERR Invalid TTL value, must be >= 0")));
        Assert.That(client.Execute("RESTORE", "k", "soon", payload), Is.EqualTo(Resp.Error("ERR value is not an integer or out of range")));
        Assert.That(client.Execute("RESTORE", "k", "9223372036854775807", payload), Is.EqualTo(Resp.Error("ERR invalid expire time in 'restore' command")));
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void CorruptedPayloads()
    {
        using var client = ConnectRaw();
        string error = Resp.Error("ERR DUMP payload version or checksum are wrong");
        string payload = Payload(0, "some value");
        for (int i = 0; i < payload.Length; i++)
        {
            var corrupted = payload.ToCharArray();
            corrupted[i] = (char)(corrupted[i] ^ 0x01);
            Assert.That(client.Execute("RESTORE", "k", "0", new string(corrupted)), Is.EqualTo(error), $"byte {i}");
        }
        Assert.That(client.Execute("RESTORE", "k", "0", payload.Substring(0, payload.Length - 1)), Is.EqualTo(error));
        Assert.That(client.Execute("RESTORE", "k", "0", ""), Is.EqualTo(error));
        Assert.That(client.Execute("RESTORE", "k", "0", "short"), Is.EqualTo(error));
        Assert.That(client.Execute("RESTORE", "k", "0", Payload(0, "v", version: 2)), Is.EqualTo(error), "a newer format");
        Assert.That(client.Execute("RESTORE", "k", "0", Payload(0, "v", version: 0)), Is.EqualTo(error));
        Assert.That(client.Execute("RESTORE", "k", "0", Payload(9, "v")), Is.EqualTo(Resp.Error("ERR Bad data format")), "an unknown type");
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void IdleTimeAndFrequencyAreValidated()
    {
        using var client = ConnectRaw();
        string payload = Payload(0, "v");
        Assert.That(client.Execute("RESTORE", "a", "0", payload, "IDLETIME", "100"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("RESTORE", "b", "0", payload, "FREQ", "255", "REPLACE"), Is.EqualTo("+OK\r\n"));
        Assert.That(client.Execute("RESTORE", "c", "0", payload, "IDLETIME", "-1"), Is.EqualTo(Resp.Error("ERR Invalid IDLETIME value, must be >= 0")));
        Assert.That(client.Execute("RESTORE", "c", "0", payload, "IDLETIME", "x"), Is.EqualTo(Resp.Error("ERR value is not an integer or out of range")));
        Assert.That(client.Execute("RESTORE", "c", "0", payload, "FREQ", "256"), Is.EqualTo(Resp.Error("ERR Invalid FREQ value, must be >= 0 and <= 255")));
        Assert.That(client.Execute("RESTORE", "c", "0", payload, "FREQ", "-1"), Is.EqualTo(Resp.Error("ERR Invalid FREQ value, must be >= 0 and <= 255")));
        Assert.That(client.Execute("RESTORE", "c", "0", payload, "IDLETIME", "1", "FREQ", "1"), Is.EqualTo(Resp.Error("ERR syntax error")));
        Assert.That(client.Execute("RESTORE", "c", "0", payload, "IDLETIME"), Is.EqualTo(Resp.Error("ERR syntax error")));
        Assert.That(client.Execute("RESTORE", "c", "0", payload, "FOO"), Is.EqualTo(Resp.Error("ERR syntax error")));
        Assert.That(client.Execute("EXISTS", "c"), Is.EqualTo(":0\r\n"));
    }

    [Test]
    public void WrongArity()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("DUMP"), Is.EqualTo(Resp.WrongArity("dump")));
        Assert.That(client.Execute("DUMP", "a", "b"), Is.EqualTo(Resp.WrongArity("dump")));
        Assert.That(client.Execute("RESTORE", "k", "0"), Is.EqualTo(Resp.WrongArity("restore")));
    }

    [Test]
    public void ThroughStackExchangeRedis()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        db.StringSet("k", "value");
        byte[]? dump = db.KeyDump("k");
        Assert.That(dump, Is.Not.Null);
        Assert.That(db.KeyDump("missing"), Is.Null);
        db.KeyRestore("restored", dump!, TimeSpan.FromSeconds(100));
        Assert.That((string?)db.StringGet("restored"), Is.EqualTo("value"));
        Assert.That(db.KeyTimeToLive("restored"), Is.Not.Null);
        Assert.Throws<RedisServerException>(() => db.KeyRestore("restored", dump!));
    }
}
