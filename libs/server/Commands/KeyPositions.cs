using System;
using F = Garnet.server.KeySpecFlags;

namespace Garnet.server;

/// <summary>
/// Where a command's keys are and what each needs, as Redis derives them from its key specs: the legacy first key,
/// last key and step of COMMAND INFO, whether the keys are movable, and the access ACL key patterns are checked
/// against. The command table declares only the specs; for a custom command, which declares positions, the specs are
/// derived the other way (<see cref="SpecsOf"/>).
/// </summary>
internal readonly struct KeyPositions
{
    private KeyPositions(int firstKey, int lastKey, int step, bool movable, KeyAccessSpec access)
    {
        FirstKey = firstKey;
        LastKey = lastKey;
        Step = step;
        Movable = movable;
        Access = access;
    }

    public int FirstKey { get; }

    public int LastKey { get; }

    public int Step { get; }

    public bool Movable { get; }

    public KeyAccessSpec Access { get; }

    /// <summary>
    /// The positions Redis derives from <paramref name="specs"/>: a plain index range gives first, last and step;
    /// several ranges merge when adjacent with step 1; anything else (keynum, keyword, unknown, incomplete) makes the
    /// keys movable. The access is the first and the last key spec's. Specs of arguments that are not keys (sharded
    /// channels) are left out, as ACL and locking leave those arguments alone.
    /// </summary>
    public static KeyPositions Of(KeySpec[] specs)
    {
        bool movable = false;
        int first = int.MaxValue;
        int last = 0, step = 1, previousLast = 0;
        int keySpecs = 0;
        KeySpec? firstSpec = null, lastSpec = null;
        bool variable = false;
        foreach (var spec in specs)
        {
            if ((spec.Flags & F.NotKey) != 0)
                continue;
            keySpecs++;
            firstSpec ??= spec;
            lastSpec = spec;
            variable |= (spec.Flags & F.VariableFlags) != 0;
            if (spec.Begin != BeginSearch.Index || spec.Find != FindKeys.Range)
            {
                movable = true;
                continue;
            }
            if (specs.Length == 1)
            {
                first = spec.Index;
                last = spec.A < 0 ? spec.A : spec.Index + spec.A;
                step = spec.B;
                movable |= (spec.Flags & F.Incomplete) != 0;
                break;
            }
            if (spec.B != 1 || (previousLast != 0 && previousLast != spec.Index - 1))
            {
                movable = true;
                continue;
            }
            movable |= (spec.Flags & F.Incomplete) != 0;
            first = Math.Min(first, spec.Index);
            int absoluteLast = spec.A >= 0 ? spec.A + spec.Index : spec.A;
            // Redis compares unsigned: a last key counted from the end (negative) wins over any index.
            last = (uint)absoluteLast > (uint)last ? absoluteLast : last;
            previousLast = last;
        }
        if (keySpecs == 0)
            return new(0, 0, 0, false, KeyAccessSpec.NoKeys);
        if (first == int.MaxValue)
            (first, last, step, movable) = (0, 0, 0, true);
        return new(first, last, step, movable, KeyAccessSpec.From(firstSpec!.Access, lastSpec!.Access, variable));
    }

    /// <summary>Positions declared as they are (a custom command's).</summary>
    public static KeyPositions Declared(int firstKey, int lastKey, int step, bool movable, KeyAccessSpec access)
        => new(firstKey, lastKey, step, movable, access);

    /// <summary>
    /// Specs for a command registered at run time (a custom command), from its key positions and access: an index and
    /// a range (two specs when the first key's access differs), or for movable keys one unknown spec flagged incomplete.
    /// </summary>
    public static KeySpec[] SpecsOf(int firstKey, int lastKey, int step, bool movable, KeyAccessSpec access)
    {
        if (movable)
            return [KeySpec.Unknown(FlagsOf(access.First, access.VariesWithArguments) | F.Incomplete, null)];
        if (firstKey <= 0)
            return [];
        step = Math.Max(1, step);
        int relativeLast = lastKey < 0 ? lastKey : lastKey - firstKey;
        if (access.First == access.Rest || relativeLast == 0)
            return [KeySpec.At(FlagsOf(access.First, access.VariesWithArguments), firstKey, relativeLast, step)];
        return
        [
            KeySpec.At(FlagsOf(access.First, access.VariesWithArguments), firstKey, 0, step),
            KeySpec.At(FlagsOf(access.Rest, access.VariesWithArguments), firstKey + step, lastKey < 0 ? lastKey : relativeLast - step, step),
        ];
    }

    /// <summary>Redis's flags for a key of <paramref name="access"/>: RO access, RW update, RW access update, or RO.</summary>
    private static F FlagsOf(KeyAccess access, bool variable)
    {
        var flags = access switch
        {
            KeyAccess.Read => KeySpecFlagSets.RoAccess,
            KeyAccess.Write => KeySpecFlagSets.RwUpdate,
            KeyAccess.ReadWrite => KeySpecFlagSets.RwAccessUpdate,
            _ => F.RO,
        };
        return variable ? flags | F.VariableFlags : flags;
    }
}
