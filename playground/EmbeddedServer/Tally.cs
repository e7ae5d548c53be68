using System.Collections.Generic;
using System.IO;
using Garnet.server;

namespace EmbeddedServer;

/// <summary>The "tally" object type: a count per item, as in a vote or a word count.</summary>
public sealed class TallyFactory : CustomObjectFactory
{
    /// <summary>The factory every tally command shares.</summary>
    public static readonly TallyFactory Instance = new();

    public override string TypeName => "tally";

    public override CustomObject Create() => new Tally(this);

    public override CustomObject Deserialize(BinaryReader reader)
    {
        var tally = new Tally(this);
        int items = reader.ReadInt32();
        for (int i = 0; i < items; i++)
            tally.Add(reader.ReadString(), reader.ReadInt64());
        return tally;
    }
}

/// <summary>The counts, by item.</summary>
public sealed class Tally(CustomObjectFactory factory) : CustomObject(factory)
{
    private readonly Dictionary<string, long> _counts = [];

    public override long Count => _counts.Count;

    /// <summary>Adds <paramref name="by"/> to the item's count and returns the new count.</summary>
    public long Add(string item, long by)
    {
        _counts.TryGetValue(item, out long count);
        _counts[item] = count + by;
        SetHeapSize(64 + (_counts.Count * 64L));
        return count + by;
    }

    public long Get(string item) => _counts.TryGetValue(item, out long count) ? count : 0;

    public override GarnetObject Clone()
    {
        var copy = new Tally(TallyFactory.Instance);
        foreach (var (item, count) in _counts)
            copy.Add(item, count);
        return copy;
    }

    public override void Serialize(BinaryWriter writer)
    {
        writer.Write(_counts.Count);
        foreach (var (item, count) in _counts)
        {
            writer.Write(item);
            writer.Write(count);
        }
    }
}

/// <summary>TALLYADD key item: counts one more of the item and replies with its count.</summary>
public sealed class TallyAdd : CustomObjectCommand
{
    public override string Name => "TALLYADD";
    public override int Arity => 3;
    public override CustomObjectFactory Factory => TallyFactory.Instance;

    public override void Operate(CustomObject obj, CustomArgs args, ICustomReply reply) =>
        reply.WriteInteger(((Tally)obj).Add(args.String(0), 1));
}

/// <summary>TALLYGET key item: the item's count, 0 for an unknown item or key (read-only).</summary>
public sealed class TallyGet : CustomObjectCommand
{
    public override string Name => "TALLYGET";
    public override int Arity => 3;
    public override CommandFlags Flags => CommandFlags.ReadOnly;
    public override CustomObjectFactory Factory => TallyFactory.Instance;

    public override void Operate(CustomObject obj, CustomArgs args, ICustomReply reply) =>
        reply.WriteInteger(((Tally)obj).Get(args.String(0)));
}
