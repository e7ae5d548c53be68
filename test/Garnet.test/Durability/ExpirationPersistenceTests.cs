using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.IO;
using System.Numerics;
using System.Text;
using Garnet.server;
using NUnit.Framework;
using static Garnet.test.Durability.OperationLogTestServer;

namespace Garnet.test.Durability;

/// <summary>
/// Expirations across a restart: far-future times come back exactly from a checkpoint and from the AOF, and files of the
/// earlier formats (expirations and clocks in .NET ticks) are converted, or refused when their format is unknown. The
/// old files are built here byte by byte from their documented layouts (durability.md), not by the server's code.
/// </summary>
[TestFixture]
public sealed class ExpirationPersistenceTests
{
    private const string MaxMilliseconds = "9223372036854775807";
    private const long TicksPerMillisecond = TimeSpan.TicksPerMillisecond;

    private OperationLogTestServer _server = null!;

    [SetUp]
    public void SetUp() => _server = new OperationLogTestServer();

    [TearDown]
    public void TearDown() => _server.Dispose();

    private static void NoAof(ServerOptions options) => options.EnableAof = false;

    private string CheckpointDirectory => Path.Combine(_server.Directory, "checkpoints");

    /// <summary>Keys at the ends of the range, set absolutely and relatively; returns what PEXPIRETIME said of each.</summary>
    private static Dictionary<string, string> WriteFarFutureKeys(RawClient c)
    {
        Ok(c, "SET", "max", "v", "PXAT", MaxMilliseconds);
        Ok(c, "SET", "seconds", "v");
        Ok(c, "EXPIREAT", "seconds", "9223372036854775");
        Ok(c, "SET", "relative", "v");
        Ok(c, "EXPIRE", "relative", "9000000000000000");
        Ok(c, "HSET", "object", "f", "v");
        Ok(c, "PEXPIREAT", "object", "9223372036854775806");
        var times = new Dictionary<string, string>();
        foreach (var key in new[] { "max", "seconds", "relative", "object" })
            times[key] = c.Execute("PEXPIRETIME", key);
        Assert.That(times["max"], Is.EqualTo($":{MaxMilliseconds}\r\n"));
        return times;
    }

    private void AssertTimes(Dictionary<string, string> times)
    {
        using var client = _server.Connect();
        foreach (var (key, time) in times)
            Assert.That(client.Execute("PEXPIRETIME", key), Is.EqualTo(time), key);
        Assert.That(client.Execute("GET", "max"), Is.EqualTo("$1\r\nv\r\n"));
    }

    [Test]
    public void FarFutureTimesComeBackExactlyFromACheckpoint()
    {
        _server.Start(configure: NoAof);
        Dictionary<string, string> times;
        using (var c = _server.Connect())
        {
            times = WriteFarFutureKeys(c);
            Assert.That(c.Execute("SAVE"), Is.EqualTo("+OK\r\n"));
        }
        _server.Stop();
        _server.Start(recover: true, NoAof);
        AssertTimes(times);
    }

    [Test]
    public void FarFutureTimesComeBackExactlyFromTheAof()
    {
        _server.Start();
        Dictionary<string, string> times;
        using (var c = _server.Connect())
            times = WriteFarFutureKeys(c);
        // The relative EXPIRE is replayed at its logged clock: the same absolute time, not one taken at replay.
        _server.Restart();
        AssertTimes(times);
    }

    [Test]
    public void ACheckpointOfTheTicksFormatIsConverted()
    {
        long inYear2100 = new DateTimeOffset(2100, 1, 1, 0, 0, 0, TimeSpan.Zero).ToUnixTimeMilliseconds();
        long lastOfYear9999 = new DateTimeOffset(DateTime.MaxValue, TimeSpan.Zero).ToUnixTimeMilliseconds();
        var items = new List<byte>();
        items.Add(1); // database 0, about 3 keys
        items.AddRange(Int32(0));
        items.AddRange(Int64(3));
        AddString(items, "in2100", "a", DateTime.UnixEpoch.Ticks + (inYear2100 * TicksPerMillisecond));
        AddString(items, "at-the-old-limit", "b", DateTime.MaxValue.Ticks);
        AddString(items, "past", "c", DateTime.UnixEpoch.Ticks + TicksPerMillisecond);
        AddString(items, "plain", "d", null);
        items.Add(5); // end: 4 records
        items.AddRange(Int64(4));
        WriteCheckpoint(format: 1, items.ToArray());

        _server.Start(recover: true, NoAof);
        using var client = _server.Connect();
        Assert.That(client.Execute("PEXPIRETIME", "in2100"), Is.EqualTo($":{inYear2100}\r\n"));
        Assert.That(client.Execute("GET", "in2100"), Is.EqualTo("$1\r\na\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "at-the-old-limit"), Is.EqualTo($":{lastOfYear9999}\r\n"));
        Assert.That(client.Execute("EXISTS", "past"), Is.EqualTo(":0\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "plain"), Is.EqualTo(":-1\r\n"));
        Assert.That(client.Execute("GET", "plain"), Is.EqualTo("$1\r\nd\r\n"));
    }

    [Test]
    public void ACheckpointOfAnUnknownFormatIsRefused()
    {
        var items = new List<byte> { 1 };
        items.AddRange(Int32(0));
        items.AddRange(Int64(0));
        items.Add(5);
        items.AddRange(Int64(0));
        WriteCheckpoint(format: 3, items.ToArray());
        var e = Assert.Throws<RecoveryException>(() => _server.Start(recover: true, NoAof));
        Assert.That(e!.Message, Does.Contain("its format 3 is not known to this server"));
    }

    [Test]
    public void AnAofEntryOfTheTicksFormatReplaysAtItsClock()
    {
        _server.Start();
        using (var c = _server.Connect())
            Ok(c, "SET", "k", "v");
        _server.Stop();
        string file = Path.Combine(_server.AofDirectory, "aof.000000");
        var existing = File.ReadAllBytes(file);
        long version = BinaryPrimitives.ReadInt64LittleEndian(existing.AsSpan(8 + 8));
        // A relative PEXPIRE logged by the earlier server five seconds ago, its clock in ticks.
        long clockMs = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() - 5000;
        File.AppendAllBytes(file, TicksFormatEntry(version, clockMs * TicksPerMillisecond + DateTime.UnixEpoch.Ticks, "PEXPIRE", "k", "3600000"));

        _server.Start(recover: true);
        using (var c = _server.Connect())
        {
            Assert.That(c.Execute("PEXPIRETIME", "k"), Is.EqualTo($":{clockMs + 3_600_000}\r\n"));
            Ok(c, "SET", "later", "x", "PXAT", MaxMilliseconds);
        }
        // Entries of both formats in one log.
        _server.Restart();
        using var client = _server.Connect();
        Assert.That(client.Execute("PEXPIRETIME", "k"), Is.EqualTo($":{clockMs + 3_600_000}\r\n"));
        Assert.That(client.Execute("PEXPIRETIME", "later"), Is.EqualTo($":{MaxMilliseconds}\r\n"));
    }

    /// <summary>A string item: kind 2, flags (bit 0: an expiration follows), key, [expiration], value.</summary>
    private static void AddString(List<byte> items, string key, string value, long? expiration)
    {
        items.Add(2);
        items.Add((byte)(expiration.HasValue ? 1 : 0));
        AddBytes(items, key);
        if (expiration is long e)
            items.AddRange(Int64(e));
        AddBytes(items, value);
    }

    private static void AddBytes(List<byte> items, string text)
    {
        items.AddRange(Int32(text.Length));
        items.AddRange(Encoding.ASCII.GetBytes(text));
    }

    /// <summary>checkpoint.000000000001: the first block (magic, format, version 1, AOF start 0, time, 1 database), then the items.</summary>
    private void WriteCheckpoint(int format, byte[] items)
    {
        var first = new List<byte>(Encoding.ASCII.GetBytes("GARNETCK"));
        first.AddRange(Int32(format));
        first.AddRange(Int32(0));
        first.AddRange(Int64(1));
        first.AddRange(Int64(0));
        first.AddRange(Int64(DateTimeOffset.UtcNow.ToUnixTimeMilliseconds()));
        first.AddRange(Int32(1));
        Directory.CreateDirectory(CheckpointDirectory);
        using var file = File.Create(Path.Combine(CheckpointDirectory, "checkpoint.000000000001"));
        WriteBlock(file, first.ToArray());
        WriteBlock(file, items);
    }

    /// <summary>u32 payload length, u32 CRC-32C, the payload, zeros up to a multiple of 4096 bytes.</summary>
    private static void WriteBlock(Stream file, byte[] payload)
    {
        int total = 8 + payload.Length;
        var block = new byte[(total + 4095) & ~4095];
        BinaryPrimitives.WriteInt32LittleEndian(block, payload.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(block.AsSpan(4), Crc32C(payload));
        payload.CopyTo(block, 8);
        file.Write(block);
    }

    /// <summary>An operation log entry of format 1: one command in database 0, its clock in .NET UTC ticks.</summary>
    private static byte[] TicksFormatEntry(long version, long clockTicks, params string[] command)
    {
        var resp = new StringBuilder($"*{command.Length}\r\n");
        foreach (var arg in command)
            resp.Append($"${arg.Length}\r\n{arg}\r\n");
        var respBytes = Encoding.ASCII.GetBytes(resp.ToString());
        var body = new List<byte> { 1, 1, 0, 0 }; // kind 1 (commands), format 1
        body.AddRange(Int32(1));
        body.AddRange(Int64(version));
        body.AddRange(Int32(0));
        body.AddRange(Int32(respBytes.Length));
        body.AddRange(Int64(clockTicks));
        body.AddRange(Int64(0)); // random seed
        body.AddRange(BitConverter.GetBytes((ushort)RespCommand.PEXPIRE));
        body.AddRange(new byte[6]);
        body.AddRange(respBytes);
        while (body.Count % 8 != 0)
            body.Add(0);
        var entry = new byte[8 + body.Count];
        BinaryPrimitives.WriteInt32LittleEndian(entry, entry.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(entry.AsSpan(4), Crc32C(body.ToArray()));
        body.CopyTo(entry, 8);
        return entry;
    }

    private static byte[] Int32(int value)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(bytes, value);
        return bytes;
    }

    private static byte[] Int64(long value)
    {
        var bytes = new byte[8];
        BinaryPrimitives.WriteInt64LittleEndian(bytes, value);
        return bytes;
    }

    /// <summary>CRC-32C of the bytes followed by zeros up to a multiple of 8, as the files' checksums are taken.</summary>
    private static uint Crc32C(byte[] bytes)
    {
        uint crc = 0xFFFFFFFF;
        foreach (byte b in bytes)
            crc = BitOperations.Crc32C(crc, b);
        for (int i = bytes.Length; i % 8 != 0; i++)
            crc = BitOperations.Crc32C(crc, (byte)0);
        return ~crc;
    }
}
