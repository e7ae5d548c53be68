using System;
using System.Diagnostics;
using System.Globalization;

namespace StreamConsumers;

/// <summary>
/// Consumers of one stream's group, as a job queue runs them: each connection acknowledges the entries it was given last
/// and asks for the next ones in one write (XACK key group id... then XREADGROUP GROUP group consumer-N COUNT n STREAMS
/// key >), until the stream has no undelivered entry or the time is up. One thread drives every connection, sending on
/// all of them before reading any, so the load costs the client as little as it can. Prints the entries acknowledged
/// per second. Redis-protocol servers only; made for benchmark/compare/streams.sh.
/// </summary>
/// <remarks>Usage: StreamConsumers PORT KEY GROUP CONNECTIONS COUNT SECONDS</remarks>
public static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length != 6)
        {
            Console.Error.WriteLine("usage: StreamConsumers PORT KEY GROUP CONNECTIONS COUNT SECONDS");
            return 2;
        }
        int port = int.Parse(args[0], CultureInfo.InvariantCulture);
        string key = args[1];
        string group = args[2];
        int connectionCount = int.Parse(args[3], CultureInfo.InvariantCulture);
        int count = int.Parse(args[4], CultureInfo.InvariantCulture);
        var duration = TimeSpan.FromSeconds(double.Parse(args[5], CultureInfo.InvariantCulture));

        var consumers = new Consumer[connectionCount];
        for (int i = 0; i < connectionCount; i++)
            consumers[i] = new Consumer(new Connection(port), key, group, "consumer-" + i.ToString(CultureInfo.InvariantCulture), count);
        long acknowledged = 0;
        var clock = Stopwatch.StartNew();
        try
        {
            int live = connectionCount;
            while (live > 0 && clock.Elapsed < duration)
            {
                foreach (var consumer in consumers)
                {
                    if (!consumer.Done)
                        consumer.SendAckAndRead();
                }
                live = 0;
                foreach (var consumer in consumers)
                {
                    if (consumer.Done)
                        continue;
                    acknowledged += consumer.ReceiveAckAndRead();
                    if (!consumer.Done)
                        live++;
                }
            }
            // The entries read last are acknowledged too, so every entry counted was read and acknowledged.
            foreach (var consumer in consumers)
                acknowledged += consumer.AcknowledgeLast();
        }
        catch (Exception e) when (e is InvalidOperationException or System.IO.IOException or System.Net.Sockets.SocketException)
        {
            Console.Error.WriteLine("StreamConsumers: " + e.Message);
            return 1;
        }
        finally
        {
            foreach (var consumer in consumers)
                consumer.Dispose();
        }
        double seconds = clock.Elapsed.TotalSeconds;
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"entries={acknowledged} seconds={seconds:F2} entries/s={acknowledged / seconds:F0}"));
        return 0;
    }
}
