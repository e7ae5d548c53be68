using System;
using System.Buffers.Binary;
using System.Collections.Generic;

namespace Garnet.server.Scripting;

/// <summary>
/// FUNCTION DUMP's payload, in the framing of key DUMP payloads (<see cref="DumpPayload"/>: a type byte,
/// the value, the format version and a CRC-64) with its own type byte. The value is the libraries'
/// code, which is all a library is made from (RESTORE runs it again to learn its functions):
/// <code>
/// [library count, 4 bytes LE] then per library [code length, 4 bytes LE][code bytes]
/// </code>
/// </summary>
internal static class FunctionDumpPayload
{
    /// <summary>The type byte of a payload of function libraries (key payloads use 0-4 and 63).</summary>
    public const byte LibrariesType = 0x46;

    /// <summary>The payload holding <paramref name="libraries"/>' code.</summary>
    public static byte[] Write(FunctionLibrary[] libraries)
    {
        int valueLength = sizeof(int);
        foreach (var library in libraries)
            valueLength += sizeof(int) + library.Code.Length;
        var payload = new byte[DumpPayload.Length(valueLength)];
        payload[0] = LibrariesType;
        var value = payload.AsSpan(1, valueLength);
        BinaryPrimitives.WriteInt32LittleEndian(value, libraries.Length);
        int at = sizeof(int);
        foreach (var library in libraries)
        {
            BinaryPrimitives.WriteInt32LittleEndian(value.Slice(at), library.Code.Length);
            library.Code.CopyTo(value.Slice(at + sizeof(int)));
            at += sizeof(int) + library.Code.Length;
        }
        DumpPayload.WriteTrailer(LibrariesType, value, payload.AsSpan(1 + valueLength));
        return payload;
    }

    /// <summary>
    /// Reads the library codes of <paramref name="payload"/>; false with the error reply when its
    /// version or checksum is wrong, it holds something else, or it is cut short.
    /// </summary>
    public static bool TryRead(ReadOnlySpan<byte> payload, out List<byte[]> codes, out string? error)
    {
        codes = new List<byte[]>();
        if (!DumpPayload.TryRead(payload, out byte type, out var value))
        {
            error = System.Text.Encoding.ASCII.GetString(KeyspaceStrings.ErrDumpPayload);
            return false;
        }
        if (type != LibrariesType)
        {
            error = "ERR given type is not a function";
            return false;
        }
        error = "ERR failed loading the given functions payload";
        if (value.Length < sizeof(int))
            return false;
        int count = BinaryPrimitives.ReadInt32LittleEndian(value);
        int at = sizeof(int);
        for (int i = 0; i < count; i++)
        {
            if (value.Length - at < sizeof(int))
                return false;
            int length = BinaryPrimitives.ReadInt32LittleEndian(value.Slice(at));
            at += sizeof(int);
            if (length < 0 || length > value.Length - at)
                return false;
            codes.Add(value.Slice(at, length).ToArray());
            at += length;
        }
        if (at != value.Length)
            return false;
        error = null;
        return true;
    }
}
