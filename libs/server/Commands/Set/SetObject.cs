using System;
using System.IO;

namespace Garnet.server;

/// <summary>A set value. (Skeleton: the Set family replaces this with its data structure and commands.)</summary>
public sealed class SetObject : GarnetObject
{
    public override GarnetObjectType Type => GarnetObjectType.Set;

    public override long Count => 0;

    public override void Operate(ref ObjectInput input, ref ObjectOutput output)
        => throw new NotSupportedException($"{input.Command} is not implemented yet.");

    public override GarnetObject Clone() => new SetObject();

    public override void Serialize(BinaryWriter writer) => writer.Write(0);

    /// <summary>Reads an object written by <see cref="Serialize"/>.</summary>
    public static SetObject Deserialize(BinaryReader reader)
    {
        reader.ReadInt32();
        return new SetObject();
    }
}
