using System;

namespace Garnet;

/// <summary>Entry point of the server executable.</summary>
public static class Program
{
    /// <summary>
    /// The RESP network layer and host arrive with the server issue; until then the executable says
    /// so plainly instead of pretending to listen.
    /// </summary>
    public static int Main()
    {
        Console.Error.WriteLine("GarnetServer: the RESP server is not built yet; only the Tsavorite engine exists so far.");
        return 1;
    }
}
