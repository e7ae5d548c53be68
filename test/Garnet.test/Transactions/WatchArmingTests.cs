using System;
using System.Threading.Tasks;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Transactions;

/// <summary>
/// <see cref="WatchArming"/> on its own: writes skip the versions only while disarmed, the first
/// watcher waits for the writes that started unarmed, and the table disarms only once nobody watches.
/// </summary>
public class WatchArmingTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(10);

    [Test]
    public void WritesSkipTheVersionsOnlyWhileNobodyWatches()
    {
        using var arming = new WatchArming();
        var writer = arming.Register();
        var watcher = arming.Register();
        Assert.That(arming.Armed, Is.False);
        Assert.That(arming.TryBeginUnarmedWrite(writer), Is.True);
        WatchArming.EndUnarmedWrite(writer);

        arming.AddWatcher(watcher);
        Assert.That(arming.Armed, Is.True);
        Assert.That(arming.Watchers, Is.EqualTo(1));
        Assert.That(arming.TryBeginUnarmedWrite(writer), Is.False);
        arming.RemoveWatcher();
        Assert.That(arming.Watchers, Is.Zero);
    }

    [Test]
    public void FirstWatcherWaitsForTheWriteThatStartedUnarmed()
    {
        using var arming = new WatchArming();
        var writer = arming.Register();
        var watcher = arming.Register();
        Assert.That(arming.TryBeginUnarmedWrite(writer), Is.True);

        var watch = Task.Run(() => arming.AddWatcher(watcher));
        // The write is still in flight, so the watcher cannot have read anything yet.
        Assert.That(watch.Wait(TimeSpan.FromMilliseconds(200)), Is.False);
        Assert.That(arming.Armed, Is.True, "writes that start now already move versions");
        Assert.That(arming.TryBeginUnarmedWrite(arming.Register()), Is.False);

        WatchArming.EndUnarmedWrite(writer);
        Assert.That(watch.Wait(Limit), Is.True);
    }

    [Test]
    public void AnAlwaysArmedSessionMovesVersionsAndIsNeverWaitedFor()
    {
        using var arming = new WatchArming();
        var blocking = arming.Register(alwaysArmed: true);
        Assert.That(arming.Armed, Is.False);
        Assert.That(arming.TryBeginUnarmedWrite(blocking), Is.False, "its writes move versions even while disarmed");
        Assert.That(Task.Run(() => arming.AddWatcher(arming.Register())).Wait(Limit), Is.True);
    }

    [Test]
    public void WatcherDoesNotWaitForItsOwnSessionsWrite()
    {
        using var arming = new WatchArming();
        var session = arming.Register();
        Assert.That(arming.TryBeginUnarmedWrite(session), Is.True);
        Assert.That(Task.Run(() => arming.AddWatcher(session)).Wait(Limit), Is.True);
        WatchArming.EndUnarmedWrite(session);
    }

    [Test]
    public void UnregisteredSessionIsNotWaitedFor()
    {
        using var arming = new WatchArming();
        var gone = arming.Register();
        Assert.That(arming.TryBeginUnarmedWrite(gone), Is.True);
        arming.Unregister(gone);
        Assert.That(Task.Run(() => arming.AddWatcher(arming.Register())).Wait(Limit), Is.True);
    }

    [Test]
    public void StaysArmedWhileAnySessionWatchesAndDisarmsAfterTheLast()
    {
        using var arming = new WatchArming { DisarmDelay = TimeSpan.Zero };
        var writer = arming.Register();
        arming.AddWatcher(arming.Register());
        arming.AddWatcher(arming.Register());
        arming.RemoveWatcher();
        Assert.That(arming.Armed, Is.True, "one session still watches");

        arming.RemoveWatcher();
        var deadline = DateTime.UtcNow + Limit;
        while (arming.Armed && DateTime.UtcNow < deadline)
            System.Threading.Thread.Sleep(5);
        Assert.That(arming.Armed, Is.False);
        Assert.That(arming.TryBeginUnarmedWrite(writer), Is.True);
        WatchArming.EndUnarmedWrite(writer);

        // Arming again works the same way.
        arming.AddWatcher(arming.Register());
        Assert.That(arming.TryBeginUnarmedWrite(writer), Is.False);
    }

    [Test]
    public void DisarmWaitsForTheDelayAfterTheLastWatcher()
    {
        using var arming = new WatchArming { DisarmDelay = TimeSpan.FromHours(1) };
        arming.AddWatcher(arming.Register());
        arming.RemoveWatcher();
        Assert.That(arming.Armed, Is.True);
    }
}
