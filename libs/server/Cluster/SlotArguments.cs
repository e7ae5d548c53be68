using System;
using System.Collections.Generic;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// Slot numbers given as arguments (ADDSLOTS, SETSLOTSRANGE, MIGRATE ... SLOTS): each slot, or each start-end pair when
/// given as ranges, checked as Redis checks them, with its errors.
/// </summary>
public static class SlotArguments
{
    /// <summary>
    /// The slots of <paramref name="args"/> (pairs when <paramref name="ranges"/>; an even count is the caller's to
    /// check) in the order given, also marked in a 16384-entry array; null when valid, else the error.
    /// </summary>
    public static string? Parse(ReadOnlySpan<ArgSlice> args, bool ranges, out List<int> slots, out bool[] marked)
    {
        marked = new bool[HashSlot.Count];
        slots = new List<int>();
        int step = ranges ? 2 : 1;
        for (int i = 0; i + step <= args.Length; i += step)
        {
            if (!TryParseSlot(args[i], out int start) || (ranges && !TryParseSlot(args[i + 1], out _)))
                return "ERR Invalid or out of range slot";
            int end = start;
            if (ranges)
            {
                TryParseSlot(args[i + 1], out end);
                if (start > end)
                    return $"ERR start slot number {start} is greater than end slot number {end}";
            }
            for (int slot = start; slot <= end; slot++)
            {
                if (marked[slot])
                    return $"ERR Slot {slot} specified multiple times";
                marked[slot] = true;
                slots.Add(slot);
            }
        }
        return null;
    }

    private static bool TryParseSlot(ArgSlice text, out int slot)
    {
        slot = 0;
        if (!NumberFormat.TryParseLong(text.Span, out long value) || value < 0 || value >= HashSlot.Count)
            return false;
        slot = (int)value;
        return true;
    }
}
