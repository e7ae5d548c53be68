using NUnit.Framework;
using static Garnet.test.Geo.GeoTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Geo;

/// <summary>GEOSEARCH and GEOSEARCHSTORE, with the outputs of Redis's docs and test suite.</summary>
[TestFixture]
public sealed class GeoSearchTests : ServerTestBase
{
    [Test]
    public void DocumentedGeoSearchExample()
    {
        using var client = ConnectRaw();
        AddSicily(client, edges: true);
        Assert.That(client.Execute("GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "ASC"), Is.EqualTo(Bulks("Catania", "Palermo")));
        Assert.That(client.Execute("GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYBOX", "400", "400", "km", "ASC", "WITHCOORD", "WITHDIST"), Is.EqualTo(Array(
            Array(Bulk("Catania"), Bulk("56.4413"), Coordinates(CataniaLongitude, CataniaLatitude)),
            Array(Bulk("Palermo"), Bulk("190.4424"), Coordinates(PalermoLongitude, PalermoLatitude)),
            Array(Bulk("edge2"), Bulk("279.7403"), Coordinates(Edge2Longitude, EdgeLatitude)),
            Array(Bulk("edge1"), Bulk("279.7405"), Coordinates(Edge1Longitude, EdgeLatitude)))));
    }

    [Test]
    public void DocumentedGeoSearchStoreExample()
    {
        using var client = ConnectRaw();
        AddSicily(client, edges: true);
        Assert.That(client.Execute("GEOSEARCHSTORE", "key1", "Sicily", "FROMLONLAT", "15", "37", "BYBOX", "400", "400", "km", "ASC", "COUNT", "3"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("GEOSEARCH", "key1", "FROMLONLAT", "15", "37", "BYBOX", "400", "400", "km", "ASC", "WITHCOORD", "WITHDIST", "WITHHASH"), Is.EqualTo(Array(
            Array(Bulk("Catania"), Bulk("56.4413"), Integer(3479447370796909), Coordinates(CataniaLongitude, CataniaLatitude)),
            Array(Bulk("Palermo"), Bulk("190.4424"), Integer(3479099956230698), Coordinates(PalermoLongitude, PalermoLatitude)),
            Array(Bulk("edge2"), Bulk("279.7403"), Integer(3481342659049484), Coordinates(Edge2Longitude, EdgeLatitude)))));
        Assert.That(client.Execute("GEOSEARCHSTORE", "key2", "Sicily", "FROMLONLAT", "15", "37", "BYBOX", "400", "400", "km", "ASC", "COUNT", "3", "STOREDIST"), Is.EqualTo(Integer(3)));
        // The docs print these with "%.17g"; they are the same doubles.
        Assert.That(ScoreOf(client, "key2", "Catania"), Is.EqualTo(56.441257870158204));
        Assert.That(ScoreOf(client, "key2", "Palermo"), Is.EqualTo(190.44242984775784));
        Assert.That(ScoreOf(client, "key2", "edge2"), Is.EqualTo(279.7403417843143));
        Assert.That(client.Execute("ZSCORE", "key2", "edge1"), Is.EqualTo(Nil));
    }

    private static double ScoreOf(RawClient client, string key, string member)
    {
        string reply = client.Execute("ZSCORE", key, member);
        return double.Parse(reply.Split("\r\n")[1], System.Globalization.CultureInfo.InvariantCulture);
    }

    [Test]
    public void RedisSuiteSearches()
    {
        using var client = ConnectRaw();
        AddNewYork(client);
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", "-73.9798091", "40.7598464", "bybox", "6", "6", "km", "asc"),
            Is.EqualTo(Bulks("central park n/q/r", "4545", "union square", "lic market")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", "-73.9798091", "40.7598464", "bybox", "6", "6", "km", "withdist", "asc"), Is.EqualTo(Array(
            Array(Bulk("central park n/q/r"), Bulk("0.7750")), Array(Bulk("4545"), Bulk("2.3651")),
            Array(Bulk("union square"), Bulk("2.7697")), Array(Bulk("lic market"), Bulk("3.1991")))));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "frommember", "wtc one", "bybox", "14", "14", "km"),
            Is.EqualTo(Bulks("wtc one", "union square", "central park n/q/r", "4545", "lic market", "q4")));
    }

    [Test]
    public void NarrowBoxesAndTheAntimeridian()
    {
        using var client = ConnectRaw();
        client.Execute("GEOADD", "Sicily", "12.75", "36.995", "test1");
        client.Execute("GEOADD", "Sicily", "12.75", "36.50", "test2");
        client.Execute("GEOADD", "Sicily", "13.00", "36.50", "test3");
        Assert.That(client.Execute("GEOSEARCH", "Sicily", "fromlonlat", "15", "37", "bybox", "400", "2", "km"), Is.EqualTo(Bulks("test1")));
        client.Execute("GEOADD", "Sicily", "-1", "37.00", "test3");
        Assert.That(client.Execute("GEOSEARCH", "Sicily", "fromlonlat", "15", "37", "bybox", "3000", "2", "km", "asc"), Is.EqualTo(Bulks("test1", "test3")));

        client.Execute("GEOADD", "points", "179.5", "36", "point1");
        client.Execute("GEOADD", "points", "-179.5", "36", "point2");
        Assert.That(client.Execute("GEOSEARCH", "points", "fromlonlat", "179", "37", "bybox", "400", "400", "km", "asc"), Is.EqualTo(Bulks("point1", "point2")));
        Assert.That(client.Execute("GEOSEARCH", "points", "fromlonlat", "-179", "37", "bybox", "400", "400", "km", "asc"), Is.EqualTo(Bulks("point2", "point1")));
    }

    [Test]
    public void CornerPoints()
    {
        using var client = ConnectRaw();
        client.Execute("GEOADD", "Sicily", "12.758489", "38.788135", "edge1", "17.241510", "38.788135", "edge2", "17.250000", "35.202000", "edge3",
            "12.750000", "35.202000", "edge4", "12.748489955781654", "37", "edge5", "15", "38.798135872540925", "edge6",
            "17.251510044218346", "37", "edge7", "15", "35.201864127459075", "edge8", "12.692799634687903", "38.798135872540925", "corner1",
            "12.692799634687903", "38.798135872540925", "corner2", "17.200560937451133", "35.201864127459075", "corner3",
            "12.799439062548865", "35.201864127459075", "corner4");
        string reply = client.Execute("GEOSEARCH", "Sicily", "fromlonlat", "15", "37", "bybox", "400", "400", "km", "asc");
        Assert.That(reply, Does.StartWith("*4\r\n"));
        foreach (var name in new[] { "edge1", "edge2", "edge5", "edge7" })
            Assert.That(reply, Does.Contain(Bulk(name)));
    }

    [Test]
    public void CountAnyAndOrder()
    {
        using var client = ConnectRaw();
        AddNewYork(client);
        string[] center = ["GEOSEARCH", "nyc", "FROMLONLAT", "-73.9798091", "40.7598464", "BYRADIUS", "10", "km"];
        Assert.That(client.Execute([.. center, "COUNT", "3"]), Is.EqualTo(Bulks("central park n/q/r", "4545", "union square")));
        Assert.That(client.Execute([.. center, "COUNT", "2", "DESC"]), Is.EqualTo(Bulks("wtc one", "q4")));
        Assert.That(client.Execute([.. center, "COUNT", "3", "ANY"]), Is.EqualTo(Bulks("wtc one", "union square", "central park n/q/r")));
        Assert.That(client.Execute([.. center, "COUNT", "3", "ANY", "ASC"]), Is.EqualTo(Bulks("central park n/q/r", "union square", "wtc one")));
        Assert.That(client.Execute([.. center, "COUNT", "100"]), Does.StartWith("*6\r\n"));
        Assert.That(client.Execute([.. center, "DESC", "ASC", "COUNT", "1"]), Is.EqualTo(Bulks("central park n/q/r")));
        Assert.That(client.Execute([.. center, "COUNT", "1", "WITHHASH"]), Is.EqualTo(Array(Array(Bulk("central park n/q/r"), Integer(1791875761332224)))));
    }

    [Test]
    public void WithOptionsComeInRedisOrder()
    {
        using var client = ConnectRaw();
        AddSicily(client);
        var expected = Array(Array(Bulk("Palermo"), Bulk("0.0000"), Integer(3479099956230698), Coordinates(PalermoLongitude, PalermoLatitude)));
        Assert.That(client.Execute("GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "BYRADIUS", "1", "km", "WITHCOORD", "WITHHASH", "WITHDIST"), Is.EqualTo(expected));
        Assert.That(client.Execute("GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "BYRADIUS", "1", "km", "withdist", "withcoord", "withhash"), Is.EqualTo(expected));
    }

    [Test]
    public void SmallDistancesAndUnits()
    {
        using var client = ConnectRaw();
        client.Execute("GEOADD", "points", "-122.407107", "37.794300", "1");
        client.Execute("GEOADD", "points", "-122.227336", "37.794300", "2");
        Assert.That(client.Execute("GEOSEARCH", "points", "FROMLONLAT", "-122.407107", "37.794300", "BYRADIUS", "30", "mi", "ASC", "WITHDIST"),
            Is.EqualTo(Array(Array(Bulk("1"), Bulk("0.0001")), Array(Bulk("2"), Bulk("9.8182")))));
        AddSicily(client);
        Assert.That(client.Execute("GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "BYRADIUS", "166274.2", "M", "ASC"), Is.EqualTo(Bulks("Palermo", "Catania")));
        Assert.That(client.Execute("GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "BYRADIUS", "166274.1", "m", "ASC"), Is.EqualTo(Bulks("Palermo")));
        Assert.That(client.Execute("GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "BYRADIUS", "545519", "FT", "DESC"), Is.EqualTo(Bulks("Catania", "Palermo")));
        Assert.That(client.Execute("GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "BYRADIUS", "0", "km"), Is.EqualTo(Bulks("Palermo")));
    }

    [Test]
    public void MissingKeyAndNoMatches()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("GEOSEARCH", "missing", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("GEOSEARCH", "missing", "FROMMEMBER", "x", "BYBOX", "1", "1", "km"), Is.EqualTo(EmptyArray));
        client.Execute("SET", "dest", "value");
        Assert.That(client.Execute("GEOSEARCHSTORE", "dest", "missing", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "dest"), Is.EqualTo(Integer(0)));
        AddSicily(client);
        Assert.That(client.Execute("GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"), Is.EqualTo(EmptyArray));
        client.Execute("SET", "dest", "value");
        Assert.That(client.Execute("GEOSEARCHSTORE", "dest", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "dest"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void GeoSearchStoreReplacesTheDestination()
    {
        using var client = ConnectRaw();
        AddSicily(client);
        client.Execute("SET", "dest", "a string");
        Assert.That(client.Execute("GEOSEARCHSTORE", "dest", "Sicily", "FROMLONLAT", "13.361389", "38.115556", "BYRADIUS", "500", "km"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZSCORE", "dest", "Palermo"), Is.EqualTo(Bulk("3479099956230698")));
        Assert.That(client.Execute("GEOSEARCHSTORE", "dest", "Sicily", "FROMLONLAT", "13.361389", "38.115556", "BYRADIUS", "500", "km", "STOREDIST", "DESC", "COUNT", "1"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZSCORE", "dest", "Palermo"), Is.EqualTo(Nil));
        Assert.That(client.Execute("ZSCORE", "dest", "Catania"), Does.StartWith("$").And.Contain("166.27"));
        // The source may be the destination.
        Assert.That(client.Execute("GEOSEARCHSTORE", "Sicily", "Sicily", "FROMMEMBER", "Palermo", "BYRADIUS", "1", "km"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("GEOPOS", "Sicily", "Palermo", "Catania"), Is.EqualTo(Array(Coordinates(PalermoLongitude, PalermoLatitude), NullArray)));
    }

    [Test]
    public void GeoSearchErrors()
    {
        using var client = ConnectRaw();
        AddNewYork(client);
        const string at = "-73.9798091", lat = "40.7598464";
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "frommember", "xxx", "bybox", "6", "6", "km", "asc"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "frommember", "wtc one", "fromlonlat", at, lat, "bybox", "6", "6", "km"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "bybox", "3", "3", "km", "asc", "desc", "withhash", "withdist", "withcoord"),
            Is.EqualTo(Error("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for GEOSEARCH")));
        Assert.That(client.Execute("geosearch", "nyc", "bybox", "3", "3", "km", "asc"),
            Is.EqualTo(Error("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for geosearch")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "byradius", "3", "km", "bybox", "3", "3", "km", "asc"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "bybox", "3", "3", "km", "byradius", "3", "km"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "asc", "desc", "withhash", "withdist", "withcoord"),
            Is.EqualTo(Error("ERR exactly one of BYRADIUS and BYBOX can be specified for GEOSEARCH")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "bybox", "6", "6", "km", "asc", "storedist"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "bybox", "6", "6", "km", "store", "x"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "frommember", "nobody", "byradius", "300", "km"), Is.EqualTo(Error("ERR could not decode requested zset member")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", "200", lat, "byradius", "3", "km"), Is.EqualTo(Error("ERR invalid longitude,latitude pair 200.000000,40.759846")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", "x", lat, "byradius", "3", "km"), Is.EqualTo(NotFloat));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "byradius", "x", "km"), Is.EqualTo(Error("ERR need numeric radius")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "byradius", "-1", "km"), Is.EqualTo(Error("ERR radius cannot be negative")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "byradius", "1", "yd"), Is.EqualTo(Error("ERR unsupported unit provided. please use M, KM, FT, MI")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "bybox", "x", "1", "km"), Is.EqualTo(Error("ERR need numeric width")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "bybox", "1", "x", "km"), Is.EqualTo(Error("ERR need numeric height")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "bybox", "1", "-1", "km"), Is.EqualTo(Error("ERR height or width cannot be negative")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "bybox", "1", "1", "lightyear"), Is.EqualTo(Error("ERR unsupported unit provided. please use M, KM, FT, MI")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "bybox", "1", "1", "km", "count", "0"), Is.EqualTo(Error("ERR COUNT must be > 0")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "bybox", "1", "1", "km", "count", "-3"), Is.EqualTo(Error("ERR COUNT must be > 0")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "bybox", "1", "1", "km", "count", "x"), Is.EqualTo(NotInteger));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "bybox", "1", "1", "km", "count"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "bybox", "1", "1", "km", "any"), Is.EqualTo(Error("ERR the ANY argument requires COUNT argument")));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "bybox", "1", "1"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "bybox", "1", "1", "km", "bogus"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOSEARCH", "nyc", "fromlonlat", at, lat, "byradius"), Is.EqualTo(WrongArity("geosearch")));
    }

    [Test]
    public void GeoSearchStoreErrors()
    {
        using var client = ConnectRaw();
        AddSicily(client, "points");
        Assert.That(client.Execute("GEOSEARCHSTORE", "abc", "points", "fromlonlat", "13.361389", "38.115556", "byradius", "50", "km", "store", "abc"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOSEARCHSTORE", "abc", "points", "fromlonlat", "13.361389", "38.115556", "byradius", "50", "km", "withdist"),
            Is.EqualTo(Error("ERR GEOSEARCHSTORE is not compatible with WITHDIST, WITHHASH and WITHCOORD options")));
        Assert.That(client.Execute("GEOSEARCHSTORE", "abc", "points", "byradius", "50", "km", "asc", "count", "1"),
            Is.EqualTo(Error("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for GEOSEARCHSTORE")));
        Assert.That(client.Execute("GEOSEARCHSTORE", "abc", "points", "frommember", "nope", "byradius", "50", "km"), Is.EqualTo(Error("ERR could not decode requested zset member")));
        Assert.That(client.Execute("EXISTS", "abc"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void WrongTypeComesFirst()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "src", "wrong_type");
        Assert.That(client.Execute("GEOSEARCH", "src", "fromlonlat", "0", "0", "byradius", "1", "km"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("GEOSEARCH", "src", "frommember", "member", "bybox", "1", "1", "km"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("GEOSEARCH", "src", "bogus", "x", "y", "z", "w"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("GEOSEARCHSTORE", "dest", "src", "fromlonlat", "0", "0", "byradius", "1", "km"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("GEOSEARCHSTORE", "dest", "src", "frommember", "member", "bybox", "1", "1", "m"), Is.EqualTo(WrongType));
        // A destination of another type is simply replaced.
        AddSicily(client, "points");
        Assert.That(client.Execute("GEOSEARCHSTORE", "src", "points", "frommember", "Palermo", "byradius", "1", "km"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZSCORE", "src", "Palermo"), Is.EqualTo(Bulk("3479099956230698")));
    }

    [Test]
    public void Resp3ShapesOfWithCoord()
    {
        using var client = ConnectRaw();
        AddSicily(client);
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "BYRADIUS", "1", "km", "WITHDIST", "WITHHASH", "WITHCOORD"), Is.EqualTo(
            "*1\r\n*4\r\n$7\r\nPalermo\r\n$6\r\n0.0000\r\n:3479099956230698\r\n*2\r\n," + PalermoLongitude + "\r\n," + PalermoLatitude + "\r\n"));
        Assert.That(client.Execute("GEOSEARCH", "missing", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"), Is.EqualTo(EmptyArray));
    }

    [Test]
    public void ManyPointsMatchABruteForceCount()
    {
        using var client = ConnectRaw();
        var random = new System.Random(12345);
        var args = new System.Collections.Generic.List<string> { "GEOADD", "many" };
        var positions = new (double Longitude, double Latitude)[20000];
        for (int i = 0; i < positions.Length; i++)
        {
            positions[i] = (-180 + random.NextDouble() * 360, -70 + random.NextDouble() * 140);
            args.Add(positions[i].Longitude.ToString("R", System.Globalization.CultureInfo.InvariantCulture));
            args.Add(positions[i].Latitude.ToString("R", System.Globalization.CultureInfo.InvariantCulture));
            args.Add("p" + i);
        }
        Assert.That(client.Execute([.. args]), Is.EqualTo(Integer(positions.Length)));
        foreach (var (longitude, latitude, radiusKm) in new[] { (10.0, 20.0, 500.0), (-120.5, 45.2, 1500.0), (179.9, -60.0, 800.0), (0.0, 0.0, 5000.0) })
        {
            int expected = 0, nearEdge = 0;
            foreach (var position in positions)
            {
                double distance = Garnet.server.GeoHash.Distance(longitude, latitude, position.Longitude, position.Latitude) / 1000;
                if (distance <= radiusKm)
                    expected++;
                if (System.Math.Abs(distance - radiusKm) < 1)
                    nearEdge++;
            }
            string reply = client.Execute("GEOSEARCH", "many", "FROMLONLAT", longitude.ToString(System.Globalization.CultureInfo.InvariantCulture),
                latitude.ToString(System.Globalization.CultureInfo.InvariantCulture), "BYRADIUS", radiusKm.ToString(System.Globalization.CultureInfo.InvariantCulture), "km");
            int found = int.Parse(reply.Substring(1, reply.IndexOf('\r') - 1), System.Globalization.CultureInfo.InvariantCulture);
            Assert.That(found, Is.InRange(expected - nearEdge, expected + nearEdge), $"around {longitude},{latitude} within {radiusKm} km");
        }
    }
}
