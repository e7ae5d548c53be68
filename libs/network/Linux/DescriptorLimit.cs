using System;
using System.IO;
using System.Runtime.InteropServices;

namespace Garnet.networking.Linux;

/// <summary>
/// The process's limit on open file descriptors (RLIMIT_NOFILE): every connection takes one, and running out makes
/// accept fail, so a server sizes its client limit to it, as Redis does.
/// </summary>
public static unsafe partial class DescriptorLimit
{
    private const int RLIMIT_NOFILE = 7;

    /// <summary>Reads the soft (current) and hard (ceiling) limits; false where the platform has none (not Linux).</summary>
    public static bool TryGet(out long soft, out long hard)
    {
        soft = hard = 0;
        if (!OperatingSystem.IsLinux())
            return false;
        Rlimit limit;
        if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
            return false;
        soft = ToLong(limit.Current);
        hard = ToLong(limit.Maximum);
        return true;
    }

    /// <summary>Sets the soft limit (at most the hard one); returns the error number on failure, 0 on success.</summary>
    public static int TrySetSoft(long soft)
    {
        if (!TryGet(out _, out long hard))
            return -1;
        var limit = new Rlimit { Current = (ulong)soft, Maximum = hard == long.MaxValue ? ulong.MaxValue : (ulong)hard };
        return setrlimit(RLIMIT_NOFILE, &limit) == 0 ? 0 : Marshal.GetLastPInvokeError();
    }

    /// <summary>How many descriptors the process has open now (Linux: the entries of /proc/self/fd), or 0 if unknown.</summary>
    public static int OpenNow()
    {
        try
        {
            return Directory.GetFileSystemEntries("/proc/self/fd").Length;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return 0;
        }
    }

    private static long ToLong(ulong value) => value > long.MaxValue ? long.MaxValue : (long)value;

    [StructLayout(LayoutKind.Sequential)]
    private struct Rlimit
    {
        public ulong Current;
        public ulong Maximum;
    }

    [LibraryImport("libc", SetLastError = true)]
    private static partial int getrlimit(int resource, Rlimit* limit);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int setrlimit(int resource, Rlimit* limit);
}
