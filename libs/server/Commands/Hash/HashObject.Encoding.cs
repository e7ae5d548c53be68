using System;

namespace Garnet.server;

/// <summary>
/// The encoding OBJECT ENCODING reports for a hash: listpack until a write brings more fields than
/// <c>hash-max-listpack-entries</c> or a field or value longer than <c>hash-max-listpack-value</c> bytes,
/// then hashtable for good (Redis never converts a hash back). The checks are Redis's, at the same
/// moments: HSET and HMSET look at all their arguments before writing (so a long value converts even
/// when it replaces nothing new), HSETNX at its two when it adds the field, the increments at the field
/// and the new value; after each, the number of fields.
/// </summary>
public sealed partial class HashObject
{
    /// <summary>Whether the hash went past a listpack's limits (one-way).</summary>
    private bool _hashtable;

    /// <inheritdoc/>
    public override ValueEncoding CurrentEncoding => _hashtable ? ValueEncoding.Hashtable : ValueEncoding.Listpack;

    /// <summary>
    /// HSET, HMSET, HSETNX: converts before writing when the command brings more pairs than a listpack
    /// holds or any argument from <paramref name="first"/> on is too long for one.
    /// </summary>
    private void ConvertForArguments(ref ObjectInput input, int first)
    {
        if (_hashtable)
            return;
        var limits = input.Limits;
        if ((input.ArgCount - first) / 2 > limits.HashMaxListpackEntries)
        {
            _hashtable = true;
            return;
        }
        for (int i = first; i < input.ArgCount; i++)
        {
            if (input.Arg(i).Length > limits.HashMaxListpackValue)
            {
                _hashtable = true;
                return;
            }
        }
    }

    /// <summary>HINCRBY, HINCRBYFLOAT: converts before setting a field or value too long for a listpack.</summary>
    private void ConvertForField(ReadOnlySpan<byte> field, ReadOnlySpan<byte> value, EncodingThresholds limits)
    {
        if (!_hashtable && (field.Length > limits.HashMaxListpackValue || value.Length > limits.HashMaxListpackValue))
            _hashtable = true;
    }

    /// <summary>After fields were added: converts when there are more than a listpack holds.</summary>
    private void ConvertIfTooMany(EncodingThresholds limits)
    {
        if (!_hashtable && _count > limits.HashMaxListpackEntries)
            _hashtable = true;
    }

    /// <inheritdoc/>
    public override void DecideEncoding(EncodingThresholds thresholds)
    {
        _hashtable = _count > thresholds.HashMaxListpackEntries;
        for (int i = 0; i < _used && !_hashtable; i++)
        {
            ref var entry = ref _entries[i];
            if (entry.Field != null && (entry.Field.Length > thresholds.HashMaxListpackValue || entry.Value.Length > thresholds.HashMaxListpackValue))
                _hashtable = true;
        }
    }
}
