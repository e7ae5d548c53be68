using System;
using System.Globalization;

namespace Garnet.server;

/// <summary>A cell of the geohash grid: its interleaved bits and how many bits per coordinate it uses.</summary>
public readonly record struct GeoHashCell(ulong Bits, int Step)
{
    /// <summary>Whether this is the "no cell" marker of a neighbour a search excludes.</summary>
    public bool IsZero => Bits == 0 && Step == 0;
}

/// <summary>The rectangle of longitudes and latitudes a cell covers.</summary>
public readonly record struct GeoHashArea(double MinLongitude, double MaxLongitude, double MinLatitude, double MaxLatitude);

/// <summary>
/// Redis's geohash arithmetic, reproduced bit for bit so scores, positions, hashes and distances
/// match Redis's replies: positions are 52-bit integers (26 bits per coordinate, longitude in the odd
/// bits, latitude in the even ones) over longitudes ±180 and Web Mercator latitudes ±85.05112878,
/// stored as sorted set scores; a position decodes to the centre of its cell.
/// </summary>
public static class GeoHash
{
    /// <summary>Bits per coordinate of a stored position.</summary>
    public const int MaxStep = 26;

    public const double MinLongitude = -180;
    public const double MaxLongitude = 180;
    public const double MinLatitude = -85.05112878;
    public const double MaxLatitude = 85.05112878;

    /// <summary>The earth radius Redis uses for distances, in meters.</summary>
    public const double EarthRadiusMeters = 6372797.560856;

    /// <summary>Half the Web Mercator world width, in meters: the radius above which step 1 is used.</summary>
    private const double MercatorMax = 20037726.37;

    private const double DegreesToRadians = Math.PI / 180.0;

    private static ReadOnlySpan<byte> Base32 => "0123456789bcdefghjkmnpqrstuvwxyz"u8;

    /// <summary>Whether Redis accepts the pair as a position (GEOADD, FROMLONLAT, GEORADIUS).</summary>
    public static bool IsValid(double longitude, double latitude)
        => longitude >= MinLongitude && longitude <= MaxLongitude && latitude >= MinLatitude && latitude <= MaxLatitude;

    /// <summary>The score GEOADD stores for a position (its 52-bit hash as a double).</summary>
    public static double Score(double longitude, double latitude)
        => Align52(Encode(longitude, latitude, MaxStep));

    /// <summary>The cell of <paramref name="step"/> bits per coordinate holding the position (geohashEncodeWGS84).</summary>
    public static GeoHashCell Encode(double longitude, double latitude, int step)
        => Encode(longitude, latitude, step, MinLatitude, MaxLatitude);

    private static GeoHashCell Encode(double longitude, double latitude, int step, double minLatitude, double maxLatitude)
    {
        if (!IsValid(longitude, latitude) || latitude < minLatitude || latitude > maxLatitude)
            return new GeoHashCell(0, step);
        double latitudeOffset = (latitude - minLatitude) / (maxLatitude - minLatitude);
        double longitudeOffset = (longitude - MinLongitude) / (MaxLongitude - MinLongitude);
        latitudeOffset *= 1UL << step;
        longitudeOffset *= 1UL << step;
        return new GeoHashCell(Interleave((uint)latitudeOffset, (uint)longitudeOffset), step);
    }

    /// <summary>The cell's bits shifted to the 52-bit scale of scores.</summary>
    public static ulong Align52(GeoHashCell cell) => cell.Bits << (52 - cell.Step * 2);

    /// <summary>The full-precision cell a score stands for (Redis casts the score to an integer).</summary>
    public static GeoHashCell FromScore(double score)
    {
        ulong bits = score <= 0 || double.IsNaN(score) ? 0 : score >= 18446744073709551615.0 ? ulong.MaxValue : (ulong)score;
        return new GeoHashCell(bits, MaxStep);
    }

    /// <summary>The rectangle <paramref name="cell"/> covers (geohashDecode over the WGS84 ranges).</summary>
    public static GeoHashArea Decode(GeoHashCell cell)
    {
        ulong separated = Deinterleave(cell.Bits);
        double latitudeScale = MaxLatitude - MinLatitude;
        double longitudeScale = MaxLongitude - MinLongitude;
        uint latitudeBits = (uint)separated;
        uint longitudeBits = (uint)(separated >> 32);
        double cells = 1UL << cell.Step;
        return new GeoHashArea(
            MinLongitude + (longitudeBits * 1.0 / cells) * longitudeScale,
            MinLongitude + ((longitudeBits + 1.0) * 1.0 / cells) * longitudeScale,
            MinLatitude + (latitudeBits * 1.0 / cells) * latitudeScale,
            MinLatitude + ((latitudeBits + 1.0) * 1.0 / cells) * latitudeScale);
    }

    /// <summary>The position a score stands for: the centre of its cell, clamped to the valid ranges.</summary>
    public static (double Longitude, double Latitude) DecodeScore(double score)
    {
        var area = Decode(FromScore(score));
        double longitude = Math.Clamp((area.MinLongitude + area.MaxLongitude) / 2, MinLongitude, MaxLongitude);
        double latitude = Math.Clamp((area.MinLatitude + area.MaxLatitude) / 2, MinLatitude, MaxLatitude);
        return (longitude, latitude);
    }

    /// <summary>
    /// The 11-character standard geohash of a score (GEOHASH): the decoded position re-encoded over
    /// latitudes ±90, 52 bits in ten base-32 characters and a final '0'.
    /// </summary>
    public static void FormatStandard(double score, Span<byte> destination)
    {
        var (longitude, latitude) = DecodeScore(score);
        ulong bits = Encode(longitude, latitude, MaxStep, -90, 90).Bits;
        for (int i = 0; i < 11; i++)
        {
            int index = i == 10 ? 0 : (int)((bits >> (52 - (i + 1) * 5)) & 0x1f);
            destination[i] = Base32[index];
        }
    }

    /// <summary>Great-circle distance in meters between two positions (haversine, as Redis computes it).</summary>
    public static double Distance(double longitude1, double latitude1, double longitude2, double latitude2)
    {
        double longitude1Radians = longitude1 * DegreesToRadians;
        double longitude2Radians = longitude2 * DegreesToRadians;
        double v = Math.Sin((longitude2Radians - longitude1Radians) / 2);
        // Same meridian: the distance is along it, which needs no trigonometry.
        if (v == 0.0)
            return LatitudeDistance(latitude1, latitude2);
        double latitude1Radians = latitude1 * DegreesToRadians;
        double latitude2Radians = latitude2 * DegreesToRadians;
        double u = Math.Sin((latitude2Radians - latitude1Radians) / 2);
        double a = u * u + Math.Cos(latitude1Radians) * Math.Cos(latitude2Radians) * v * v;
        return 2.0 * EarthRadiusMeters * Math.Asin(Math.Sqrt(a));
    }

    /// <summary>
    /// Formats like Redis's fixedpoint_d2string(..., 4): the value times 10^4 rounded to the nearest
    /// integer (ties to even), then split at the fourth digit.
    /// </summary>
    public static int FormatDistance(double distance, Span<byte> destination)
    {
        double scaled = Math.Round(distance * 10000.0, MidpointRounding.ToEven);
        if (double.IsNaN(scaled) || Math.Abs(scaled) >= 9.2e18)
        {
            // Out of fixed-point range (not reachable with earth distances): print it plainly.
            string fallback = distance.ToString("F4", CultureInfo.InvariantCulture);
            for (int i = 0; i < fallback.Length; i++)
                destination[i] = (byte)fallback[i];
            return fallback.Length;
        }
        long units = (long)scaled;
        int length = 0;
        if (units < 0)
        {
            destination[length++] = (byte)'-';
            units = -units;
        }
        string integerPart = (units / 10000).ToString(CultureInfo.InvariantCulture);
        string fraction = (units % 10000).ToString("D4", CultureInfo.InvariantCulture);
        foreach (char c in integerPart)
            destination[length++] = (byte)c;
        destination[length++] = (byte)'.';
        foreach (char c in fraction)
            destination[length++] = (byte)c;
        return length;
    }

    /// <summary>Distance in meters along a meridian between two latitudes.</summary>
    public static double LatitudeDistance(double latitude1, double latitude2)
        => EarthRadiusMeters * Math.Abs(latitude2 * DegreesToRadians - latitude1 * DegreesToRadians);

    /// <summary>
    /// Whether a point lies in the box of <paramref name="widthMeters"/> by <paramref name="heightMeters"/>
    /// centred on (<paramref name="centerLongitude"/>, <paramref name="centerLatitude"/>), with its
    /// distance from the centre when it does (Redis's geohashGetDistanceIfInRectangle).
    /// </summary>
    public static bool InBox(double widthMeters, double heightMeters, double centerLongitude, double centerLatitude,
        double longitude, double latitude, out double distance)
    {
        distance = 0;
        if (LatitudeDistance(latitude, centerLatitude) > heightMeters / 2)
            return false;
        if (Distance(longitude, latitude, centerLongitude, latitude) > widthMeters / 2)
            return false;
        distance = Distance(centerLongitude, centerLatitude, longitude, latitude);
        return true;
    }

    /// <summary>The step whose cells are about as large as the search radius (geohashEstimateStepsByRadius).</summary>
    public static int EstimateStep(double radiusMeters, double latitude)
    {
        if (radiusMeters == 0)
            return MaxStep;
        int step = 1;
        while (radiusMeters < MercatorMax)
        {
            radiusMeters *= 2;
            step++;
        }
        step -= 2;
        // Cells narrow towards the poles, so use larger ones there.
        if (latitude > 66 || latitude < -66)
        {
            step--;
            if (latitude > 80 || latitude < -80)
                step--;
        }
        return Math.Clamp(step, 1, MaxStep);
    }

    /// <summary>
    /// The cells a search must scan, in Redis's order: the centre's cell, then north, south, east,
    /// west, north-east, north-west, south-east, south-west neighbours; neighbours that cannot hold a
    /// match are zero cells (geohashCalculateAreasByShapeWGS84).
    /// </summary>
    /// <param name="longitude">Centre longitude.</param>
    /// <param name="latitude">Centre latitude.</param>
    /// <param name="halfWidthMeters">Radius of a circle, or half the width of a box.</param>
    /// <param name="halfHeightMeters">Radius of a circle, or half the height of a box.</param>
    /// <param name="radiusMeters">Radius of a circle, or the centre-to-corner distance of a box.</param>
    /// <param name="cells">Receives the nine cells.</param>
    public static void SearchCells(double longitude, double latitude, double halfWidthMeters, double halfHeightMeters,
        double radiusMeters, Span<GeoHashCell> cells)
    {
        double latitudeDelta = (halfHeightMeters / EarthRadiusMeters) / DegreesToRadians;
        double longitudeDeltaTop = (halfWidthMeters / EarthRadiusMeters / Math.Cos((latitude + latitudeDelta) * DegreesToRadians)) / DegreesToRadians;
        double longitudeDeltaBottom = (halfWidthMeters / EarthRadiusMeters / Math.Cos((latitude - latitudeDelta) * DegreesToRadians)) / DegreesToRadians;
        // The box is widest on the side nearer the equator.
        bool southern = latitude < 0;
        double minLongitude = southern ? longitude - longitudeDeltaBottom : longitude - longitudeDeltaTop;
        double maxLongitude = southern ? longitude + longitudeDeltaBottom : longitude + longitudeDeltaTop;
        double minLatitude = latitude - latitudeDelta;
        double maxLatitude = latitude + latitudeDelta;

        int step = EstimateStep(radiusMeters, latitude);
        var center = Encode(longitude, latitude, step);
        Neighbours(center, cells);
        var area = Decode(center);

        // Near a cell edge the estimated step can leave part of the area outside the nine cells.
        bool decrease = Decode(cells[1]).MaxLatitude < maxLatitude
            || Decode(cells[2]).MinLatitude > minLatitude
            || Decode(cells[3]).MaxLongitude < maxLongitude
            || Decode(cells[4]).MinLongitude > minLongitude;
        if (step > 1 && decrease)
        {
            step--;
            center = Encode(longitude, latitude, step);
            Neighbours(center, cells);
            area = Decode(center);
        }

        // Drop the neighbours the area does not reach.
        if (step >= 2)
        {
            if (area.MinLatitude < minLatitude)
                cells[2] = cells[7] = cells[8] = default;
            if (area.MaxLatitude > maxLatitude)
                cells[1] = cells[5] = cells[6] = default;
            if (area.MinLongitude < minLongitude)
                cells[4] = cells[8] = cells[6] = default;
            if (area.MaxLongitude > maxLongitude)
                cells[3] = cells[7] = cells[5] = default;
        }
    }

    /// <summary>The score range [min, max) of the positions inside <paramref name="cell"/>.</summary>
    public static (ulong Min, ulong Max) ScoreRange(GeoHashCell cell)
        => (Align52(cell), Align52(cell with { Bits = cell.Bits + 1 }));

    private static void Neighbours(GeoHashCell cell, Span<GeoHashCell> cells)
    {
        cells[0] = cell;
        cells[1] = Move(cell, 0, 1);
        cells[2] = Move(cell, 0, -1);
        cells[3] = Move(cell, 1, 0);
        cells[4] = Move(cell, -1, 0);
        cells[5] = Move(cell, 1, 1);
        cells[6] = Move(cell, -1, 1);
        cells[7] = Move(cell, 1, -1);
        cells[8] = Move(cell, -1, -1);
    }

    // Moves a cell by whole cells east/west (longitude, odd bits) and north/south (latitude, even
    // bits), wrapping around at the edges of the grid as Redis's geohash_move_x/geohash_move_y do.
    private static GeoHashCell Move(GeoHashCell cell, int dx, int dy)
    {
        ulong bits = cell.Bits;
        int shift = 64 - cell.Step * 2;
        if (dx != 0)
        {
            ulong x = bits & 0xaaaaaaaaaaaaaaaaUL;
            ulong y = bits & 0x5555555555555555UL;
            ulong zz = 0x5555555555555555UL >> shift;
            x = dx > 0 ? x + (zz + 1) : (x | zz) - (zz + 1);
            x &= 0xaaaaaaaaaaaaaaaaUL >> shift;
            bits = x | y;
        }
        if (dy != 0)
        {
            ulong x = bits & 0xaaaaaaaaaaaaaaaaUL;
            ulong y = bits & 0x5555555555555555UL;
            ulong zz = 0xaaaaaaaaaaaaaaaaUL >> shift;
            y = dy > 0 ? y + (zz + 1) : (y | zz) - (zz + 1);
            y &= 0x5555555555555555UL >> shift;
            bits = x | y;
        }
        return cell with { Bits = bits };
    }

    // Latitude bits go to the even positions, longitude bits to the odd ones.
    private static ulong Interleave(uint latitudeBits, uint longitudeBits)
        => Spread(latitudeBits) | (Spread(longitudeBits) << 1);

    private static ulong Spread(uint value)
    {
        ulong x = value;
        x = (x | (x << 16)) & 0x0000FFFF0000FFFFUL;
        x = (x | (x << 8)) & 0x00FF00FF00FF00FFUL;
        x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0FUL;
        x = (x | (x << 2)) & 0x3333333333333333UL;
        x = (x | (x << 1)) & 0x5555555555555555UL;
        return x;
    }

    private static uint Compact(ulong x)
    {
        x &= 0x5555555555555555UL;
        x = (x | (x >> 1)) & 0x3333333333333333UL;
        x = (x | (x >> 2)) & 0x0F0F0F0F0F0F0F0FUL;
        x = (x | (x >> 4)) & 0x00FF00FF00FF00FFUL;
        x = (x | (x >> 8)) & 0x0000FFFF0000FFFFUL;
        x = (x | (x >> 16)) & 0x00000000FFFFFFFFUL;
        return (uint)x;
    }

    // The inverse of Interleave: latitude bits in the low half, longitude bits in the high half.
    private static ulong Deinterleave(ulong bits)
        => Compact(bits) | ((ulong)Compact(bits >> 1) << 32);
}
