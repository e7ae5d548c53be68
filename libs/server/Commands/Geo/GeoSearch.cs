using System;
using System.Collections.Generic;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// GEOSEARCH, GEOSEARCHSTORE, GEORADIUS[_RO] and GEORADIUSBYMEMBER[_RO]: Redis's georadiusGeneric,
/// with its argument order, errors and replies. The *STORE forms compute here under the read latch
/// and hand the result set to the session, which installs it at the destination.
/// </summary>
internal static partial class GeoOperations
{
    private const int SortNone = 0, SortAscending = 1, SortDescending = 2;

    /// <summary>The area a search covers: a circle or a box around a centre, sizes in the query's unit.</summary>
    private struct SearchShape
    {
        public double Longitude, Latitude;
        public bool IsBox;
        public double Radius, Width, Height;

        /// <summary>Meters per unit of the sizes.</summary>
        public double Conversion;
    }

    /// <summary>A match: member, distance from the centre in meters, score, and decoded position.</summary>
    private struct GeoPoint
    {
        public byte[] Member;
        public double Distance;
        public double Score;
        public double Longitude, Latitude;
        public int Order;
    }

    private static void Search(SortedSetObject set, ref ObjectInput input, ref ObjectOutput output)
    {
        var command = input.Command;
        bool exists = set.Count > 0;
        bool isSearch = command is RespCommand.GEOSEARCH or RespCommand.GEOSEARCHSTORE;
        bool storeOptions = command is RespCommand.GEORADIUS or RespCommand.GEORADIUSBYMEMBER;
        ref var writer = ref output.Writer;

        var shape = default(SearchShape);
        int baseArgs = 0;
        if (command is RespCommand.GEORADIUS or RespCommand.GEORADIUS_RO)
        {
            baseArgs = 4;
            if (!TryParseLongitudeLatitude(input.Arg(0), input.Arg(1), ref writer, out shape.Longitude, out shape.Latitude)
                || !TryParseRadius(input.Arg(2), input.Arg(3), ref writer, ref shape))
                return;
        }
        else if (command is RespCommand.GEORADIUSBYMEMBER or RespCommand.GEORADIUSBYMEMBER_RO)
        {
            baseArgs = 3;
            // On a missing key Redis skips the member and radius, parsing only the options.
            if (exists)
            {
                if (!TryMemberPosition(set, input.Arg(0), ref writer, ref shape)
                    || !TryParseRadius(input.Arg(1), input.Arg(2), ref writer, ref shape))
                    return;
            }
        }

        int storeKeyIndex = command == RespCommand.GEOSEARCHSTORE ? 1 : 0;
        bool storeDistance = false;
        bool withDistance = false, withHash = false, withCoordinates = false;
        bool fromMember = false, fromLonLat = false, byRadius = false, byBox = false;
        bool any = false;
        int sort = SortNone;
        long count = 0;
        int remaining = input.ArgCount - baseArgs;
        for (int i = 0; i < remaining; i++)
        {
            var arg = input.Arg(baseArgs + i);
            if (Ascii.EqualsIgnoreCase(arg, "WITHDIST"u8))
                withDistance = true;
            else if (Ascii.EqualsIgnoreCase(arg, "WITHHASH"u8))
                withHash = true;
            else if (Ascii.EqualsIgnoreCase(arg, "WITHCOORD"u8))
                withCoordinates = true;
            else if (Ascii.EqualsIgnoreCase(arg, "ANY"u8))
                any = true;
            else if (Ascii.EqualsIgnoreCase(arg, "ASC"u8))
                sort = SortAscending;
            else if (Ascii.EqualsIgnoreCase(arg, "DESC"u8))
                sort = SortDescending;
            else if (Ascii.EqualsIgnoreCase(arg, "COUNT"u8) && i + 1 < remaining)
            {
                if (!NumberFormat.TryParseLong(input.Arg(baseArgs + i + 1), out count))
                {
                    writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (count <= 0)
                {
                    writer.WriteError(GeoStrings.ErrCountNotPositive);
                    return;
                }
                i++;
            }
            else if (storeOptions && i + 1 < remaining && Ascii.EqualsIgnoreCase(arg, "STORE"u8))
            {
                storeKeyIndex = input.FirstArg + baseArgs + i + 1;
                storeDistance = false;
                i++;
            }
            else if (storeOptions && i + 1 < remaining && Ascii.EqualsIgnoreCase(arg, "STOREDIST"u8))
            {
                storeKeyIndex = input.FirstArg + baseArgs + i + 1;
                storeDistance = true;
                i++;
            }
            else if (command == RespCommand.GEOSEARCHSTORE && Ascii.EqualsIgnoreCase(arg, "STOREDIST"u8))
                storeDistance = true;
            else if (isSearch && i + 1 < remaining && Ascii.EqualsIgnoreCase(arg, "FROMMEMBER"u8))
            {
                if (fromLonLat)
                {
                    writer.WriteError(RespStrings.ErrSyntax);
                    return;
                }
                if (exists && !TryMemberPosition(set, input.Arg(baseArgs + i + 1), ref writer, ref shape))
                    return;
                fromMember = true;
                i++;
            }
            else if (isSearch && i + 2 < remaining && Ascii.EqualsIgnoreCase(arg, "FROMLONLAT"u8))
            {
                if (fromMember)
                {
                    writer.WriteError(RespStrings.ErrSyntax);
                    return;
                }
                if (!TryParseLongitudeLatitude(input.Arg(baseArgs + i + 1), input.Arg(baseArgs + i + 2), ref writer,
                        out shape.Longitude, out shape.Latitude))
                    return;
                fromLonLat = true;
                i += 2;
            }
            else if (isSearch && i + 2 < remaining && Ascii.EqualsIgnoreCase(arg, "BYRADIUS"u8))
            {
                if (byBox)
                {
                    writer.WriteError(RespStrings.ErrSyntax);
                    return;
                }
                if (!TryParseRadius(input.Arg(baseArgs + i + 1), input.Arg(baseArgs + i + 2), ref writer, ref shape))
                    return;
                byRadius = true;
                i += 2;
            }
            else if (isSearch && i + 3 < remaining && Ascii.EqualsIgnoreCase(arg, "BYBOX"u8))
            {
                if (byRadius)
                {
                    writer.WriteError(RespStrings.ErrSyntax);
                    return;
                }
                if (!TryParseBox(input.Arg(baseArgs + i + 1), input.Arg(baseArgs + i + 2), input.Arg(baseArgs + i + 3), ref writer, ref shape))
                    return;
                byBox = true;
                i += 3;
            }
            else
            {
                writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }

        bool store = storeKeyIndex != 0;
        if (store && (withDistance || withHash || withCoordinates))
        {
            writer.WriteError(command == RespCommand.GEOSEARCHSTORE ? GeoStrings.ErrSearchStoreWithOptions : GeoStrings.ErrStoreWithOptions);
            return;
        }
        if (isSearch && !(fromMember || fromLonLat))
        {
            writer.WriteError($"ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for {CommandName(ref input)}");
            return;
        }
        if (isSearch && !(byRadius || byBox))
        {
            writer.WriteError($"ERR exactly one of BYRADIUS and BYBOX can be specified for {CommandName(ref input)}");
            return;
        }
        if (any && count == 0)
        {
            writer.WriteError(GeoStrings.ErrAnyRequiresCount);
            return;
        }

        if (!exists)
        {
            // A missing source: the destination is deleted (an empty result) and the count is 0.
            if (store)
            {
                output.Number = storeKeyIndex;
                output.Object = null;
                writer.WriteInteger(0);
            }
            else
            {
                writer.WriteArrayHeader(0);
            }
            return;
        }

        // COUNT keeps the nearest matches, so it implies ASC unless ANY asked for the first ones found.
        if (count != 0 && sort == SortNone && !any)
            sort = SortAscending;

        var points = FindPoints(set, in shape, any ? count : 0);
        if (sort != SortNone)
            points.Sort(sort == SortAscending ? s_ascending : s_descending);
        int returned = count == 0 || points.Count < count ? points.Count : (int)count;

        if (store)
        {
            var result = new SortedSetObject();
            for (int i = 0; i < returned; i++)
            {
                var point = points[i];
                result.AddOrUpdate(point.Member, storeDistance ? point.Distance / shape.Conversion : point.Score);
            }
            output.Number = storeKeyIndex;
            output.Object = result;
            writer.WriteInteger(returned);
            return;
        }

        int options = (withDistance ? 1 : 0) + (withHash ? 1 : 0) + (withCoordinates ? 1 : 0);
        writer.WriteArrayHeader(returned);
        for (int i = 0; i < returned; i++)
        {
            var point = points[i];
            if (options > 0)
                writer.WriteArrayHeader(options + 1);
            writer.WriteBulk(point.Member);
            if (withDistance)
                WriteDistance(ref writer, point.Distance / shape.Conversion);
            if (withHash)
                writer.WriteInteger((long)point.Score);
            if (withCoordinates)
                WriteCoordinates(ref writer, point.Longitude, point.Latitude);
        }
    }

    private static readonly Comparison<GeoPoint> s_ascending = (a, b) =>
    {
        int order = a.Distance.CompareTo(b.Distance);
        return order != 0 ? order : a.Order.CompareTo(b.Order);
    };

    private static readonly Comparison<GeoPoint> s_descending = (a, b) =>
    {
        int order = b.Distance.CompareTo(a.Distance);
        return order != 0 ? order : a.Order.CompareTo(b.Order);
    };

    /// <summary>
    /// The members inside the shape: the scores of the centre's cell and its neighbours (Redis's order,
    /// skipping a cell equal to the one scanned just before), each filtered by exact distance or box
    /// test; with <paramref name="limit"/> (ANY) it stops once that many are found.
    /// </summary>
    private static List<GeoPoint> FindPoints(SortedSetObject set, in SearchShape shape, long limit)
    {
        double halfWidth, halfHeight, radius;
        if (shape.IsBox)
        {
            halfWidth = shape.Width / 2 * shape.Conversion;
            halfHeight = shape.Height / 2 * shape.Conversion;
            radius = Math.Sqrt((shape.Width / 2) * (shape.Width / 2) + (shape.Height / 2) * (shape.Height / 2)) * shape.Conversion;
        }
        else
        {
            halfWidth = halfHeight = radius = shape.Radius * shape.Conversion;
        }
        Span<GeoHashCell> cells = stackalloc GeoHashCell[9];
        GeoHash.SearchCells(shape.Longitude, shape.Latitude, halfWidth, halfHeight, radius, cells);

        var points = new List<GeoPoint>();
        var range = new List<(byte[] Member, double Score)>();
        int lastScanned = 0;
        for (int i = 0; i < cells.Length; i++)
        {
            if (cells[i].IsZero)
                continue;
            // Huge areas make neighbours coincide; Redis compares with the last cell it scanned.
            if (lastScanned != 0 && cells[i] == cells[lastScanned])
                continue;
            if (limit > 0 && points.Count >= limit)
                break;
            var (min, max) = GeoHash.ScoreRange(cells[i]);
            range.Clear();
            set.RangeByScore(min, max, range);
            foreach (var (member, score) in range)
            {
                if (score >= max)
                    continue;
                var (longitude, latitude) = GeoHash.DecodeScore(score);
                double distance;
                bool inside = shape.IsBox
                    ? GeoHash.InBox(shape.Width * shape.Conversion, shape.Height * shape.Conversion, shape.Longitude, shape.Latitude, longitude, latitude, out distance)
                    : (distance = GeoHash.Distance(shape.Longitude, shape.Latitude, longitude, latitude)) <= shape.Radius * shape.Conversion;
                if (!inside)
                    continue;
                points.Add(new GeoPoint
                {
                    Member = member,
                    Distance = distance,
                    Score = score,
                    Longitude = longitude,
                    Latitude = latitude,
                    Order = points.Count,
                });
                if (limit > 0 && points.Count >= limit)
                    break;
            }
            lastScanned = i;
        }
        return points;
    }

    private static bool TryMemberPosition(SortedSetObject set, ReadOnlySpan<byte> member, ref RespWriter writer, ref SearchShape shape)
    {
        if (!set.TryGetScore(member, out double score))
        {
            writer.WriteError(GeoStrings.ErrMemberNotFound);
            return false;
        }
        (shape.Longitude, shape.Latitude) = GeoHash.DecodeScore(score);
        return true;
    }

    private static bool TryParseRadius(ReadOnlySpan<byte> radiusText, ReadOnlySpan<byte> unit, ref RespWriter writer, ref SearchShape shape)
    {
        if (!NumberFormat.TryParseDouble(radiusText, out double radius))
        {
            writer.WriteError(GeoStrings.ErrNeedNumericRadius);
            return false;
        }
        if (radius < 0)
        {
            writer.WriteError(GeoStrings.ErrNegativeRadius);
            return false;
        }
        if (!TryParseUnit(unit, out double conversion))
        {
            writer.WriteError(GeoStrings.ErrUnsupportedUnit);
            return false;
        }
        shape.IsBox = false;
        shape.Radius = radius;
        shape.Conversion = conversion;
        return true;
    }

    private static bool TryParseBox(ReadOnlySpan<byte> widthText, ReadOnlySpan<byte> heightText, ReadOnlySpan<byte> unit,
        ref RespWriter writer, ref SearchShape shape)
    {
        if (!NumberFormat.TryParseDouble(widthText, out double width))
        {
            writer.WriteError(GeoStrings.ErrNeedNumericWidth);
            return false;
        }
        if (!NumberFormat.TryParseDouble(heightText, out double height))
        {
            writer.WriteError(GeoStrings.ErrNeedNumericHeight);
            return false;
        }
        if (height < 0 || width < 0)
        {
            writer.WriteError(GeoStrings.ErrNegativeBox);
            return false;
        }
        if (!TryParseUnit(unit, out double conversion))
        {
            writer.WriteError(GeoStrings.ErrUnsupportedUnit);
            return false;
        }
        shape.IsBox = true;
        shape.Width = width;
        shape.Height = height;
        shape.Conversion = conversion;
        return true;
    }

    // The command name as the client typed it (Redis quotes argv[0] in these errors).
    private static string CommandName(ref ObjectInput input) => Encoding.Latin1.GetString(input.Args[0].Span);
}
