using NUnit.Framework;
using static Garnet.test.Geo.GeoTestHelpers;
using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Geo;

/// <summary>GEORADIUS, GEORADIUSBYMEMBER and their _RO forms, with STORE and STOREDIST.</summary>
[TestFixture]
public sealed class GeoRadiusTests : ServerTestBase
{
    [Test]
    public void DocumentedGeoRadiusExamples()
    {
        using var client = ConnectRaw();
        AddSicily(client);
        Assert.That(client.Execute("GEORADIUS", "Sicily", "15", "37", "200", "km", "WITHDIST"), Is.EqualTo(Array(
            Array(Bulk("Palermo"), Bulk("190.4424")), Array(Bulk("Catania"), Bulk("56.4413")))));
        Assert.That(client.Execute("GEORADIUS", "Sicily", "15", "37", "200", "km", "WITHCOORD"), Is.EqualTo(Array(
            Array(Bulk("Palermo"), Coordinates(PalermoLongitude, PalermoLatitude)),
            Array(Bulk("Catania"), Coordinates(CataniaLongitude, CataniaLatitude)))));
        Assert.That(client.Execute("GEORADIUS", "Sicily", "15", "37", "200", "km", "WITHDIST", "WITHCOORD"), Is.EqualTo(Array(
            Array(Bulk("Palermo"), Bulk("190.4424"), Coordinates(PalermoLongitude, PalermoLatitude)),
            Array(Bulk("Catania"), Bulk("56.4413"), Coordinates(CataniaLongitude, CataniaLatitude)))));
        Assert.That(client.Execute("GEORADIUS_RO", "Sicily", "15", "37", "200", "km", "ASC"), Is.EqualTo(Bulks("Catania", "Palermo")));
    }

    [Test]
    public void DocumentedGeoRadiusByMemberExample()
    {
        using var client = ConnectRaw();
        client.Execute("GEOADD", "Sicily", "13.583333", "37.316667", "Agrigento");
        AddSicily(client);
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "Sicily", "Agrigento", "100", "km"), Is.EqualTo(Bulks("Agrigento", "Palermo")));
        Assert.That(client.Execute("GEORADIUSBYMEMBER_RO", "Sicily", "Agrigento", "100", "km"), Is.EqualTo(Bulks("Agrigento", "Palermo")));
    }

    [Test]
    public void RedisSuiteRadiusSearches()
    {
        using var client = ConnectRaw();
        AddNewYork(client);
        Assert.That(client.Execute("GEORADIUS", "nyc", "-73.9798091", "40.7598464", "3", "km", "asc"), Is.EqualTo(Bulks("central park n/q/r", "4545", "union square")));
        Assert.That(client.Execute("GEORADIUS_RO", "nyc", "-73.9798091", "40.7598464", "3", "km", "asc"), Is.EqualTo(Bulks("central park n/q/r", "4545", "union square")));
        Assert.That(client.Execute("GEORADIUS", "nyc", "-73.9798091", "40.7598464", "3", "km", "withdist", "asc"), Is.EqualTo(Array(
            Array(Bulk("central park n/q/r"), Bulk("0.7750")), Array(Bulk("4545"), Bulk("2.3651")), Array(Bulk("union square"), Bulk("2.7697")))));
        Assert.That(client.Execute("GEORADIUS", "nyc", "-73.9798091", "40.7598464", "10", "km", "COUNT", "3"), Is.EqualTo(Bulks("central park n/q/r", "4545", "union square")));
        Assert.That(client.Execute("GEORADIUS", "nyc", "-73.9798091", "40.7598464", "10", "km", "COUNT", "3", "ANY"), Is.EqualTo(Bulks("wtc one", "union square", "central park n/q/r")));
        Assert.That(client.Execute("GEORADIUS", "nyc", "-73.9798091", "40.7598464", "10", "km", "COUNT", "3", "ANY", "ASC"), Is.EqualTo(Bulks("central park n/q/r", "union square", "wtc one")));
        Assert.That(client.Execute("GEORADIUS", "nyc", "-73.9798091", "40.7598464", "10", "km", "COUNT", "2", "DESC"), Is.EqualTo(Bulks("wtc one", "q4")));
        Assert.That(client.Execute("GEORADIUS", "nyc", "-73.9798091", "40.7598464", "10", "km", "WITHCOORD", "WITHHASH", "COUNT", "2"), Does.StartWith(
            "*2\r\n*3\r\n" + Bulk("central park n/q/r") + Integer(1791875761332224) + "*2\r\n$").And.Contain("\r\n-73.97334"));
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "nyc", "wtc one", "7", "km"), Is.EqualTo(Bulks("wtc one", "union square", "central park n/q/r", "4545", "lic market")));
        Assert.That(client.Execute("GEORADIUSBYMEMBER_RO", "nyc", "wtc one", "7", "km"), Is.EqualTo(Bulks("wtc one", "union square", "central park n/q/r", "4545", "lic market")));
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "nyc", "wtc one", "7", "km", "withdist"), Is.EqualTo(Array(
            Array(Bulk("wtc one"), Bulk("0.0000")), Array(Bulk("union square"), Bulk("3.2544")), Array(Bulk("central park n/q/r"), Bulk("6.7000")),
            Array(Bulk("4545"), Bulk("6.1975")), Array(Bulk("lic market"), Bulk("6.8969")))));
    }

    [Test]
    public void HugeRadiusAndPoles()
    {
        using var client = ConnectRaw();
        client.Execute("GEOADD", "users", "-47.271613776683807", "-54.534504198047678", "user_000000");
        Assert.That(client.Execute("GEORADIUS", "users", "0", "0", "50000", "km", "WITHCOORD"), Does.StartWith("*1\r\n"));

        client.Execute("GEOADD", "k1", "-0.15307903289794921875", "85", "n1", "0.3515625", "85.00019260486917005437", "n2");
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "k1", "n1", "4891.94", "m"), Is.EqualTo(Bulks("n1", "n2")));
        client.Execute("DEL", "k1");
        client.Execute("GEOADD", "k1", "-4.95211958885192871094", "85", "n3", "11.25", "85.0511", "n4");
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "k1", "n3", "156544", "m"), Is.EqualTo(Bulks("n3", "n4")));
        client.Execute("DEL", "k1");
        client.Execute("GEOADD", "k1", "-45", "65.50900022111811438208", "n5", "90", "85.0511", "n6");
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "k1", "n5", "5009431", "m"), Is.EqualTo(Bulks("n5", "n6")));
        client.Execute("DEL", "k1");
        client.Execute("GEOADD", "k1", "45", "65", "n1", "-135", "85.05", "n2");
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "k1", "n1", "5009431", "m"), Is.EqualTo(Bulks("n1", "n2")));
    }

    [Test]
    public void StoreAndStoreDist()
    {
        using var client = ConnectRaw();
        AddSicily(client, "points");
        Assert.That(client.Execute("GEORADIUS", "points", "13.361389", "38.115556", "500", "km", "STORE", "points2"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZSCORE", "points2", "Palermo"), Is.EqualTo(Bulk("3479099956230698")));
        Assert.That(client.Execute("ZSCORE", "points2", "Catania"), Is.EqualTo(Bulk("3479447370796909")));

        Assert.That(client.Execute("GEORADIUSBYMEMBER", "points", "Catania", "500", "km", "storedist", "points2"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("ZSCORE", "points2", "Catania"), Is.EqualTo(Bulk("0")));
        Assert.That(client.Execute("ZSCORE", "points2", "Palermo"), Does.StartWith("$").And.Contain("166.274"));

        Assert.That(client.Execute("GEORADIUS", "points", "13.361389", "38.115556", "500", "km", "storedist", "points2", "asc", "count", "1"), Is.EqualTo(Integer(1)));
        // Palermo's decoded position is a few centimeters from the query's centre.
        Assert.That(client.Execute("ZSCORE", "points2", "Palermo"), Is.EqualTo(Bulk("5.305637438600993e-05")));
        Assert.That(client.Execute("ZSCORE", "points2", "Catania"), Is.EqualTo(Nil));
        Assert.That(client.Execute("GEORADIUS", "points", "13.361389", "38.115556", "500", "km", "storedist", "points2", "desc", "count", "1"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZSCORE", "points2", "Catania"), Does.Contain("166.27"));
        Assert.That(client.Execute("ZSCORE", "points2", "Palermo"), Is.EqualTo(Nil));

        // The last STORE/STOREDIST wins.
        Assert.That(client.Execute("GEORADIUS", "points", "13.361389", "38.115556", "500", "km", "STOREDIST", "a", "STORE", "b"), Is.EqualTo(Integer(2)));
        Assert.That(client.Execute("EXISTS", "a", "b"), Is.EqualTo(Integer(1)));
        Assert.That(client.Execute("ZSCORE", "b", "Palermo"), Is.EqualTo(Bulk("3479099956230698")));

        // An empty result deletes the destination.
        Assert.That(client.Execute("GEORADIUS", "points", "0", "0", "1", "km", "STORE", "b"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "b"), Is.EqualTo(Integer(0)));
        client.Execute("SET", "b", "x");
        Assert.That(client.Execute("GEORADIUS", "missing", "0", "0", "1", "km", "STORE", "b"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "b"), Is.EqualTo(Integer(0)));
        client.Execute("SET", "b", "x");
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "missing", "member", "1", "km", "STORE", "b"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("EXISTS", "b"), Is.EqualTo(Integer(0)));
    }

    [Test]
    public void MissingKey()
    {
        using var client = ConnectRaw();
        Assert.That(client.Execute("GEORADIUS", "src", "1", "1", "1", "km"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("GEORADIUS_RO", "src", "1", "1", "1", "km"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "src", "member", "1", "km"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("GEORADIUSBYMEMBER_RO", "src", "member", "1", "km"), Is.EqualTo(EmptyArray));
        // With no key Redis skips the member and radius but still parses the options.
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "src", "member", "x", "parsecs"), Is.EqualTo(EmptyArray));
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "src", "member", "1", "km", "bogus"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEORADIUS", "src", "200", "1", "1", "km"), Is.EqualTo(Error("ERR invalid longitude,latitude pair 200.000000,1.000000")));
        Assert.That(client.Execute("GEORADIUS", "src", "1", "1", "-1", "km"), Is.EqualTo(Error("ERR radius cannot be negative")));
    }

    [Test]
    public void Errors()
    {
        using var client = ConnectRaw();
        AddSicily(client, "points");
        AddNewYork(client);
        Assert.That(client.Execute("GEORADIUS", "points", "13.361389", "38.115556", "50", "km", "store"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEORADIUS", "points", "13.361389", "38.115556", "50", "km", "store", "p2", "withdist"),
            Is.EqualTo(Error("ERR STORE option in GEORADIUS is not compatible with WITHDIST, WITHHASH and WITHCOORD options")));
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "points", "Palermo", "50", "km", "withhash", "storedist", "p2"),
            Is.EqualTo(Error("ERR STORE option in GEORADIUS is not compatible with WITHDIST, WITHHASH and WITHCOORD options")));
        Assert.That(client.Execute("GEORADIUS", "points", "13.361389", "38.115556", "50", "km", "store", "p2", "withcoords"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("EXISTS", "p2"), Is.EqualTo(Integer(0)));
        Assert.That(client.Execute("GEORADIUS_RO", "points", "13.361389", "38.115556", "50", "km", "store", "p2"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEORADIUSBYMEMBER_RO", "points", "Palermo", "50", "km", "storedist", "p2"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEORADIUS", "points", "13.361389", "38.115556", "50", "km", "fromlonlat", "1", "1"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEORADIUS", "nyc", "-73.9798091", "40.7598464", "10", "km", "ANY", "ASC"), Is.EqualTo(Error("ERR the ANY argument requires COUNT argument")));
        Assert.That(client.Execute("GEORADIUS", "nyc", "-73.9798091", "40.7598464", "10", "km", "COUNT"), Is.EqualTo(SyntaxError));
        Assert.That(client.Execute("GEORADIUS", "nyc", "-73.9798091", "40.7598464", "10", "km", "COUNT", "0"), Is.EqualTo(Error("ERR COUNT must be > 0")));
        Assert.That(client.Execute("GEORADIUS", "nyc", "x", "40.7598464", "10", "km"), Is.EqualTo(NotFloat));
        Assert.That(client.Execute("GEORADIUS", "nyc", "-73.9798091", "40.7598464", "ten", "km"), Is.EqualTo(Error("ERR need numeric radius")));
        Assert.That(client.Execute("GEORADIUS", "nyc", "-73.9798091", "40.7598464", "10", "kms"), Is.EqualTo(Error("ERR unsupported unit provided. please use M, KM, FT, MI")));
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "points", "none_exist_member", "300", "KM"), Is.EqualTo(Error("ERR could not decode requested zset member")));
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "points", "none_exist_member", "300", "KM", "STORE", "p2"), Is.EqualTo(Error("ERR could not decode requested zset member")));
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "points", "Palermo", "x", "KM"), Is.EqualTo(Error("ERR need numeric radius")));
        Assert.That(client.Execute("GEORADIUS", "points", "1", "2", "3"), Is.EqualTo(WrongArity("georadius")));
        Assert.That(client.Execute("GEORADIUSBYMEMBER_RO", "points", "1", "2"), Is.EqualTo(WrongArity("georadiusbymember_ro")));
    }

    [Test]
    public void WrongType()
    {
        using var client = ConnectRaw();
        client.Execute("SET", "src", "wrong_type");
        Assert.That(client.Execute("GEORADIUS", "src", "1", "1", "1", "km"), Is.EqualTo(GeoTestHelpers.WrongType));
        Assert.That(client.Execute("GEORADIUS", "src", "1", "1", "1", "km", "store", "dest"), Is.EqualTo(GeoTestHelpers.WrongType));
        Assert.That(client.Execute("GEORADIUS_RO", "src", "1", "1", "1", "km"), Is.EqualTo(GeoTestHelpers.WrongType));
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "src", "member", "1", "km"), Is.EqualTo(GeoTestHelpers.WrongType));
        Assert.That(client.Execute("GEORADIUSBYMEMBER", "src", "member", "1", "km", "store", "dest"), Is.EqualTo(GeoTestHelpers.WrongType));
        Assert.That(client.Execute("GEORADIUSBYMEMBER_RO", "src", "member", "1", "km"), Is.EqualTo(GeoTestHelpers.WrongType));
        // Redis looks the key up before it parses anything.
        Assert.That(client.Execute("GEORADIUS", "src", "x", "y", "z", "w"), Is.EqualTo(GeoTestHelpers.WrongType));
        Assert.That(client.Execute("EXISTS", "dest"), Is.EqualTo(Integer(0)));
    }
}
