using System;
using System.Net.Sockets;
using System.Runtime.InteropServices;

namespace Garnet.networking.Linux;

/// <summary>
/// The few Linux system calls the epoll transport makes directly: epoll itself, an eventfd to wake a loop, and
/// non-blocking recv/send on a connection's descriptor.
/// </summary>
internal static unsafe partial class LinuxSockets
{
    private const string Libc = "libc";

    public const uint EPOLLIN = 0x001;
    public const uint EPOLLOUT = 0x004;
    public const uint EPOLLERR = 0x008;
    public const uint EPOLLHUP = 0x010;

    private const int EPOLL_CTL_ADD = 1;
    private const int EPOLL_CTL_DEL = 2;
    private const int EPOLL_CTL_MOD = 3;
    private const int EPOLL_CLOEXEC = 0x80000;
    private const int EFD_CLOEXEC = 0x80000;
    private const int EFD_NONBLOCK = 0x800;
    private const int MSG_NOSIGNAL = 0x4000;
    private const int MSG_DONTWAIT = 0x40;

    public const int EINTR = 4;
    public const int EAGAIN = 11;

    /// <summary>
    /// Size of one <c>struct epoll_event</c>: the kernel packs it (12 bytes) on x86-64 only; elsewhere the 64-bit
    /// data field is naturally aligned (16 bytes).
    /// </summary>
    public static readonly int EventSize = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 12 : 16;

    /// <summary>Offset of the 64-bit data field inside one event.</summary>
    private static readonly int DataOffset = RuntimeInformation.ProcessArchitecture == Architecture.X64 ? 4 : 8;

    public static uint EventMask(byte* events, int index) => *(uint*)(events + index * EventSize);

    public static ulong EventData(byte* events, int index) => *(ulong*)(events + index * EventSize + DataOffset);

    public static int CreateEpoll()
    {
        var fd = epoll_create1(EPOLL_CLOEXEC);
        if (fd < 0)
            throw LastError();
        return fd;
    }

    public static int CreateEventFd()
    {
        var fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (fd < 0)
            throw LastError();
        return fd;
    }

    public static void Add(int epoll, int fd, uint events, ulong data) => Control(epoll, EPOLL_CTL_ADD, fd, events, data);

    public static void Modify(int epoll, int fd, uint events, ulong data) => Control(epoll, EPOLL_CTL_MOD, fd, events, data);

    /// <summary>Removes <paramref name="fd"/> from the set; a descriptor that is already gone is not an error.</summary>
    public static void Remove(int epoll, int fd)
    {
        var ev = stackalloc byte[16];
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, ev);
    }

    private static void Control(int epoll, int op, int fd, uint events, ulong data)
    {
        var ev = stackalloc byte[16];
        *(uint*)ev = events;
        *(ulong*)(ev + DataOffset) = data;
        if (epoll_ctl(epoll, op, fd, ev) != 0)
            throw LastError();
    }

    /// <summary>Waits for events; returns how many, or -1 with errno set.</summary>
    public static int Wait(int epoll, byte* events, int maxEvents) => epoll_wait(epoll, events, maxEvents, -1);

    /// <summary>Returns the events already pending, without sleeping; how many, or -1 with errno set.</summary>
    public static int Poll(int epoll, byte* events, int maxEvents) => epoll_wait(epoll, events, maxEvents, 0);

    /// <summary>Makes a loop's <see cref="Wait"/> return.</summary>
    public static void Signal(int eventFd)
    {
        ulong one = 1;
        _ = write(eventFd, &one, 8);
    }

    /// <summary>Resets an eventfd after it woke a loop.</summary>
    public static void Drain(int eventFd)
    {
        ulong value;
        _ = read(eventFd, &value, 8);
    }

    /// <summary>Receives without blocking: bytes read, 0 at end of stream, or -1 with <see cref="Errno"/> set.</summary>
    /// <remarks>
    /// Non-blocking per call (MSG_DONTWAIT) rather than by setting the socket non-blocking: .NET does that through a
    /// per-socket async context of a few hundred bytes, which every idle connection would carry.
    /// </remarks>
    public static nint Receive(int fd, byte* buffer, int count) => recv(fd, buffer, count, MSG_DONTWAIT);

    /// <summary>Sends without blocking or raising SIGPIPE: bytes accepted, or -1 with <see cref="Errno"/> set.</summary>
    public static nint Send(int fd, byte* buffer, int count) => send(fd, buffer, count, MSG_NOSIGNAL | MSG_DONTWAIT);

    /// <summary>One <see cref="Send"/> of <paramref name="bytes"/>, whatever part of them the socket takes (a refusal before closing).</summary>
    public static void SendOnce(int fd, ReadOnlySpan<byte> bytes)
    {
        fixed (byte* pointer = bytes)
            _ = send(fd, pointer, bytes.Length, MSG_NOSIGNAL | MSG_DONTWAIT);
    }

    public static void CloseDescriptor(int fd) => _ = close(fd);

    /// <summary>shutdown(2): 0, or -1 with <see cref="Errno"/> set.</summary>
    public static int Shutdown(int fd, SocketShutdown how)
        => shutdown(fd, how switch { SocketShutdown.Receive => 0, SocketShutdown.Send => 1, _ => 2 });

    public static int Errno => Marshal.GetLastPInvokeError();

    private const int SOCK_CLOEXEC = 0x80000;
    private const short POLLIN = 1;

    /// <summary>getsockname(2): the socket's local address; 0, or -1 with <see cref="Errno"/> set.</summary>
    public static int GetSockName(int fd, byte* address, int* addressLength) => getsockname(fd, address, addressLength);

    /// <summary>accept4(2), close-on-exec: the new descriptor, or -1 with <see cref="Errno"/> set.</summary>
    public static int Accept(int listenFd, byte* address, int* addressLength) => accept4(listenFd, address, addressLength, SOCK_CLOEXEC);

    /// <summary>Sleeps until <paramref name="fd"/> or <paramref name="wakeFd"/> is readable: a count, or -1 with <see cref="Errno"/> set.</summary>
    public static int PollReadable(int fd, int wakeFd)
    {
        var fds = stackalloc int[4]; // two struct pollfd: int fd; short events; short revents
        fds[0] = fd;
        fds[1] = POLLIN;
        fds[2] = wakeFd;
        fds[3] = POLLIN;
        return poll(fds, 2, -1);
    }

    /// <summary>
    /// Errors of accept4 that concern only the connection being accepted (the client reset it, or the network failed
    /// under it): Linux reports them from accept, and the next accept may well succeed.
    /// </summary>
    public static bool IsAbandonedAccept(int errno) => errno is EINTR
        or 103  // ECONNABORTED
        or 71   // EPROTO
        or 100  // ENETDOWN
        or 92   // ENOPROTOOPT
        or 112  // EHOSTDOWN
        or 64   // ENONET
        or 113  // EHOSTUNREACH
        or 95   // EOPNOTSUPP
        or 101; // ENETUNREACH

    /// <summary>Errors of accept4 that mean the process or system has run out of something (descriptors, memory).</summary>
    public static bool IsOutOfResources(int errno) => errno is 24 /* EMFILE */ or 23 /* ENFILE */ or 105 /* ENOBUFS */ or 12 /* ENOMEM */;

    /// <summary>TCP_NODELAY on: replies go out at once, as on every connection of this server.</summary>
    public static void SetNoDelay(int fd) => SetIntOption(fd, 6 /* IPPROTO_TCP */, 1 /* TCP_NODELAY */, 1);

    /// <summary>TCP keepalive with Redis's timing: probes after <paramref name="seconds"/> idle, then every third of it, three times.</summary>
    public static void SetKeepAlive(int fd, int seconds)
    {
        SetIntOption(fd, 1 /* SOL_SOCKET */, 9 /* SO_KEEPALIVE */, 1);
        SetIntOption(fd, 6, 4 /* TCP_KEEPIDLE */, seconds);
        SetIntOption(fd, 6, 5 /* TCP_KEEPINTVL */, Math.Max(1, seconds / 3));
        SetIntOption(fd, 6, 6 /* TCP_KEEPCNT */, 3);
    }

    // A failure leaves the default (the connection works without the option), as a reset connection would fail it.
    private static void SetIntOption(int fd, int level, int name, int value) => _ = setsockopt(fd, level, name, &value, sizeof(int));

    /// <summary>Maps an errno from recv/send to the <see cref="SocketError"/> the rest of the network layer classifies.</summary>
    public static SocketError ToSocketError(int errno) => errno switch
    {
        32 => SocketError.Shutdown,             // EPIPE
        103 => SocketError.ConnectionAborted,   // ECONNABORTED
        104 => SocketError.ConnectionReset,     // ECONNRESET
        107 => SocketError.NotConnected,        // ENOTCONN
        110 => SocketError.TimedOut,            // ETIMEDOUT
        9 => SocketError.OperationAborted,      // EBADF
        _ => SocketError.SocketError,
    };

    private static SocketException LastError() => new(Marshal.GetLastPInvokeError());

    [LibraryImport(Libc, SetLastError = true)]
    private static partial int epoll_create1(int flags);

    [LibraryImport(Libc, SetLastError = true)]
    private static partial int epoll_ctl(int epfd, int op, int fd, byte* ev);

    [LibraryImport(Libc, SetLastError = true)]
    private static partial int epoll_wait(int epfd, byte* events, int maxevents, int timeout);

    [LibraryImport(Libc, SetLastError = true)]
    private static partial int eventfd(uint initval, int flags);

    [LibraryImport(Libc, SetLastError = true)]
    private static partial nint recv(int fd, byte* buf, nint len, int flags);

    [LibraryImport(Libc, SetLastError = true)]
    private static partial nint send(int fd, byte* buf, nint len, int flags);

    [LibraryImport(Libc, SetLastError = true)]
    private static partial nint write(int fd, void* buf, nint count);

    [LibraryImport(Libc, SetLastError = true)]
    private static partial nint read(int fd, void* buf, nint count);

    [LibraryImport(Libc)]
    private static partial int close(int fd);

    [LibraryImport(Libc, SetLastError = true)]
    private static partial int shutdown(int fd, int how);

    [LibraryImport(Libc, SetLastError = true)]
    private static partial int accept4(int fd, byte* address, int* addressLength, int flags);

    [LibraryImport(Libc, SetLastError = true)]
    private static partial int getsockname(int fd, byte* address, int* addressLength);

    [LibraryImport(Libc, SetLastError = true)]
    private static partial int poll(int* fds, nuint count, int timeout);

    [LibraryImport(Libc, SetLastError = true)]
    private static partial int setsockopt(int fd, int level, int name, void* value, int length);
}
