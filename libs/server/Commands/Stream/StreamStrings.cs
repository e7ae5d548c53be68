using System;

namespace Garnet.server;

/// <summary>Replies and errors of the stream commands, as Redis words them.</summary>
internal static class StreamStrings
{
    public static ReadOnlySpan<byte> ErrInvalidId => "ERR Invalid stream ID specified as stream command argument"u8;
    public static ReadOnlySpan<byte> ErrIdNotGreater => "ERR The ID specified in XADD is equal or smaller than the target stream top item"u8;
    public static ReadOnlySpan<byte> ErrIdZero => "ERR The ID specified in XADD must be greater than 0-0"u8;
    public static ReadOnlySpan<byte> ErrExhausted => "ERR The stream has exhausted the last possible ID, unable to add more items"u8;
    public static ReadOnlySpan<byte> ErrMaxLenNegative => "ERR The MAXLEN argument must be >= 0."u8;
    public static ReadOnlySpan<byte> ErrLimitNegative => "ERR The LIMIT argument must be >= 0."u8;
    public static ReadOnlySpan<byte> ErrMaxLenAndMinId => "ERR syntax error, MAXLEN and MINID options at the same time are not compatible"u8;
    public static ReadOnlySpan<byte> ErrLimitWithoutStrategy => "ERR syntax error, LIMIT cannot be used without specifying a trimming strategy"u8;
    public static ReadOnlySpan<byte> ErrLimitWithoutApprox => "ERR syntax error, LIMIT cannot be used without the special ~ option"u8;
    public static ReadOnlySpan<byte> ErrTrimWithoutStrategy => "ERR syntax error, XTRIM must be called with a trimming strategy"u8;
    public static ReadOnlySpan<byte> ErrInvalidStart => "ERR invalid start ID for the interval"u8;
    public static ReadOnlySpan<byte> ErrInvalidEnd => "ERR invalid end ID for the interval"u8;
    public static ReadOnlySpan<byte> ErrNoSuchKey => "ERR no such key"u8;
    public static ReadOnlySpan<byte> ErrSetIdSmallerThanTop => "ERR The ID specified in XSETID is smaller than the target stream top item"u8;
    public static ReadOnlySpan<byte> ErrSetIdSmallerThanGivenMaxDeleted => "ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id"u8;
    public static ReadOnlySpan<byte> ErrEntriesAddedNegative => "ERR entries_added must be positive"u8;
    public static ReadOnlySpan<byte> ErrEntriesAddedSmallerThanLength => "ERR The entries_added specified in XSETID is smaller than the target stream length"u8;
    public static ReadOnlySpan<byte> ErrGroupOnlyForReadGroup => "ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead."u8;
    public static ReadOnlySpan<byte> ErrNoAckOnlyForReadGroup => "ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead."u8;
    public static ReadOnlySpan<byte> ErrMissingGroup => "ERR Missing GROUP option for XREADGROUP"u8;
    public static ReadOnlySpan<byte> ErrDollarInReadGroup => "ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the history of this consumer by specifying a proper ID, or use the > ID to get new messages. The $ ID would just return an empty result set."u8;
    public static ReadOnlySpan<byte> ErrGreaterOnlyInReadGroup => "ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option."u8;
    public static ReadOnlySpan<byte> ErrUnbalancedXRead => "ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified."u8;
    public static ReadOnlySpan<byte> ErrUnbalancedXReadGroup => "ERR Unbalanced XREADGROUP list of streams: for each stream key an ID or '>' must be specified."u8;
    public static ReadOnlySpan<byte> ErrGroupExists => "BUSYGROUP Consumer Group name already exists"u8;
    public static ReadOnlySpan<byte> ErrMkStreamMissing => "ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically."u8;
    public static ReadOnlySpan<byte> ErrEntriesReadInvalid => "ERR value for ENTRIESREAD must be positive or -1"u8;
}
