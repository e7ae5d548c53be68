using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using Garnet.server;

namespace Garnet.test.Extensions;

/// <summary>A small dictionary object type (TYPE "mydict").</summary>
internal sealed class DictFactory : CustomObjectFactory
{
    public static readonly DictFactory Instance = new();

    public override string TypeName => "mydict";

    public override CustomObject Create() => new DictObject(this);

    public override CustomObject Deserialize(BinaryReader reader)
    {
        var obj = new DictObject(this);
        int count = reader.ReadInt32();
        for (int i = 0; i < count; i++)
            obj.Set(reader.ReadString(), reader.ReadBytes(reader.ReadInt32()));
        return obj;
    }
}

internal sealed class DictObject(CustomObjectFactory factory) : CustomObject(factory)
{
    private readonly Dictionary<string, byte[]> _fields = [];

    public override long Count => _fields.Count;

    public bool TryGet(string field, out byte[] value) => _fields.TryGetValue(field, out value!);

    public void Set(string field, byte[] value)
    {
        _fields[field] = value;
        SetHeapSize(64 + (_fields.Count * 48));
    }

    public bool Remove(string field) => _fields.Remove(field);

    public override GarnetObject Clone()
    {
        var copy = new DictObject(DictFactory.Instance);
        foreach (var (field, value) in _fields)
            copy.Set(field, (byte[])value.Clone());
        return copy;
    }

    public override void Serialize(BinaryWriter writer)
    {
        writer.Write(_fields.Count);
        foreach (var (field, value) in _fields)
        {
            writer.Write(field);
            writer.Write(value.Length);
            writer.Write(value);
        }
    }
}

/// <summary>MYDICTSET key field value: replies 1 when the field is new, else 0.</summary>
internal sealed class DictSet : CustomObjectCommand
{
    public override string Name => "MYDICTSET";
    public override int Arity => 4;
    public override CustomObjectFactory Factory => DictFactory.Instance;

    public override void Operate(CustomObject obj, CustomArgs args, ICustomReply reply)
    {
        var dict = (DictObject)obj;
        bool isNew = !dict.TryGet(args.String(0), out _);
        dict.Set(args.String(0), args.Bytes(1));
        reply.WriteInteger(isNew ? 1 : 0);
    }
}

/// <summary>MYDICTDEL key field: replies 1 when removed (the key goes with its last field).</summary>
internal sealed class DictDel : CustomObjectCommand
{
    public override string Name => "MYDICTDEL";
    public override int Arity => 3;
    public override CustomObjectFactory Factory => DictFactory.Instance;

    public override void Operate(CustomObject obj, CustomArgs args, ICustomReply reply) => reply.WriteInteger(((DictObject)obj).Remove(args.String(0)) ? 1 : 0);
}

/// <summary>MYDICTGET key field: the value or nil.</summary>
internal sealed class DictGet : CustomObjectCommand
{
    public override string Name => "MYDICTGET";
    public override int Arity => 3;
    public override CommandFlags Flags => CommandFlags.ReadOnly;
    public override CustomObjectFactory Factory => DictFactory.Instance;

    public override void Operate(CustomObject obj, CustomArgs args, ICustomReply reply)
    {
        if (((DictObject)obj).TryGet(args.String(0), out var value))
            reply.WriteBulk(value);
        else
            reply.WriteNull();
    }
}
