using System.IO;
using System.Threading;

namespace Garnet.server;

/// <summary>
/// A value that lives on the managed heap (list, hash, set, sorted set, stream) and is referenced from its
/// log record by a handle into the database's <see cref="ObjectTable"/>. Each family's class holds its
/// data structure and runs its commands in <see cref="Operate"/>; the engine callbacks that call it
/// hold the key's bucket latch (shared for reads, so read-only commands must not change anything).
/// </summary>
public abstract class GarnetObject
{
    private const int Idle = 0, Mutating = 1, Serializing = 2;

    // A page flush serializes an object while its record may have moved on to the mutable region (a
    // copy update takes the handle over) or been renamed, so commands that change the object and the
    // flush exclude each other here. Readers need not: neither side of the exclusion writes for them.
    private int _access;

    /// <summary>Which family the object belongs to.</summary>
    public abstract GarnetObjectType Type { get; }

    /// <summary>Number of elements; an object left empty by a command is deleted with its key.</summary>
    public abstract long Count { get; }

    /// <summary>Approximate bytes the object takes on the heap; each family keeps it current as it changes.</summary>
    public long HeapSize { get; protected set; }

    /// <summary>
    /// The encoding OBJECT ENCODING reports: the one Redis would have for a value with the same history of
    /// commands. Each family decides it as its commands change the object (its *.Encoding.cs file); a
    /// custom type reports "raw", as Redis does for module types.
    /// </summary>
    public virtual ValueEncoding CurrentEncoding => ValueEncoding.Raw;

    /// <summary>
    /// Decides the encoding from the contents alone, as Redis does for a value it builds whole: the result of
    /// a *STORE command or of RESTORE. Called before the object is installed at its key.
    /// </summary>
    public virtual void DecideEncoding(EncodingThresholds thresholds)
    {
    }

    /// <summary>
    /// Runs <paramref name="input"/>'s command on this object and writes its whole reply to
    /// <paramref name="output"/>'s writer. Absent keys are served by running the command on a new,
    /// empty object: a write that leaves it empty creates no key, and a read answers as for a missing key.
    /// </summary>
    public abstract void Operate(ref ObjectInput input, ref ObjectOutput output);

    /// <summary>A deep copy (COPY, and snapshots that multi-key commands compute on outside the latch).</summary>
    public abstract GarnetObject Clone();

    /// <summary>Writes the contents (DUMP payloads, page flushes).</summary>
    public abstract void Serialize(BinaryWriter writer);

    /// <summary>Called before a command changes the object; waits while a flush serializes it.</summary>
    internal void EnterMutation() => Enter(Mutating);

    /// <summary>Called after a command changed the object.</summary>
    internal void ExitMutation() => Volatile.Write(ref _access, Idle);

    /// <summary>Called before a flush serializes the object; waits while a command changes it.</summary>
    internal void EnterSerialization() => Enter(Serializing);

    /// <summary>Called after a flush serialized the object.</summary>
    internal void ExitSerialization() => Volatile.Write(ref _access, Idle);

    private void Enter(int state)
    {
        if (Interlocked.CompareExchange(ref _access, state, Idle) == Idle)
            return;
        var spinner = new SpinWait();
        do
            spinner.SpinOnce();
        while (Interlocked.CompareExchange(ref _access, state, Idle) != Idle);
    }
}
