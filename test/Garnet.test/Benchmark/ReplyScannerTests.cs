using System;
using System.IO;
using System.Text;
using NUnit.Framework;
using Resp.benchmark;

namespace Garnet.test.Benchmark;

/// <summary>The reply scanner counts complete top-level replies however the stream is cut.</summary>
public class ReplyScannerTests
{
    private static byte[] Bytes(string text) => Encoding.Latin1.GetBytes(text);

    private static (long Replies, long Errors) ScanWhole(string text)
    {
        var scanner = new ReplyScanner();
        int completed = scanner.Feed(Bytes(text));
        Assert.That(completed, Is.EqualTo(scanner.Replies));
        Assert.That(scanner.AtReplyBoundary, Is.True, "scanner should end between replies");
        return (scanner.Replies, scanner.Errors);
    }

    [TestCase(":1\r\n", 1)]
    [TestCase(":-12345\r\n:0\r\n", 2)]
    [TestCase("+OK\r\n+PONG\r\n+QUEUED\r\n", 3)]
    [TestCase("$5\r\nhello\r\n", 1)]
    [TestCase("$0\r\n\r\n", 1)]
    [TestCase("$-1\r\n", 1)]
    [TestCase("$4\r\n\r\n\r\n\r\n", 1)]
    [TestCase("*-1\r\n", 1)]
    [TestCase("*0\r\n", 1)]
    [TestCase("*3\r\n$1\r\na\r\n$-1\r\n:7\r\n", 1)]
    [TestCase("*2\r\n*1\r\n:1\r\n*2\r\n*0\r\n$1\r\nb\r\n+x\r\n", 2)]
    [TestCase("_\r\n,3.14\r\n#t\r\n(12345678901234567890\r\n", 4)]
    [TestCase("%2\r\n+a\r\n:1\r\n+b\r\n*1\r\n:2\r\n", 1)]
    [TestCase("~2\r\n+a\r\n+b\r\n=7\r\ntxt:abc\r\n", 2)]
    public void CountsTopLevelReplies(string stream, int expected)
    {
        var (replies, errors) = ScanWhole(stream);
        Assert.That(replies, Is.EqualTo(expected));
        Assert.That(errors, Is.Zero);
    }

    [Test]
    public void ErrorsAreCountedSeparatelyAndTheFirstIsKept()
    {
        var scanner = new ReplyScanner();
        scanner.Feed(Bytes("+OK\r\n-ERR unknown command 'FOO'\r\n:1\r\n-WRONGTYPE x\r\n!5\r\nERR z\r\n"));
        Assert.That(scanner.Replies, Is.EqualTo(5));
        Assert.That(scanner.Errors, Is.EqualTo(3));
        Assert.That(scanner.FirstError, Is.EqualTo("ERR unknown command 'FOO'"));
    }

    [Test]
    public void ErrorsInsideAnArrayDoNotMakeItAnError()
    {
        var (replies, errors) = ScanWhole("*2\r\n-ERR a\r\n:1\r\n");
        Assert.That(replies, Is.EqualTo(1));
        Assert.That(errors, Is.Zero);
    }

    /// <summary>What a MULTI, 4 INCR, EXEC transaction gets back: six replies, the last an array of integers.</summary>
    private const string TransactionReplies = "+OK\r\n+QUEUED\r\n+QUEUED\r\n+QUEUED\r\n+QUEUED\r\n*4\r\n:1\r\n:2\r\n:1\r\n:12\r\n";

    [Test]
    public void TransactionRepliesAreSixWhereverTheStreamIsCut()
    {
        byte[] stream = Bytes(TransactionReplies + TransactionReplies);
        for (int cut = 0; cut <= stream.Length; cut++)
        {
            var scanner = new ReplyScanner();
            int completed = scanner.Feed(stream.AsSpan(0, cut)) + scanner.Feed(stream.AsSpan(cut));
            Assert.That(completed, Is.EqualTo(12), $"cut at {cut}");
            Assert.That(scanner.Errors + scanner.ErrorElements, Is.Zero);
            Assert.That(scanner.AtReplyBoundary, Is.True);
        }
    }

    [Test]
    public void ErrorElementsOfAnExecReplyAreCountedAndTheFirstIsKept()
    {
        var scanner = new ReplyScanner();
        scanner.Feed(Bytes("+OK\r\n+QUEUED\r\n+QUEUED\r\n*3\r\n-ERR value is not an integer or out of range\r\n!3\r\nERR\r\n:1\r\n"));
        Assert.That((scanner.Replies, scanner.Errors, scanner.ErrorElements), Is.EqualTo((4, 0, 2)));
        Assert.That(scanner.FirstError, Is.EqualTo("ERR value is not an integer or out of range"));
        scanner.Reset();
        Assert.That((scanner.Replies, scanner.ErrorElements, scanner.FirstError), Is.EqualTo((0L, 0L, (string?)null)));
    }

    [Test]
    public void PushesAndAttributesAreNotReplies()
    {
        var (replies, _) = ScanWhole(">3\r\n+message\r\n+chan\r\n+hi\r\n|1\r\n+key\r\n+val\r\n:5\r\n");
        Assert.That(replies, Is.EqualTo(1));
    }

    private const string Mixed =
        "+OK\r\n:42\r\n$5\r\nhello\r\n$-1\r\n-ERR nope\r\n*3\r\n$3\r\nabc\r\n:-1\r\n*2\r\n$0\r\n\r\n*-1\r\n" +
        "*0\r\n$12\r\n0123456789\r\n\r\n%1\r\n+k\r\n$1\r\nv\r\n>2\r\n+p\r\n+q\r\n_\r\n,1.5\r\n#f\r\n";

    private const int MixedReplies = 12;

    [Test]
    public void RepliesSplitAtEveryByteBoundary()
    {
        byte[] data = Bytes(Mixed);
        Assert.That(ScanWhole(Mixed).Replies, Is.EqualTo(MixedReplies));
        for (int split = 0; split <= data.Length; split++)
        {
            var scanner = new ReplyScanner();
            int first = scanner.Feed(data.AsSpan(0, split));
            int second = scanner.Feed(data.AsSpan(split));
            Assert.That(first + second, Is.EqualTo(MixedReplies), $"split at {split}");
            Assert.That(scanner.Errors, Is.EqualTo(1), $"split at {split}");
            Assert.That(scanner.FirstError, Is.EqualTo("ERR nope"), $"split at {split}");
            Assert.That(scanner.AtReplyBoundary, Is.True);
        }
    }

    [Test]
    public void RepliesSplitAtEveryPairOfBoundaries()
    {
        byte[] data = Bytes(Mixed);
        for (int a = 0; a <= data.Length; a++)
        {
            for (int b = a; b <= data.Length; b++)
            {
                var scanner = new ReplyScanner();
                int total = scanner.Feed(data.AsSpan(0, a)) + scanner.Feed(data.AsSpan(a, b - a)) + scanner.Feed(data.AsSpan(b));
                if (total != MixedReplies)
                    Assert.Fail($"splits at {a} and {b} counted {total}");
            }
        }
    }

    [Test]
    public void RepliesFedOneByteAtATime()
    {
        byte[] data = Bytes(Mixed);
        var scanner = new ReplyScanner();
        int total = 0;
        for (int i = 0; i < data.Length; i++)
        {
            total += scanner.Feed(data.AsSpan(i, 1));
            Assert.That(total, Is.EqualTo(scanner.Replies));
        }
        Assert.That(total, Is.EqualTo(MixedReplies));
    }

    [Test]
    public void LargeBulkAcrossManyReads()
    {
        var text = new StringBuilder();
        for (int i = 0; i < 10; i++)
            text.Append("$100000\r\n").Append('x', 100000).Append("\r\n");
        byte[] data = Bytes(text.ToString());
        var scanner = new ReplyScanner();
        int total = 0;
        for (int offset = 0; offset < data.Length; offset += 4093)
            total += scanner.Feed(data.AsSpan(offset, Math.Min(4093, data.Length - offset)));
        Assert.That(total, Is.EqualTo(10));
    }

    [TestCase("?what\r\n")]
    [TestCase("$3\r\nabcX\r\n")]
    [TestCase("$x\r\n")]
    [TestCase("*\r\n")]
    [TestCase("$1-\r\n")]
    public void MalformedStreamsThrow(string stream)
    {
        var scanner = new ReplyScanner();
        Assert.Throws<InvalidDataException>(() => scanner.Feed(Bytes(stream)));
    }

    [Test]
    public void ResetForgetsEverything()
    {
        var scanner = new ReplyScanner();
        scanner.Feed(Bytes("-ERR a\r\n$5\r\nhel"));
        scanner.Reset();
        Assert.That(scanner.Replies, Is.Zero);
        Assert.That(scanner.Errors, Is.Zero);
        Assert.That(scanner.FirstError, Is.Null);
        Assert.That(scanner.Feed(Bytes(":1\r\n")), Is.EqualTo(1));
    }
}
