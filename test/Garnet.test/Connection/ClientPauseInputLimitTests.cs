using System;
using System.Diagnostics;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using Garnet.test.Server;
using NUnit.Framework;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Connection;

/// <summary>
/// Input a client sends while CLIENT PAUSE holds it is its query buffer, as in Redis: bounded by
/// client-query-buffer-limit (past it the client is closed and counted) and shown in CLIENT LIST's qbuf and tot-mem.
/// </summary>
[TestFixture]
public sealed class ClientPauseInputLimitTests : ServerTestBase
{
    private const int ValueLength = 1000;

    /// <summary>SETs of <see cref="ValueLength"/>-byte values on keys prefix0, prefix1, ..., as one block of bytes.</summary>
    private static byte[] Sets(string prefix, int count)
    {
        var text = new StringBuilder();
        string value = new('v', ValueLength);
        for (int i = 0; i < count; i++)
            text.Append(RawClient.Encode("SET", prefix + i, value));
        return Encoding.Latin1.GetBytes(text.ToString());
    }

    private static long InfoNumber(RawClient client, string field)
        => long.Parse(ReplyText.InfoFields(client.Execute("INFO", "all"))[field]);

    private static void WaitUntil(Func<bool> condition, string what)
    {
        var watch = Stopwatch.StartNew();
        while (!condition())
        {
            if (watch.Elapsed > TimeSpan.FromSeconds(10))
                Assert.Fail("Timed out waiting until " + what);
            Thread.Sleep(5);
        }
    }

    [Test]
    public void AClientPipeliningPastTheLimitWhilePausedIsClosed()
    {
        using var admin = ConnectRaw();
        using var flooder = ConnectRaw();
        using var modest = ConnectRaw();
        Assert.That(admin.Execute("CONFIG", "SET", "client-query-buffer-limit", "1mb"), Is.EqualTo(Ok));
        // Long enough for a busy machine; the test ends it (an ALL pause holds CLIENT UNPAUSE too).
        Assert.That(admin.Execute("CLIENT", "PAUSE", "100000", "ALL"), Is.EqualTo(Ok));

        // 1.5 MB of commands, none of which may run: the server keeps at most 1 MB of them, then closes the client.
        try
        {
            flooder.SendRaw(Sets("flood:", 1500));
        }
        catch (SocketException)
        {
            // The server may close the connection before the last bytes are sent.
        }
        modest.SendRaw(Sets("modest:", 100));
        WaitUntil(() => Server.Store.Statistics.QueryBufferLimitDisconnections == 1, "the flooding client is closed");
        Assert.That(flooder.IsClosedByServer(), Is.True);
        // The closed client's held command is dropped when its connection is gone; the modest client's waits.
        WaitUntil(() => Server.Store.ClientPause.HeldCount == 1, "only the modest client is still held");

        // The pause ends: the modest client's commands all run, none of the closed client's did.
        Server.Store.ClientPause.Unpause(Garnet.server.ClientPausePurpose.Client);
        for (int i = 0; i < 100; i++)
            Assert.That(modest.ReadReply(), Is.EqualTo(Ok), $"reply {i}");
        Assert.That(admin.Execute("DBSIZE"), Is.EqualTo(Integer(100)));
        Assert.That(InfoNumber(admin, "client_query_buffer_limit_disconnections"), Is.EqualTo(1));
        Assert.That(InfoNumber(admin, "connected_clients"), Is.EqualTo(2));
        using var other = ConnectRaw();
        Assert.That(other.Execute("PING"), Is.EqualTo("+PONG\r\n"));
    }

    [Test]
    public void HeldInputCountsAsTheClientsQueryBufferAndMemory()
    {
        using var admin = ConnectRaw();
        using var holder = ConnectRaw();
        string holderId = ReplyText.ClientField(ReplyText.Payload(holder.Execute("CLIENT", "INFO")), "id");
        Assert.That(admin.Execute("CLIENT", "PAUSE", "100000", "WRITE"), Is.EqualTo(Ok));
        byte[] sets = Sets("k", 300);
        holder.SendRaw(sets);

        string Line() => ReplyText.Payload(admin.Execute("CLIENT", "LIST", "ID", holderId));
        // The first SET is held unrun; the rest of the input waits behind it.
        long held = sets.Length - Encoding.Latin1.GetByteCount(RawClient.Encode("SET", "k0", new string('v', ValueLength)));
        WaitUntil(() => long.Parse(ReplyText.ClientField(Line(), "qbuf")) == held, "all the input is held");
        Assert.That(long.Parse(ReplyText.ClientField(Line(), "tot-mem")), Is.GreaterThanOrEqualTo(held));

        Assert.That(admin.Execute("CLIENT", "UNPAUSE"), Is.EqualTo(Ok));
        for (int i = 0; i < 300; i++)
            Assert.That(holder.ReadReply(), Is.EqualTo(Ok), $"reply {i}");
        Assert.That(admin.Execute("DBSIZE"), Is.EqualTo(Integer(300)));
        // The last replies may leave before the session drops the input they came from.
        WaitUntil(() => long.Parse(ReplyText.ClientField(Line(), "qbuf")) == 0, "the held input is used up");
        WaitUntil(() => long.Parse(ReplyText.ClientField(Line(), "tot-mem")) < held, "the held input's buffer is released");
    }
}
