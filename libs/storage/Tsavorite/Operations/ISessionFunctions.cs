using System;

namespace Tsavorite;

/// <summary>
/// The user logic the engine calls back into, grouped by operation. Implement it as a struct and
/// pass it as a generic argument so the callbacks inline. Every callback runs while the engine holds
/// the latch of the key's hash bucket (shared for readers, exclusive for the others), so a record
/// seen in a callback is stable for the callback's duration.
/// </summary>
/// <typeparam name="TInput">The operation's argument (e.g. a parsed command).</typeparam>
/// <typeparam name="TOutput">Where callbacks put the result.</typeparam>
public interface ISessionFunctions<TInput, TOutput>
{
    // ---- Read ----

    /// <summary>
    /// Fires when Read finds a live record for the key. Copy what is needed into
    /// <paramref name="output"/>. Return false to report the key as not found.
    /// </summary>
    bool Reader(in LogRecord record, ref TInput input, ref TOutput output, ref ReadInfo readInfo);

    // ---- Upsert ----

    /// <summary>Fires when Upsert needs a new record: the size and optional fields it must have.</summary>
    RecordFieldInfo GetUpsertFieldInfo(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ref TInput input);

    /// <summary>
    /// Fires when Upsert finds a live record in the mutable region. Overwrite it in place (the
    /// record's value length may change within <see cref="LogRecord.MaxValueLength"/>). Return false
    /// if it does not fit: the engine then writes a new record with <see cref="InitialWriter"/>.
    /// </summary>
    bool InPlaceWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref TInput input, ref TOutput output, ref UpsertInfo upsertInfo);

    /// <summary>
    /// Fires when Upsert writes a new record (the key was absent, read-only, or did not fit in place).
    /// The record holds the key and a value of the requested length. Return false to cancel.
    /// </summary>
    bool InitialWriter(ref LogRecord record, ReadOnlySpan<byte> value, ref TInput input, ref TOutput output, ref UpsertInfo upsertInfo);

    /// <summary>Fires after a record written by <see cref="InitialWriter"/> became visible.</summary>
    void PostInitialWriter(ref LogRecord record, ref TInput input, ref TOutput output, ref UpsertInfo upsertInfo);

    // ---- RMW ----

    /// <summary>
    /// Fires when RMW finds no live record (absent, deleted or expired): return false to leave the key
    /// absent (the operation returns not-found), true to create it with <see cref="InitialUpdater"/>.
    /// </summary>
    bool NeedInitialUpdate(ReadOnlySpan<byte> key, ref TInput input, ref TOutput output, ref RMWInfo rmwInfo);

    /// <summary>Fires before <see cref="InitialUpdater"/>: the size and optional fields of the new record.</summary>
    RecordFieldInfo GetRMWInitialFieldInfo(ReadOnlySpan<byte> key, ref TInput input);

    /// <summary>Fires to fill a new record for an absent key. Return false to cancel.</summary>
    bool InitialUpdater(ref LogRecord record, ref TInput input, ref TOutput output, ref RMWInfo rmwInfo);

    /// <summary>Fires after a record written by <see cref="InitialUpdater"/> became visible.</summary>
    void PostInitialUpdater(ref LogRecord record, ref TInput input, ref TOutput output, ref RMWInfo rmwInfo);

    /// <summary>
    /// Fires when RMW finds a live record in the mutable region. Update it in place and return true,
    /// or return false if the result does not fit: the engine then copies it with <see cref="CopyUpdater"/>.
    /// </summary>
    bool InPlaceUpdater(ref LogRecord record, ref TInput input, ref TOutput output, ref RMWInfo rmwInfo);

    /// <summary>
    /// Fires when RMW must copy a live record (read-only, or too small in place): return false if no
    /// update is needed (the operation returns found and writes nothing).
    /// </summary>
    bool NeedCopyUpdate(in LogRecord source, ref TInput input, ref TOutput output, ref RMWInfo rmwInfo);

    /// <summary>Fires before <see cref="CopyUpdater"/>: the size and optional fields of the updated record.</summary>
    RecordFieldInfo GetRMWModifiedFieldInfo(in LogRecord source, ref TInput input);

    /// <summary>Fires to write the updated copy of <paramref name="source"/> into <paramref name="destination"/>. Return false to cancel.</summary>
    bool CopyUpdater(in LogRecord source, ref LogRecord destination, ref TInput input, ref TOutput output, ref RMWInfo rmwInfo);

    /// <summary>Fires after the record written by <see cref="CopyUpdater"/> became visible.</summary>
    void PostCopyUpdater(in LogRecord source, ref LogRecord destination, ref TInput input, ref TOutput output, ref RMWInfo rmwInfo);

    // ---- Delete ----

    /// <summary>
    /// Fires when Delete finds a live record in the mutable region, before it is marked deleted.
    /// Return false to cancel.
    /// </summary>
    bool InPlaceDeleter(ref LogRecord record, ref DeleteInfo deleteInfo);

    /// <summary>
    /// Fires when Delete finds a live record outside the mutable region (read-only, or read back from the device),
    /// before a tombstone at the tail shadows it. Return false to cancel (a conditional delete: the record is not the
    /// one the caller meant). By default the delete goes ahead.
    /// </summary>
    bool ShadowDeleter(in LogRecord record, ref DeleteInfo deleteInfo) => true;

    // ---- Record lifetime ----

    /// <summary>
    /// Fires once when a record's value stops being reachable through the index while the bucket
    /// latch is held: the key was deleted, a newer record from Upsert replaced it, or it had expired
    /// and a write replaced or reused it. It does not fire for RMW's copy update, whose
    /// <see cref="PostCopyUpdater"/> sees both records and decides what the copy took over. Values
    /// that refer to resources outside the log (object handles) release them here.
    /// </summary>
    void DisposeRecord(ref LogRecord record, DisposeReason reason);
}
