using System;
using System.Runtime.CompilerServices;

namespace Garnet.server;

/// <summary>One argument of a command: a pointer into the receive buffer and a length.</summary>
public readonly unsafe struct ArgSlice
{
    /// <summary>First byte of the argument.</summary>
    public readonly byte* Pointer;

    /// <summary>Length in bytes.</summary>
    public readonly int Length;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ArgSlice(byte* pointer, int length)
    {
        Pointer = pointer;
        Length = length;
    }

    /// <summary>The argument's bytes.</summary>
    public ReadOnlySpan<byte> Span
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => new(Pointer, Length);
    }

    /// <summary>Whether the argument equals <paramref name="upperCaseLiteral"/> ignoring ASCII case.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool EqualsUpper(ReadOnlySpan<byte> upperCaseLiteral)
    {
        if (Length != upperCaseLiteral.Length)
            return false;
        for (int i = 0; i < Length; i++)
        {
            byte c = Pointer[i];
            if (c >= 'a' && c <= 'z')
                c -= 32;
            if (c != upperCaseLiteral[i])
                return false;
        }
        return true;
    }

    /// <summary>The argument as text (for error messages and administrative commands, not hot paths).</summary>
    public override string ToString() => System.Text.Encoding.UTF8.GetString(Pointer, Length);
}
