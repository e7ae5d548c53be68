using System;
using System.Text;
using Garnet.common;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Geo;

/// <summary>The geohash arithmetic against values Redis prints (its docs and its test suite).</summary>
[TestFixture]
public sealed class GeoHashTests
{
    [TestCase(13.361389, 38.115556, 3479099956230698L)]
    [TestCase(15.087269, 37.502669, 3479447370796909L)]
    [TestCase(17.241510, 38.788135, 3481342659049484L)]
    [TestCase(-74.0131604, 40.7126674, 1791873972053020L)]
    [TestCase(-73.9903085, 40.7362513, 1791875485187452L)]
    [TestCase(-73.9733487, 40.7648057, 1791875761332224L)]
    [TestCase(-73.9564142, 40.7480973, 1791875796750882L)]
    [TestCase(-73.9454966, 40.747533, 1791875804419201L)]
    [TestCase(-73.9375699, 40.7498929, 1791875830079666L)]
    [TestCase(-73.7858139, 40.6428986, 1791895905559723L)]
    public void ScoresMatchRedis(double longitude, double latitude, long expected)
        => Assert.That(GeoHash.Score(longitude, latitude), Is.EqualTo((double)expected));

    [TestCase(13.361389, 38.115556, "13.36138933897018433", "38.11555639549629859")]
    [TestCase(15.087269, 37.502669, "15.08726745843887329", "37.50266842333162032")]
    [TestCase(17.241510, 38.788135, "17.24151045083999634", "38.78813451624225195")]
    [TestCase(12.758489, 38.788135, "12.7584877610206604", "38.78813451624225195")]
    public void PositionsDecodeToTheCellCentre(double longitude, double latitude, string expectedLongitude, string expectedLatitude)
    {
        var (decodedLongitude, decodedLatitude) = GeoHash.DecodeScore(GeoHash.Score(longitude, latitude));
        Assert.That(LongDouble.FromDouble(decodedLongitude).ToHumanString(), Is.EqualTo(expectedLongitude));
        Assert.That(LongDouble.FromDouble(decodedLatitude).ToHumanString(), Is.EqualTo(expectedLatitude));
    }

    [TestCase(13.361389, 38.115556, "sqc8b49rny0")]
    [TestCase(15.087269, 37.502669, "sqdtr74hyu0")]
    [TestCase(-5.6, 42.6, "ezs42e44yx0")]
    public void StandardGeohashStrings(double longitude, double latitude, string expected)
    {
        Span<byte> text = stackalloc byte[11];
        GeoHash.FormatStandard(GeoHash.Score(longitude, latitude), text);
        Assert.That(Encoding.ASCII.GetString(text), Is.EqualTo(expected));
    }

    [Test]
    public void DistancesMatchRedis()
    {
        var palermo = GeoHash.DecodeScore(GeoHash.Score(13.361389, 38.115556));
        var catania = GeoHash.DecodeScore(GeoHash.Score(15.087269, 37.502669));
        double meters = GeoHash.Distance(palermo.Longitude, palermo.Latitude, catania.Longitude, catania.Latitude);
        Assert.That(Format(meters), Is.EqualTo("166274.1516"));
        Assert.That(Format(meters / 1000), Is.EqualTo("166.2742"));
        Assert.That(Format(meters / 1609.34), Is.EqualTo("103.3182"));
        Assert.That(Format(GeoHash.Distance(15, 37, catania.Longitude, catania.Latitude) / 1000), Is.EqualTo("56.4413"));
        Assert.That(Format(GeoHash.Distance(15, 37, palermo.Longitude, palermo.Latitude) / 1000), Is.EqualTo("190.4424"));
        Assert.That(Format(0), Is.EqualTo("0.0000"));
        Assert.That(Format(0.00004), Is.EqualTo("0.0000"));
        Assert.That(Format(0.00006), Is.EqualTo("0.0001"));
    }

    [Test]
    public void SameMeridianUsesLatitudeDistance()
    {
        double along = GeoHash.Distance(10, 20, 10, 21);
        Assert.That(along, Is.EqualTo(GeoHash.LatitudeDistance(20, 21)));
        Assert.That(along, Is.EqualTo(GeoHash.EarthRadiusMeters * Math.PI / 180).Within(1e-6));
    }

    [TestCase(0, 0, 26)]
    [TestCase(1, 0, 24)]
    [TestCase(200000, 0, 6)]
    [TestCase(200000, 70, 5)]
    [TestCase(200000, -85, 4)]
    [TestCase(50000000, 0, 1)]
    public void StepFollowsTheRadius(double radius, double latitude, int expected)
        => Assert.That(GeoHash.EstimateStep(radius, latitude), Is.EqualTo(expected));

    [Test]
    public void SearchCellsCoverTheCentre()
    {
        Span<GeoHashCell> cells = stackalloc GeoHashCell[9];
        GeoHash.SearchCells(15, 37, 200000, 200000, 200000, cells);
        var (min, max) = GeoHash.ScoreRange(cells[0]);
        double catania = GeoHash.Score(15, 37);
        Assert.That(catania, Is.GreaterThanOrEqualTo((double)min));
        Assert.That(catania, Is.LessThan((double)max));
        Assert.That(cells[0].Step, Is.LessThanOrEqualTo(6));
    }

    [Test]
    public void BoxTest()
    {
        Assert.That(GeoHash.InBox(400000, 400000, 15, 37, 15.087269, 37.502669, out double distance), Is.True);
        Assert.That(distance, Is.GreaterThan(56000).And.LessThan(57000));
        Assert.That(GeoHash.InBox(400000, 2000, 15, 37, 12.75, 36.50, out _), Is.False);
        Assert.That(GeoHash.InBox(400000, 2000, 15, 37, 12.75, 36.995, out _), Is.True);
    }

    [Test]
    public void ValidRange()
    {
        Assert.That(GeoHash.IsValid(180, 85.05112878), Is.True);
        Assert.That(GeoHash.IsValid(-180, -85.05112878), Is.True);
        Assert.That(GeoHash.IsValid(180.0000001, 0), Is.False);
        Assert.That(GeoHash.IsValid(0, 85.05112879), Is.False);
        Assert.That(GeoHash.IsValid(double.NaN, 0), Is.False);
    }

    private static string Format(double distance)
    {
        Span<byte> text = stackalloc byte[48];
        return Encoding.ASCII.GetString(text.Slice(0, GeoHash.FormatDistance(distance, text)));
    }
}
