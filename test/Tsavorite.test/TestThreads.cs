using System;
using System.Runtime.ExceptionServices;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

/// <summary>Runs test bodies on dedicated threads that start together, with a bound on how long they may take.</summary>
internal static class TestThreads
{
    /// <summary>Only a guard against a hung test; no assertion depends on how long anything takes.</summary>
    public static readonly TimeSpan HangGuard = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Runs <paramref name="body"/> on <paramref name="threadCount"/> threads (passing each its index),
    /// released at once by a barrier; rethrows the first exception a thread threw and fails if any
    /// thread is still running after <see cref="HangGuard"/>.
    /// </summary>
    public static void Run(int threadCount, Action<int> body)
    {
        using var start = new Barrier(threadCount);
        Exception? failure = null;
        var threads = new Thread[threadCount];
        for (int t = 0; t < threadCount; t++)
        {
            int index = t;
            threads[t] = new Thread(() =>
            {
                try
                {
                    start.SignalAndWait();
                    body(index);
                }
                catch (Exception e)
                {
                    Interlocked.CompareExchange(ref failure, e, null);
                }
            })
            { IsBackground = true, Name = "test worker " + t };
            threads[t].Start();
        }

        var deadline = DateTime.UtcNow + HangGuard;
        foreach (var thread in threads)
        {
            var left = deadline - DateTime.UtcNow;
            Assert.That(thread.Join(left > TimeSpan.Zero ? left : TimeSpan.Zero), Is.True, $"{thread.Name} did not finish");
        }
        if (failure != null)
            ExceptionDispatchInfo.Capture(failure).Throw();
    }
}
