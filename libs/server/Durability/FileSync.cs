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

    [LibraryImport("libc", SetLastError = true)]
    private static partial int fdatasync(int fd);
}
