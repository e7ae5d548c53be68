using System;
using System.Threading.Tasks;

namespace Garnet;

/// <summary>Entry point of the server executable; see <see cref="GarnetHost"/> and <c>--help</c>.</summary>
public static class Program
{
    private const string InlineCompletionsVariable = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";

    public static Task<int> Main(string[] args)
    {
        // For connections on the runtime's async sockets (--socket-io async, and every platform
        // but Linux): run socket completions on the runtime's epoll threads instead of handing them
        // to the thread pool, so a received batch is parsed and executed on the thread that
        // received it. The runtime reads the variable when sockets are first used, so setting it
        // here, before the host starts, takes effect; an explicit value from the caller wins.
        if (Environment.GetEnvironmentVariable(InlineCompletionsVariable) == null)
            Environment.SetEnvironmentVariable(InlineCompletionsVariable, "1");
        return GarnetHost.RunAsync(args);
    }
}
