using System;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// KEYS, SCAN and RANDOMKEY: walks of the database's log (see the engine's Scan). Keys are
/// copied into a session-owned <see cref="KeyBuffer"/> during the walk and replied afterwards.
/// </summary>
/// <remarks>
/// SCAN's cursor is a log address: where the walk stopped, so it stays valid however the database
/// changes. A key whose record moves (an update that does not fit in place writes a new record at
/// the tail) is reported again when the walk reaches the new record, and one that moves past the
/// end of the final call is reported from its old place, so every key present for the whole
/// iteration is returned at least once. Reused space of deleted records does not break this: the
/// engine moves an existing key only into space at or above its current record, never behind it.
/// </remarks>
public sealed unsafe partial class RespServerSession
{
    /// <summary>Live records RANDOMKEY looks at to pick one.</summary>
    private const int RandomKeyWindow = 1024;

    private KeyBuffer? _keyBuffer;

    /// <summary>The session's key buffer, emptied for a new scan.</summary>
    private KeyBuffer EmptyKeyBuffer()
    {
        _keyBuffer ??= new KeyBuffer();
        _keyBuffer.Clear();
        return _keyBuffer;
    }

    /// <summary>
    /// KEYS pattern: every key matching the glob pattern. Unlike Redis's, the walk is not atomic: a
    /// key present throughout is always returned, but one rewritten meanwhile may be returned twice.
    /// </summary>
    private void Keys()
    {
        var scan = new KeyScan(EmptyKeyBuffer(), _args[1], KeyScan.AnyType, long.MaxValue);
        Store.Scan(ref scan, 0, -1, ScanFlags.IncludeMovedPastEnd);
        WriteKeys(scan.Keys);
    }

    /// <summary>SCAN cursor [MATCH pattern] [COUNT count] [TYPE type].</summary>
    private void Scan()
    {
        if (!ScanCursor.TryParse(_args[1].Span, out ulong cursor))
        {
            _writer.WriteError(RespStrings.ErrInvalidCursor);
            return;
        }
        long count = 10;
        ArgSlice pattern = default;
        int type = KeyScan.AnyType;
        for (int i = 2; i < _argCount; i += 2)
        {
            ref readonly var option = ref _args[i];
            if (i + 1 >= _argCount)
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
            if (option.EqualsUpper("COUNT"u8))
            {
                if (!NumberFormat.TryParseLong(_args[i + 1].Span, out count))
                {
                    _writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (count < 1)
                {
                    _writer.WriteError(RespStrings.ErrSyntax);
                    return;
                }
            }
            else if (option.EqualsUpper("MATCH"u8))
            {
                pattern = _args[i + 1];
            }
            else if (option.EqualsUpper("TYPE"u8))
            {
                // An unknown type name matches nothing, as in Redis.
                type = KeyScan.TypeFilter(_args[i + 1]);
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }

        var log = Store.Store.Log;
        var scan = new KeyScan(EmptyKeyBuffer(), pattern, type, count);
        long next = 0;
        if (cursor < (ulong)log.TailAddress)
        {
            next = Store.Scan(ref scan, (long)cursor, -1, ScanFlags.IncludeMovedPastEnd);
            if (!scan.Stopped)
                next = 0;
        }
        _writer.WriteArrayHeader(2);
        _writer.WriteBulkInteger(next);
        WriteKeys(scan.Keys);
    }

    private void WriteKeys(KeyBuffer keys)
    {
        _writer.WriteArrayHeader(keys.Count);
        for (int i = 0; i < keys.Count; i++)
            _writer.WriteBulk(keys[i]);
    }

    /// <summary>
    /// RANDOMKEY: a key picked uniformly among up to <see cref="RandomKeyWindow"/> live keys from the
    /// start of a random log page (so uniform in small databases, and cheap in large ones), or nil.
    /// </summary>
    private void RandomKey()
    {
        var log = Store.Store.Log;
        long begin = log.BeginAddress;
        long tail = log.TailAddress;
        if (tail <= begin)
        {
            _writer.WriteNull();
            return;
        }
        long firstPage = begin >> log.PageSizeBits;
        long pages = ((tail - 1) >> log.PageSizeBits) - firstPage + 1;
        long start = Math.Max(begin, (firstPage + Random.Shared.NextInt64(pages)) << log.PageSizeBits);

        var pick = new RandomKeyPick(Output, RandomKeyWindow);
        Store.Scan(ref pick, start);
        if (pick.Seen == 0 && start > begin)
            Store.Scan(ref pick, begin, start);
        if (pick.Seen == 0)
            _writer.WriteNull();
        else
            _writer.WriteBulk(Output.Span);
    }

    /// <summary>Collects the keys that match a pattern and type, stopping after a number of live records.</summary>
    private struct KeyScan : IScanFunctions
    {
        private readonly ArgSlice _pattern;
        private readonly bool _usePattern;
        private readonly int _type;
        private long _remaining;

        /// <summary>The type filter that keeps every key.</summary>
        public const int AnyType = -1;

        /// <summary>The filter for a TYPE argument: a <see cref="GarnetObjectType"/>, or a value no record has.</summary>
        public static int TypeFilter(in ArgSlice name)
        {
            if (name.EqualsUpper("STRING"u8))
                return (int)GarnetObjectType.None;
            if (name.EqualsUpper("LIST"u8))
                return (int)GarnetObjectType.List;
            if (name.EqualsUpper("HASH"u8))
                return (int)GarnetObjectType.Hash;
            if (name.EqualsUpper("SET"u8))
                return (int)GarnetObjectType.Set;
            if (name.EqualsUpper("ZSET"u8))
                return (int)GarnetObjectType.SortedSet;
            if (name.EqualsUpper("STREAM"u8))
                return (int)GarnetObjectType.Stream;
            return int.MaxValue;
        }

        public KeyScan(KeyBuffer keys, ArgSlice pattern, int type, long limit)
        {
            Keys = keys;
            _pattern = pattern;
            _usePattern = pattern.Pointer != null && !GlobPattern.MatchesEverything(pattern.Span);
            _type = type;
            _remaining = limit;
            Stopped = false;
        }

        public KeyBuffer Keys { get; }

        /// <summary>Whether the limit stopped the scan (rather than the end of the log).</summary>
        public bool Stopped { get; private set; }

        public bool OnRecord(in LogRecord record, long address)
        {
            if ((_type == AnyType || _type == (int)ObjectRecord.TypeOf(in record)) && (!_usePattern || GlobPattern.IsMatch(_pattern.Span, record.Key)))
                Keys.Add(record.Key);
            if (--_remaining > 0)
                return true;
            Stopped = true;
            return false;
        }
    }

    /// <summary>Keeps one key chosen uniformly (reservoir sampling) among the live records it sees, up to a limit.</summary>
    private struct RandomKeyPick : IScanFunctions
    {
        private readonly OutputBuffer _chosen;
        private readonly int _limit;

        public RandomKeyPick(OutputBuffer chosen, int limit)
        {
            _chosen = chosen;
            _limit = limit;
            Seen = 0;
        }

        public int Seen { get; private set; }

        public bool OnRecord(in LogRecord record, long address)
        {
            Seen++;
            if (Random.Shared.Next(Seen) == 0)
                _chosen.Set(record.Key);
            return Seen < _limit;
        }
    }
}
