using System;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// The server-wide gate in front of key locks. A holder of key locks that only touches the keys it
/// declared enters shared: such holders take their bucket latches in bucket order and never wait for
/// a latch while holding one out of order, so they cannot deadlock. A holder that may touch keys it
/// could not declare (KEYS, SORT ... BY, scripts inside a transaction) enters exclusive: with no other
/// multi-key holder around, the only latches it can wait for are those of single operations, which
/// never wait while latched. Waiting refreshes the caller's epoch, as the engine's latches do.
/// </summary>
internal sealed class KeyLockGate
{
    private const long Exclusive = 1L << 62;
    private long _word;

    /// <summary>Enters shared: waits while an exclusive holder is in (or waiting).</summary>
    public void EnterShared(Action? whileWaiting)
    {
        var spinner = new SpinWait();
        while (true)
        {
            long current = Volatile.Read(ref _word);
            if ((current & Exclusive) == 0 && Interlocked.CompareExchange(ref _word, current + 1, current) == current)
                return;
            spinner.SpinOnce(-1);
            whileWaiting?.Invoke();
        }
    }

    public void ExitShared() => Interlocked.Decrement(ref _word);

    /// <summary>Enters exclusive: claims the gate, then waits for shared holders to leave.</summary>
    public void EnterExclusive(Action? whileWaiting)
    {
        var spinner = new SpinWait();
        while (true)
        {
            long current = Volatile.Read(ref _word);
            if ((current & Exclusive) == 0 && Interlocked.CompareExchange(ref _word, current | Exclusive, current) == current)
                break;
            spinner.SpinOnce(-1);
            whileWaiting?.Invoke();
        }
        while ((Volatile.Read(ref _word) & ~Exclusive) != 0)
        {
            spinner.SpinOnce(-1);
            whileWaiting?.Invoke();
        }
    }

    public void ExitExclusive() => Interlocked.And(ref _word, ~Exclusive);
}
