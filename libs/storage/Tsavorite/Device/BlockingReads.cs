using System;

namespace Tsavorite;

/// <summary>
/// Told, on the thread about to wait for a device read, before it waits and once it has the data: a thread that serves
/// other work (an event loop serving other connections) can hand that work to another thread first, so the wait holds
/// up only the caller, and can learn how long such waits take.
/// </summary>
public interface IBlockingReadObserver
{
    /// <summary>The calling thread is about to wait for a device read.</summary>
    void BeforeBlockingRead();

    /// <summary>The read announced by <see cref="BeforeBlockingRead"/> on this thread is done.</summary>
    void AfterBlockingRead();
}

/// <summary>The calling thread's <see cref="IBlockingReadObserver"/>, which the engine tells around each blocking device read.</summary>
public static class BlockingReads
{
    [ThreadStatic]
    private static IBlockingReadObserver? t_observer;

    /// <summary>Gets or sets the calling thread's observer (null for none).</summary>
    public static IBlockingReadObserver? Observer
    {
        get => t_observer;
        set => t_observer = value;
    }

    /// <summary>
    /// Tells the calling thread's observer, if any, that it is about to wait for a device read; disposing the result
    /// tells the same observer (even if the thread's observer changed meanwhile) that the read is done.
    /// </summary>
    public static Scope Begin()
    {
        var observer = t_observer;
        observer?.BeforeBlockingRead();
        return new Scope(observer);
    }

    /// <summary>One announced read, until disposed.</summary>
    public readonly ref struct Scope
    {
        private readonly IBlockingReadObserver? _observer;

        internal Scope(IBlockingReadObserver? observer) => _observer = observer;

        /// <summary>Tells the observer the read is done.</summary>
        public void Dispose() => _observer?.AfterBlockingRead();
    }
}
