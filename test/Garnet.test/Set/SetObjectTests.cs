using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Set;

/// <summary>The SetObject itself: copies, serialization and the API other families use.</summary>
[TestFixture]
public sealed class SetObjectTests
{
    private static byte[] Bytes(string text) => Encoding.Latin1.GetBytes(text);

    private static List<string> Contents(SetObject set)
    {
        var members = new List<byte[]>();
        set.CopyElementsTo(members);
        return members.Select(m => Encoding.Latin1.GetString(m)).OrderBy(s => s, System.StringComparer.Ordinal).ToList();
    }

    private static SetObject Sample()
    {
        var members = new List<byte[]> { Bytes("a"), Bytes(""), Bytes("x\0y"), Bytes(new string('z', 1000)) };
        for (int i = 0; i < 500; i++)
            members.Add(Bytes("m" + i));
        return SetObject.Create(members);
    }

    [Test]
    public void CreateKeepsDuplicatesOnce()
    {
        var set = SetObject.Create(new List<byte[]> { Bytes("a"), Bytes("b"), Bytes("a") });
        Assert.That(set.Count, Is.EqualTo(2));
        Assert.That(Contents(set), Is.EqualTo(new[] { "a", "b" }));
        Assert.That(set.Type, Is.EqualTo(GarnetObjectType.Set));
    }

    [Test]
    public void CloneIsDeep()
    {
        var set = Sample();
        var clone = (SetObject)set.Clone();
        Assert.That(Contents(clone), Is.EqualTo(Contents(set)));
        Assert.That(clone.HeapSize, Is.EqualTo(set.HeapSize));
        Assert.That(clone.Remove(Bytes("a")), Is.True);
        Assert.That(clone.Add(Bytes("new")), Is.True);
        Assert.That(set.Contains(Bytes("a")), Is.True);
        Assert.That(set.Contains(Bytes("new")), Is.False);

        var original = new List<byte[]>();
        set.CopyElementsTo(original);
        var copied = new List<byte[]>();
        ((SetObject)set.Clone()).CopyElementsTo(copied);
        Assert.That(copied.Any(c => original.Any(o => ReferenceEquals(o, c))), Is.False, "member arrays are copied");
    }

    [Test]
    public void SerializeRoundTrips()
    {
        foreach (var set in new[] { new SetObject(), Sample() })
        {
            using var stream = new MemoryStream();
            using (var writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true))
                set.Serialize(writer);
            stream.Position = 0;
            using var reader = new BinaryReader(stream);
            var back = SetObject.Deserialize(reader);
            Assert.That(stream.Position, Is.EqualTo(stream.Length));
            Assert.That(back.Count, Is.EqualTo(set.Count));
            Assert.That(Contents(back), Is.EqualTo(Contents(set)));
            foreach (var member in Contents(set))
                Assert.That(back.Contains(Bytes(member)), Is.True);

            var viaFactory = GarnetObjectFactory.Deserialize(GarnetObjectType.Set, new BinaryReader(new MemoryStream(stream.ToArray())));
            Assert.That(viaFactory.Count, Is.EqualTo(set.Count));
        }
    }

    [Test]
    public void HeapSizeFollowsTheContents()
    {
        var set = new SetObject();
        long empty = set.HeapSize;
        Assert.That(empty, Is.GreaterThan(0));
        for (int i = 0; i < 1000; i++)
            set.Add(Bytes("member" + i));
        long full = set.HeapSize;
        Assert.That(full, Is.GreaterThan(empty + 1000 * 10));
        for (int i = 0; i < 1000; i++)
            Assert.That(set.Remove(Bytes("member" + i)), Is.True);
        Assert.That(set.Count, Is.EqualTo(0));
        Assert.That(set.HeapSize, Is.EqualTo(empty));
    }

    [Test]
    public void AddRemoveContainsAgreeWithAHashSet()
    {
        var set = new SetObject();
        var model = new HashSet<string>();
        var random = new System.Random(7);
        int disagreements = 0;
        for (int step = 0; step < 50_000; step++)
        {
            string member = "k" + random.Next(3000);
            bool agree = random.Next(3) == 0
                ? set.Remove(Bytes(member)) == model.Remove(member)
                : set.Add(Bytes(member)) == model.Add(member);
            if (!agree)
                disagreements++;
        }
        Assert.That(disagreements, Is.EqualTo(0));
        Assert.That(set.Count, Is.EqualTo(model.Count));
        Assert.That(Contents(set), Is.EqualTo(model.OrderBy(s => s, System.StringComparer.Ordinal).ToList()));
        Assert.That(Enumerable.Range(0, 3000).Count(i => set.Contains(Bytes("k" + i)) != model.Contains("k" + i)), Is.EqualTo(0));
    }

    [Test]
    public void SetAlgebra()
    {
        var a = SetObject.Create(new List<byte[]> { Bytes("1"), Bytes("2"), Bytes("3") });
        var b = SetObject.Create(new List<byte[]> { Bytes("2"), Bytes("3"), Bytes("4") });
        var intersection = (SetObject)a.Clone();
        intersection.IntersectWith(b);
        Assert.That(Contents(intersection), Is.EqualTo(new[] { "2", "3" }));
        var difference = (SetObject)a.Clone();
        difference.ExceptWith(b);
        Assert.That(Contents(difference), Is.EqualTo(new[] { "1" }));
        var union = (SetObject)a.Clone();
        union.UnionWith((SetObject)b.Clone());
        Assert.That(Contents(union), Is.EqualTo(new[] { "1", "2", "3", "4" }));
        Assert.That(a.CountInAll(new List<SetObject> { a, b }, 0), Is.EqualTo(2));
        Assert.That(a.CountInAll(new List<SetObject> { a, b }, 1), Is.EqualTo(1));
    }
}
