using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The encoding OBJECT ENCODING reports for a set, by Redis's rules: a new set is an intset when its first
/// member is an integer and the command brings at most <c>set-max-intset-entries</c> members, else a
/// listpack when it brings at most <c>set-max-listpack-entries</c>, else a hashtable. An intset that grows
/// past its limit becomes a hashtable; one that gets a non-integer becomes a listpack if that still fits a
/// listpack (fewer members than the limit, and neither the new member nor the longest integer longer than
/// <c>set-max-listpack-value</c>), else a hashtable; a listpack that would overflow becomes a hashtable.
/// Conversions are one-way, except that SPOP with a count close to the size rebuilds a hashtable set from
/// the members left, as Redis does. Sets built whole (*STORE, RESTORE) replay the adds from an intset.
/// </summary>
public sealed partial class SetObject
{
    private ValueEncoding _encoding = ValueEncoding.Intset;

    /// <inheritdoc/>
    public override ValueEncoding CurrentEncoding => _encoding;

    /// <summary>
    /// Before SADD (or SMOVE into a missing key) adds <paramref name="count"/> members starting with
    /// <paramref name="first"/>: a new set takes the encoding Redis creates it with, an existing one converts
    /// when the command would overfill it.
    /// </summary>
    private void PrepareForAdding(ReadOnlySpan<byte> first, long count, EncodingThresholds limits)
    {
        if (_count == 0)
        {
            _encoding = IsInteger(first) && count <= limits.SetMaxIntsetEntries ? ValueEncoding.Intset
                : count <= limits.SetMaxListpackEntries ? ValueEncoding.Listpack
                : ValueEncoding.Hashtable;
        }
        else if ((_encoding == ValueEncoding.Listpack && count > limits.SetMaxListpackEntries)
            || (_encoding == ValueEncoding.Intset && count > limits.SetMaxIntsetEntries))
        {
            _encoding = ValueEncoding.Hashtable;
        }
    }

    /// <summary>After <paramref name="member"/> was added as a new member: converts as Redis's add would.</summary>
    private void NoteAdded(ReadOnlySpan<byte> member, EncodingThresholds limits)
    {
        if (_encoding == ValueEncoding.Hashtable)
            return;
        // Only an intset taking a non-integer needs its longest integer (all other members are integers).
        int longestInteger = 0;
        if (_encoding == ValueEncoding.Intset && !IsInteger(member))
        {
            for (int i = 0; i < _count; i++)
            {
                if (!member.SequenceEqual(_members[i]))
                    longestInteger = Math.Max(longestInteger, _members[i].Length);
            }
        }
        _encoding = AfterAdding(_encoding, member, _count - 1, longestInteger, limits);
    }

    /// <summary>
    /// The encoding after adding a new <paramref name="member"/> to a set of <paramref name="before"/> members
    /// in <paramref name="encoding"/>, whose longest integer (an intset's) has <paramref name="longestInteger"/> characters.
    /// </summary>
    private static ValueEncoding AfterAdding(ValueEncoding encoding, ReadOnlySpan<byte> member, int before, int longestInteger, EncodingThresholds limits)
    {
        switch (encoding)
        {
            case ValueEncoding.Intset:
                if (IsInteger(member))
                    return before + 1 > Math.Min(limits.SetMaxIntsetEntries, 1 << 30) ? ValueEncoding.Hashtable : ValueEncoding.Intset;
                return before < limits.SetMaxListpackEntries && member.Length <= limits.SetMaxListpackValue && longestInteger <= limits.SetMaxListpackValue
                    ? ValueEncoding.Listpack : ValueEncoding.Hashtable;
            case ValueEncoding.Listpack:
                return before < limits.SetMaxListpackEntries && member.Length <= limits.SetMaxListpackValue ? ValueEncoding.Listpack : ValueEncoding.Hashtable;
            default:
                return encoding;
        }
    }

    /// <summary>Replays adding the members, in their order, to an empty set of <paramref name="start"/> encoding.</summary>
    private void Replay(ValueEncoding start, EncodingThresholds limits)
    {
        var encoding = start;
        int longestInteger = 0;
        for (int i = 0; i < _count && encoding != ValueEncoding.Hashtable; i++)
        {
            var member = _members[i];
            encoding = AfterAdding(encoding, member, i, longestInteger, limits);
            if (encoding == ValueEncoding.Intset)
                longestInteger = Math.Max(longestInteger, member.Length);
        }
        _encoding = encoding;
    }

    /// <summary>
    /// SPOP with a count that leaves at most a fifth of it: Redis builds a new set of the members left, which
    /// for a hashtable set starts as a listpack (an intset or listpack set keeps its encoding).
    /// </summary>
    private void NoteRebuiltByPop(EncodingThresholds limits)
    {
        if (_encoding == ValueEncoding.Hashtable)
            Replay(ValueEncoding.Listpack, limits);
    }

    /// <inheritdoc/>
    public override void DecideEncoding(EncodingThresholds thresholds) => Replay(ValueEncoding.Intset, thresholds);

    /// <summary>Whether an intset can hold <paramref name="member"/>: a 64-bit integer in canonical form.</summary>
    private static bool IsInteger(ReadOnlySpan<byte> member) => NumberFormat.TryParseLong(member, out _);
}
