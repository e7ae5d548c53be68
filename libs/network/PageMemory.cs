using System;
using System.Runtime.InteropServices;

namespace Garnet.networking;

/// <summary>
/// Memory taken straight from the operating system and given straight back: on Linux an anonymous mapping, whose pages
/// cost nothing until written and leave the process the moment it is unmapped. A slow reader's held replies can reach
/// the output limit; with managed or malloc'd memory the process would keep that high-water mark after the client
/// is gone.
/// </summary>
internal static unsafe partial class PageMemory
{
    private const int PROT_READ = 0x1;
    private const int PROT_WRITE = 0x2;
    private const int MAP_PRIVATE = 0x02;
    private const int MAP_ANONYMOUS = 0x20;

    /// <summary>Allocates <paramref name="length"/> bytes (a multiple of the page size is best); null if the system has none.</summary>
    public static byte* Allocate(nuint length)
    {
        if (!OperatingSystem.IsLinux())
            return (byte*)NativeMemory.Alloc(length);
        void* address = mmap(null, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return address == (void*)-1 ? null : (byte*)address;
    }

    /// <summary>Gives back memory from <see cref="Allocate"/> of the same length.</summary>
    public static void Free(byte* address, nuint length)
    {
        if (!OperatingSystem.IsLinux())
        {
            NativeMemory.Free(address);
            return;
        }
        _ = munmap(address, length);
    }

    [LibraryImport("libc", SetLastError = true)]
    private static partial void* mmap(void* address, nuint length, int protection, int flags, int fd, nint offset);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int munmap(void* address, nuint length);
}
