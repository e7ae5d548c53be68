using System;

namespace Tsavorite;

/// <summary>
/// A record could not be read back from the log device: the operation that needed it failed and changed nothing.
/// The store and the session stay usable.
/// </summary>
public sealed class DeviceReadException : Exception
{
    /// <summary>Creates the exception for the read at <paramref name="address"/> that failed with <paramref name="errorCode"/>.</summary>
    public DeviceReadException(long address, uint errorCode)
        : base($"Reading the record at log address {address} from the log device failed with error {errorCode}.")
    {
        Address = address;
        ErrorCode = errorCode;
    }

    /// <summary>The log address whose record could not be read.</summary>
    public long Address { get; }

    /// <summary>The device's errno-like error code.</summary>
    public uint ErrorCode { get; }
}
