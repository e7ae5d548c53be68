using System.Runtime.CompilerServices;

namespace Tsavorite;

/// <summary>
/// Told, on the thread about to wait for a device read, before it waits: a thread that serves other work (an event
/// loop serving other connections) can hand that work to another thread first, so the wait holds up only the caller.
/// </summary>
public interface IBlockingReadObserver
{
    /// <summary>The calling thread is about to wait for a device read.</summary>
    void BeforeBlockingRead();
}

/// <summary>The calling thread's <see cref="IBlockingReadObserver"/>, which blocking device reads tell before they wait.</summary>
public static class BlockingReads
{
    [System.ThreadStatic]
    private static IBlockingReadObserver? t_observer;

    /// <summary>Gets or sets the calling thread's observer (null for none).</summary>
    public static IBlockingReadObserver? Observer
    {
        get => t_observer;
        set => t_observer = value;
    }

    /// <summary>Tells the calling thread's observer, if any, that it is about to wait for a device read.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Announce() => t_observer?.BeforeBlockingRead();
}
