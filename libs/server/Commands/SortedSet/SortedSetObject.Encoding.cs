using System;

namespace Garnet.server;

/// <summary>
/// The encoding OBJECT ENCODING reports for a sorted set, by Redis's rules: ZADD (and ZINCRBY, GEOADD,
/// which are ZADD underneath) creates a skiplist when it brings more elements than
/// <c>zset-max-listpack-entries</c> or a member longer than <c>zset-max-listpack-value</c> bytes, else a
/// listpack; it converts an existing listpack when it brings more elements than that limit, and adding a
/// member that would overfill the listpack or is too long converts it too. Updating a member's score never
/// converts, and no removal converts back. Sorted sets built whole (*STORE, GEOSEARCHSTORE, RESTORE) are
/// a listpack when their size and longest member fit, as Redis converts such results.
/// </summary>
public sealed partial class SortedSetObject
{
    /// <summary>Whether the sorted set went past a listpack's limits (one-way).</summary>
    private bool _skiplist;

    /// <inheritdoc/>
    public override ValueEncoding CurrentEncoding => _skiplist ? ValueEncoding.Skiplist : ValueEncoding.Listpack;

    /// <summary>
    /// Before a ZADD-like command adds <paramref name="elements"/> score/member pairs whose longest member has
    /// <paramref name="longestMember"/> bytes.
    /// </summary>
    internal void PrepareForAdding(long elements, int longestMember, EncodingThresholds limits)
    {
        if (_skiplist)
            return;
        if (Count == 0)
            _skiplist = elements > limits.ZSetMaxListpackEntries || longestMember > limits.ZSetMaxListpackValue;
        else
            _skiplist = elements > limits.ZSetMaxListpackEntries;
    }

    /// <summary>Before adding a member of <paramref name="memberLength"/> bytes that is not in the set yet.</summary>
    internal void NoteNewMember(int memberLength, EncodingThresholds limits)
    {
        if (!_skiplist && (Count + 1 > limits.ZSetMaxListpackEntries || memberLength > limits.ZSetMaxListpackValue))
            _skiplist = true;
    }

    /// <inheritdoc/>
    public override void DecideEncoding(EncodingThresholds thresholds)
    {
        _skiplist = Count > thresholds.ZSetMaxListpackEntries;
        for (var node = _tree.First; node != null && !_skiplist; node = node.Next)
            _skiplist = node.Member.Length > thresholds.ZSetMaxListpackValue;
    }

    /// <summary>The longest member among the pairs of a ZADD-like command (members at every <paramref name="stride"/>-th argument from <paramref name="first"/>).</summary>
    internal static int LongestMember(ref ObjectInput input, int first, int stride)
    {
        int longest = 0;
        for (int i = first; i < input.ArgCount; i += stride)
            longest = Math.Max(longest, input.Arg(i).Length);
        return longest;
    }
}
