using System;
using System.Threading;
using Garnet.server;

namespace Garnet;

/// <summary>Entry point of the server executable.</summary>
public static class Program
{
    public static int Main(string[] args)
    {
        using var server = new GarnetServer(new ServerOptions());
        server.Start();
        Console.WriteLine($"Garnet listening on {server.Options.Address}:{server.Port}");
        using var stop = new ManualResetEventSlim();
        Console.CancelKeyPress += (_, e) =>
        {
            e.Cancel = true;
            stop.Set();
        };
        stop.Wait();
        return 0;
    }
}
