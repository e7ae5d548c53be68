using NUnit.Framework;
using StackExchange.Redis;
using static Garnet.test.Geo.GeoTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Geo;

/// <summary>GEOADD, GEOPOS, GEOHASH and GEODIST, with the outputs of Redis's docs and test suite.</summary>
[TestFixture]
public sealed class GeoPointCommandsTests : ServerTestBase
{
    [Test]
    public void DocumentedGeoAddExample()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("GEOADD", "Sicily", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("GEODIST", "Sicily", "Palermo", "Catania"), Is.EqualTo(Bulk("166274.1516")));
        Assert.That(client.Execute("ZSCORE", "Sicily", "Palermo"), Is.EqualTo(Bulk("3479099956230698")));
        Assert.That(client.Execute("ZSCORE", "Sicily", "Catania"), Is.EqualTo(Bulk("3479447370796909")));
        Assert.That(client.Execute("EXISTS", "Sicily"), Is.EqualTo(Integer(1)));
    }

    [Test]
    public void RedisSuiteScores()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("GEOADD", "nyc", "-73.9454966", "40.747533", "lic market"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("GEOADD", "nyc", "-73.9454966", "40.747533", "lic market"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("GEOADD", "nyc", "-73.9733487", "40.7648057", "central park n/q/r", "-73.9903085", "40.7362513", "union square",
            "-74.0131604", "40.7126674", "wtc one", "-73.7858139", "40.6428986", "jfk", "-73.9375699", "40.7498929", "q4",
            "-73.9564142", "40.7480973", "4545"), Is.EqualTo(Integer(6)));
        Assert.That(client.Execute("ZSCORE", "nyc", "wtc one"), Is.EqualTo(Bulk("1791873972053020")));
        Assert.That(client.Execute("ZSCORE", "nyc", "jfk"), Is.EqualTo(Bulk("1791895905559723")));
        Assert.That(client.Execute("ZSCORE", "nyc", "4545"), Is.EqualTo(Bulk("1791875796750882")));
    }

    [Test]
    public void NxXxAndCh()
    {
        using var client = ConnectRaw();
        client.Execute("GEOADD", "nyc", "-73.9454966", "40.747533", "lic market");
        Assert.That(client.Execute("GEOADD", "nyc", "CH", "40.747533", "-73.9454966", "lic market"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("GEOADD", "nyc", "NX", "-73.9454966", "40.747533", "lic market"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("GEOPOS", "nyc", "lic market"), Does.StartWith("*1\r\n*2\r\n$").And.Contain("\r\n40.7475"));
        Assert.That(client.Execute("GEOADD", "nyc", "XX", "-83.9454966", "40.747533", "lic market"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("GEOPOS", "nyc", "lic market"), Does.StartWith("*1\r\n*2\r\n$").And.Contain("\r\n-83.945"));
        Assert.That(client.Execute("GEOADD", "nyc", "CH", "NX", "-73.9454966", "40.747533", "lic market"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("GEOADD", "nyc", "CH", "XX", "-73.9454966", "40.747533", "lic market"), Is.EqualTo(Integer(1)));
        // XX never adds; NX adds new members only; CH counts added plus changed.
        Assert.That(client.Execute("GEOADD", "nyc", "XX", "1", "1", "new"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("ZSCORE", "nyc", "new"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GEOADD", "nyc", "NX", "CH", "1", "1", "new", "2", "2", "lic market"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("GEOADD", "nyc", "CH", "1", "1", "new", "3", "3", "lic market", "4", "4", "other"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("GEOADD", "nyc", "ch", "nx", "xx", "5", "5", "m"), Is.EqualTo(SyntaxError));
    }

    [Test]
    public void XxOnMissingKeyCreatesNothing()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("GEOADD", "k", "XX", "1", "1", "a"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "k"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void GeoAddErrors()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("GEOADD", "nyc", "xx", "nx", "-73.9454966", "40.747533", "lic market"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOADD", "nyc", "ch", "xx", "foo", "-73.9454966", "40.747533", "lic market"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOADD", "nyc", "1", "2", "a", "3"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOADD", "nyc", "NX", "1", "2"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOADD", "nyc", "NX", "CH", "XX"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOADD", "nyc", "1", "2"), Is.EqualTo(WrongArity("geoadd")));
        Assert.That(client.Execute("GEOADD", "nyc", "-73.9454966", "40.747533", "lic market", "foo", "bar", "luck market"), Is.EqualTo(NotFloat));
        Assert.That(client.Execute("GEOADD", "nyc", "200", "100", "a"), Is.EqualTo(Error("ERR invalid longitude,latitude pair 200.000000,100.000000")));
        Assert.That(client.Execute("GEOADD", "nyc", "1", "85.06", "a"), Is.EqualTo(Error("ERR invalid longitude,latitude pair 1.000000,85.060000")));
        Assert.That(client.Execute("GEOADD", "nyc", "-180.5", "0", "a"), Is.EqualTo(Error("ERR invalid longitude,latitude pair -180.500000,0.000000")));
        Assert.That(client.Execute("GEOADD", "nyc", "inf", "0", "a"), Is.EqualTo(Error("ERR invalid longitude,latitude pair inf,0.000000")));
        Assert.That(client.Execute("GEOADD", "nyc", "1", "1", "ok", "1", "nan", "bad"), Is.EqualTo(NotFloat));
        // Nothing is added when any coordinate is bad.
        Assert.That(client.Execute("EXISTS", "nyc"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("GEOADD", "nyc", "180", "85.05112878", "ne", "-180", "-85.05112878", "sw"), Is.EqualTo(Integer(2)));
    }

    [Test]
    public void GeoAddChecksArgumentsBeforeTheType()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "x");
        Assert.That(client.Execute("GEOADD", "s", "1", "2", "a", "b"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEOADD", "s", "200", "2", "a"), Is.EqualTo(Error("ERR invalid longitude,latitude pair 200.000000,2.000000")));
        Assert.That(client.Execute("GEOADD", "s", "1", "2", "a"), Is.EqualTo(WrongType));
    }

    [Test]
    public void DocumentedGeoPosExample()
    {
        using var client = ConnectRaw();
        AddSicily(client);
        Assert.That(client.Execute("GEOPOS", "Sicily", "Palermo", "Catania", "NonExisting"), Is.EqualTo(Array(
            Coordinates(PalermoLongitude, PalermoLatitude),
            Coordinates(CataniaLongitude, CataniaLatitude),
            NullArray)));
        Assert.That(client.Execute("GEOPOS", "Sicily"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("GEOPOS", "missing", "a", "b"), Is.EqualTo(Array(NullArray, NullArray)));
    }

    [Test]
    public void GeoPosInResp3UsesDoublesAndNulls()
    {
        using var client = ConnectRaw();
        AddSicily(client);
        client.Execute("HELLO", "3");
        Assert.That(client.Execute("GEOPOS", "Sicily", "Palermo", "x"), Is.EqualTo(
            "*2\r\n*2\r\n," + PalermoLongitude + "\r\n," + PalermoLatitude + "\r\n_\r\n"));
        Assert.That(client.Execute("GEODIST", "Sicily", "Palermo", "Catania"), Is.EqualTo(Bulk("166274.1516")));
        Assert.That(client.Execute("GEODIST", "Sicily", "Palermo", "x"), Is.EqualTo("_\r\n"));
        Assert.That(client.Execute("GEOHASH", "Sicily", "x"), Is.EqualTo("*1\r\n_\r\n"));
    }

    [Test]
    public void GeoPosOfWholeDegrees()
    {
        using var client = ConnectRaw();
        client.Execute("GEOADD", "points", "10", "20", "a", "30", "40", "b");
        string reply = client.Execute("GEOPOS", "points", "a", "b");
        Assert.That(reply, Does.Contain("$18\r\n9.9999994039535522\r\n").Or.Contain("10.0000"));
        Assert.That(reply, Does.StartWith("*2\r\n*2\r\n"));
    }

    [Test]
    public void DocumentedGeoHashExample()
    {
        using var client = ConnectRaw();
        AddSicily(client);
        Assert.That(client.Execute("GEOHASH", "Sicily", "Palermo", "Catania"), Is.EqualTo(Bulks("sqc8b49rny0", "sqdtr74hyu0")));
        Assert.That(client.Execute("GEOHASH", "Sicily", "Palermo", "nope"), Is.EqualTo(Array(Bulk("sqc8b49rny0"), Nil)));
        Assert.That(client.Execute("GEOHASH", "Sicily"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("GEOHASH", "missing", "a"), Is.EqualTo(Array(Nil)));
        client.Execute("GEOADD", "points", "-5.6", "42.6", "test");
        Assert.That(client.Execute("GEOHASH", "points", "test"), Is.EqualTo(Bulks("ezs42e44yx0")));
    }

    [Test]
    public void DocumentedGeoDistExample()
    {
        using var client = ConnectRaw();
        AddSicily(client);
        Assert.That(client.Execute("GEODIST", "Sicily", "Palermo", "Catania"), Is.EqualTo(Bulk("166274.1516")));
        Assert.That(client.Execute("GEODIST", "Sicily", "Palermo", "Catania", "km"), Is.EqualTo(Bulk("166.2742")));
        Assert.That(client.Execute("GEODIST", "Sicily", "Palermo", "Catania", "MI"), Is.EqualTo(Bulk("103.3182")));
        Assert.That(client.Execute("GEODIST", "Sicily", "Palermo", "Catania", "ft"), Is.EqualTo(Bulk("545518.8700")));
        Assert.That(client.Execute("GEODIST", "Sicily", "Palermo", "Catania", "M"), Is.EqualTo(Bulk("166274.1516")));
        Assert.That(client.Execute("GEODIST", "Sicily", "Foo", "Bar"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GEODIST", "Sicily", "Palermo", "Agrigento"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GEODIST", "Sicily", "Palermo", "Palermo"), Is.EqualTo(Bulk("0.0000")));
        Assert.That(client.Execute("GEODIST", "empty_key", "Palermo", "Catania"), Is.EqualTo(Nil));
    }

    [Test]
    public void GeoDistErrors()
    {
        using var client = ConnectRaw();
        AddSicily(client);
        client.Execute("SET", "s", "x");
        Assert.That(client.Execute("GEODIST", "Sicily", "Palermo", "Catania", "yards"), Is.EqualTo(Error("ERR unsupported unit provided. please use M, KM, FT, MI")));
        Assert.That(client.Execute("GEODIST", "Sicily", "Palermo", "Catania", "km", "extra"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEODIST", "Sicily", "Palermo"), Is.EqualTo(WrongArity("geodist")));
        // The unit is checked before the key's type.
        Assert.That(client.Execute("GEODIST", "s", "a", "b", "yards"), Is.EqualTo(Error("ERR unsupported unit provided. please use M, KM, FT, MI")));
        Assert.That(client.Execute("GEODIST", "s", "a", "b"), Is.EqualTo(WrongType));
    }

    [Test]
    public void WrongTypeForEveryPointCommand()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "s", "x");
        Assert.That(client.Execute("GEOPOS", "s", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("GEOHASH", "s", "a"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("GEODIST", "s", "a", "b", "km"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("GEOPOS", "s"), Is.EqualTo(WrongType));
        Assert.That(client.Execute("GEOHASH"), Is.EqualTo(WrongArity("geohash")));
        Assert.That(client.Execute("GEOPOS"), Is.EqualTo(WrongArity("geopos")));
    }

    [Test]
    public void StackExchangeRedisClient()
    {
        using var redis = Connect();
        var db = redis.GetDatabase();
        Assert.That(db.GeoAdd("Sicily", [new GeoEntry(13.361389, 38.115556, "Palermo"), new GeoEntry(15.087269, 37.502669, "Catania")]), Is.EqualTo(2));
        Assert.That(db.GeoAdd("Sicily", 13.583333, 37.316667, "Agrigento"), Is.True);
        Assert.That(db.GeoDistance("Sicily", "Palermo", "Catania", GeoUnit.Kilometers), Is.EqualTo(166.2742));
        Assert.That(db.GeoHash("Sicily", "Palermo"), Is.EqualTo("sqc8b49rny0"));
        var position = db.GeoPosition("Sicily", "Catania");
        Assert.That(position!.Value.Longitude, Is.EqualTo(15.087267458438873).Within(1e-12));
        Assert.That(position.Value.Latitude, Is.EqualTo(37.50266842333162).Within(1e-12));
        Assert.That(db.GeoPosition("Sicily", "nowhere"), Is.Null);
        var results = db.GeoRadius("Sicily", "Agrigento", 100, GeoUnit.Kilometers, order: Order.Ascending);
        Assert.That(results.Length, Is.EqualTo(2));
        Assert.That((string?)results[0].Member, Is.EqualTo("Agrigento"));
        Assert.That(results[1].Distance, Is.EqualTo(db.GeoDistance("Sicily", "Agrigento", "Palermo", GeoUnit.Kilometers)));
        Assert.That((string?)results[1].Member, Is.EqualTo("Palermo"));
        db.StringSet("s", "x");
        Assert.Throws<RedisServerException>(() => db.GeoAdd("s", 1, 1, "m"));
    }

    [Test]
    public void BinaryMembers()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("GEOADD", "b", "1", "2", "a\0b", "1", "2", "a\0c", "3", "4", "\xff"), Is.EqualTo(Integer(3)));
        Assert.That(client.Execute("GEODIST", "b", "a\0b", "a\0c"), Is.EqualTo(Bulk("0.0000")));
        Assert.That(client.Execute("GEOHASH", "b", "a\0b", "a"), Does.StartWith("*2\r\n$11\r\n").And.EndWith(Nil));
        Assert.That(client.Execute("GEOSEARCH", "b", "FROMMEMBER", "a\0b", "BYRADIUS", "1", "m", "ASC"), Is.EqualTo(Bulks("a\0b", "a\0c")));
    }
}
