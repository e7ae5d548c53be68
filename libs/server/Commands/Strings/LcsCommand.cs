using System;
using System.Collections.Generic;
using Garnet.common;

namespace Garnet.server;

/// <summary>LCS key1 key2 [LEN] [IDX] [MINMATCHLEN len] [WITHMATCHLEN]: longest common subsequence of two strings.</summary>
public sealed unsafe partial class RespServerSession
{
    private void Lcs()
    {
        byte[]? a = ReadStringOrEmpty(_args[1].Span);
        byte[]? b = ReadStringOrEmpty(_args[2].Span);
        if (a == null || b == null)
        {
            // Redis looks the keys up before reading the options, and words this type error its own way.
            _writer.WriteError("ERR The specified keys must contain string values"u8);
            return;
        }
        bool wantLength = false, wantIndexes = false, withMatchLength = false;
        long minMatchLength = 0;
        for (int i = 3; i < _argCount; i++)
        {
            ref readonly var option = ref _args[i];
            if (option.EqualsUpper("LEN"u8))
                wantLength = true;
            else if (option.EqualsUpper("IDX"u8))
                wantIndexes = true;
            else if (option.EqualsUpper("WITHMATCHLEN"u8))
                withMatchLength = true;
            else if (option.EqualsUpper("MINMATCHLEN"u8) && i + 1 < _argCount)
            {
                if (!NumberFormat.TryParseLong(_args[++i].Span, out minMatchLength))
                {
                    _writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (minMatchLength < 0)
                    minMatchLength = 0;
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }
        if (wantLength && wantIndexes)
        {
            _writer.WriteError("ERR If you want both the length and indexes, please just use IDX."u8);
            return;
        }

        if (((long)a.Length + 1) * (b.Length + 1) * sizeof(uint) > AppendLogic.MaxStringLength)
        {
            _writer.WriteError("ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len"u8);
            return;
        }

        // table[i, j] = LCS length of a[..i] and b[..j].
        int width = b.Length + 1;
        var table = new uint[(a.Length + 1) * width];
        for (int i = 1; i <= a.Length; i++)
        {
            for (int j = 1; j <= b.Length; j++)
            {
                table[i * width + j] = a[i - 1] == b[j - 1]
                    ? table[(i - 1) * width + j - 1] + 1
                    : Math.Max(table[(i - 1) * width + j], table[i * width + j - 1]);
            }
        }
        int length = (int)table[a.Length * width + b.Length];

        if (wantLength)
        {
            _writer.WriteInteger(length);
            return;
        }

        var result = new byte[length];
        var matches = new List<(int AStart, int AEnd, int BStart, int BEnd)>();
        int x = a.Length, y = b.Length, index = length;
        int aStart = a.Length, aEnd = 0, bStart = 0, bEnd = 0;
        while (x > 0 && y > 0)
        {
            bool emit = false;
            if (a[x - 1] == b[y - 1])
            {
                result[index - 1] = a[x - 1];
                if (aStart == a.Length)
                {
                    aStart = aEnd = x - 1;
                    bStart = bEnd = y - 1;
                }
                else if (aStart == x && bStart == y)
                {
                    aStart--;
                    bStart--;
                }
                else
                {
                    emit = true;
                }
                if (aStart == 0 || bStart == 0)
                    emit = true;
                index--;
                x--;
                y--;
            }
            else
            {
                if (table[(x - 1) * width + y] > table[x * width + y - 1])
                    x--;
                else
                    y--;
                if (aStart != a.Length)
                    emit = true;
            }
            if (emit)
            {
                if (aEnd - aStart + 1 >= minMatchLength)
                    matches.Add((aStart, aEnd, bStart, bEnd));
                aStart = a.Length;
            }
        }

        if (!wantIndexes)
        {
            _writer.WriteBulk(result);
            return;
        }

        _writer.WriteMapHeader(2);
        _writer.WriteBulk("matches"u8);
        _writer.WriteArrayHeader(matches.Count);
        foreach (var match in matches)
        {
            _writer.WriteArrayHeader(withMatchLength ? 3 : 2);
            _writer.WriteArrayHeader(2);
            _writer.WriteInteger(match.AStart);
            _writer.WriteInteger(match.AEnd);
            _writer.WriteArrayHeader(2);
            _writer.WriteInteger(match.BStart);
            _writer.WriteInteger(match.BEnd);
            if (withMatchLength)
                _writer.WriteInteger(match.AEnd - match.AStart + 1);
        }
        _writer.WriteBulk("len"u8);
        _writer.WriteInteger(length);
    }

    /// <summary>A copy of a string value, or empty when the key is missing (LCS treats it so); null when the key holds an object.</summary>
    private byte[]? ReadStringOrEmpty(ReadOnlySpan<byte> key)
    {
        var output = default(StringOutput);
        bool found = ReadString(key, RespCommand.LCS, ref output).Found;
        CountLookup(found);
        if (output.Result == StringResult.WrongType)
            return null;
        return found ? Output.Span.ToArray() : [];
    }
}
