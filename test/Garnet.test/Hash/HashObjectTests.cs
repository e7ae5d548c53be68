using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Hash;

/// <summary>The hash object on its own: the table, Clone, Serialize/Deserialize and the heap size estimate.</summary>
[TestFixture]
public sealed class HashObjectTests
{
    private static byte[] B(string text) => Encoding.Latin1.GetBytes(text);

    private static List<(string Field, string Value)> Entries(HashObject hash)
    {
        var entries = new List<(byte[] Field, byte[] Value)>();
        hash.CopyEntriesTo(entries);
        return entries.Select(e => (Encoding.Latin1.GetString(e.Field), Encoding.Latin1.GetString(e.Value))).ToList();
    }

    private static HashObject Sample()
    {
        var hash = new HashObject();
        for (int i = 0; i < 1000; i++)
            hash.Set(B("field" + i), B("value" + i));
        hash.Set(B("bin\0\xff"), B("\0\r\n"));
        hash.Set(B(""), B(""));
        for (int i = 0; i < 1000; i += 3)
            hash.Remove(B("field" + i));
        hash.Set(B("field1"), B("updated"));
        return hash;
    }

    [Test]
    public void SetGetRemove()
    {
        var hash = new HashObject();
        Assert.That(hash.Set(B("a"), B("1")), Is.True);
        Assert.That(hash.Set(B("a"), B("2")), Is.False);
        Assert.That(hash.TryGetValue(B("a"), out var value), Is.True);
        Assert.That(value, Is.EqualTo(B("2")));
        Assert.That(hash.TryGetValue(B("b"), out _), Is.False);
        Assert.That(hash.Remove(B("b")), Is.False);
        Assert.That(hash.Remove(B("a")), Is.True);
        Assert.That(hash.Count, Is.EqualTo(0));
        Assert.That(hash.Type, Is.EqualTo(GarnetObjectType.Hash));
    }

    [Test]
    public void ManyInsertsAndDeletesKeepTheTableConsistent()
    {
        var hash = new HashObject();
        var model = new Dictionary<string, string>();
        var random = new System.Random(42);
        for (int step = 0; step < 200_000; step++)
        {
            string field = "k" + random.Next(5000);
            // Plain checks in the loop: a constraint per step would dominate the test's time.
            if (random.Next(3) == 0)
            {
                if (hash.Remove(B(field)) != model.Remove(field))
                    Assert.Fail($"Remove({field}) at step {step}");
            }
            else
            {
                string value = "v" + step;
                if (hash.Set(B(field), B(value)) == model.ContainsKey(field))
                    Assert.Fail($"Set({field}) at step {step}");
                model[field] = value;
            }
        }
        Assert.That(hash.Count, Is.EqualTo(model.Count));
        foreach (var (field, value) in model)
        {
            Assert.That(hash.TryGetValue(B(field), out var stored), Is.True, field);
            Assert.That(stored, Is.EqualTo(B(value)));
        }
        Assert.That(Entries(hash).ToDictionary(e => e.Field, e => e.Value), Is.EqualTo(model));
    }

    [Test]
    public void CloneIsADeepEqualCopy()
    {
        var hash = Sample();
        var clone = (HashObject)hash.Clone();
        Assert.That(Entries(clone), Is.EqualTo(Entries(hash)));
        Assert.That(clone.Count, Is.EqualTo(hash.Count));
        Assert.That(clone.HeapSize, Is.EqualTo(hash.HeapSize));

        var original = new List<(byte[] Field, byte[] Value)>();
        hash.CopyEntriesTo(original);
        var copied = new List<(byte[] Field, byte[] Value)>();
        clone.CopyEntriesTo(copied);
        Assert.That(copied[0].Field, Is.Not.SameAs(original[0].Field));
        Assert.That(copied[0].Value, Is.Not.SameAs(original[0].Value));

        clone.Set(B("field1"), B("changed"));
        clone.Remove(B("field2"));
        Assert.That(hash.TryGetValue(B("field1"), out var value), Is.True);
        Assert.That(value, Is.EqualTo(B("updated")));
        Assert.That(hash.TryGetValue(B("field2"), out _), Is.True);
    }

    [Test]
    public void SerializeRoundTrip()
    {
        var hash = Sample();
        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true))
            hash.Serialize(writer);
        stream.Position = 0;
        using var reader = new BinaryReader(stream);
        var copy = (HashObject)GarnetObjectFactory.Deserialize(GarnetObjectType.Hash, reader);
        Assert.That(stream.Position, Is.EqualTo(stream.Length), "everything written is read");
        Assert.That(Entries(copy), Is.EqualTo(Entries(hash)));
        Assert.That(copy.HeapSize, Is.EqualTo(hash.HeapSize));

        using var again = new MemoryStream();
        using (var writer = new BinaryWriter(again))
            copy.Serialize(writer);
        Assert.That(again.ToArray(), Is.EqualTo(stream.ToArray()), "byte-identical payloads");
    }

    [Test]
    public void EmptyRoundTrip()
    {
        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true))
            new HashObject().Serialize(writer);
        stream.Position = 0;
        var copy = HashObject.Deserialize(new BinaryReader(stream));
        Assert.That(copy.Count, Is.EqualTo(0));
        Assert.That(((HashObject)new HashObject().Clone()).Count, Is.EqualTo(0));
    }

    [Test]
    public void CorruptPayloadsAreRefused()
    {
        using var stream = new MemoryStream();
        using (var writer = new BinaryWriter(stream, Encoding.UTF8, leaveOpen: true))
        {
            writer.Write(2);
            foreach (var text in new[] { "a", "1", "a", "2" })
            {
                writer.Write(text.Length);
                writer.Write(B(text));
            }
        }
        stream.Position = 0;
        Assert.Throws<InvalidDataException>(() => HashObject.Deserialize(new BinaryReader(stream)), "duplicate field");

        var truncated = new MemoryStream(stream.ToArray(), 0, 10);
        Assert.Throws<EndOfStreamException>(() => HashObject.Deserialize(new BinaryReader(truncated)));
    }

    [Test]
    public void HeapSizeFollowsTheContents()
    {
        var hash = new HashObject();
        long empty = hash.HeapSize;
        Assert.That(empty, Is.GreaterThan(0));
        hash.Set(B("field"), B("value"));
        long one = hash.HeapSize;
        Assert.That(one, Is.GreaterThan(empty + 10));
        hash.Set(B("field"), new byte[1000]);
        Assert.That(hash.HeapSize, Is.EqualTo(one + 995));
        for (int i = 0; i < 10_000; i++)
            hash.Set(B("f" + i), B("v"));
        Assert.That(hash.HeapSize, Is.GreaterThan(one + 10_000 * 3));
        for (int i = 0; i < 10_000; i++)
            hash.Remove(B("f" + i));
        Assert.That(hash.HeapSize, Is.EqualTo(one + 995));
        hash.Remove(B("field"));
        Assert.That(hash.HeapSize, Is.EqualTo(empty));
    }
}
