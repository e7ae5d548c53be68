using System;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using System.Threading;
using NUnit.Framework;

namespace Tsavorite.test;

[TestFixture]
public class LightEpochTests
{
    /// <summary>Generous bound for anything that should happen almost at once; it only catches hangs.</summary>
    private static readonly TimeSpan HangTimeout = TimeSpan.FromSeconds(10);

    [Test]
    public void ResumeAndSuspendToggleProtection()
    {
        using var epoch = new LightEpoch();
        Assert.That(epoch.ThisInstanceProtected(), Is.False);

        epoch.Resume();
        Assert.Multiple(() =>
        {
            Assert.That(epoch.ThisInstanceProtected(), Is.True);
            Assert.That(epoch.ThisThreadLocalEpoch(), Is.EqualTo(epoch.CurrentEpoch));
            Assert.That(() => epoch.Resume(), Throws.InvalidOperationException);
            Assert.That(epoch.ThisInstanceProtected(), Is.True, "a failed Resume must not drop protection");
        });

        epoch.Suspend();
        Assert.Multiple(() =>
        {
            Assert.That(epoch.ThisInstanceProtected(), Is.False);
            Assert.That(() => epoch.Suspend(), Throws.InvalidOperationException);
            Assert.That(() => epoch.ProtectAndDrain(), Throws.InvalidOperationException);
        });

        // The entry was given back, so protection can be taken again.
        epoch.Resume();
        Assert.That(epoch.ThisInstanceProtected(), Is.True);
        epoch.Suspend();
    }

    [Test]
    public void BumpReturnsTheNewEpochAndRefreshAnnouncesIt()
    {
        using var epoch = new LightEpoch();
        long before = epoch.CurrentEpoch;
        epoch.Resume();

        long bumped = epoch.BumpCurrentEpoch();
        Assert.Multiple(() =>
        {
            Assert.That(bumped, Is.EqualTo(before + 1));
            Assert.That(epoch.CurrentEpoch, Is.EqualTo(bumped));
            Assert.That(epoch.ThisThreadLocalEpoch(), Is.EqualTo(before));
            Assert.That(epoch.SafeToReclaimEpoch, Is.EqualTo(before - 1));
        });

        epoch.ProtectAndDrain();
        Assert.Multiple(() =>
        {
            Assert.That(epoch.ThisThreadLocalEpoch(), Is.EqualTo(bumped));
            Assert.That(epoch.SafeToReclaimEpoch, Is.EqualTo(bumped - 1));
        });

        epoch.Suspend();
        Assert.That(epoch.SafeToReclaimEpoch, Is.EqualTo(epoch.CurrentEpoch - 1));
    }

    [Test]
    public void UnprotectedBumpRunsTheActionBeforeReturning()
    {
        using var epoch = new LightEpoch();
        int runs = 0;

        epoch.BumpCurrentEpoch(() => runs++);
        Assert.That(runs, Is.EqualTo(1));

        epoch.BumpCurrentEpoch();
        epoch.Resume();
        epoch.Suspend();
        Assert.That(runs, Is.EqualTo(1), "an action runs only once");
    }

    [Test]
    public void ProtectedCallerHoldsItsOwnActionUntilItRefreshes()
    {
        using var epoch = new LightEpoch();
        int runs = 0;

        epoch.Resume();
        epoch.BumpCurrentEpoch(() => runs++);
        Assert.That(runs, Is.Zero, "the caller is still protected at the prior epoch");

        epoch.ProtectAndDrain();
        Assert.That(runs, Is.EqualTo(1));

        epoch.ProtectAndDrain();
        epoch.Suspend();
        Assert.That(runs, Is.EqualTo(1));
    }

    [Test]
    public void ActionWaitsForAThreadProtectedAtThePriorEpoch([Values] bool refreshRatherThanSuspend)
    {
        using var epoch = new LightEpoch();
        using var isProtected = new ManualResetEventSlim();
        using var moveOn = new ManualResetEventSlim();
        using var movedOn = new ManualResetEventSlim();
        using var finish = new ManualResetEventSlim();
        int runs = 0;

        var holder = new TestThread(() =>
        {
            epoch.Resume();
            isProtected.Set();
            WaitOrThrow(moveOn);
            if (refreshRatherThanSuspend)
            {
                epoch.ProtectAndDrain();
                movedOn.Set();
                WaitOrThrow(finish);
                epoch.ProtectAndDrain();
                epoch.Suspend();
            }
            else
            {
                epoch.Suspend();
                movedOn.Set();
            }
        });

        Assert.That(isProtected.Wait(HangTimeout), Is.True);
        long priorEpoch = epoch.CurrentEpoch;
        epoch.BumpCurrentEpoch(() => Interlocked.Increment(ref runs));
        Assert.Multiple(() =>
        {
            Assert.That(Volatile.Read(ref runs), Is.Zero);
            Assert.That(epoch.SafeToReclaimEpoch, Is.LessThan(priorEpoch));
        });

        // Unrelated bumps and waits by unprotected threads must not release it either.
        epoch.BumpCurrentEpoch();
        epoch.Resume();
        epoch.ProtectAndDrain();
        epoch.Suspend();
        Assert.That(Volatile.Read(ref runs), Is.Zero);

        moveOn.Set();
        Assert.That(movedOn.Wait(HangTimeout), Is.True);
        Assert.Multiple(() =>
        {
            Assert.That(Volatile.Read(ref runs), Is.EqualTo(1), "the holder's refresh or suspend drains the action");
            Assert.That(epoch.SafeToReclaimEpoch, Is.GreaterThanOrEqualTo(priorEpoch));
        });

        finish.Set();
        holder.JoinAndRethrow();
        epoch.BumpCurrentEpoch();
        Assert.That(Volatile.Read(ref runs), Is.EqualTo(1));
    }

    [Test]
    public void FullDrainListMakesAProtectedBumperRefreshItself()
    {
        using var epoch = new LightEpoch();
        const int Actions = LightEpoch.DrainListSize * 4;
        int[] runs = new int[Actions];

        epoch.Resume();
        for (int i = 0; i < Actions; i++)
        {
            int id = i;
            epoch.BumpCurrentEpoch(() => runs[id]++);
        }
        epoch.Suspend();

        Assert.That(runs, Is.All.EqualTo(1));
    }

    [Test]
    public void ResumeThrowsWhenTheTableIsFull()
    {
        const int TableSize = 4;
        using var epoch = new LightEpoch(TableSize);
        using var allProtected = new CountdownEvent(TableSize);
        using var release = new ManualResetEventSlim();

        var holders = new TestThread[TableSize];
        for (int i = 0; i < TableSize; i++)
        {
            holders[i] = new TestThread(() =>
            {
                epoch.Resume();
                allProtected.Signal();
                WaitOrThrow(release);
                epoch.Suspend();
            });
        }

        Assert.That(allProtected.Wait(HangTimeout), Is.True);
        Assert.That(() => epoch.Resume(), Throws.InvalidOperationException.With.Message.Contains("full"));
        Assert.That(epoch.ThisInstanceProtected(), Is.False);

        release.Set();
        foreach (TestThread holder in holders)
            holder.JoinAndRethrow();

        epoch.Resume();
        Assert.That(epoch.ThisInstanceProtected(), Is.True);
        epoch.Suspend();
    }

    [Test]
    public void InstancesUsedByOneThreadAreIndependent()
    {
        // More instances than the thread's initial registration list holds, to exercise its growth.
        const int Instances = 12;
        var epochs = new LightEpoch[Instances];
        int[] runs = new int[Instances];
        for (int i = 0; i < Instances; i++)
            epochs[i] = new LightEpoch();
        try
        {
            foreach (LightEpoch epoch in epochs)
                epoch.Resume();
            Assert.That(Array.TrueForAll(epochs, e => e.ThisInstanceProtected()), Is.True);

            // Suspend the even ones, out of order.
            for (int i = Instances - 2; i >= 0; i -= 2)
                epochs[i].Suspend();
            for (int i = 0; i < Instances; i++)
                Assert.That(epochs[i].ThisInstanceProtected(), Is.EqualTo(i % 2 == 1), $"instance {i}");

            for (int i = 0; i < Instances; i++)
            {
                int id = i;
                epochs[i].BumpCurrentEpoch(() => runs[id]++);
            }
            for (int i = 0; i < Instances; i++)
                Assert.That(runs[i], Is.EqualTo(i % 2 == 0 ? 1 : 0), $"instance {i} before refresh");

            for (int i = 1; i < Instances; i += 2)
                epochs[i].ProtectAndDrain();
            Assert.That(runs, Is.All.EqualTo(1));

            for (int i = 1; i < Instances; i += 2)
                epochs[i].Suspend();
            Assert.That(Array.TrueForAll(epochs, e => !e.ThisInstanceProtected()), Is.True);
        }
        finally
        {
            foreach (LightEpoch epoch in epochs)
                epoch.Dispose();
        }
    }

    [Test]
    public void ProtectionOnOneInstanceDoesNotHoldAnother()
    {
        using var held = new LightEpoch();
        using var free = new LightEpoch();
        using var isProtected = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        int heldRuns = 0;
        int freeRuns = 0;

        var holder = new TestThread(() =>
        {
            held.Resume();
            isProtected.Set();
            WaitOrThrow(release);
            held.Suspend();
        });

        Assert.That(isProtected.Wait(HangTimeout), Is.True);
        held.BumpCurrentEpoch(() => Interlocked.Increment(ref heldRuns));
        free.BumpCurrentEpoch(() => Interlocked.Increment(ref freeRuns));
        Assert.Multiple(() =>
        {
            Assert.That(Volatile.Read(ref heldRuns), Is.Zero);
            Assert.That(Volatile.Read(ref freeRuns), Is.EqualTo(1));
        });

        release.Set();
        holder.JoinAndRethrow();
        Assert.That(Volatile.Read(ref heldRuns), Is.EqualTo(1));
    }

    [Test]
    public void SpinWaitForSafeToReclaimReturnsOnceOthersMoveOn([Values] bool waiterProtected)
    {
        using var epoch = new LightEpoch();
        using var isProtected = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        using var waiterReady = new ManualResetEventSlim();
        using var startWaiting = new ManualResetEventSlim();
        using var waited = new ManualResetEventSlim();

        var holder = new TestThread(() =>
        {
            epoch.Resume();
            isProtected.Set();
            WaitOrThrow(release);
            epoch.Suspend();
        });
        Assert.That(isProtected.Wait(HangTimeout), Is.True);

        long target = 0;
        var waiter = new TestThread(() =>
        {
            // A protected waiter entered before the bump, so it must refresh itself to get through.
            if (waiterProtected)
                epoch.Resume();
            waiterReady.Set();
            WaitOrThrow(startWaiting);
            epoch.SpinWaitForSafeToReclaim(Volatile.Read(ref target));
            waited.Set();
            if (waiterProtected)
                epoch.Suspend();
        });
        Assert.That(waiterReady.Wait(HangTimeout), Is.True);

        Volatile.Write(ref target, epoch.BumpCurrentEpoch() - 1);
        startWaiting.Set();

        // The holder is protected at the target epoch, so the wait cannot end, however long we look.
        Assert.That(waited.Wait(TimeSpan.FromMilliseconds(50)), Is.False);
        Assert.That(epoch.SafeToReclaimEpoch, Is.LessThan(target));

        release.Set();
        holder.JoinAndRethrow();
        waiter.JoinAndRethrow();
        Assert.That(epoch.SafeToReclaimEpoch, Is.GreaterThanOrEqualTo(target));
    }

    [Test]
    public void SpinWaitForAnEpochThatCannotBecomeSafeThrows()
    {
        using var epoch = new LightEpoch();
        Assert.Multiple(() =>
        {
            Assert.That(() => epoch.SpinWaitForSafeToReclaim(epoch.CurrentEpoch), Throws.TypeOf<ArgumentOutOfRangeException>());
            Assert.That(() => epoch.SpinWaitForSafeToReclaim(epoch.CurrentEpoch - 1), Throws.Nothing);
        });
    }

    [Test]
    public void DisposedInstanceRejectsUse()
    {
        var epoch = new LightEpoch();
        epoch.Dispose();
        Assert.Multiple(() =>
        {
            Assert.That(() => epoch.Dispose(), Throws.Nothing);
            Assert.That(() => epoch.Resume(), Throws.TypeOf<ObjectDisposedException>());
            Assert.That(() => epoch.BumpCurrentEpoch(() => { }), Throws.TypeOf<ObjectDisposedException>());
        });
    }

    /// <summary>
    /// Readers loop Resume / ProtectAndDrain / Suspend, each time reading a shared resource, while
    /// bumpers swap the resource out and free the old one in a drain action. No reader may see a
    /// resource freed while it holds it, no action may run while a reader protected at an epoch no
    /// later than its prior epoch is still inside, and every action runs exactly once.
    /// </summary>
    [Test]
    public void ConcurrentBumpsRunEachActionOnceAndNeverUnderAReader()
    {
        const int Readers = 8;
        const int Bumpers = 4;
        const int ReaderIterations = 4_000;
        const int BumpsPerBumper = 1_000;

        using var epoch = new LightEpoch();
        var shared = new StrongBox<Resource>(new Resource());

        // The epoch a reader has been inside since (an upper bound of its local epoch), or 0 while
        // it is outside or between epochs. Only an upper bound keeps the check free of false alarms.
        long[] insideSince = new long[Readers];
        int[] runs = new int[Bumpers * BumpsPerBumper];
        int freedWhileHeld = 0;
        int ranUnderReader = 0;

        void CheckLive(Resource resource)
        {
            for (int i = 0; i < 3; i++)
            {
                if (Volatile.Read(ref resource.Freed) != 0)
                    Interlocked.Increment(ref freedWhileHeld);
                Thread.SpinWait(20);
            }
        }

        void Free(Resource resource, int id, long priorEpochLowerBound)
        {
            for (int r = 0; r < Readers; r++)
            {
                long since = Volatile.Read(ref insideSince[r]);
                if (since != 0 && since <= priorEpochLowerBound)
                    Interlocked.Increment(ref ranUnderReader);
            }
            Volatile.Write(ref resource.Freed, 1);
            Interlocked.Increment(ref runs[id]);
        }

        var threads = new TestThread[Readers + Bumpers];
        for (int r = 0; r < Readers; r++)
        {
            int reader = r;
            threads[r] = new TestThread(() =>
            {
                for (int i = 0; i < ReaderIterations; i++)
                {
                    epoch.Resume();
                    Volatile.Write(ref insideSince[reader], epoch.CurrentEpoch);
                    CheckLive(Volatile.Read(ref shared.Value!));

                    // Nothing read before a refresh may be used after it, so step outside meanwhile.
                    Volatile.Write(ref insideSince[reader], 0);
                    epoch.ProtectAndDrain();
                    Volatile.Write(ref insideSince[reader], epoch.CurrentEpoch);
                    CheckLive(Volatile.Read(ref shared.Value!));

                    Volatile.Write(ref insideSince[reader], 0);
                    epoch.Suspend();
                }
            });
        }
        for (int b = 0; b < Bumpers; b++)
        {
            int bumper = b;
            threads[Readers + b] = new TestThread(() =>
            {
                for (int j = 0; j < BumpsPerBumper; j++)
                {
                    // Alternate protected and unprotected bumpers: both paths must drain.
                    bool protect = j % 2 == 1;
                    if (protect)
                        epoch.Resume();

                    Resource old = Interlocked.Exchange(ref shared.Value!, new Resource());
                    int id = bumper * BumpsPerBumper + j;
                    long priorEpochLowerBound = epoch.CurrentEpoch;
                    epoch.BumpCurrentEpoch(() => Free(old, id, priorEpochLowerBound));

                    if (protect)
                        epoch.Suspend();
                }
            });
        }

        foreach (TestThread thread in threads)
            thread.JoinAndRethrow();

        Assert.Multiple(() =>
        {
            Assert.That(freedWhileHeld, Is.Zero, "a reader saw a resource freed while it was protected");
            Assert.That(ranUnderReader, Is.Zero, "an action ran while a reader from before its bump was inside");
            Assert.That(runs, Is.All.EqualTo(1), "every action runs exactly once, before its bumper's last call returns");
            Assert.That(epoch.SafeToReclaimEpoch, Is.EqualTo(epoch.CurrentEpoch - 1));
        });
    }

    private static void WaitOrThrow(ManualResetEventSlim signal)
    {
        if (!signal.Wait(HangTimeout))
            throw new TimeoutException("A test signal was not set in time.");
    }

    private sealed class Resource
    {
        public int Freed;
    }

    /// <summary>A background thread whose failure is rethrown, and whose hang fails the test, on join.</summary>
    private sealed class TestThread
    {
        private readonly Thread _thread;
        private Exception? _error;

        public TestThread(Action body)
        {
            _thread = new Thread(() =>
            {
                try
                {
                    body();
                }
                catch (Exception e)
                {
                    _error = e;
                }
            })
            { IsBackground = true };
            _thread.Start();
        }

        public void JoinAndRethrow()
        {
            Assert.That(_thread.Join(HangTimeout), Is.True, "a test thread did not finish in time");
            if (_error is not null)
                ExceptionDispatchInfo.Capture(_error).Throw();
        }
    }
}
