using System;
using System.Text;

namespace Garnet.server.Scripting;

/// <summary>
/// Reads a debugger command from the client's input as Redis's debugger does: a RESP array of 1 to 1024 bulk
/// strings of 1 to 1024 bytes each. Anything before the first '*' is skipped; anything else malformed is a
/// protocol error, which aborts the script.
/// </summary>
internal static class DebugCommandParser
{
    private const int MaxArguments = 1024;
    private const int MaxArgumentLength = 1024;

    /// <summary>What <see cref="TryParse"/> found.</summary>
    public enum Result
    {
        /// <summary>No complete command yet: wait for more input.</summary>
        Incomplete,

        /// <summary>A command, in the out arguments.</summary>
        Command,

        /// <summary>The input is not a command.</summary>
        ProtocolError,
    }

    /// <summary>Parses the command at the start of <paramref name="input"/> into <paramref name="argv"/>.</summary>
    public static Result TryParse(ReadOnlySpan<byte> input, out string[] argv)
    {
        argv = Array.Empty<string>();
        if (input.IsEmpty)
            return Result.Incomplete;
        int star = input.IndexOf((byte)'*');
        if (star < 0)
            return Result.ProtocolError;
        var rest = input.Slice(star + 1);
        if (!TryReadLine(ref rest, out var countText))
            return Result.Incomplete;
        int count = LeadingInt(countText);
        if (count <= 0 || count > MaxArguments)
            return Result.ProtocolError;

        var args = new string[count];
        for (int i = 0; i < count; i++)
        {
            if (rest.IsEmpty)
                return Result.Incomplete;
            if (rest[0] != '$')
                return Result.ProtocolError;
            rest = rest.Slice(1);
            if (!TryReadLine(ref rest, out var lengthText))
                return Result.Incomplete;
            int length = LeadingInt(lengthText);
            if (length <= 0 || length > MaxArgumentLength)
                return Result.ProtocolError;
            if (rest.Length < length + 2)
                return Result.Incomplete;
            args[i] = Encoding.UTF8.GetString(rest.Slice(0, length));
            if (rest[length] != '\r' || rest[length + 1] != '\n')
                return Result.ProtocolError;
            rest = rest.Slice(length + 2);
        }
        argv = args;
        return Result.Command;
    }

    /// <summary>Takes the text up to the next CRLF; false if there is none yet.</summary>
    private static bool TryReadLine(ref ReadOnlySpan<byte> rest, out ReadOnlySpan<byte> line)
    {
        int end = rest.IndexOf("\r\n"u8);
        if (end < 0)
        {
            line = default;
            return false;
        }
        line = rest.Slice(0, end);
        rest = rest.Slice(end + 2);
        return true;
    }

    /// <summary>C's atoi over <paramref name="text"/>: its leading (signed) digits, 0 if none.</summary>
    private static int LeadingInt(ReadOnlySpan<byte> text)
    {
        int i = 0;
        bool negative = false;
        if (i < text.Length && (text[i] == '-' || text[i] == '+'))
            negative = text[i++] == '-';
        long value = 0;
        while (i < text.Length && text[i] is >= (byte)'0' and <= (byte)'9' && value <= int.MaxValue)
            value = value * 10 + (text[i++] - '0');
        if (value > int.MaxValue)
            value = int.MaxValue;
        return (int)(negative ? -value : value);
    }
}
