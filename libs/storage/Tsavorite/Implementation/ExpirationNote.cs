using System.Runtime.CompilerServices;
using System.Threading;

namespace Tsavorite;

/// <summary>
/// A store-wide note that some record may carry an expiration, so a background expiry sweep can skip a store that has
/// none (a full log walk per second costs a few percent of a busy core for nothing).
/// </summary>
/// <remarks>
/// Every write that leaves an expiration on a record sets the note. A sweep clears it, walks the log, and sets it again
/// for each expiring record it meets; a write racing with the walk sets it itself. So after a walk the note is clear
/// only if no record it saw, and no record written meanwhile, has an expiration.
/// </remarks>
public sealed unsafe partial class TsavoriteKV
{
    private int _expirationNoted;

    /// <summary>Gets whether any record may carry an expiration (see <see cref="ClearExpirationNote"/>).</summary>
    public bool MayHoldExpirations => Volatile.Read(ref _expirationNoted) != 0;

    /// <summary>Clears the note before a walk of the whole log that calls <see cref="NoteExpiration"/> for each expiring record it meets.</summary>
    public void ClearExpirationNote() => Volatile.Write(ref _expirationNoted, 0);

    /// <summary>Records that some record carries an expiration.</summary>
    public void NoteExpiration()
    {
        if (Volatile.Read(ref _expirationNoted) == 0)
            Volatile.Write(ref _expirationNoted, 1);
    }

    /// <summary>Called after every write callback that succeeded: one header bit test on the hot path.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void NoteIfExpiring(ref LogRecord record)
    {
        if (record.Info.HasExpiration)
        {
            NoteExpiration();
            if (Budget.Policy == EvictionPolicy.VolatileTtl)
                SampleWrittenTtl(ref record);
        }
    }
}
