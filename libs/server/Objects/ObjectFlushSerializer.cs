using System;
using System.IO;
using System.Text;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Serializes the objects of a database's flushed object records into the store's object log. An
/// entry is the object's type byte followed by its <see cref="GarnetObject.Serialize"/> bytes (the
/// same bytes DUMP carries); the record notes the entry's address, so the flushed page leads to it.
/// The engine runs flushes one at a time on one thread, so the writer is reused without locking.
/// </summary>
public sealed class ObjectFlushSerializer : IObjectSerializer
{
    private readonly ObjectTable _objects;
    private BinaryWriter? _writer;
    private Stream? _writerStream;

    public ObjectFlushSerializer(ObjectTable objects) => _objects = objects;

    /// <inheritdoc/>
    public void Serialize(ref LogRecord record, ObjectLogWriter objectLog)
    {
        long address = 0;
        int handle = ObjectRecord.Handle(in record);
        var obj = handle == 0 ? null : _objects.TryGet(handle);
        if (obj != null)
        {
            obj.EnterSerialization();
            try
            {
                // Released (and the handle maybe reused) between the two reads: the record owns nothing.
                if (ObjectRecord.Handle(in record) == handle)
                {
                    address = objectLog.BeginEntry();
                    var writer = WriterFor(objectLog.Stream);
                    writer.Write((byte)obj.Type);
                    obj.Serialize(writer);
                    writer.Flush();
                    objectLog.EndEntry();
                }
            }
            finally
            {
                obj.ExitSerialization();
            }
        }
        // Always written, so a record copied from a flushed one does not carry its source's address.
        ObjectRecord.SetObjectLogAddress(ref record, address);
    }

    /// <inheritdoc/>
    /// <remarks>
    /// The object gets a handle of its own, counted in the heap size like any object, until the operation is done
    /// (<see cref="ReleaseReadBack"/>) or an update takes it over for its new record.
    /// </remarks>
    public bool OnReadBack(ref LogRecord copy, ObjectLog? objectLog, bool load)
    {
        ObjectRecord.SetHandle(ref copy, 0);
        if (!load)
            return true;
        long address = ObjectRecord.ObjectLogAddress(in copy);
        if (objectLog == null || address == 0)
            return false;
        GarnetObject obj;
        try
        {
            obj = Deserialize(objectLog.ReadEntry(address));
        }
        catch (Exception e) when (e is TsavoriteException or InvalidDataException or EndOfStreamException or ArgumentOutOfRangeException)
        {
            return false;
        }
        ObjectRecord.SetHandle(ref copy, _objects.Add(obj));
        return true;
    }

    /// <inheritdoc/>
    public void ReleaseReadBack(ref LogRecord copy) => _objects.Release(in copy);

    private BinaryWriter WriterFor(Stream stream)
    {
        if (!ReferenceEquals(stream, _writerStream))
        {
            _writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true);
            _writerStream = stream;
        }
        return _writer!;
    }

    /// <summary>Reads back an object from the bytes of its object log entry.</summary>
    public static GarnetObject Deserialize(byte[] entry)
    {
        ArgumentNullException.ThrowIfNull(entry);
        if (entry.Length == 0)
            throw new InvalidDataException("An object log entry is empty.");
        using var reader = new BinaryReader(new MemoryStream(entry, 1, entry.Length - 1, writable: false));
        return GarnetObjectFactory.Deserialize((GarnetObjectType)entry[0], reader);
    }
}
