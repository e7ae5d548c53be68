using Garnet.common;

namespace Garnet.server;

/// <summary>EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, TTL, PTTL, EXPIRETIME, PEXPIRETIME and PERSIST.</summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>
    /// [P]EXPIRE[AT] key time [NX | XX | GT | LT]: 1 when the expiration was set (or the key deleted
    /// because the time is already past), 0 when the key is missing or a condition was not met. As in
    /// Redis, the options are checked before the time.
    /// </summary>
    private void Expire(RespCommand command)
    {
        var flags = StringInputFlags.None;
        for (int i = 3; i < _argCount; i++)
        {
            ref readonly var option = ref _args[i];
            if (option.EqualsUpper("NX"u8))
                flags |= StringInputFlags.ExpireNx;
            else if (option.EqualsUpper("XX"u8))
                flags |= StringInputFlags.ExpireXx;
            else if (option.EqualsUpper("GT"u8))
                flags |= StringInputFlags.ExpireGt;
            else if (option.EqualsUpper("LT"u8))
                flags |= StringInputFlags.ExpireLt;
            else
            {
                WriteErrorQuoting("ERR Unsupported option ", option);
                return;
            }
        }
        const StringInputFlags othersThanNx = StringInputFlags.ExpireXx | StringInputFlags.ExpireGt | StringInputFlags.ExpireLt;
        if ((flags & StringInputFlags.ExpireNx) != 0 && (flags & othersThanNx) != 0)
        {
            _writer.WriteError(KeyspaceStrings.ErrExpireNxWithOthers);
            return;
        }
        if ((flags & StringInputFlags.ExpireGt) != 0 && (flags & StringInputFlags.ExpireLt) != 0)
        {
            _writer.WriteError(KeyspaceStrings.ErrExpireGtAndLt);
            return;
        }
        if (!NumberFormat.TryParseLong(_args[2].Span, out long amount))
        {
            _writer.WriteError(RespStrings.ErrNotInteger);
            return;
        }
        bool milliseconds = command is RespCommand.PEXPIRE or RespCommand.PEXPIREAT;
        bool absolute = command is RespCommand.EXPIREAT or RespCommand.PEXPIREAT;
        if (!Expiration.TryFromArgument(amount, milliseconds, absolute, out long expiresAt))
        {
            _writer.WriteError($"ERR invalid expire time in '{CurrentCommand.LowerName}' command");
            return;
        }

        var input = new StringInput(command) { Flags = flags, ExpirationUnixMs = expiresAt };
        var output = new StringOutput(null);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status))
            return;
        // A time already past deletes the key: Redis then reports "del", not "expire".
        if (output.Number == 1)
        {
            bool deleted = expiresAt <= Expiration.NowUnixMs;
            NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, deleted ? KeyspaceEventNames.Del : KeyspaceEventNames.Expire, _args[1].Span);
            if (deleted)
                NotifyKeyDeleted(_args[1].Span);
        }
        _writer.WriteInteger(output.Number);
    }

    /// <summary>
    /// TTL, PTTL (time left) and EXPIRETIME, PEXPIRETIME (absolute Unix time): -2 when the key is
    /// missing, -1 when it has no expiration. Seconds are rounded to the nearest, as Redis does.
    /// </summary>
    private void TimeToLive(RespCommand command)
    {
        var output = default(StringOutput);
        if (!ReadKey(_args[1].Span, command, ref output).Found)
        {
            _writer.WriteInteger(-2);
            return;
        }
        if (output.Number == 0)
        {
            _writer.WriteInteger(-1);
            return;
        }
        long expiresAt = output.Number;
        long result = command is RespCommand.TTL or RespCommand.PTTL
            ? System.Math.Max(0, expiresAt - Expiration.NowUnixMs)
            : expiresAt;
        bool seconds = command is RespCommand.TTL or RespCommand.EXPIRETIME;
        _writer.WriteInteger(seconds ? Expiration.RoundToSeconds(result) : result);
    }

    /// <summary>PERSIST key: 1 when an expiration was removed, else 0.</summary>
    private void Persist()
    {
        var input = new StringInput(RespCommand.PERSIST);
        var output = new StringOutput(null);
        var status = Store.RMW(_args[1].Span, ref input, ref output);
        if (WriteIfOutOfMemory(status))
            return;
        if (output.Number == 1)
            NotifyKeyspaceEvent(KeyspaceEventClasses.Generic, KeyspaceEventNames.Persist, _args[1].Span);
        _writer.WriteInteger(output.Number);
    }
}
