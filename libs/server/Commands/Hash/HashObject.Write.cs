using System;
using System.Buffers.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>The hash commands that change the hash (run exclusively).</summary>
public sealed partial class HashObject
{
    /// <summary>HSET / HMSET key field value [field value ...]: the session checked the pairs.</summary>
    private void HSet(ref ObjectInput input, ref ObjectOutput output)
    {
        ConvertForArguments(ref input, 0);
        int added = 0;
        for (int i = 0; i + 1 < input.ArgCount; i += 2)
        {
            if (Set(input.Arg(i), input.Arg(i + 1).ToArray()))
                added++;
        }
        ConvertIfTooMany(input.Limits);
        if (input.Command == RespCommand.HMSET)
            output.Writer.WriteOk();
        else
            output.Writer.WriteInteger(added);
    }

    /// <summary>HSETNX key field value.</summary>
    private void HSetNx(ref ObjectInput input, ref ObjectOutput output)
    {
        var field = input.Arg(0);
        int hash = HashOf(field);
        if (Find(field, hash) >= 0)
        {
            output.Writer.WriteInteger(0);
            return;
        }
        ConvertForArguments(ref input, 0);
        Add(field.ToArray(), input.Arg(1).ToArray(), hash);
        ConvertIfTooMany(input.Limits);
        output.Writer.WriteInteger(1);
    }

    /// <summary>HDEL key field [field ...].</summary>
    private void HDel(ref ObjectInput input, ref ObjectOutput output)
    {
        int removed = 0;
        for (int i = 0; i < input.ArgCount; i++)
        {
            if (Remove(input.Arg(i)))
                removed++;
        }
        output.Writer.WriteInteger(removed);
    }

    /// <summary>HINCRBY key field increment: the session parsed the increment into <see cref="ObjectInput.Number"/>.</summary>
    private void HIncrBy(ref ObjectInput input, ref ObjectOutput output)
    {
        var field = input.Arg(0);
        int hash = HashOf(field);
        int index = Find(field, hash);
        long current = 0;
        if (index >= 0 && !NumberFormat.TryParseLong(_entries[index].Value, out current))
        {
            output.Writer.WriteError(HashStrings.ErrHashValueNotInteger);
            return;
        }
        long increment = input.Number;
        if ((increment < 0 && current < 0 && increment < long.MinValue - current)
            || (increment > 0 && current > 0 && increment > long.MaxValue - current))
        {
            output.Writer.WriteError(RespStrings.ErrOverflow);
            return;
        }
        long result = current + increment;
        Span<byte> text = stackalloc byte[20];
        Utf8Formatter.TryFormat(result, text, out int length);
        var value = text.Slice(0, length).ToArray();
        ConvertForField(field, value, input.Limits);
        if (index >= 0)
            SetValueAt(index, value);
        else
            Add(field.ToArray(), value, hash);
        ConvertIfTooMany(input.Limits);
        output.Writer.WriteInteger(result);
    }

    /// <summary>
    /// HINCRBYFLOAT key field increment: computed in long double precision and stored (and replied) in
    /// Redis's "%.17Lf" human form, as INCRBYFLOAT does. The session validated the increment.
    /// </summary>
    private void HIncrByFloat(ref ObjectInput input, ref ObjectOutput output)
    {
        if (!LongDouble.TryParse(input.Arg(1), out var increment))
            throw new InvalidOperationException("HINCRBYFLOAT increment was not validated.");
        var field = input.Arg(0);
        int hash = HashOf(field);
        int index = Find(field, hash);
        var current = LongDouble.Zero;
        if (index >= 0 && !LongDouble.TryParse(_entries[index].Value, out current))
        {
            output.Writer.WriteError(HashStrings.ErrHashValueNotFloat);
            return;
        }
        var result = current + increment;
        if (!result.IsFinite)
        {
            output.Writer.WriteError(RespStrings.ErrIncrFloatNaNOrInfinity);
            return;
        }
        var value = System.Text.Encoding.ASCII.GetBytes(result.ToHumanString());
        ConvertForField(field, value, input.Limits);
        if (index >= 0)
            SetValueAt(index, value);
        else
            Add(field.ToArray(), value, hash);
        ConvertIfTooMany(input.Limits);
        output.Writer.WriteBulk(value);
    }
}
