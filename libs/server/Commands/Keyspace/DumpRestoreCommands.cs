using System;
using System.Buffers.Text;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>DUMP and RESTORE, in the format of <see cref="DumpPayload"/>.</summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>DUMP key: the serialized value (without its expiration), or nil.</summary>
    private void Dump()
    {
        var output = default(StringOutput);
        if (!ReadKey(_args[1].Span, RespCommand.DUMP, ref output).Found)
        {
            _writer.WriteNull();
            return;
        }
        byte type = DumpPayload.StringType;
        var value = Output.Span;
        if (output.ObjectType != GarnetObjectType.None)
        {
            if (ReadObjectSnapshot(_args[1].Span, GarnetObjectType.None, out var obj) != ObjectResult.Ok || obj == null)
            {
                _writer.WriteNull();
                return;
            }
            type = DumpPayload.TypeOf(obj);
            value = DumpPayload.SerializeObject(obj);
        }
        Span<byte> trailer = stackalloc byte[DumpPayload.TrailerLength];
        DumpPayload.WriteTrailer(type, value, trailer);

        // The bulk string is written in pieces so the value is not copied once more.
        Span<byte> header = stackalloc byte[24];
        header[0] = (byte)'$';
        Utf8Formatter.TryFormat(DumpPayload.Length(value.Length), header.Slice(1), out int digits);
        header[1 + digits] = (byte)'\r';
        header[2 + digits] = (byte)'\n';
        header[3 + digits] = type;
        _writer.WriteRaw(header.Slice(0, 4 + digits));
        _writer.WriteRaw(value);
        _writer.WriteRaw(trailer);
        _writer.WriteRaw("\r\n"u8);
    }

    /// <summary>
    /// RESTORE key ttl serialized-value [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency]. The
    /// checks come in Redis's order: options, existing key, TTL, payload. IDLETIME sets the key's last
    /// access under an LRU (or non-evicting) policy and FREQ its counter under an LFU one, as OBJECT
    /// IDLETIME and FREQ then report; each is ignored under the other kind of policy. A restored list,
    /// hash, set or sorted set gets the encoding its contents call for, as Redis decides when loading.
    /// </summary>
    private void Restore()
    {
        bool replace = false;
        bool absoluteTtl = false;
        bool hasIdleTime = false;
        bool hasFrequency = false;
        long idle = 0;
        long frequency = 0;
        for (int i = 4; i < _argCount; i++)
        {
            ref readonly var option = ref _args[i];
            bool hasValue = i + 1 < _argCount;
            if (option.EqualsUpper("REPLACE"u8))
            {
                replace = true;
            }
            else if (option.EqualsUpper("ABSTTL"u8))
            {
                absoluteTtl = true;
            }
            else if (option.EqualsUpper("IDLETIME"u8) && hasValue && !hasFrequency)
            {
                if (!NumberFormat.TryParseLong(_args[++i].Span, out idle))
                {
                    _writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (idle < 0)
                {
                    _writer.WriteError(KeyspaceStrings.ErrInvalidIdleTime);
                    return;
                }
                hasIdleTime = true;
            }
            else if (option.EqualsUpper("FREQ"u8) && hasValue && !hasIdleTime)
            {
                if (!NumberFormat.TryParseLong(_args[++i].Span, out frequency))
                {
                    _writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (frequency < 0 || frequency > 255)
                {
                    _writer.WriteError(KeyspaceStrings.ErrInvalidFreq);
                    return;
                }
                hasFrequency = true;
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }

        var key = _args[1].Span;
        if (!replace && KeyExists(key))
        {
            _writer.WriteError(KeyspaceStrings.ErrBusyKey);
            return;
        }
        if (!NumberFormat.TryParseLong(_args[2].Span, out long ttl))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        if (ttl < 0)
        {
            _writer.WriteError(KeyspaceStrings.ErrInvalidTtl);
            return;
        }
        if (!DumpPayload.TryRead(_args[3].Span, out byte type, out var value))
        {
            _writer.WriteError(KeyspaceStrings.ErrDumpPayload);
            return;
        }
        GarnetObject? obj = null;
        if (type != DumpPayload.StringType && !DumpPayload.TryDeserializeObject(type, value, out obj))
        {
            _writer.WriteError(KeyspaceStrings.ErrBadDataFormat);
            return;
        }

        long expiresAt = 0;
        if (ttl != 0)
        {
            if (!Expiration.TryFromArgument(ttl, milliseconds: true, absoluteTtl, out expiresAt))
            {
                _writer.WriteError("ERR invalid expire time in 'restore' command"u8);
                return;
            }
            if (expiresAt <= Expiration.NowUnixMs)
            {
                // Already expired: the key ends up absent, as if restored and expired at once.
                if (replace)
                {
                    var deleted = Store.Delete(key);
                    if (WriteIfOutOfMemory(deleted))
                        return;
                    if (deleted.Found)
                        NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.Del, key);
                }
                _writer.WriteOk();
                return;
            }
        }

        obj?.DecideEncoding(_server.Options.EncodingThresholds);
        bool lfu = Store.Store.Budget.TracksFrequency;
        long accessWord = hasFrequency && lfu ? RecordAccess.ForFrequency((int)frequency)
            : hasIdleTime && !lfu ? RecordAccess.ForIdleSeconds(idle)
            : -1;
        var written = obj != null
            ? InstallObject(ObjectStore, key, obj, expiresAt, replace, accessWord)
            : WriteValue(Store, key, value, expiresAt, replace, accessWord: accessWord);
        if (obj != null && written == CopyResult.Written)
            NotifyObjectInstalled(_databaseIndex, key, obj);
        switch (written)
        {
            case CopyResult.OutOfMemory:
                _writer.WriteError(RespStrings.ErrOutOfMemory);
                break;
            case CopyResult.DestinationExists:
                _writer.WriteError(KeyspaceStrings.ErrBusyKey);
                break;
            default:
                if (written == CopyResult.Written)
                {
                    NotifyAdded(_databaseIndex, key); // Redis adds the key (after deleting one REPLACE replaces): "new"
                    NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.Restore, key);
                }
                _writer.WriteOk();
                break;
        }
    }
}
