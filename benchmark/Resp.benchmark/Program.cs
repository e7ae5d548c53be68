using System;

namespace Resp.benchmark;

/// <summary>Entry point of the RESP load generator.</summary>
public static class Program
{
    /// <summary>The load generator arrives with the benchmark issue; until then it says so.</summary>
    public static int Main()
    {
        Console.Error.WriteLine("Resp.benchmark: the load generator is not built yet.");
        return 1;
    }
}
