using System;
using System.Buffers.Binary;
using System.IO;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The format of DUMP payloads (our own, not Redis's RDB encoding), shared by every value type:
/// <code>
/// [type 1 byte][value bytes][format version 2 bytes, little-endian][CRC-64 of all the bytes before, 8 bytes, little-endian]
/// </code>
/// A custom object's type byte is <see cref="CustomObjectType"/> and its value bytes begin with its type name.
/// The CRC is <see cref="Crc64"/> (Jones, as Redis uses). RESTORE accepts every version up to
/// <see cref="Version"/>, so a newer server can read what an older one dumped.
/// </summary>
internal static class DumpPayload
{
    /// <summary>Type byte of a string value: the value bytes as they are. Objects use their <see cref="GarnetObjectType"/> value (1-4) and <see cref="GarnetObject.Serialize"/> bytes.</summary>
    public const byte StringType = 0;

    /// <summary>The format version this server writes.</summary>
    public const ushort Version = 1;

    /// <summary>Bytes after the value: version and CRC.</summary>
    public const int TrailerLength = sizeof(ushort) + sizeof(ulong);

    /// <summary>Bytes of a payload holding a value of <paramref name="valueLength"/> bytes.</summary>
    public static long Length(int valueLength) => 1L + valueLength + TrailerLength;

    /// <summary>Fills <paramref name="trailer"/> (<see cref="TrailerLength"/> bytes) for a payload of <paramref name="type"/> and <paramref name="value"/>.</summary>
    public static void WriteTrailer(byte type, ReadOnlySpan<byte> value, Span<byte> trailer)
    {
        BinaryPrimitives.WriteUInt16LittleEndian(trailer, Version);
        ulong crc = Crc64.Update(0, new ReadOnlySpan<byte>(in type));
        crc = Crc64.Update(crc, value);
        crc = Crc64.Update(crc, trailer.Slice(0, sizeof(ushort)));
        BinaryPrimitives.WriteUInt64LittleEndian(trailer.Slice(sizeof(ushort)), crc);
    }

    /// <summary>
    /// Type byte of a custom object (Extensions): its value bytes start with the type's name (a length
    /// byte and UTF-8), because the type bytes servers assign to custom types depend on load order.
    /// </summary>
    public const byte CustomObjectType = 63;

    /// <summary>The payload type byte of <paramref name="obj"/>.</summary>
    public static byte TypeOf(GarnetObject obj)
        => obj is CustomObject ? CustomObjectType : (byte)obj.Type;

    /// <summary>An object's value bytes in a payload: its <see cref="GarnetObject.Serialize"/> output, after its type name for a custom object.</summary>
    public static byte[] SerializeObject(GarnetObject obj)
    {
        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream, System.Text.Encoding.UTF8, leaveOpen: true))
        {
            if (obj is CustomObject)
            {
                byte[] name = System.Text.Encoding.UTF8.GetBytes(CustomObjectTypes.Factory(obj.Type)!.TypeName);
                writer.Write((byte)name.Length);
                writer.Write(name);
            }
            obj.Serialize(writer);
        }
        return stream.ToArray();
    }

    /// <summary>
    /// Reads an object of payload type <paramref name="type"/> (a <see cref="GarnetObjectType"/>);
    /// false for an unknown type, malformed bytes, trailing bytes or an empty collection.
    /// </summary>
    public static bool TryDeserializeObject(byte type, ReadOnlySpan<byte> value, out GarnetObject? obj)
    {
        obj = null;
        if (type is not CustomObjectType and (< (byte)GarnetObjectType.List or > (byte)GarnetObjectType.Stream))
            return false;
        try
        {
            using var stream = new MemoryStream(value.ToArray(), writable: false);
            using var reader = new BinaryReader(stream);
            if (type == CustomObjectType)
            {
                // A type this server has not registered cannot be read.
                string name = System.Text.Encoding.UTF8.GetString(reader.ReadBytes(reader.ReadByte()));
                var factory = CustomObjectTypes.FactoryByName(name);
                if (factory == null)
                    return false;
                obj = factory.Deserialize(reader);
            }
            else
            {
                obj = GarnetObjectFactory.Deserialize((GarnetObjectType)type, reader);
            }
            if (stream.Position != stream.Length || obj.Count == 0)
            {
                obj = null;
                return false;
            }
            return true;
        }
        catch (Exception e) when (e is EndOfStreamException or InvalidDataException or ArgumentException or OverflowException or OutOfMemoryException or FormatException)
        {
            obj = null;
            return false;
        }
    }

    /// <summary>
    /// Checks the version and CRC of <paramref name="payload"/>; on success gives its type byte and value.
    /// </summary>
    public static bool TryRead(ReadOnlySpan<byte> payload, out byte type, out ReadOnlySpan<byte> value)
    {
        type = 0;
        value = default;
        if (payload.Length < 1 + TrailerLength)
            return false;
        int body = payload.Length - sizeof(ulong);
        ushort version = BinaryPrimitives.ReadUInt16LittleEndian(payload.Slice(body - sizeof(ushort)));
        if (version == 0 || version > Version)
            return false;
        if (Crc64.Compute(payload.Slice(0, body)) != BinaryPrimitives.ReadUInt64LittleEndian(payload.Slice(body)))
            return false;
        type = payload[0];
        value = payload.Slice(1, payload.Length - 1 - TrailerLength);
        return true;
    }
}
