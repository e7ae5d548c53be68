using static Garnet.server.KeySpecFlagSets;
using A = Garnet.server.AclCategories;
using E = Garnet.server.ObjectWriteEvent;
using F = Garnet.server.CommandFlags;
using S = Garnet.server.KeySpec;

namespace Garnet.server;

public static partial class CommandTable
{
    /// <summary>GEORADIUS(BYMEMBER)'s keys: the source, and a STORE or STOREDIST destination searched for from <paramref name="startFrom"/>.</summary>
    private static S[] RadiusSpecs(int startFrom)
        => [S.At(RoAccess, 1), S.AfterKeyword(OwUpdate, "STORE", startFrom, 0, 1, 0), S.AfterKeyword(OwUpdate, "STOREDIST", startFrom, 0, 1, 0)];

    /// <summary>The geo commands' table entries.</summary>
    private static RespCommandInfo[] GeoCommands =>
    [
        new(RespCommand.GEOADD, "GEOADD", -5, F.Write | F.DenyOom, [S.At(RwUpdate, 1)], A.Write | A.Geo | A.Slow, "Adds one or more members to a geospatial index. The key is created if it doesn't exist.") { WriteEvent = E.SortedSet("zadd") },
        new(RespCommand.GEODIST, "GEODIST", -4, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Geo | A.Slow, "Returns the distance between two members of a geospatial index."),
        new(RespCommand.GEOHASH, "GEOHASH", -2, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Geo | A.Slow, "Returns members from a geospatial index as geohash strings."),
        new(RespCommand.GEOPOS, "GEOPOS", -2, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Geo | A.Slow, "Returns the longitude and latitude of members from a geospatial index."),
        new(RespCommand.GEOSEARCH, "GEOSEARCH", -7, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Geo | A.Slow, "Queries a geospatial index for members inside an area of a box or a circle."),
        new(RespCommand.GEOSEARCHSTORE, "GEOSEARCHSTORE", -8, F.Write | F.DenyOom, [S.At(OwUpdate, 1), S.At(RoAccess, 2)], A.Write | A.Geo | A.Slow, "Queries a geospatial index for members inside an area of a box or a circle, optionally stores the result.") { StoreEvent = E.SortedSet("geosearchstore") },
        new(RespCommand.GEORADIUS, "GEORADIUS", -6, F.Write | F.DenyOom | F.MovableKeys, RadiusSpecs(6), A.Write | A.Geo | A.Slow, "Queries a geospatial index for members within a distance from a coordinate, optionally stores the result.") { StoreEvent = E.SortedSet("georadiusstore") },
        new(RespCommand.GEORADIUS_RO, "GEORADIUS_RO", -6, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Geo | A.Slow, "Returns members from a geospatial index that are within a distance from a coordinate."),
        new(RespCommand.GEORADIUSBYMEMBER, "GEORADIUSBYMEMBER", -5, F.Write | F.DenyOom | F.MovableKeys, RadiusSpecs(5), A.Write | A.Geo | A.Slow, "Queries a geospatial index for members within a distance from a member, optionally stores the result.") { StoreEvent = E.SortedSet("georadiusstore") },
        new(RespCommand.GEORADIUSBYMEMBER_RO, "GEORADIUSBYMEMBER_RO", -5, F.ReadOnly, [S.At(RoAccess, 1)], A.Read | A.Geo | A.Slow, "Returns members from a geospatial index that are within a distance from a member."),
    ];
}
