using System;
using System.Collections.Generic;
using System.Text;
using System.Threading;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// Error replies counted by their code, the message's first word (INFO errorstats: <c>errorstat_ERR:count=3</c>), and
/// in all (INFO stats total_error_replies). Errors are rare next to commands, so one lock is enough; as in Redis, at most
/// <see cref="MaxCodes"/> codes are kept apart (a client sending arbitrary error text through a script cannot grow the
/// table), later new codes count only in the total.
/// </summary>
public sealed class ErrorStatistics : IErrorReplyListener
{
    /// <summary>Redis's ERROR_STATS_NUMBER.</summary>
    public const int MaxCodes = 128;

    private readonly object _lock = new();
    private readonly List<(byte[] Code, long Count)> _codes = [];
    private long _total;

    /// <summary>Every error reply since start or the last reset.</summary>
    public long Total => Volatile.Read(ref _total);

    /// <inheritdoc/>
    public void OnErrorReply(ReadOnlySpan<byte> message)
    {
        // As Redis: the code is the first word when a space comes within 32 bytes, else ERR.
        int space = message.Slice(0, Math.Min(message.Length, 32)).IndexOf((byte)' ');
        var code = space < 0 ? "ERR"u8 : message.Slice(0, space);
        lock (_lock)
        {
            _total++;
            for (int i = 0; i < _codes.Count; i++)
            {
                if (code.SequenceEqual(_codes[i].Code))
                {
                    _codes[i] = (_codes[i].Code, _codes[i].Count + 1);
                    return;
                }
            }
            if (_codes.Count < MaxCodes)
                _codes.Add((code.ToArray(), 1));
        }
    }

    /// <summary>The codes seen and their counts, in the order first seen.</summary>
    public List<(string Code, long Count)> Snapshot()
    {
        lock (_lock)
        {
            var list = new List<(string, long)>(_codes.Count);
            foreach (var (code, count) in _codes)
                list.Add((Encoding.UTF8.GetString(code), count));
            return list;
        }
    }

    /// <summary>CONFIG RESETSTAT.</summary>
    public void Reset()
    {
        lock (_lock)
        {
            _codes.Clear();
            _total = 0;
        }
    }
}
