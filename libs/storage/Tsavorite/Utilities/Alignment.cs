using System.Runtime.CompilerServices;

namespace Tsavorite;

internal static class Alignment
{
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int RoundUp(int value, int alignment) => (value + alignment - 1) & ~(alignment - 1);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long RoundUp(long value, long alignment) => (value + alignment - 1) & ~(alignment - 1);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long RoundDown(long value, long alignment) => value & ~(alignment - 1);
}
