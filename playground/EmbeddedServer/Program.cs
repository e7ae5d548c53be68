using System;
using Garnet;
using Garnet.server;

namespace EmbeddedServer;

/// <summary>
/// Starts a server inside this process from the Garnet.DotNet package, registers a custom command
/// (SETMAX) and a custom object type (tally: TALLYADD, TALLYGET), and talks to it over RESP.
/// Prints each command and reply; exits 0 when every reply is the expected one.
/// </summary>
public static class Program
{
    public static int Main()
    {
        // Port 0: the system picks a free port; server.Port tells which. The small sizes suit a sample.
        using var server = new GarnetServer(new ServerOptions
        {
            Address = "127.0.0.1",
            Port = 0,
            IndexSize = 1L << 20,
            MemorySize = 1L << 24,
            PageSize = 1L << 20,
        });
        server.Register.NewCommand(new SetMax());
        server.Register.NewObjectCommand(new TallyAdd());
        server.Register.NewObjectCommand(new TallyGet());
        server.Start();
        Console.WriteLine($"embedded server listening on 127.0.0.1:{server.Port}");

        using var connection = new RespConnection(server.Port);
        int failures = 0;
        void Expect(string expected, params string[] command)
        {
            string reply = connection.Execute(command);
            bool ok = reply == expected;
            Console.WriteLine($"{string.Join(' ', command)} -> {reply}{(ok ? "" : $" (expected {expected})")}");
            if (!ok)
                failures++;
        }

        Expect("PONG", "PING");
        Expect("OK", "SET", "greeting", "hello");
        Expect("hello", "GET", "greeting");

        // The custom command over a string key.
        Expect("7", "SETMAX", "high", "7");
        Expect("7", "SETMAX", "high", "3");
        Expect("1200", "SETMAX", "high", "1200");
        Expect("1200", "GET", "high");
        Expect("ERR value is not an integer or out of range", "SETMAX", "high", "many");

        // The custom object type.
        Expect("1", "TALLYADD", "votes", "alice");
        Expect("2", "TALLYADD", "votes", "alice");
        Expect("1", "TALLYADD", "votes", "bob");
        Expect("2", "TALLYGET", "votes", "alice");
        Expect("0", "TALLYGET", "votes", "carol");
        Expect("tally", "TYPE", "votes");

        // Lua runs on the native library that came with the package's KeraLua dependency.
        Expect("3", "EVAL", "return 1 + 2", "0");
        Expect("WRONGTYPE Operation against a key holding the wrong kind of value", "TALLYADD", "greeting", "x");

        Console.WriteLine(failures == 0 ? "embedded server sample: ok" : $"embedded server sample: {failures} unexpected replies");
        return failures == 0 ? 0 : 1;
    }
}
