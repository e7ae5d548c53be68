namespace Tsavorite;

/// <summary>
/// Tells a store's user about live and expired records the head mover drops when the head of the log passes
/// them, so that it can release what their values refer to (object handles) and count them. Records the head
/// mover copies forward keep their values (an object moves by handle), so nothing is said of them.
/// </summary>
public interface IEvictionObserver
{
    /// <summary>
    /// Fires once per dropped record, with the key's bucket latch held exclusively, before the record becomes
    /// unreachable. <paramref name="reason"/> is <see cref="DisposeReason.Evicted"/> for a live record the policy
    /// dropped, <see cref="DisposeReason.Expired"/> for an expired one.
    /// </summary>
    void OnDropped(ref LogRecord record, DisposeReason reason);

    /// <summary>
    /// With the storage tier: fires once for each valid object record of a page that left memory, after no thread can
    /// reach the page any more (no latch is held). The record and its object are on the device and in the object
    /// log; release what the in-memory record refers to.
    /// </summary>
    void OnPagedOut(ref LogRecord record)
    {
    }
}
