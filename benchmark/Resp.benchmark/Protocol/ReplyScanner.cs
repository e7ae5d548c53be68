using System;
using System.Diagnostics.CodeAnalysis;
using System.IO;
using System.Runtime.CompilerServices;
using System.Text;

namespace Resp.benchmark;

/// <summary>
/// Counts complete top-level RESP2/RESP3 replies in a stream that arrives in arbitrary pieces,
/// without copying or materialising anything: bulk payloads are skipped by arithmetic, nested
/// aggregates are tracked with a small stack of element counts, and a reply split across reads
/// resumes where the previous piece ended. Error replies are counted separately, and so are error
/// elements inside aggregate replies (a command that failed inside EXEC); the first error's text is
/// kept for diagnostics. Push messages and attributes are not replies and are not counted. Malformed input throws <see cref="InvalidDataException"/>.
/// </summary>
public sealed class ReplyScanner
{
    private const int MaxDepth = 64;
    private const int ErrorCapacity = 160;

    private enum Phase : byte
    {
        /// <summary>Expecting the type byte of the next item.</summary>
        Type,

        /// <summary>Inside a line-typed item (simple string, error, integer, ...) up to its LF.</summary>
        Line,

        /// <summary>Inside the length line of a bulk string or the count line of an aggregate.</summary>
        Length,

        /// <summary>Skipping the payload of a bulk string.</summary>
        Payload,

        /// <summary>Expecting the CR after a bulk payload.</summary>
        PayloadCr,

        /// <summary>Expecting the LF after a bulk payload.</summary>
        PayloadLf,
    }

    private readonly long[] _remaining = new long[MaxDepth];
    private readonly byte[] _firstError = new byte[ErrorCapacity];
    private int _depth;
    private Phase _phase;
    private byte _type;
    private long _number;
    private bool _negative;
    private bool _sawDigit;
    private bool _sawCr;
    private long _payloadLeft;
    private bool _topIsError;
    private bool _topIsOutOfBand;
    private bool _capturing;
    private int _firstErrorLength;

    /// <summary>Complete top-level replies seen so far.</summary>
    public long Replies { get; private set; }

    /// <summary>Complete RESP3 pushes (and attributes) seen so far: they are not replies.</summary>
    public long Pushes { get; private set; }

    /// <summary>How many of <see cref="Replies"/> were errors.</summary>
    public long Errors { get; private set; }

    /// <summary>Error elements inside aggregate replies, such as a failed command in EXEC's array (not in <see cref="Errors"/>).</summary>
    public long ErrorElements { get; private set; }

    /// <summary>Whether the scanner is between replies (nothing partial is pending).</summary>
    public bool AtReplyBoundary => _phase == Phase.Type && _depth == 0;

    /// <summary>The text of the first error reply or element seen (up to 160 bytes), or null if none.</summary>
    public string? FirstError => _firstErrorLength > 0
        ? Encoding.UTF8.GetString(_firstError, 0, _firstErrorLength).TrimEnd('\r')
        : Errors + ErrorElements > 0 ? "(blob error)" : null;

    /// <summary>Forgets all state and counts.</summary>
    public void Reset()
    {
        _depth = 0;
        _phase = Phase.Type;
        _capturing = false;
        _firstErrorLength = 0;
        Replies = 0;
        Errors = 0;
        ErrorElements = 0;
    }

    /// <summary>Scans the next piece of the stream; returns how many top-level replies it completed.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public int Feed(ReadOnlySpan<byte> data)
    {
        int completed = 0;
        int i = 0;
        while (i < data.Length)
        {
            switch (_phase)
            {
                case Phase.Type:
                    StartItem(data[i++]);
                    break;

                case Phase.Line:
                    {
                        int lf = data.Slice(i).IndexOf((byte)'\n');
                        if (lf < 0)
                        {
                            Capture(data.Slice(i));
                            i = data.Length;
                            break;
                        }
                        Capture(data.Slice(i, lf));
                        i += lf + 1;
                        _capturing = false;
                        _phase = Phase.Type;
                        if (ItemDone())
                            completed++;
                        break;
                    }

                case Phase.Length:
                    if (ParseLength(data, ref i) && LengthDone())
                        completed++;
                    break;

                case Phase.Payload:
                    {
                        long take = Math.Min(_payloadLeft, data.Length - i);
                        i += (int)take;
                        _payloadLeft -= take;
                        if (_payloadLeft == 0)
                            _phase = Phase.PayloadCr;
                        break;
                    }

                case Phase.PayloadCr:
                    if (data[i++] != '\r')
                        ThrowProtocol("bulk payload not followed by CRLF");
                    _phase = Phase.PayloadLf;
                    break;

                case Phase.PayloadLf:
                    if (data[i++] != '\n')
                        ThrowProtocol("bulk payload not followed by CRLF");
                    _phase = Phase.Type;
                    if (ItemDone())
                        completed++;
                    break;
            }
        }
        return completed;
    }

    private void StartItem(byte type)
    {
        _type = type;
        if (_depth == 0)
        {
            _topIsError = type is (byte)'-' or (byte)'!';
            _topIsOutOfBand = type is (byte)'>' or (byte)'|';
        }
        switch (type)
        {
            case (byte)'+':
            case (byte)'-':
            case (byte)':':
            case (byte)'_':
            case (byte)',':
            case (byte)'#':
            case (byte)'(':
                _capturing = type == '-' && _firstErrorLength == 0 && Errors == 0 && ErrorElements == 0;
                _phase = Phase.Line;
                break;
            case (byte)'$':
            case (byte)'=':
            case (byte)'!':
            case (byte)'*':
            case (byte)'%':
            case (byte)'~':
            case (byte)'>':
            case (byte)'|':
                _number = 0;
                _negative = false;
                _sawDigit = false;
                _sawCr = false;
                _phase = Phase.Length;
                break;
            default:
                ThrowProtocol($"unexpected reply type byte 0x{type:X2}");
                break;
        }
    }

    /// <summary>Consumes length-line bytes; true once its LF was read.</summary>
    private bool ParseLength(ReadOnlySpan<byte> data, ref int i)
    {
        while (i < data.Length)
        {
            byte b = data[i++];
            if (_sawCr)
            {
                if (b != '\n' || !_sawDigit)
                    ThrowProtocol("malformed length line");
                return true;
            }
            uint digit = (uint)(b - '0');
            if (digit <= 9)
            {
                if (_number > (long.MaxValue / 10) - 10)
                    ThrowProtocol("length out of range");
                _number = (_number * 10) + digit;
                _sawDigit = true;
            }
            else if (b == '\r')
            {
                _sawCr = true;
            }
            else if (b == '-' && !_sawDigit && !_negative)
            {
                _negative = true;
            }
            else
            {
                ThrowProtocol("malformed length line");
            }
        }
        return false;
    }

    /// <summary>Acts on a completed length line; true if that completed a top-level reply.</summary>
    private bool LengthDone()
    {
        long length = _negative ? -_number : _number;
        if (_type is (byte)'$' or (byte)'=' or (byte)'!')
        {
            if (length < 0)
            {
                _phase = Phase.Type;
                return ItemDone();
            }
            _payloadLeft = length;
            _phase = length == 0 ? Phase.PayloadCr : Phase.Payload;
            return false;
        }

        _phase = Phase.Type;
        if (length <= 0)
            return ItemDone();
        if (_depth == MaxDepth)
            ThrowProtocol("replies nested too deeply");
        _remaining[_depth++] = _type is (byte)'%' or (byte)'|' ? length * 2 : length;
        return false;
    }

    /// <summary>Records that an item ended; true if it was the end of a counted top-level reply.</summary>
    private bool ItemDone()
    {
        if (_depth > 0 && _type is (byte)'-' or (byte)'!')
            ErrorElements++;
        while (_depth > 0)
        {
            if (--_remaining[_depth - 1] > 0)
                return false;
            _depth--;
        }
        if (_topIsOutOfBand)
        {
            Pushes++;
            return false;
        }
        Replies++;
        if (_topIsError)
            Errors++;
        return true;
    }

    private void Capture(ReadOnlySpan<byte> text)
    {
        if (!_capturing)
            return;
        int room = ErrorCapacity - _firstErrorLength;
        if (text.Length > room)
            text = text.Slice(0, room);
        text.CopyTo(_firstError.AsSpan(_firstErrorLength));
        _firstErrorLength += text.Length;
    }

    [DoesNotReturn]
    private static void ThrowProtocol(string what) => throw new InvalidDataException("RESP protocol error in reply stream: " + what + ".");
}
