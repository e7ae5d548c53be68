using System;
using System.Text;
using NUnit.Framework;
using Resp.benchmark;

namespace Garnet.test.Benchmark;

/// <summary>The exact bytes the load generator puts on the wire.</summary>
public class RequestEncodingTests
{
    /// <summary>Hands out a fixed sequence of key indexes, cycling.</summary>
    private sealed class SequenceSampler(params long[] keys) : IKeySampler
    {
        private int _next;

        public long Next() => keys[_next++ % keys.Length];
    }

    private static BenchmarkOptions Shape(int keyLength = 4, int valueLength = 3) => new()
    {
        DbSize = 1000,
        KeyLength = keyLength,
        ValueLength = valueLength,
        Ttl = 60,
        KeysPerCommand = 2,
    };

    private static string Encode(BenchmarkOptions options, OpType op, int count, params long[] keys)
    {
        var generator = new RequestGenerator(options, new SequenceSampler(keys), new FastRandom(7));
        var buffer = new RequestBuffer(16);
        generator.WriteBatch(buffer, op, count);
        return Encoding.ASCII.GetString(buffer.Written);
    }

    [Test]
    public void KeysAreFixedLengthBase62()
    {
        Assert.That(KeyFormat.ToText(5, 4), Is.EqualTo("0005"));
        Assert.That(KeyFormat.ToText(61, 4), Is.EqualTo("000z"));
        Assert.That(KeyFormat.ToText(62, 4), Is.EqualTo("0010"));
        Assert.That(KeyFormat.ToText(10, 2), Is.EqualTo("0A"));
        Assert.That(KeyFormat.ToText(36, 2), Is.EqualTo("0a"));
        Assert.That(KeyFormat.DigitsNeeded(1), Is.EqualTo(1));
        Assert.That(KeyFormat.DigitsNeeded(62), Is.EqualTo(1));
        Assert.That(KeyFormat.DigitsNeeded(63), Is.EqualTo(2));
        Assert.That(KeyFormat.DigitsNeeded(256L << 20), Is.EqualTo(5));
    }

    [Test]
    public void Get() =>
        Assert.That(Encode(Shape(), OpType.GET, 2, 5, 61),
            Is.EqualTo("*2\r\n$3\r\nGET\r\n$4\r\n0005\r\n*2\r\n$3\r\nGET\r\n$4\r\n000z\r\n"));

    [Test]
    public void Set() =>
        Assert.That(Encode(Shape(), OpType.SET, 1, 5),
            Is.EqualTo("*3\r\n$3\r\nSET\r\n$4\r\n0005\r\n$3\r\nabc\r\n"));

    [Test]
    public void SetWithLongValueRepeatsTheAlphabet() =>
        Assert.That(Encode(Shape(keyLength: 2, valueLength: 28), OpType.SET, 1, 1),
            Is.EqualTo("*3\r\n$3\r\nSET\r\n$2\r\n01\r\n$28\r\nabcdefghijklmnopqrstuvwxyzab\r\n"));

    [Test]
    public void SetEx() =>
        Assert.That(Encode(Shape(), OpType.SETEX, 1, 7),
            Is.EqualTo("*4\r\n$5\r\nSETEX\r\n$4\r\n0007\r\n$2\r\n60\r\n$3\r\nabc\r\n"));

    [Test]
    public void MGet() =>
        Assert.That(Encode(Shape(), OpType.MGET, 1, 1, 2),
            Is.EqualTo("*3\r\n$4\r\nMGET\r\n$4\r\n0001\r\n$4\r\n0002\r\n"));

    [Test]
    public void MSet() =>
        Assert.That(Encode(Shape(), OpType.MSET, 1, 1, 2),
            Is.EqualTo("*5\r\n$4\r\nMSET\r\n$4\r\n0001\r\n$3\r\nabc\r\n$4\r\n0002\r\n$3\r\nabc\r\n"));

    [Test]
    public void IncrDelPing()
    {
        Assert.That(Encode(Shape(), OpType.INCR, 1, 3), Is.EqualTo("*2\r\n$4\r\nINCR\r\n$4\r\n0003\r\n"));
        Assert.That(Encode(Shape(), OpType.DEL, 1, 3), Is.EqualTo("*2\r\n$3\r\nDEL\r\n$4\r\n0003\r\n"));
        Assert.That(Encode(Shape(), OpType.PING, 2, 3), Is.EqualTo("*1\r\n$4\r\nPING\r\n*1\r\n$4\r\nPING\r\n"));
    }

    [Test]
    public void MultiIncr4IsOneTransactionOfSixCommands()
    {
        Assert.That(OpTypes.CommandsPerOp(OpType.MULTIINCR4), Is.EqualTo(6));
        string incr(string key) => "*2\r\n$4\r\nINCR\r\n$4\r\n" + key + "\r\n";
        string transaction(params string[] keys) =>
            "*1\r\n$5\r\nMULTI\r\n" + incr(keys[0]) + incr(keys[1]) + incr(keys[2]) + incr(keys[3]) + "*1\r\n$4\r\nEXEC\r\n";
        Assert.That(Encode(Shape(), OpType.MULTIINCR4, 2, 1, 2, 3, 4, 5, 6, 7, 8),
            Is.EqualTo(transaction("0001", "0002", "0003", "0004") + transaction("0005", "0006", "0007", "0008")));
    }

    [Test]
    public void EvalSha3NamesTheLoadedScriptAndTwoKeys()
    {
        Assert.That(OpTypes.CommandsPerOp(OpType.EVALSHA3), Is.EqualTo(1));
        // sha1sum of the script text, as SCRIPT LOAD answers it.
        const string sha = "1a1816b6bdc4ec92b89848569542cc9dfc2a254d";
        Assert.That(Encoding.ASCII.GetString(Scripts.Sha1Hex(Scripts.ThreeCalls)), Is.EqualTo(sha));
        string batch = Encode(Shape(), OpType.EVALSHA3, 1, 5, 6);
        Assert.That(batch, Does.StartWith("*6\r\n$7\r\nEVALSHA\r\n$40\r\n" + sha + "\r\n$1\r\n2\r\n$4\r\n0005\r\n$4\r\n0006\r\n$"));
        // ARGV[1] is an integer below --dbsize, so both keys stay counters.
        string[] parts = batch.Split("\r\n");
        Assert.That(parts, Has.Length.EqualTo(14));
        Assert.That(long.Parse(parts[12]), Is.InRange(0, 999));
    }

    [Test]
    public void SetupLoadsTheScriptOnlyForEvalSha3()
    {
        var buffer = new RequestBuffer();
        Assert.That(RequestGenerator.WriteSetup(buffer, OpType.GET), Is.Zero);
        Assert.That(RequestGenerator.WriteSetup(buffer, OpType.MULTIINCR4), Is.Zero);
        Assert.That(buffer.Length, Is.Zero);
        Assert.That(RequestGenerator.WriteSetup(buffer, OpType.EVALSHA3), Is.EqualTo(1));
        string script = Encoding.ASCII.GetString(Scripts.ThreeCalls);
        Assert.That(Encoding.ASCII.GetString(buffer.Written),
            Is.EqualTo("*3\r\n$6\r\nSCRIPT\r\n$4\r\nLOAD\r\n$" + script.Length + "\r\n" + script + "\r\n"));
    }

    [Test]
    public void MultiCommandOperationsAreOfflineOnly()
    {
        Assert.That(OpTypes.IsSingleCommand(OpType.EVALSHA3), Is.True);
        Assert.That(OpTypes.IsSingleCommand(OpType.MULTIINCR4), Is.False);
        Assert.Throws<ArgumentException>(() => new WorkloadMix(new[] { OpType.MULTIINCR4 }, new[] { 100 }));
        var options = new BenchmarkOptions { Online = true, OpWorkload = new[] { "MULTIINCR4" }, OpPercent = new[] { 100 } };
        Assert.That(options.Validate(), Has.Some.Contains("offline only"));
        Assert.That(new BenchmarkOptions { Op = "multiincr4" }.Validate(), Is.Empty);
    }

    [Test]
    public void BitOpNotHasOneSource()
    {
        var options = Shape();
        options.BitOp = "not";
        Assert.That(Encode(options, OpType.BITOP, 1, 1, 2),
            Is.EqualTo("*4\r\n$5\r\nBITOP\r\n$3\r\nNOT\r\n$4\r\n0001\r\n$4\r\n0002\r\n"));
    }

    [Test]
    public void SetGetMakesEveryTenthCommandASet()
    {
        string batch = Encode(Shape(), OpType.SETGET, 20, 1);
        string set = "*3\r\n$3\r\nSET\r\n$4\r\n0001\r\n$3\r\nabc\r\n";
        string get = "*2\r\n$3\r\nGET\r\n$4\r\n0001\r\n";
        var expected = new StringBuilder();
        for (int i = 0; i < 20; i++)
            expected.Append(i % 10 == 0 ? set : get);
        Assert.That(batch, Is.EqualTo(expected.ToString()));
    }

    [Test]
    public void StreamOperationsAddThreeFieldsAndReadTen()
    {
        Assert.That(Encode(Shape(), OpType.XADD, 1, 4),
            Is.EqualTo("*9\r\n$4\r\nXADD\r\n$4\r\n0004\r\n$1\r\n*\r\n$2\r\nf1\r\n$3\r\nabc\r\n$2\r\nf2\r\n$3\r\nabc\r\n$2\r\nf3\r\n$3\r\nabc\r\n"));
        Assert.That(Encode(Shape(), OpType.XRANGE, 1, 4),
            Is.EqualTo("*6\r\n$6\r\nXRANGE\r\n$4\r\n0004\r\n$1\r\n-\r\n$1\r\n+\r\n$5\r\nCOUNT\r\n$2\r\n10\r\n"));
        // The preload gives each stream the ten entries XRANGE reads.
        var generator = new RequestGenerator(Shape(), new SequenceSampler(0), new FastRandom(1));
        var buffer = new RequestBuffer();
        Assert.That(generator.WriteLoad(buffer, LoadKind.Stream, 9), Is.EqualTo(10));
        Assert.That(Encoding.ASCII.GetString(buffer.Written).Split("XADD"), Has.Length.EqualTo(11));
        Assert.That(OpTypes.LoadKindOf(OpType.XRANGE), Is.EqualTo(LoadKind.Stream));
    }

    [TestCase(LoadKind.String, "*3\r\n$3\r\nSET\r\n$4\r\n0009\r\n$3\r\nabc\r\n")]
    [TestCase(LoadKind.Counter, "*3\r\n$3\r\nSET\r\n$4\r\n0009\r\n$1\r\n0\r\n")]
    [TestCase(LoadKind.SortedSet, "*4\r\n$4\r\nZADD\r\n$4\r\n0009\r\n$1\r\n0\r\n$4\r\n0009\r\n")]
    [TestCase(LoadKind.HyperLogLog, "*3\r\n$5\r\nPFADD\r\n$4\r\n0009\r\n$4\r\n0009\r\n")]
    [TestCase(LoadKind.List, "*3\r\n$5\r\nLPUSH\r\n$4\r\n0009\r\n$3\r\nabc\r\n")]
    [TestCase(LoadKind.Hash, "*4\r\n$4\r\nHSET\r\n$4\r\n0009\r\n$4\r\n0009\r\n$3\r\nabc\r\n")]
    [TestCase(LoadKind.Set, "*3\r\n$4\r\nSADD\r\n$4\r\n0009\r\n$4\r\n0009\r\n")]
    public void PreloadCommands(LoadKind kind, string expected)
    {
        var generator = new RequestGenerator(Shape(), new SequenceSampler(0), new FastRandom(1));
        var buffer = new RequestBuffer();
        Assert.That(generator.WriteLoad(buffer, kind, 9), Is.EqualTo(1));
        Assert.That(Encoding.ASCII.GetString(buffer.Written), Is.EqualTo(expected));
    }

    /// <summary>Every operation encodes well-formed RESP arrays (a request is an array of bulk strings, which the reply scanner accepts).</summary>
    [Test]
    public void EveryOperationEncodesWellFormedCommands([Values] OpType op)
    {
        var options = Shape(keyLength: 8, valueLength: 100);
        var generator = RequestGenerator.ForConnection(options, 3);
        var buffer = new RequestBuffer();
        generator.WriteBatch(buffer, op, 100);
        var scanner = new ReplyScanner();
        Assert.That(scanner.Feed(buffer.Written), Is.EqualTo(100 * OpTypes.CommandsPerOp(op)));
        Assert.That(scanner.Errors, Is.Zero);
        Assert.That(scanner.AtReplyBoundary, Is.True);
        Assert.That(buffer.Written[0], Is.EqualTo((byte)'*'));
    }

    [Test]
    public void PreparedBatchesAreLimitedByNeedAndBudget()
    {
        var options = Shape();
        var needed = PreparedBatches.ForOp(RequestGenerator.ForConnection(options, 0), OpType.GET, 10, batchesNeeded: 3, byteBudget: long.MaxValue);
        Assert.That(needed.Count, Is.EqualTo(3));
        Assert.That(needed.CommandsPerBatch, Is.EqualTo(10));
        int oneGet = "*2\r\n$3\r\nGET\r\n$4\r\n0000\r\n".Length;
        Assert.That(needed.Batch(1).Length, Is.EqualTo(10 * oneGet));
        Assert.That(needed.TotalBytes, Is.EqualTo(30 * oneGet));

        var budgeted = PreparedBatches.ForOp(RequestGenerator.ForConnection(options, 0), OpType.GET, 10, batchesNeeded: long.MaxValue, byteBudget: 25 * oneGet);
        Assert.That(budgeted.Count, Is.EqualTo(2));

        var tiny = PreparedBatches.ForOp(RequestGenerator.ForConnection(options, 0), OpType.GET, 10, batchesNeeded: long.MaxValue, byteBudget: 1);
        Assert.That(tiny.Count, Is.EqualTo(1));
    }

    [Test]
    public void TransactionBatchesCountTransactions()
    {
        var batches = PreparedBatches.ForOp(RequestGenerator.ForConnection(Shape(), 0), OpType.MULTIINCR4, 10, batchesNeeded: 3, byteBudget: long.MaxValue);
        Assert.That((batches.Count, batches.CommandsPerBatch), Is.EqualTo((3, 10)));
        var scanner = new ReplyScanner();
        Assert.That(scanner.Feed(batches.Batch(2)), Is.EqualTo(60), "ten transactions are sixty commands");
    }

    [Test]
    public void MixedBatchesRememberEachCommandsOperation()
    {
        var mix = new WorkloadMix(new[] { OpType.GET, OpType.SET }, new[] { 50, 50 });
        var batches = PreparedBatches.ForMix(RequestGenerator.ForConnection(Shape(), 0), mix, new FastRandom(3), 4, batchesNeeded: 5, byteBudget: long.MaxValue);
        Assert.That(batches.Count, Is.EqualTo(5));
        int gets = 0, sets = 0;
        for (int b = 0; b < batches.Count; b++)
        {
            string text = Encoding.ASCII.GetString(batches.Batch(b));
            int offset = 0;
            for (int i = 0; i < 4; i++)
            {
                // GET with a 4-byte key is 23 bytes; SET adds "$3\r\nabc\r\n" (9 bytes).
                bool isGet = batches.OpSlot(b, i) == 0;
                Assert.That(text.Substring(offset, 13), Is.EqualTo(isGet ? "*2\r\n$3\r\nGET\r\n" : "*3\r\n$3\r\nSET\r\n"));
                offset += isGet ? 23 : 32;
                gets += isGet ? 1 : 0;
                sets += isGet ? 0 : 1;
            }
            Assert.That(offset, Is.EqualTo(text.Length));
        }
        Assert.That(gets, Is.GreaterThan(0));
        Assert.That(sets, Is.GreaterThan(0));
    }
}
