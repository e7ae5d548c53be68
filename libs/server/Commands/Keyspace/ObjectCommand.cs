using System;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// OBJECT ENCODING / REFCOUNT / IDLETIME / FREQ / HELP: what Redis reports about a key's value, read
/// without counting as an access. The encoding is the one Redis would use for the value's history
/// (StringEncoding.cs for strings, each object family's *.Encoding.cs file for the others); the idle time
/// and frequency come from the record's access word (<see cref="RecordAccess"/>), read under the
/// current eviction policy as Redis reads its <c>lru</c> field.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private static readonly string[] s_objectHelp =
    [
        "ENCODING <key>",
        "    Return the kind of internal representation used in order to store the value",
        "    associated with a <key>.",
        "FREQ <key>",
        "    Return the access frequency index of the <key>. The returned integer is",
        "    proportional to the logarithm of the recent access frequency of the key.",
        "IDLETIME <key>",
        "    Return the idle time of the <key>, that is the approximated number of",
        "    seconds elapsed since the last access to the key.",
        "REFCOUNT <key>",
        "    Return the number of references of the value associated with the specified",
        "    <key>.",
    ];

    private static ReadOnlySpan<byte> ErrIdleTimeUnderLfu
        => "ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust."u8;

    private static ReadOnlySpan<byte> ErrFreqWithoutLfu
        => "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust."u8;

    private void ObjectCommand()
    {
        var subcommand = ResolveSubcommand(RespCommand.OBJECT);
        if (subcommand == null)
            return;
        if (subcommand.Id == Subcommand.ObjectHelp)
        {
            WriteHelp(s_objectHelp);
            return;
        }

        // As in Redis, a missing key answers nil before the policy is looked at.
        if (!TryInspect(_args[2].Span, out var facts))
        {
            _writer.WriteNull();
            return;
        }
        var budget = Store.Store.Budget;
        switch (subcommand.Id)
        {
            case Subcommand.ObjectEncoding:
                _writer.WriteBulk(facts.Encoding.Name());
                break;
            case Subcommand.ObjectRefCount:
                _writer.WriteInteger(RefCount(facts, budget));
                break;
            case Subcommand.ObjectIdleTime:
                if (budget.TracksFrequency)
                    _writer.WriteError(ErrIdleTimeUnderLfu);
                else
                    _writer.WriteInteger(RecordAccess.IdleSeconds(facts.AccessWord));
                break;
            case Subcommand.ObjectFreq:
                if (budget.TracksFrequency)
                    _writer.WriteInteger(RecordAccess.DecayedCounter(facts.AccessWord, budget.LfuDecayTime));
                else
                    _writer.WriteError(ErrFreqWithoutLfu);
                break;
            default:
                throw new InvalidOperationException($"{subcommand.Id} is not an OBJECT subcommand.");
        }
    }

    /// <summary>What OBJECT reports about <paramref name="key"/>'s value (also DEBUG OBJECT); false when the key is missing.</summary>
    private bool TryInspect(ReadOnlySpan<byte> key, out ObjectInspection.Facts facts)
    {
        var input = new StringInput(RespCommand.OBJECT);
        var output = new StringOutput(null);
        bool found = Store.Read(key, ref input, ref output).Found;
        facts = new ObjectInspection.Facts(output.Number);
        return found;
    }

    /// <summary>OBJECT REFCOUNT: Redis's count for a shared integer, else 1 (COPY duplicates, RENAME moves).</summary>
    private static long RefCount(ObjectInspection.Facts facts, MemoryBudget budget)
        => facts.SharedIntegerCandidate && SharesIntegers(budget) ? StringValueEncoding.SharedRefCount : 1;

    /// <summary>
    /// Whether Redis would share small integers between keys: not when a memory limit and an LRU or LFU policy
    /// need every key's own access time. Decided when asked, where Redis decides when the value is written.
    /// </summary>
    private static bool SharesIntegers(MemoryBudget budget)
        => budget.Limit == 0 || budget.Policy is not (EvictionPolicy.AllKeysLru or EvictionPolicy.VolatileLru or EvictionPolicy.AllKeysLfu or EvictionPolicy.VolatileLfu);
}

/// <summary>The Reader callback of OBJECT (and DEBUG OBJECT), on a string or an object record; it never counts as an access.</summary>
internal static class ObjectInspection
{
    /// <summary>What the Reader learned, packed in <see cref="StringOutput.Number"/>: encoding, shared-integer candidate, access word.</summary>
    public readonly struct Facts(long packed)
    {
        /// <summary>The encoding Redis would report.</summary>
        public ValueEncoding Encoding => (ValueEncoding)(packed & 0xFF);

        /// <summary>Whether Redis would keep the value as one of its shared integers, if the policy lets it.</summary>
        public bool SharedIntegerCandidate => (packed & 0x100) != 0;

        /// <summary>The record's access word (<see cref="RecordAccess"/>).</summary>
        public uint AccessWord => (uint)(packed >>> 32);
    }

    /// <summary><paramref name="objects"/> is the table of an object record, null for a string.</summary>
    public static bool Reader(in LogRecord record, ObjectTable? objects, ref StringInput input, ref StringOutput output, ref ReadInfo readInfo)
    {
        readInfo.SkipAccessUpdate = true;
        ValueEncoding encoding;
        bool shared = false;
        if (objects != null)
        {
            encoding = objects.Get(ObjectRecord.Handle(in record)).CurrentEncoding;
        }
        else
        {
            var form = StringValueEncoding.FormOf(in record);
            encoding = StringValueEncoding.Of(record.Value, form);
            shared = StringValueEncoding.IsSharedInteger(record.Value, form);
        }
        output.Number = (long)encoding | (shared ? 0x100L : 0) | ((long)record.Access << 32);
        return true;
    }
}
