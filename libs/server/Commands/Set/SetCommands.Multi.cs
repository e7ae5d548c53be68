using System;
using System.Collections.Generic;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The multi-key set commands (SINTER, SUNION, SDIFF, their STORE forms, SINTERCARD): each key is
/// read as a snapshot (absent keys are empty sets; another type answers WRONGTYPE before anything is
/// computed or stored), the result is computed outside the latches, then replied or stored.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private enum SetOperation
    {
        Intersect,
        Union,
        Difference,
    }

    /// <summary>SINTER/SUNION/SDIFF key [key ...] and their STORE forms (destination first).</summary>
    private void SetCombine(SetOperation operation, bool store)
    {
        int firstKey = store ? 2 : 1;
        var sets = new List<SetObject?>(_argCount - firstKey);
        if (!TryReadSetSnapshots(firstKey, _argCount, sets))
            return;

        var result = operation switch
        {
            SetOperation.Intersect => Intersect(sets),
            SetOperation.Union => Union(sets),
            _ => Difference(sets),
        };

        if (!store)
        {
            if (result == null)
                _writer.WriteSetHeader(0);
            else
                result.WriteMembers(ref _writer);
            return;
        }

        var status = StoreObject(_args[1].Span, result);
        if (status.IsOutOfMemory)
        {
            _writer.WriteError(RespStrings.ErrOutOfMemory);
            return;
        }
        _writer.WriteInteger(result?.Count ?? 0);
    }

    /// <summary>SINTERCARD numkeys key [key ...] [LIMIT limit].</summary>
    private void SetInterCard()
    {
        if (!NumberFormat.TryParseLong(_args[1].Span, out long keyCount) || keyCount < 1)
        {
            _writer.WriteError(SetStrings.ErrNumkeysNotPositive);
            return;
        }
        if (keyCount > _argCount - 2)
        {
            _writer.WriteError(SetStrings.ErrTooManyKeys);
            return;
        }
        int endKeys = 2 + (int)keyCount;
        long limit = 0;
        for (int i = endKeys; i < _argCount; i++)
        {
            if (_args[i].EqualsUpper("LIMIT"u8) && i + 1 < _argCount)
            {
                i++;
                if (!NumberFormat.TryParseLong(_args[i].Span, out limit) || limit < 0)
                {
                    _writer.WriteError(SetStrings.ErrLimitNegative);
                    return;
                }
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }

        var sets = new List<SetObject?>((int)keyCount);
        if (!TryReadSetSnapshots(2, endKeys, sets))
            return;
        var present = new List<SetObject>(sets.Count);
        foreach (var set in sets)
        {
            if (set == null)
            {
                _writer.WriteInteger(0);
                return;
            }
            present.Add(set);
        }
        present.Sort(static (a, b) => a.Count.CompareTo(b.Count));
        _writer.WriteInteger(present[0].CountInAll(present, limit));
    }

    /// <summary>
    /// Snapshots of the sets at keys <paramref name="first"/> up to <paramref name="end"/> (null for
    /// an absent key); false after replying WRONGTYPE if one holds another type.
    /// </summary>
    private bool TryReadSetSnapshots(int first, int end, List<SetObject?> sets)
    {
        for (int i = first; i < end; i++)
        {
            if (ReadObjectSnapshot(_args[i].Span, GarnetObjectType.Set, out var snapshot) == ObjectResult.WrongType)
            {
                _writer.WriteError(RespStrings.WrongType);
                return false;
            }
            sets.Add((SetObject?)snapshot);
        }
        return true;
    }

    /// <summary>The intersection (null when empty), computed in the smallest snapshot.</summary>
    private static SetObject? Intersect(List<SetObject?> sets)
    {
        SetObject? smallest = null;
        foreach (var set in sets)
        {
            if (set == null)
                return null;
            if (smallest == null || set.Count < smallest.Count)
                smallest = set;
        }
        foreach (var set in sets)
        {
            if (smallest!.Count == 0)
                break;
            if (!ReferenceEquals(set, smallest))
                smallest.IntersectWith(set!);
        }
        return smallest;
    }

    /// <summary>The union (null when empty), gathered into the largest snapshot.</summary>
    private static SetObject? Union(List<SetObject?> sets)
    {
        SetObject? largest = null;
        foreach (var set in sets)
        {
            if (set != null && (largest == null || set.Count > largest.Count))
                largest = set;
        }
        if (largest == null)
            return null;
        foreach (var set in sets)
        {
            if (set != null && !ReferenceEquals(set, largest))
                largest.UnionWith(set);
        }
        return largest;
    }

    /// <summary>The first snapshot without the members of the others (null when empty).</summary>
    private static SetObject? Difference(List<SetObject?> sets)
    {
        var result = sets[0];
        for (int i = 1; i < sets.Count && result != null && result.Count != 0; i++)
        {
            if (sets[i] != null)
                result.ExceptWith(sets[i]!);
        }
        return result;
    }
}
