using System;

namespace Garnet.server;

/// <summary>
/// Keys copied out of the log during a scan (KEYS, SCAN, active expiration), so they can be replied
/// or acted on after the scan has released its latches. Owned by one session or task and reused;
/// it gives back its memory after an unusually large use.
/// </summary>
internal sealed class KeyBuffer
{
    private const int InitialBytes = 4096;
    private const int InitialKeys = 64;
    private const int RetainedBytes = 1 << 20;
    private const int RetainedKeys = 1 << 16;

    private byte[] _bytes = new byte[InitialBytes];
    private int[] _ends = new int[InitialKeys];
    private int _length;

    /// <summary>Number of keys held.</summary>
    public int Count { get; private set; }

    /// <summary>Key <paramref name="index"/>.</summary>
    public ReadOnlySpan<byte> this[int index]
    {
        get
        {
            int start = index == 0 ? 0 : _ends[index - 1];
            return new ReadOnlySpan<byte>(_bytes, start, _ends[index] - start);
        }
    }

    /// <summary>Appends a copy of <paramref name="key"/>.</summary>
    public void Add(ReadOnlySpan<byte> key)
    {
        if (_length + key.Length > _bytes.Length)
            Array.Resize(ref _bytes, (int)Math.Min(Array.MaxLength, Math.Max((long)_length + key.Length, (long)_bytes.Length * 2)));
        if (Count == _ends.Length)
            Array.Resize(ref _ends, _ends.Length * 2);
        key.CopyTo(_bytes.AsSpan(_length));
        _length += key.Length;
        _ends[Count++] = _length;
    }

    /// <summary>Forgets the keys; shrinks back if a large result grew the buffers.</summary>
    public void Clear()
    {
        Count = 0;
        _length = 0;
        if (_bytes.Length > RetainedBytes)
            _bytes = new byte[InitialBytes];
        if (_ends.Length > RetainedKeys)
            _ends = new int[InitialKeys];
    }
}
