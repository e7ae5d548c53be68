using System;
using System.Linq;
using System.Text;
using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.HyperLogLog;

/// <summary>PFDEBUG GETREG|DECODE|ENCODING|TODENSE and PFSELFTEST: replies, conversions and errors, as Redis 7.2 gives them.</summary>
[TestFixture]
public sealed class PfDebugTests : ServerTestBase
{
    private const int RegisterCount = 16384;
    private const string WrongType = "-WRONGTYPE Key is not a valid HyperLogLog string value.\r\n";
    private const string NoKey = "-ERR The specified key does not exist\r\n";

    /// <summary>Our sparse header: "HYLL", encoding 1, reserved bytes, the not-cached cardinality marker.</summary>
    private const string SparseHeader = "HYLL\u0001\0\0\0\0\0\0\0\0\0\0\u0080";

    [Test]
    public void EncodingAndToDense()
    {
        using var client = ConnectRaw();
        client.Execute("PFADD", "h", "a", "b", "c");
        Assert.That(client.Execute("PFDEBUG", "ENCODING", "h"), Is.EqualTo("+sparse\r\n"));
        Assert.That(client.Execute("PFDEBUG", "todense", "h"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("PFDEBUG", "ENCODING", "h"), Is.EqualTo("+dense\r\n"));
        Assert.That(client.Execute("PFDEBUG", "TODENSE", "h"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("STRLEN", "h"), Is.EqualTo(Integer(16 + 12288)));
        Assert.That(client.Execute("PFCOUNT", "h"), Is.EqualTo(Integer(3)), "the conversion keeps the registers");
        Assert.That(client.Execute("PFADD", "h", "d"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("PFCOUNT", "h"), Is.EqualTo(Integer(4)));
    }

    [Test]
    public void DecodeSpellsRedisSparseOpcodes()
    {
        using var client = ConnectRaw();
        client.Execute("PFADD", "empty");
        Assert.That(client.Execute("PFDEBUG", "DECODE", "empty"), Is.EqualTo(Bulk("Z:16384")));

        // Registers 0 = 1, 1..5 = 3 (a run of five: VAL holds at most four), 6..69 zero (64: the longest ZERO),
        // 70 = 32 (the largest sparse value), then 16313 zeros (XZERO).
        var value = new StringBuilder(SparseHeader);
        Entry(value, 0, 1);
        for (int i = 1; i <= 5; i++)
            Entry(value, i, 3);
        Entry(value, 70, 32);
        client.Execute("SET", "h", value.ToString());
        Assert.That(client.Execute("PFDEBUG", "DECODE", "h"), Is.EqualTo(Bulk("v:1,1 v:3,4 v:3,1 z:64 v:32,1 Z:16313")));

        var last = new StringBuilder(SparseHeader);
        Entry(last, 65, 2);
        Entry(last, RegisterCount - 1, 7);
        client.Execute("SET", "h2", last.ToString());
        Assert.That(client.Execute("PFDEBUG", "DECODE", "h2"), Is.EqualTo(Bulk("Z:65 v:2,1 Z:16317 v:7,1")));
    }

    [Test]
    public void GetRegAgreesWithDecodeAndTurnsDense()
    {
        using var connection = Connect();
        var db = connection.GetDatabase();
        var elements = Enumerable.Range(0, 300).Select(i => (StackExchange.Redis.RedisValue)("e" + i)).ToArray();
        db.HyperLogLogAdd("h", elements);
        string decoded = (string)db.Execute("PFDEBUG", "DECODE", "h")!;
        var fromText = RegistersOf(decoded);

        var reply = (StackExchange.Redis.RedisResult[])db.Execute("PFDEBUG", "GETREG", "h")!;
        Assert.That(reply, Has.Length.EqualTo(RegisterCount));
        var registers = reply.Select(r => (int)r).ToArray();
        Assert.That(registers, Is.EqualTo(fromText));
        Assert.That(registers.Count(r => r != 0), Is.InRange(280, 300), "300 elements fill about 297 registers");
        Assert.That((string)db.Execute("PFDEBUG", "ENCODING", "h")!, Is.EqualTo("dense"), "GETREG converts, as Redis does");
        Assert.That(db.Execute("PFDEBUG", "GETREG", "h").Length, Is.EqualTo(RegisterCount));
    }

    [Test]
    public void ValuesAboveThirtyTwoAreNeverSparse()
    {
        using var client = ConnectRaw();
        // A dense source whose register 5 is 40, merged into a sparse destination: Redis's sparse
        // opcodes cannot hold 40, so the destination turns dense; 32 still fits.
        foreach (int register in new[] { 32, 40 })
        {
            var dense = new char[16 + 12288];
            "HYLL\0\0\0\0\0\0\0\0\0\0\0\u0080".CopyTo(0, dense, 0, 16);
            // Register 5 is the second of the group in bytes 3..5: bits 6..11 of the 24-bit group.
            int packed = register << 6;
            dense[16 + 3] = (char)(packed & 0xFF);
            dense[16 + 4] = (char)((packed >> 8) & 0xFF);
            client.Execute("SET", "src", new string(dense));
            client.Execute("DEL", "dst");
            client.Execute("PFADD", "dst", "a");
            Assert.That(client.Execute("PFMERGE", "dst", "src"), Is.EqualTo("+OK\r\n"));
            Assert.That(client.Execute("PFDEBUG", "ENCODING", "dst"), Is.EqualTo(register > 32 ? "+dense\r\n" : "+sparse\r\n"), $"register {register}");
        }
    }

    [Test]
    public void Errors()
    {
        using var client = ConnectRaw();
        foreach (string subcommand in new[] { "GETREG", "DECODE", "ENCODING", "TODENSE", "NOSUCH" })
            Assert.That(client.Execute("PFDEBUG", subcommand, "missing"), Is.EqualTo(NoKey), subcommand);
        Assert.That(client.Execute("EXISTS", "missing"), Is.EqualTo(Integer(0)), "TODENSE creates nothing");

        client.Execute("SET", "s", "hello");
        client.Execute("RPUSH", "l", "x");
        foreach (string subcommand in new[] { "GETREG", "DECODE", "ENCODING", "TODENSE", "NOSUCH" })
        {
            Assert.That(client.Execute("PFDEBUG", subcommand, "s"), Is.EqualTo(WrongType), subcommand);
            Assert.That(client.Execute("PFDEBUG", subcommand, "l"), Does.StartWith("-WRONGTYPE Operation against a key holding the wrong kind of value"), subcommand);
        }
        Assert.That(client.Execute("GET", "s"), Is.EqualTo(Bulk("hello")));

        client.Execute("PFADD", "h", "a");
        Assert.That(client.Execute("PFDEBUG", "nosuch", "h"), Is.EqualTo(Error("ERR Unknown PFDEBUG subcommand 'nosuch'")));
        client.Execute("PFDEBUG", "TODENSE", "h");
        Assert.That(client.Execute("PFDEBUG", "DECODE", "h"), Is.EqualTo(Error("ERR HLL encoding is not sparse")));

        Assert.That(client.Execute("PFDEBUG", "GETREG"), Is.EqualTo(WrongArity("pfdebug")));
        Assert.That(client.Execute("PFDEBUG", "GETREG", "h", "extra"), Is.EqualTo(WrongArity("pfdebug")));
        Assert.That(client.Execute("PFSELFTEST", "extra"), Is.EqualTo(WrongArity("pfselftest")));
        Assert.That(client.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void SelfTestPasses()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("PFSELFTEST"), Is.EqualTo("+OK\r\n"));
    }

    [Test]
    public void CommandInfoMatchesRedis()
    {
        using var client = ConnectRaw();
        string debug = client.Execute("COMMAND", "INFO", "PFDEBUG");
        Assert.That(debug, Does.Contain("pfdebug"));
        Assert.That(debug, Does.Contain("+write\r\n+denyoom\r\n+admin\r\n"));
        Assert.That(debug, Does.Contain("+@write\r\n+@hyperloglog\r\n+@admin\r\n+@slow\r\n+@dangerous\r\n"));
        string selfTest = client.Execute("COMMAND", "INFO", "PFSELFTEST");
        Assert.That(selfTest, Does.Contain("+admin\r\n"));
        Assert.That(selfTest, Does.Contain("+@hyperloglog\r\n+@admin\r\n+@slow\r\n+@dangerous\r\n"));
    }

    private static void Entry(StringBuilder value, int index, int register)
        => value.Append((char)(index & 0xFF)).Append((char)(index >> 8)).Append((char)register);

    /// <summary>Expands DECODE's opcode text into registers, checking that the runs cover all of them.</summary>
    private static int[] RegistersOf(string decoded)
    {
        var registers = new int[RegisterCount];
        int index = 0;
        foreach (string opcode in decoded.Split(' '))
        {
            if (opcode.StartsWith("z:", StringComparison.Ordinal) || opcode.StartsWith("Z:", StringComparison.Ordinal))
            {
                int run = int.Parse(opcode.AsSpan(2));
                Assert.That(run, opcode[0] == 'z' ? Is.InRange(1, 64) : Is.InRange(65, RegisterCount), opcode);
                index += run;
                continue;
            }
            Assert.That(opcode, Does.StartWith("v:"));
            var parts = opcode.Substring(2).Split(',');
            int value = int.Parse(parts[0]), length = int.Parse(parts[1]);
            Assert.That(value, Is.InRange(1, 32), opcode);
            Assert.That(length, Is.InRange(1, 4), opcode);
            for (int i = 0; i < length; i++)
                registers[index++] = value;
        }
        Assert.That(index, Is.EqualTo(RegisterCount));
        return registers;
    }
}
