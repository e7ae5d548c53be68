using System;
using System.Runtime.CompilerServices;
using System.Security.Cryptography;
using System.Threading;

namespace Garnet.server;

/// <summary>Per-server state of the server commands that the store wrapper does not keep: the run id and peak memory.</summary>
internal sealed class ServerRuntimeState
{
    private static readonly ConditionalWeakTable<StoreWrapper, ServerRuntimeState> s_states = new();

    private long _peakMemory;

    private ServerRuntimeState()
    {
        RunId = Convert.ToHexString(RandomNumberGenerator.GetBytes(20)).ToLowerInvariant();
    }

    /// <summary>The state of <paramref name="server"/>.</summary>
    public static ServerRuntimeState Of(StoreWrapper server) => s_states.GetValue(server, static _ => new ServerRuntimeState());

    /// <summary>A random id of this server instance (INFO run_id), as clients use it to notice restarts.</summary>
    public string RunId { get; }

    /// <summary>Records a memory reading and returns the peak so far.</summary>
    public long ObserveMemory(long used)
    {
        long peak = Volatile.Read(ref _peakMemory);
        while (used > peak)
        {
            long seen = Interlocked.CompareExchange(ref _peakMemory, used, peak);
            if (seen == peak)
                return used;
            peak = seen;
        }
        return peak;
    }

    /// <summary>Forgets the peak (CONFIG RESETSTAT).</summary>
    public void ResetPeak() => Volatile.Write(ref _peakMemory, 0);
}
