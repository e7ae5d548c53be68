using System;
using System.Collections.Generic;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// COMMAND GETKEYS / GETKEYSANDFLAGS: the keys of a call and their flags, found by the command's key specs as Redis
/// finds them. Where the specs cannot say (an unknown or incomplete spec: SORT; flags that vary: SET, BITFIELD) the
/// command's own rule decides, as Redis's per-command key functions do. Not on a hot path.
/// </summary>
internal static class KeySpecSearch
{
    /// <summary>
    /// Fills <paramref name="found"/> with (argument index, flags) for the <paramref name="count"/> arguments of a call
    /// (the name at 0). Malformed arguments (a numkeys that is not a count the arguments hold) give no keys.
    /// </summary>
    public static void Find(RespCommandInfo info, ReadOnlySpan<ArgSlice> args, int count, List<(int Position, KeySpecFlags Flags)> found)
    {
        found.Clear();
        switch (info.Command)
        {
            case RespCommand.SORT:
            case RespCommand.SORT_RO:
                FindSortKeys(info.Command == RespCommand.SORT, args, count, found);
                return;
            case RespCommand.MIGRATE:
                // Its KEYS spec is incomplete (the key argument is no key with KEYS): Redis asks migrateGetKeys.
                MigrateArguments.FindKeys(args, count, out int first, out int number);
                for (int i = 0; i < number; i++)
                    found.Add((first + i, info.KeySpecs[0].Flags));
                return;
        }
        if (!FindBySpecs(info.KeySpecs, args, count, found))
        {
            found.Clear();
            return;
        }
        if (info.KeyAccess.VariesWithArguments)
        {
            var access = KeyExtraction.AccessByArguments(info.Command, args, count).First;
            for (int i = 0; i < found.Count; i++)
                found[i] = (found[i].Position, FlagsByArguments(info.Command, access));
        }
    }

    /// <summary>Every spec in turn; false when one cannot be followed (a missing keyword is not an error).</summary>
    private static bool FindBySpecs(KeySpec[] specs, ReadOnlySpan<ArgSlice> args, int count, List<(int, KeySpecFlags)> found)
    {
        foreach (var spec in specs)
        {
            if ((spec.Flags & KeySpecFlags.NotKey) != 0)
                continue;
            int first;
            switch (spec.Begin)
            {
                case BeginSearch.Index:
                    first = spec.Index;
                    break;
                case BeginSearch.Keyword:
                    first = FindKeyword(spec, args, count);
                    if (first == 0)
                        continue;
                    break;
                default:
                    return false;
            }

            int last, step;
            if (spec.Find == FindKeys.Range)
            {
                step = spec.B;
                if (spec.A >= 0)
                    last = first + spec.A;
                else if (spec.C == 0)
                    last = count + spec.A;
                else
                    last = first + ((count - first) / spec.C + spec.A); // keys take 1/limit of what follows (STREAMS)
            }
            else if (spec.Find == FindKeys.KeyNum)
            {
                step = spec.C;
                if (spec.A >= count - first || !NumberFormat.TryParseLong(args[first + spec.A].Span, out long numKeys) || numKeys < 0)
                    return false;
                first += spec.B;
                last = first + (int)Math.Min(numKeys, int.MaxValue / 2) - 1;
            }
            else
            {
                return false;
            }

            if (last >= count || last < first || first >= count)
                return false;
            for (int i = first; i <= last; i += step)
                found.Add((i, spec.Flags));
        }
        return true;
    }

    /// <summary>
    /// The argument after the spec's keyword, searched forward from startfrom (to the last argument but one) or
    /// backward from the end; 0 when absent.
    /// </summary>
    private static int FindKeyword(KeySpec spec, ReadOnlySpan<ArgSlice> args, int count)
    {
        int start = spec.Index > 0 ? spec.Index : count + spec.Index;
        int end = spec.Index > 0 ? count - 1 : 1;
        for (int i = start; i != end; i = start <= end ? i + 1 : i - 1)
        {
            if (i >= count || i < 1)
                break;
            if (args[i].EqualsUpper(spec.KeywordBytes!))
                return i + 1;
        }
        return 0;
    }

    /// <summary>The flags of one SET or BITFIELD call: OW update, RW access update, or RO access.</summary>
    private static KeySpecFlags FlagsByArguments(RespCommand command, KeyAccess access) => access switch
    {
        KeyAccess.Read => KeySpecFlags.RO | KeySpecFlags.Access,
        KeyAccess.Write => KeySpecFlags.OW | KeySpecFlags.Update,
        _ => KeySpecFlags.RW | KeySpecFlags.Access | KeySpecFlags.Update,
    };

    /// <summary>
    /// SORT key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC|DESC] [ALPHA] [STORE destination]: the sorted
    /// key, and for SORT the destination of the last STORE (the one that takes effect). Patterns are not keys.
    /// </summary>
    private static void FindSortKeys(bool store, ReadOnlySpan<ArgSlice> args, int count, List<(int, KeySpecFlags)> found)
    {
        found.Add((1, KeySpecFlags.RO | KeySpecFlags.Access));
        if (!store)
            return;
        int destination = 0;
        for (int i = 2; i < count; i++)
        {
            if (args[i].EqualsUpper("LIMIT"u8))
                i += 2;
            else if (args[i].EqualsUpper("GET"u8) || args[i].EqualsUpper("BY"u8))
                i++;
            else if (args[i].EqualsUpper("STORE"u8) && i + 1 < count)
                destination = i + 1;
        }
        if (destination != 0)
            found.Add((destination, KeySpecFlags.OW | KeySpecFlags.Update));
    }
}
