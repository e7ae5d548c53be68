namespace Garnet.server;

/// <summary>
/// One directory of a tiered log (<see cref="ServerOptions.LogTiers"/>): every tier receives every write, and a read
/// comes from the first tier that still holds the range.
/// </summary>
/// <param name="Directory">Where this tier's log files are kept.</param>
/// <param name="Capacity">Bytes of the newest log this tier keeps (its oldest files are deleted past it), or -1 for all.</param>
public readonly record struct LogTier(string Directory, long Capacity);
