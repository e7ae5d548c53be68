using System;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The geo commands: a geo index is a sorted set whose scores are geohashes, so each command runs on
/// the key's <see cref="SortedSetObject"/> (which hands it to <see cref="GeoOperations"/>). Options
/// Redis checks before looking the key up are checked here.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteGeoCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.GEOADD: GeoAdd(); break;
            case RespCommand.GEODIST: GeoDist(); break;
            case RespCommand.GEOHASH:
            case RespCommand.GEOPOS:
                RunObjectCommand(GarnetObjectType.SortedSet, write: false);
                break;
            case RespCommand.GEOSEARCH:
            case RespCommand.GEORADIUS:
            case RespCommand.GEORADIUS_RO:
            case RespCommand.GEORADIUSBYMEMBER:
            case RespCommand.GEORADIUSBYMEMBER_RO:
                GeoSearch(sourceIndex: 1);
                break;
            case RespCommand.GEOSEARCHSTORE: GeoSearch(sourceIndex: 2); break;
            default: throw new InvalidOperationException($"{command} is not a geo command.");
        }
    }

    /// <summary>
    /// GEOADD key [NX|XX] [CH] longitude latitude member [...]: Redis checks the options and every
    /// coordinate before it looks at the key.
    /// </summary>
    private void GeoAdd()
    {
        int flags = 0;
        int first = 2;
        for (; first < _argCount; first++)
        {
            var option = _args[first].Span;
            if (Ascii.EqualsIgnoreCase(option, "NX"u8))
                flags |= GeoOperations.FlagNx;
            else if (Ascii.EqualsIgnoreCase(option, "XX"u8))
                flags |= GeoOperations.FlagXx;
            else if (Ascii.EqualsIgnoreCase(option, "CH"u8))
                flags |= GeoOperations.FlagCh;
            else
                break;
        }
        const int nxAndXx = GeoOperations.FlagNx | GeoOperations.FlagXx;
        if ((_argCount - first) % 3 != 0 || (flags & nxAndXx) == nxAndXx)
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        for (int i = first; i < _argCount; i += 3)
        {
            if (!GeoOperations.TryParseLongitudeLatitude(_args[i].Span, _args[i + 1].Span, ref _writer, out _, out _))
                return;
        }
        if (first == _argCount)
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        var input = NewObjectInput(GarnetObjectType.SortedSet);
        input.Number = first - 2;
        input.Flags = flags;
        var output = NewObjectOutput();
        var status = ObjectRMW(_args[1].Span, ref input, ref output);
        CompleteObjectReply(ref output, status);
    }

    /// <summary>GEODIST key member1 member2 [unit]: the unit is checked before the key.</summary>
    private void GeoDist()
    {
        double meters = 1;
        if (_argCount > 5)
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        if (_argCount == 5 && !GeoOperations.TryParseUnit(_args[4].Span, out meters))
        {
            _writer.WriteError(GeoStrings.ErrUnsupportedUnit);
            return;
        }
        var input = NewObjectInput(GarnetObjectType.SortedSet);
        input.Double = meters;
        var output = NewObjectOutput();
        var status = ObjectRead(_args[1].Span, ref input, ref output);
        CompleteObjectReply(ref output, status);
    }

    /// <summary>
    /// The search commands read the source (WRONGTYPE first, as in Redis, then the options); the
    /// STORE forms get the result set back (<see cref="ObjectOutput.Object"/>, destination argument in
    /// <see cref="ObjectOutput.Number"/>) and install it before the count is sent.
    /// </summary>
    private void GeoSearch(int sourceIndex)
    {
        var input = NewObjectInput(GarnetObjectType.SortedSet, sourceIndex + 1);
        var output = NewObjectOutput();
        var status = ObjectRead(_args[sourceIndex].Span, ref input, ref output);
        if (output.Result == ObjectResult.Ok && output.Number > 0 && !status.IsOutOfMemory)
            StoreObject(_args[(int)output.Number].Span, output.Object);
        CompleteObjectReply(ref output, status);
    }
}
