using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// The options of SET (NX XX GET KEEPTTL EX PX EXAT PXAT, and Garnet's WITHETAG) and GETEX (EX PX EXAT PXAT PERSIST), parsed
/// as Redis's parseExtendedStringArgumentsOrReply does: every option is checked for syntax first (a
/// repeated option is allowed, conflicting ones are "ERR syntax error"), and only then is the time
/// validated, so <c>SET k v EX abc NX XX</c> is a syntax error, not an integer error.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>Where an expiration argument is and what unit it is in.</summary>
    internal readonly struct ExpirationArgument
    {
        public ExpirationArgument(int index, bool milliseconds, bool absolute)
        {
            Index = index;
            Milliseconds = milliseconds;
            Absolute = absolute;
        }

        /// <summary>Argument index of the number; 0 when there is none.</summary>
        public int Index { get; }

        /// <summary>Milliseconds (PX, PXAT, PSETEX) rather than seconds.</summary>
        public bool Milliseconds { get; }

        /// <summary>A Unix time (EXAT, PXAT) rather than a time to live.</summary>
        public bool Absolute { get; }
    }

    internal enum ExpirationError
    {
        None,
        /// <summary>"ERR value is not an integer or out of range".</summary>
        NotInteger,
        /// <summary>"ERR invalid expire time in '&lt;command&gt;' command".</summary>
        Invalid,
    }

    [Flags]
    private enum ExpirationOption
    {
        None = 0,
        Ex = 1,
        Px = 2,
        ExAt = 4,
        PxAt = 8,
        KeepTtl = 16,
        Persist = 32,
    }

    /// <summary>
    /// Parses the options from argument <paramref name="first"/> on into <paramref name="input"/>'s
    /// flags and <paramref name="expiration"/>; writes "ERR syntax error" and returns false on a bad
    /// or conflicting option. <paramref name="forSet"/> selects SET's options, otherwise GETEX's.
    /// </summary>
    private bool TryParseStringOptions(int first, bool forSet, ref StringInput input, out ExpirationArgument expiration)
    {
        expiration = default;
        var seen = ExpirationOption.None;
        for (int i = first; i < _argCount; i++)
        {
            ref readonly var option = ref _args[i];
            bool hasNext = i + 1 < _argCount;
            var timed = TimedOption(in option);
            if (forSet && option.EqualsUpper("NX"u8) && (input.Flags & StringInputFlags.IfExists) == 0)
            {
                input.Flags |= StringInputFlags.IfNotExists;
            }
            else if (forSet && option.EqualsUpper("XX"u8) && (input.Flags & StringInputFlags.IfNotExists) == 0)
            {
                input.Flags |= StringInputFlags.IfExists;
            }
            else if (forSet && option.EqualsUpper("GET"u8))
            {
                if ((input.Flags & StringInputFlags.WithETag) != 0)
                    return WriteWithETagAndGetError();
                input.Flags |= StringInputFlags.ReturnOld;
            }
            else if (forSet && option.EqualsUpper("KEEPTTL"u8) && (seen & ~ExpirationOption.KeepTtl) == 0)
            {
                seen |= ExpirationOption.KeepTtl;
                input.Flags |= StringInputFlags.KeepTtl;
            }
            else if (!forSet && option.EqualsUpper("PERSIST"u8) && (seen & ~ExpirationOption.Persist) == 0)
            {
                seen |= ExpirationOption.Persist;
                input.Flags |= StringInputFlags.Persist;
            }
            else if (timed != ExpirationOption.None && hasNext && (seen & ~timed) == 0)
            {
                // The same option may repeat; the last time given wins.
                seen |= timed;
                i++;
                expiration = new ExpirationArgument(i, timed is ExpirationOption.Px or ExpirationOption.PxAt, timed is ExpirationOption.ExAt or ExpirationOption.PxAt);
            }
            else if (forSet && option.EqualsUpper(ETagStrings.WithETag))
            {
                // Garnet's option (Commands/ETag): the key keeps an ETag, and SET replies with it (so not with GET's old value).
                if ((input.Flags & StringInputFlags.ReturnOld) != 0)
                    return WriteWithETagAndGetError();
                input.Flags |= StringInputFlags.WithETag;
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return false;
            }
        }
        return true;
    }

    private bool WriteWithETagAndGetError()
    {
        _writer.WriteError(ETagStrings.ErrWithETagAndGet);
        return false;
    }

    private static ExpirationOption TimedOption(in ArgSlice option)
    {
        if (option.Length == 2)
        {
            if (option.EqualsUpper("EX"u8))
                return ExpirationOption.Ex;
            if (option.EqualsUpper("PX"u8))
                return ExpirationOption.Px;
        }
        else if (option.Length == 4)
        {
            if (option.EqualsUpper("EXAT"u8))
                return ExpirationOption.ExAt;
            if (option.EqualsUpper("PXAT"u8))
                return ExpirationOption.PxAt;
        }
        return ExpirationOption.None;
    }

    /// <summary>
    /// Reads an expiration argument as Redis's getExpireMillisecondsOrReply: an integer, positive, not
    /// overflowing when turned into milliseconds and added to now. Times already past (EXAT 1) are valid.
    /// </summary>
    private ExpirationError TryReadExpiration(in ExpirationArgument argument, out long expiresAt)
    {
        expiresAt = 0;
        if (!NumberFormat.TryParseLong(_args[argument.Index].Span, out long amount))
            return ExpirationError.NotInteger;
        if (amount <= 0 || !Expiration.TryFromArgument(amount, argument.Milliseconds, argument.Absolute, out expiresAt))
            return ExpirationError.Invalid;
        return ExpirationError.None;
    }

    /// <summary>Writes the error of <see cref="TryReadExpiration"/> for the current command.</summary>
    private void WriteExpirationError(ExpirationError error)
    {
        if (error == ExpirationError.NotInteger)
            _writer.WriteError(RespStrings.ErrNotInteger);
        else
            _writer.WriteError($"ERR invalid expire time in '{CurrentCommand.LowerName}' command");
    }

    /// <summary>Recognizes EX, PX, EXAT and PXAT.</summary>
    internal static bool TryExpirationOption(in ArgSlice option, out bool milliseconds, out bool absolute)
    {
        var timed = TimedOption(in option);
        milliseconds = timed is ExpirationOption.Px or ExpirationOption.PxAt;
        absolute = timed is ExpirationOption.ExAt or ExpirationOption.PxAt;
        return timed != ExpirationOption.None;
    }
}
