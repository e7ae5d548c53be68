using NUnit.Framework;

namespace Garnet.test.Notifications;

/// <summary>
/// A fixture of keyspace event tests: per test, a raw client with notify-keyspace-events "EA" and a raw subscriber
/// to every key event, and helpers that run a command and expect the events (database 0) it published.
/// </summary>
public abstract class KeyspaceEventTestBase : KeyspaceNotificationTestBase
{
    /// <summary>The client that runs the commands.</summary>
    protected RawClient Client { get; private set; } = null!;

    /// <summary>The client subscribed to every key event.</summary>
    protected RawClient Subscriber { get; private set; } = null!;

    [SetUp]
    public void OpenClients()
    {
        Subscriber = KeySubscriber();
        Client = ConnectRaw();
        Enable("EA");
    }

    [TearDown]
    public void CloseClients()
    {
        Client.Dispose();
        Subscriber.Dispose();
    }

    /// <summary>Runs <paramref name="command"/> on <see cref="Client"/>; returns the reply.</summary>
    protected string Run(params string[] command) => Client.Execute(command);

    /// <summary>Sets notify-keyspace-events to <paramref name="classes"/>.</summary>
    protected void Enable(string classes) => Assert.That(Run("CONFIG", "SET", "notify-keyspace-events", classes), Is.EqualTo("+OK\r\n"));

    /// <summary>Asserts the next key events of database 0, as "event key".</summary>
    protected void Expect(params string[] events) => ExpectKeyEvents(Subscriber, 0, events);

    /// <summary>Nothing else was published (checked with a marker event, which needs E and $).</summary>
    protected virtual void ExpectNone() => ExpectNoEventsBefore(Client, Subscriber);
}
