using System.Threading;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The slot migrations running on this node (MIGRATE ... SLOTS), each on a thread of its own: CLUSTER MTASKS counts
/// them, and two never move the same slot at once. The last one's outcome is kept for INFO's cluster section.
/// </summary>
public sealed class SlotMigrations
{
    private readonly object _lock = new();
    private readonly bool[] _claimed = new bool[HashSlot.Count];
    private int _running;

    /// <summary>Migrations running now.</summary>
    public int Running => Volatile.Read(ref _running);

    /// <summary>Migrations that ended with every slot moved, and with an error.</summary>
    public long Succeeded { get; private set; }

    /// <inheritdoc cref="Succeeded"/>
    public long Failed { get; private set; }

    /// <summary>The error the last failed migration stopped at, or null.</summary>
    public string? LastError { get; private set; }

    /// <summary>Keys the migrations moved to other nodes.</summary>
    public long KeysMoved { get; private set; }

    /// <summary>Starts <paramref name="request"/>; the error when one of its slots is being migrated already.</summary>
    internal string? TryStart(StoreWrapper server, SlotMigrationRequest request)
    {
        lock (_lock)
        {
            foreach (int slot in request.Slots)
            {
                if (_claimed[slot])
                    return $"ERR Slot {slot} is already migrating or importing";
            }
            foreach (int slot in request.Slots)
                _claimed[slot] = true;
            _running++;
        }
        var migration = new SlotMigration(server, request);
        var thread = new Thread(() => Run(migration, request)) { IsBackground = true, Name = "slot migration" };
        thread.Start();
        return null;
    }

    private void Run(SlotMigration migration, SlotMigrationRequest request)
    {
        string? error;
        try
        {
            error = migration.Run();
        }
        catch (System.Exception e)
        {
            error = "ERR " + e.Message;
        }
        lock (_lock)
        {
            foreach (int slot in request.Slots)
                _claimed[slot] = false;
            KeysMoved += migration.KeysMoved;
            if (error == null)
            {
                Succeeded++;
            }
            else
            {
                Failed++;
                LastError = error;
            }
            _running--;
        }
    }
}
