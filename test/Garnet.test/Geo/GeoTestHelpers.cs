using static Garnet.test.StringTestHelpers;

namespace Garnet.test.Geo;

/// <summary>Raw replies and fixtures the geo tests share.</summary>
internal static class GeoTestHelpers
{
    public const string WrongType = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    public const string NullArray = "*-1\r\n";
    public const string EmptyArray = "*0\r\n";

    // Decoded positions of the Sicily members, as Redis prints them.
    public const string PalermoLongitude = "13.36138933897018433", PalermoLatitude = "38.11555639549629859";
    public const string CataniaLongitude = "15.08726745843887329", CataniaLatitude = "37.50266842333162032";
    public const string Edge2Longitude = "17.24151045083999634", EdgeLatitude = "38.78813451624225195";
    public const string Edge1Longitude = "12.7584877610206604";

    /// <summary>An array reply of the given raw items.</summary>
    public static string Array(params string[] items) => $"*{items.Length}\r\n" + string.Concat(items);

    /// <summary>An array of bulk strings.</summary>
    public static string Bulks(params string[] values)
    {
        var items = new string[values.Length];
        for (int i = 0; i < values.Length; i++)
            items[i] = Bulk(values[i]);
        return Array(items);
    }

    /// <summary>A [longitude, latitude] pair in RESP2.</summary>
    public static string Coordinates(string longitude, string latitude) => Array(Bulk(longitude), Bulk(latitude));

    /// <summary>Adds Redis's documentation example: Palermo and Catania, and with edges also edge1 and edge2.</summary>
    public static void AddSicily(RawClient client, string key = "Sicily", bool edges = false)
    {
        client.Execute("GEOADD", key, "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania");
        if (edges)
            client.Execute("GEOADD", key, "12.758489", "38.788135", "edge1", "17.241510", "38.788135", "edge2");
    }

    /// <summary>The New York points of Redis's test suite.</summary>
    public static void AddNewYork(RawClient client)
    {
        client.Execute("GEOADD", "nyc", "-73.9454966", "40.747533", "lic market");
        client.Execute("GEOADD", "nyc", "-73.9733487", "40.7648057", "central park n/q/r", "-73.9903085", "40.7362513", "union square",
            "-74.0131604", "40.7126674", "wtc one", "-73.7858139", "40.6428986", "jfk", "-73.9375699", "40.7498929", "q4",
            "-73.9564142", "40.7480973", "4545");
    }
}
