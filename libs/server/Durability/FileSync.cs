using System;
using System.IO;
using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace Garnet.server;

/// <summary>
/// Makes a file's written bytes durable. On Linux with fdatasync, as Redis does for its AOF: the data and the metadata
/// needed to read it back (the size), not the times a full fsync also writes — which saves a journal write per commit.
/// Elsewhere through the runtime's full flush.
/// </summary>
internal static partial class FileSync
{
    public static void DataSync(FileStream file)
    {
        if (OperatingSystem.IsLinux())
        {
            bool added = false;
            SafeFileHandle handle = file.SafeFileHandle;
            try
            {
                handle.DangerousAddRef(ref added);
                if (fdatasync((int)handle.DangerousGetHandle()) == 0)
                    return;
                int errno = Marshal.GetLastPInvokeError();
                throw new IOException($"fdatasync of {file.Name} failed: {Marshal.GetPInvokeErrorMessage(errno)}", errno);
            }
            finally
            {
                if (added)
                    handle.DangerousRelease();
            }
        }
        file.Flush(flushToDisk: true);
    }

    /// <summary>
    /// Makes a directory's entries durable (a file created in it): on Linux an fsync of the directory, without which a
    /// power cut may lose the new file however synced its data is. Elsewhere nothing (the runtime has no way to).
    /// </summary>
    public static void SyncDirectory(string path)
    {
        if (!OperatingSystem.IsLinux())
            return;
        const int ReadOnlyDirectory = 0x10000; // O_RDONLY | O_DIRECTORY
        int fd = open(path, ReadOnlyDirectory);
        if (fd < 0)
        {
            int errno = Marshal.GetLastPInvokeError();
            throw new IOException($"cannot open the directory {path}: {Marshal.GetPInvokeErrorMessage(errno)}", errno);
        }
        try
        {
            if (fsync(fd) != 0)
            {
                int errno = Marshal.GetLastPInvokeError();
                throw new IOException($"fsync of the directory {path} failed: {Marshal.GetPInvokeErrorMessage(errno)}", errno);
            }
        }
        finally
        {
            close(fd);
        }
    }

    /// <summary>
    /// Makes reads and writes of <paramref name="handle"/> bypass the page cache (O_DIRECT on Linux), so large sequential writes cost
    /// no copy through it; false when the file system or the platform refuses (writes then go through the cache). Reads and writes
    /// must then be of aligned buffers, offsets and lengths (<see cref="DirectIoAlignment"/>).
    /// </summary>
    public static bool TryDirectIo(SafeFileHandle handle)
    {
        if (!OperatingSystem.IsLinux() || System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture is not (Architecture.X64 or Architecture.Arm64))
            return false;
        const int GetFlags = 3, SetFlags = 4;
        // O_DIRECT: 0x4000 on x86-64, 0x10000 on arm64.
        int direct = System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 0x4000 : 0x10000;
        bool added = false;
        try
        {
            handle.DangerousAddRef(ref added);
            int fd = (int)handle.DangerousGetHandle();
            int flags = fcntl(fd, GetFlags, 0);
            return flags >= 0 && fcntl(fd, SetFlags, flags | direct) == 0;
        }
        finally
        {
            if (added)
                handle.DangerousRelease();
        }
    }

    /// <summary>The alignment of buffers, offsets and lengths that reads and writes after <see cref="TryDirectIo"/> keep.</summary>
    public const int DirectIoAlignment = 4096;

    [LibraryImport("libc", SetLastError = true)]
    private static partial int fcntl(int fd, int command, int argument);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int fdatasync(int fd);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int fsync(int fd);

    [LibraryImport("libc", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int open(string path, int flags);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int close(int fd);
}
