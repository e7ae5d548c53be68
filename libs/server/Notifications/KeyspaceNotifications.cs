using System;
using System.Buffers.Text;

namespace Garnet.server;

/// <summary>
/// The server's keyspace notifications (notify-keyspace-events): which classes of events are published, and the
/// publishing of one event on __keyspace@&lt;db&gt;__:&lt;key&gt; and __keyevent@&lt;db&gt;__:&lt;event&gt; through the pub/sub broker.
/// </summary>
/// <remarks>
/// Writers test <see cref="Active"/> (zero while notifications are off, or while neither K nor E is set) before
/// anything else, so the feature costs one load and test per write when off. Channel names are built in a
/// buffer the caller keeps (a session's <see cref="KeyspaceNotifier"/>), and the broker skips without a lock
/// a channel nobody listens to.
/// </remarks>
public sealed class KeyspaceNotifications
{
    private readonly PubSubBroker _broker;
    private volatile int _configured;
    private volatile int _active;

    /// <summary>Notifications published through <paramref name="broker"/>, with the classes of <paramref name="classes"/>.</summary>
    public KeyspaceNotifications(PubSubBroker broker, KeyspaceEventClasses classes = KeyspaceEventClasses.None)
    {
        _broker = broker;
        Classes = classes;
    }

    /// <summary>The configured classes (CONFIG GET reports these, even without K or E).</summary>
    public KeyspaceEventClasses Classes
    {
        get => (KeyspaceEventClasses)_configured;
        set
        {
            _configured = (int)value;
            // Without a channel kind nothing is ever published: writers then see zero and skip at once.
            _active = (value & (KeyspaceEventClasses.Keyspace | KeyspaceEventClasses.Keyevent)) != 0 ? (int)value : 0;
        }
    }

    /// <summary>The classes published: <see cref="Classes"/>, or none when neither K nor E is set.</summary>
    public KeyspaceEventClasses Active => (KeyspaceEventClasses)_active;

    private static ReadOnlySpan<byte> KeyspacePrefix => "__keyspace@"u8;
    private static ReadOnlySpan<byte> KeyeventPrefix => "__keyevent@"u8;
    private static ReadOnlySpan<byte> PrefixEnd => "__:"u8;

    /// <summary>
    /// Publishes <paramref name="eventName"/> on <paramref name="key"/> of database <paramref name="database"/> if its
    /// class <paramref name="type"/> is on; <paramref name="buffer"/> holds the channel names (grown when a key needs more).
    /// </summary>
    public void Publish(KeyspaceEventClasses type, ReadOnlySpan<byte> eventName, ReadOnlySpan<byte> key, int database, ref byte[]? buffer)
    {
        int active = _active;
        if ((active & (int)type) == 0)
            return;
        if ((active & (int)KeyspaceEventClasses.Keyspace) != 0)
        {
            int length = BuildChannel(KeyspacePrefix, database, key, ref buffer);
            _broker.Publish(buffer.AsSpan(0, length), eventName);
        }
        if ((active & (int)KeyspaceEventClasses.Keyevent) != 0)
        {
            int length = BuildChannel(KeyeventPrefix, database, eventName, ref buffer);
            _broker.Publish(buffer.AsSpan(0, length), key);
        }
    }

    /// <summary>Writes prefix, database number, "__:" and <paramref name="suffix"/> into the buffer; returns the length.</summary>
    private static int BuildChannel(ReadOnlySpan<byte> prefix, int database, ReadOnlySpan<byte> suffix, ref byte[]? buffer)
    {
        int needed = prefix.Length + 11 + PrefixEnd.Length + suffix.Length;
        if (buffer == null || buffer.Length < needed)
            buffer = new byte[Math.Max(needed, 128)];
        var span = buffer.AsSpan();
        prefix.CopyTo(span);
        int at = prefix.Length;
        Utf8Formatter.TryFormat(database, span.Slice(at), out int written);
        at += written;
        PrefixEnd.CopyTo(span.Slice(at));
        at += PrefixEnd.Length;
        suffix.CopyTo(span.Slice(at));
        return at + suffix.Length;
    }
}
