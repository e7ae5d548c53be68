using System;
using System.Globalization;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The geo commands run on a sorted set (<see cref="SortedSetObject.Operate"/> hands them here): a
/// member's score is its 52-bit geohash (<see cref="GeoHash"/>). An empty object stands for a missing key.
/// </summary>
internal static partial class GeoOperations
{
    /// <summary>GEOADD's NX option (in <see cref="ObjectInput.Flags"/>).</summary>
    public const int FlagNx = 1;

    /// <summary>GEOADD's XX option.</summary>
    public const int FlagXx = 2;

    /// <summary>GEOADD's CH option.</summary>
    public const int FlagCh = 4;

    /// <summary>Runs a geo command on <paramref name="set"/> and writes its reply.</summary>
    public static void Operate(SortedSetObject set, ref ObjectInput input, ref ObjectOutput output)
    {
        switch (input.Command)
        {
            case RespCommand.GEOADD: GeoAdd(set, ref input, ref output); break;
            case RespCommand.GEODIST: GeoDist(set, ref input, ref output); break;
            case RespCommand.GEOHASH: GeoHashCommand(set, ref input, ref output); break;
            case RespCommand.GEOPOS: GeoPos(set, ref input, ref output); break;
            case RespCommand.GEOSEARCH:
            case RespCommand.GEOSEARCHSTORE:
            case RespCommand.GEORADIUS:
            case RespCommand.GEORADIUS_RO:
            case RespCommand.GEORADIUSBYMEMBER:
            case RespCommand.GEORADIUSBYMEMBER_RO:
                Search(set, ref input, ref output);
                break;
            default: throw new InvalidOperationException($"{input.Command} is not a geo command.");
        }
    }

    /// <summary>
    /// GEOADD after the session validated it: <see cref="ObjectInput.Number"/> is the index (after the
    /// key) of the first longitude, <see cref="ObjectInput.Flags"/> the NX/XX/CH options.
    /// </summary>
    private static void GeoAdd(SortedSetObject set, ref ObjectInput input, ref ObjectOutput output)
    {
        bool nx = (input.Flags & FlagNx) != 0;
        bool xx = (input.Flags & FlagXx) != 0;
        bool ch = (input.Flags & FlagCh) != 0;
        // GEOADD is ZADD underneath, with ZADD's encoding decisions.
        var limits = input.Limits;
        set.PrepareForAdding((input.ArgCount - (int)input.Number) / 3, SortedSetObject.LongestMember(ref input, (int)input.Number + 2, 3), limits);
        long added = 0, changed = 0;
        for (int i = (int)input.Number; i + 2 < input.ArgCount; i += 3)
        {
            NumberFormat.TryParseDouble(input.Arg(i), out double longitude);
            NumberFormat.TryParseDouble(input.Arg(i + 1), out double latitude);
            double score = GeoHash.Score(longitude, latitude);
            var member = input.Arg(i + 2);
            bool exists = set.TryGetScore(member, out double current);
            if (exists ? nx : xx)
                continue;
            if (exists && current == score)
                continue;
            if (!exists)
                set.NoteNewMember(member.Length, limits);
            if (set.AddOrUpdate(member.ToArray(), score))
                added++;
            else
                changed++;
        }
        output.Writer.WriteInteger(ch ? added + changed : added);
    }

    /// <summary>GEODIST; <see cref="ObjectInput.Double"/> is the unit's size in meters.</summary>
    private static void GeoDist(SortedSetObject set, ref ObjectInput input, ref ObjectOutput output)
    {
        if (!set.TryGetScore(input.Arg(0), out double score1) || !set.TryGetScore(input.Arg(1), out double score2))
        {
            output.Writer.WriteNull();
            return;
        }
        var (longitude1, latitude1) = GeoHash.DecodeScore(score1);
        var (longitude2, latitude2) = GeoHash.DecodeScore(score2);
        WriteDistance(ref output.Writer, GeoHash.Distance(longitude1, latitude1, longitude2, latitude2) / input.Double);
    }

    private static void GeoHashCommand(SortedSetObject set, ref ObjectInput input, ref ObjectOutput output)
    {
        output.Writer.WriteArrayHeader(input.ArgCount);
        Span<byte> text = stackalloc byte[11];
        for (int i = 0; i < input.ArgCount; i++)
        {
            if (set.TryGetScore(input.Arg(i), out double score))
            {
                GeoHash.FormatStandard(score, text);
                output.Writer.WriteBulk(text);
            }
            else
            {
                output.Writer.WriteNull();
            }
        }
    }

    private static void GeoPos(SortedSetObject set, ref ObjectInput input, ref ObjectOutput output)
    {
        output.Writer.WriteArrayHeader(input.ArgCount);
        for (int i = 0; i < input.ArgCount; i++)
        {
            if (set.TryGetScore(input.Arg(i), out double score))
            {
                var (longitude, latitude) = GeoHash.DecodeScore(score);
                WriteCoordinates(ref output.Writer, longitude, latitude);
            }
            else
            {
                output.Writer.WriteNullArray();
            }
        }
    }

    /// <summary>A distance as Redis replies with it: a bulk string with four decimals, e.g. "166274.1516".</summary>
    public static void WriteDistance(ref RespWriter writer, double distance)
    {
        Span<byte> text = stackalloc byte[48];
        writer.WriteBulk(text.Slice(0, GeoHash.FormatDistance(distance, text)));
    }

    /// <summary>A position as Redis replies with it: two numbers printed "%.17Lf" without trailing zeros (RESP3 doubles).</summary>
    public static void WriteCoordinates(ref RespWriter writer, double longitude, double latitude)
    {
        writer.WriteArrayHeader(2);
        WriteHumanDouble(ref writer, longitude);
        WriteHumanDouble(ref writer, latitude);
    }

    private static void WriteHumanDouble(ref RespWriter writer, double value)
    {
        string text = LongDouble.FromDouble(value).ToHumanString();
        if (writer.Resp3)
        {
            writer.WriteRaw(","u8);
            writer.WriteRaw(Encoding.ASCII.GetBytes(text));
            writer.WriteRaw("\r\n"u8);
        }
        else
        {
            writer.WriteBulk(text);
        }
    }

    /// <summary>How many meters one <paramref name="unit"/> is (m, km, ft, mi, any case); false for another unit.</summary>
    public static bool TryParseUnit(ReadOnlySpan<byte> unit, out double meters)
    {
        if (Ascii.EqualsIgnoreCase(unit, "m"u8))
            meters = 1;
        else if (Ascii.EqualsIgnoreCase(unit, "km"u8))
            meters = 1000;
        else if (Ascii.EqualsIgnoreCase(unit, "ft"u8))
            meters = 0.3048;
        else if (Ascii.EqualsIgnoreCase(unit, "mi"u8))
            meters = 1609.34;
        else
        {
            meters = -1;
            return false;
        }
        return true;
    }

    /// <summary>
    /// Parses a longitude and latitude the way Redis does, writing its error when they are not numbers
    /// or outside the indexable range.
    /// </summary>
    public static bool TryParseLongitudeLatitude(ReadOnlySpan<byte> longitudeText, ReadOnlySpan<byte> latitudeText,
        ref RespWriter writer, out double longitude, out double latitude)
    {
        latitude = 0;
        if (!NumberFormat.TryParseDouble(longitudeText, out longitude) || !NumberFormat.TryParseDouble(latitudeText, out latitude))
        {
            writer.WriteError(RespStrings.ErrNotFloat);
            return false;
        }
        if (!GeoHash.IsValid(longitude, latitude))
        {
            writer.WriteError($"ERR invalid longitude,latitude pair {FormatFixed6(longitude)},{FormatFixed6(latitude)}");
            return false;
        }
        return true;
    }

    // printf's "%f".
    private static string FormatFixed6(double value)
    {
        if (double.IsPositiveInfinity(value))
            return "inf";
        if (double.IsNegativeInfinity(value))
            return "-inf";
        return value.ToString("F6", CultureInfo.InvariantCulture);
    }
}
