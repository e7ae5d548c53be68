using System.Collections.Generic;
using System.IO;
using System.Text;
using Garnet.common;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.List;

/// <summary>The <see cref="ListObject"/> itself: serialization, copies, heap size and the contracts other families use.</summary>
[TestFixture]
public sealed class ListObjectTests
{
    private static List<byte[]> Elements(params string[] values)
    {
        var list = new List<byte[]>();
        foreach (var value in values)
            list.Add(Encoding.Latin1.GetBytes(value));
        return list;
    }

    private static List<string> Contents(ListObject list)
    {
        var elements = new List<byte[]>();
        list.CopyElementsTo(elements);
        return elements.ConvertAll(e => Encoding.Latin1.GetString(e));
    }

    /// <summary>Runs a command with no arguments after the key on <paramref name="list"/>; returns the reply text.</summary>
    private static string Run(ListObject list, RespCommand command, ref ObjectOutput output, byte[]? element = null, long number = 0, int flags = 0)
    {
        using var buffer = new ReplyBuffer();
        var input = new ObjectInput(command, GarnetObjectType.List, System.Array.Empty<ArgSlice>(), 0, 0) { Element = element, Number = number, Flags = flags };
        output = new ObjectOutput();
        output.Writer.Attach(buffer);
        list.Operate(ref input, ref output);
        output.Writer.Flush();
        return Encoding.Latin1.GetString(buffer.Written);
    }

    [Test]
    public void SerializeDeserializeRoundTrip()
    {
        var values = new[] { "a", "", "\0\r\n", new string('x', 5000), StringTestHelpers.AllBytes() };
        var original = ListObject.Create(Elements(values));
        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true))
            original.Serialize(writer);
        stream.Position = 0;
        using var reader = new BinaryReader(stream);
        var copy = ListObject.Deserialize(reader);
        Assert.That(stream.Position, Is.EqualTo(stream.Length), "everything written is read back");
        Assert.That(Contents(copy), Is.EqualTo(values));
        Assert.That(copy.Count, Is.EqualTo(values.Length));
        Assert.That(copy.HeapSize, Is.EqualTo(original.HeapSize));

        var viaFactory = (ListObject)GarnetObjectFactory.Deserialize(GarnetObjectType.List, new BinaryReader(new MemoryStream(stream.ToArray())));
        Assert.That(Contents(viaFactory), Is.EqualTo(values));
    }

    [Test]
    public void EmptyListRoundTrips()
    {
        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true))
            new ListObject().Serialize(writer);
        stream.Position = 0;
        var copy = ListObject.Deserialize(new BinaryReader(stream));
        Assert.That(copy.Count, Is.EqualTo(0));
    }

    [Test]
    public void TruncatedPayloadIsRejected()
    {
        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true))
            ListObject.Create(Elements("abc", "defgh")).Serialize(writer);
        var bytes = stream.ToArray();
        var truncated = new MemoryStream(bytes, 0, bytes.Length - 2);
        Assert.That(() => ListObject.Deserialize(new BinaryReader(truncated)), Throws.InstanceOf<EndOfStreamException>());

        // A huge count in a short payload fails on the missing data, without reserving room for the count first.
        var lying = new MemoryStream();
        using (var writer = new BinaryWriter(lying, Encoding.UTF8, leaveOpen: true))
        {
            writer.Write(int.MaxValue);
            writer.Write(1);
            writer.Write((byte)'a');
        }
        lying.Position = 0;
        Assert.That(() => ListObject.Deserialize(new BinaryReader(lying)), Throws.InstanceOf<EndOfStreamException>());
    }

    [Test]
    public void CloneIsDeep()
    {
        var original = ListObject.Create(Elements("a", "b", "c"));
        var clone = (ListObject)original.Clone();
        Assert.That(Contents(clone), Is.EqualTo(new[] { "a", "b", "c" }));
        Assert.That(clone.HeapSize, Is.EqualTo(original.HeapSize));

        var output = new ObjectOutput();
        Run(clone, RespCommand.LPOP, ref output);
        Run(clone, RespCommand.RPUSH, ref output, element: Encoding.ASCII.GetBytes("z"));
        Assert.That(Contents(original), Is.EqualTo(new[] { "a", "b", "c" }));
        Assert.That(Contents(clone), Is.EqualTo(new[] { "b", "c", "z" }));

        // Elements are copies too, not shared arrays.
        var originalElements = new List<byte[]>();
        original.CopyElementsTo(originalElements);
        var cloneElements = new List<byte[]>();
        ((ListObject)original.Clone()).CopyElementsTo(cloneElements);
        Assert.That(cloneElements[0], Is.Not.SameAs(originalElements[0]));
    }

    [Test]
    public void CreateAndCopyElementsKeepOrder()
    {
        var list = ListObject.Create(Elements("1", "2", "3"));
        var destination = Elements("already");
        list.CopyElementsTo(destination);
        Assert.That(destination.ConvertAll(e => Encoding.Latin1.GetString(e)), Is.EqualTo(new[] { "already", "1", "2", "3" }));
        Assert.That(ListObject.Create(new List<byte[]>()).Count, Is.EqualTo(0));
    }

    [Test]
    public void PopHandsTheElementBack()
    {
        var list = ListObject.Create(Elements("a", "b"));
        var output = new ObjectOutput();
        Assert.That(Run(list, RespCommand.LPOP, ref output), Is.EqualTo("$1\r\na\r\n"));
        Assert.That(Encoding.ASCII.GetString(output.Element!), Is.EqualTo("a"));
        Assert.That(Run(list, RespCommand.RPOP, ref output), Is.EqualTo("$1\r\nb\r\n"));
        Assert.That(Encoding.ASCII.GetString(output.Element!), Is.EqualTo("b"));
        Assert.That(Run(list, RespCommand.RPOP, ref output), Is.EqualTo("$-1\r\n"));
        Assert.That(output.Element, Is.Null);
    }

    [Test]
    public void PushOfAnElementIgnoresArguments()
    {
        var list = new ListObject();
        var output = new ObjectOutput();
        Assert.That(Run(list, RespCommand.RPUSH, ref output, element: Encoding.ASCII.GetBytes("m")), Is.EqualTo(":1\r\n"));
        Assert.That(Run(list, RespCommand.LPUSH, ref output, element: Encoding.ASCII.GetBytes("l")), Is.EqualTo(":2\r\n"));
        Assert.That(Run(list, RespCommand.RPUSH, ref output, element: Encoding.ASCII.GetBytes("r")), Is.EqualTo(":3\r\n"));
        Assert.That(Contents(list), Is.EqualTo(new[] { "l", "m", "r" }));
    }

    [Test]
    public void MultiPopWritesOnlyTheInnerArray()
    {
        var list = ListObject.Create(Elements("a", "b", "c"));
        var output = new ObjectOutput();
        Assert.That(Run(list, RespCommand.LMPOP, ref output, number: 2, flags: 0), Is.EqualTo("*2\r\n$1\r\na\r\n$1\r\nb\r\n"));
        Assert.That(output.Number, Is.EqualTo(2));
        Assert.That(Run(list, RespCommand.LMPOP, ref output, number: 5, flags: 1), Is.EqualTo("*1\r\n$1\r\nc\r\n"));
        Assert.That(output.Number, Is.EqualTo(1));
        Assert.That(Run(list, RespCommand.LMPOP, ref output, number: 5, flags: 1), Is.EqualTo(""));
        Assert.That(output.Number, Is.EqualTo(0));
    }

    [Test]
    public void HeapSizeFollowsTheContents()
    {
        var list = new ListObject();
        long empty = list.HeapSize;
        Assert.That(empty, Is.GreaterThan(0));
        var output = new ObjectOutput();
        var big = new byte[10_000];
        Run(list, RespCommand.RPUSH, ref output, element: big);
        long withBig = list.HeapSize;
        Assert.That(withBig - empty, Is.GreaterThanOrEqualTo(10_000));
        for (int i = 0; i < 1000; i++)
            Run(list, RespCommand.RPUSH, ref output, element: new byte[10]);
        Assert.That(list.HeapSize, Is.GreaterThan(withBig + 1000 * 10));
        for (int i = 0; i < 1000; i++)
            Run(list, RespCommand.RPOP, ref output);
        Assert.That(list.HeapSize, Is.LessThan(withBig + 1000), "the buffer shrinks back as the list empties");
        Run(list, RespCommand.LPOP, ref output);
        Assert.That(list.HeapSize, Is.EqualTo(empty));
    }
}
