using System;

namespace Resp.benchmark;

/// <summary>
/// Encodes the commands of a workload. Keys come from an <see cref="IKeySampler"/>; members, fields,
/// scores and bit offsets from a separate random stream; values are one shared pattern of the
/// configured length ('a'..'z' repeating). Used only before the clock starts.
/// </summary>
public sealed class RequestGenerator
{
    private readonly IKeySampler _keys;
    private readonly FastRandom _random;
    private readonly byte[] _value;
    private readonly byte[] _longestValue;
    private readonly int _keyLength;
    private readonly long _dbSize;
    private readonly int _ttl;
    private readonly int _keysPerCommand;
    private readonly BitOperator _bitOperator;
    private readonly byte[] _threeCallsSha = Scripts.Sha1Hex(Scripts.ThreeCalls);

    /// <summary>Creates a generator for the shape in <paramref name="options"/>.</summary>
    public RequestGenerator(BenchmarkOptions options, IKeySampler keys, FastRandom random)
    {
        _keys = keys;
        _random = random;
        _value = MakeValue(options.ValueLength);
        _longestValue = MakeValue(Math.Max(options.ValueLength, options.ValueLengthMax));
        _keyLength = options.KeyLength;
        _dbSize = options.DbSize;
        _ttl = options.Ttl;
        _keysPerCommand = options.KeysPerCommand;
        _bitOperator = Enum.Parse<BitOperator>(options.BitOp, ignoreCase: true);
    }

    /// <summary>A SET or SETEX value: the value, or with --valuelength-max a random length of the pattern from it up to the longest.</summary>
    private ReadOnlySpan<byte> WrittenValue()
        => _longestValue.Length == _value.Length ? _value : _longestValue.AsSpan(0, _value.Length + (int)_random.NextLong(_longestValue.Length - _value.Length + 1));

    /// <summary>The value every write uses: <paramref name="length"/> bytes of 'a'..'z' repeating.</summary>
    public static byte[] MakeValue(int length)
    {
        var value = new byte[length];
        for (int i = 0; i < length; i++)
            value[i] = (byte)('a' + (i % 26));
        return value;
    }

    /// <summary>The key sampler and random stream for <paramref name="options"/> and one connection.</summary>
    public static RequestGenerator ForConnection(BenchmarkOptions options, long connectionIndex)
    {
        var random = new FastRandom(options.Seed * 1_000_003 + connectionIndex);
        IKeySampler keys = options.Zipf > 0
            ? new ZipfKeySampler(options.DbSize, options.Zipf, random)
            : new UniformKeySampler(options.DbSize, random);
        return new RequestGenerator(options, keys, random);
    }

    /// <summary>
    /// The operation at <paramref name="position"/> of a batch of <paramref name="op"/>: itself,
    /// except that SETGET makes every tenth command a SET and the rest GETs.
    /// </summary>
    public static OpType Resolve(OpType op, long position) =>
        op != OpType.SETGET ? op : position % 10 == 0 ? OpType.SET : OpType.GET;

    /// <summary>
    /// Appends <paramref name="count"/> operations of <paramref name="op"/>: that many commands, or
    /// for MULTIINCR4 that many transactions (<see cref="OpTypes.CommandsPerOp"/> commands each).
    /// </summary>
    public void WriteBatch(RequestBuffer buffer, OpType op, int count)
    {
        for (int i = 0; i < count; i++)
            WriteOp(buffer, Resolve(op, i));
    }

    /// <summary>Appends one operation of <paramref name="op"/>: a MULTIINCR4 transaction, or one command.</summary>
    public void WriteOp(RequestBuffer buffer, OpType op)
    {
        if (op != OpType.MULTIINCR4)
        {
            Write(buffer, op);
            return;
        }
        buffer.ArrayHeader(1);
        buffer.Bulk("MULTI"u8);
        for (int i = 0; i < 4; i++)
        {
            buffer.ArrayHeader(2);
            buffer.Bulk("INCR"u8);
            buffer.Key(_keys.Next(), _keyLength);
        }
        buffer.ArrayHeader(1);
        buffer.Bulk("EXEC"u8);
    }

    /// <summary>
    /// Appends what a connection must send before running <paramref name="op"/> (SCRIPT LOAD of
    /// the script EVALSHA3 calls); returns the number of commands, 0 if none.
    /// </summary>
    public static int WriteSetup(RequestBuffer buffer, OpType op)
    {
        if (op != OpType.EVALSHA3)
            return 0;
        buffer.ArrayHeader(3);
        buffer.Bulk("SCRIPT"u8);
        buffer.Bulk("LOAD"u8);
        buffer.Bulk(Scripts.ThreeCalls);
        return 1;
    }

    /// <summary>Appends one command of <paramref name="op"/> (not SETGET, see <see cref="Resolve"/>; not MULTIINCR4, see <see cref="WriteOp"/>).</summary>
    public void Write(RequestBuffer buffer, OpType op)
    {
        ReadOnlySpan<byte> name = OpTypes.CommandName(op);
        switch (op)
        {
            case OpType.PING:
                buffer.ArrayHeader(1);
                buffer.Bulk(name);
                break;
            case OpType.GET:
            case OpType.INCR:
            case OpType.DEL:
            case OpType.ZCARD:
            case OpType.PFCOUNT:
            case OpType.BITCOUNT:
            case OpType.LPOP:
                buffer.ArrayHeader(2);
                buffer.Bulk(name);
                buffer.Key(_keys.Next(), _keyLength);
                break;
            case OpType.SET:
            case OpType.LPUSH:
                buffer.ArrayHeader(3);
                buffer.Bulk(name);
                buffer.Key(_keys.Next(), _keyLength);
                buffer.Bulk(op == OpType.SET ? WrittenValue() : _value);
                break;
            case OpType.SETEX:
                buffer.ArrayHeader(4);
                buffer.Bulk(name);
                buffer.Key(_keys.Next(), _keyLength);
                buffer.Bulk(_ttl);
                buffer.Bulk(WrittenValue());
                break;
            case OpType.MGET:
                buffer.ArrayHeader(1 + _keysPerCommand);
                buffer.Bulk(name);
                for (int i = 0; i < _keysPerCommand; i++)
                    buffer.Key(_keys.Next(), _keyLength);
                break;
            case OpType.MSET:
                buffer.ArrayHeader(1 + (2 * _keysPerCommand));
                buffer.Bulk(name);
                for (int i = 0; i < _keysPerCommand; i++)
                {
                    buffer.Key(_keys.Next(), _keyLength);
                    buffer.Bulk(_value);
                }
                break;
            case OpType.ZADD:
                {
                    long member = _random.NextLong(_dbSize);
                    buffer.ArrayHeader(4);
                    buffer.Bulk(name);
                    buffer.Key(_keys.Next(), _keyLength);
                    buffer.Bulk(member);
                    buffer.Key(member, _keyLength);
                    break;
                }
            case OpType.ZREM:
            case OpType.PFADD:
            case OpType.HGET:
            case OpType.SADD:
                buffer.ArrayHeader(3);
                buffer.Bulk(name);
                buffer.Key(_keys.Next(), _keyLength);
                buffer.Key(_random.NextLong(_dbSize), _keyLength);
                break;
            case OpType.HSET:
                buffer.ArrayHeader(4);
                buffer.Bulk(name);
                buffer.Key(_keys.Next(), _keyLength);
                buffer.Key(_random.NextLong(_dbSize), _keyLength);
                buffer.Bulk(_value);
                break;
            case OpType.PFMERGE:
                buffer.ArrayHeader(3);
                buffer.Bulk(name);
                buffer.Key(_keys.Next(), _keyLength);
                buffer.Key(_keys.Next(), _keyLength);
                break;
            case OpType.SETBIT:
                buffer.ArrayHeader(4);
                buffer.Bulk(name);
                buffer.Key(_keys.Next(), _keyLength);
                buffer.Bulk(_random.NextLong((long)_value.Length * 8));
                buffer.Bulk((long)(_random.NextUInt64() & 1));
                break;
            case OpType.GETBIT:
                buffer.ArrayHeader(3);
                buffer.Bulk(name);
                buffer.Key(_keys.Next(), _keyLength);
                buffer.Bulk(_random.NextLong((long)_value.Length * 8));
                break;
            case OpType.BITOP:
                {
                    bool unary = _bitOperator == BitOperator.NOT;
                    buffer.ArrayHeader(unary ? 4 : 5);
                    buffer.Bulk(name);
                    buffer.Bulk(BitOperatorName(_bitOperator));
                    buffer.Key(_keys.Next(), _keyLength);
                    buffer.Key(_keys.Next(), _keyLength);
                    if (!unary)
                        buffer.Key(_keys.Next(), _keyLength);
                    break;
                }
            case OpType.XADD:
                WriteStreamAdd(buffer, _keys.Next());
                break;
            case OpType.XRANGE:
                buffer.ArrayHeader(6);
                buffer.Bulk(name);
                buffer.Key(_keys.Next(), _keyLength);
                buffer.Bulk("-"u8);
                buffer.Bulk("+"u8);
                buffer.Bulk("COUNT"u8);
                buffer.Bulk("10"u8);
                break;
            case OpType.EVALSHA3:
                buffer.ArrayHeader(6);
                buffer.Bulk(name);
                buffer.Bulk(_threeCallsSha);
                buffer.Bulk("2"u8);
                buffer.Key(_keys.Next(), _keyLength);
                buffer.Key(_keys.Next(), _keyLength);
                buffer.Bulk(_random.NextLong(_dbSize));
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(op), op, "Not a single command.");
        }
    }

    /// <summary>XADD key * f1 value f2 value f3 value.</summary>
    private void WriteStreamAdd(RequestBuffer buffer, long keyIndex)
    {
        buffer.ArrayHeader(9);
        buffer.Bulk("XADD"u8);
        buffer.Key(keyIndex, _keyLength);
        buffer.Bulk("*"u8);
        buffer.Bulk("f1"u8);
        buffer.Bulk(_value);
        buffer.Bulk("f2"u8);
        buffer.Bulk(_value);
        buffer.Bulk("f3"u8);
        buffer.Bulk(_value);
    }

    /// <summary>Appends the commands that preload key <paramref name="keyIndex"/> for <paramref name="kind"/>; returns how many.</summary>
    public int WriteLoad(RequestBuffer buffer, LoadKind kind, long keyIndex)
    {
        switch (kind)
        {
            case LoadKind.Stream:
                for (int i = 0; i < 10; i++)
                    WriteStreamAdd(buffer, keyIndex);
                return 10;
            case LoadKind.String:
                buffer.ArrayHeader(3);
                buffer.Bulk("SET"u8);
                buffer.Key(keyIndex, _keyLength);
                buffer.Bulk(_value);
                return 1;
            case LoadKind.Counter:
                buffer.ArrayHeader(3);
                buffer.Bulk("SET"u8);
                buffer.Key(keyIndex, _keyLength);
                buffer.Bulk("0"u8);
                return 1;
            case LoadKind.SortedSet:
                buffer.ArrayHeader(4);
                buffer.Bulk("ZADD"u8);
                buffer.Key(keyIndex, _keyLength);
                buffer.Bulk("0"u8);
                buffer.Key(keyIndex, _keyLength);
                return 1;
            case LoadKind.HyperLogLog:
                buffer.ArrayHeader(3);
                buffer.Bulk("PFADD"u8);
                buffer.Key(keyIndex, _keyLength);
                buffer.Key(keyIndex, _keyLength);
                return 1;
            case LoadKind.List:
                buffer.ArrayHeader(3);
                buffer.Bulk("LPUSH"u8);
                buffer.Key(keyIndex, _keyLength);
                buffer.Bulk(_value);
                return 1;
            case LoadKind.Hash:
                buffer.ArrayHeader(4);
                buffer.Bulk("HSET"u8);
                buffer.Key(keyIndex, _keyLength);
                buffer.Key(keyIndex, _keyLength);
                buffer.Bulk(_value);
                return 1;
            case LoadKind.Set:
                buffer.ArrayHeader(3);
                buffer.Bulk("SADD"u8);
                buffer.Key(keyIndex, _keyLength);
                buffer.Key(keyIndex, _keyLength);
                return 1;
            default:
                throw new ArgumentOutOfRangeException(nameof(kind), kind, null);
        }
    }

    private static ReadOnlySpan<byte> BitOperatorName(BitOperator op) => op switch
    {
        BitOperator.AND => "AND"u8,
        BitOperator.OR => "OR"u8,
        BitOperator.XOR => "XOR"u8,
        BitOperator.NOT => "NOT"u8,
        _ => throw new ArgumentOutOfRangeException(nameof(op), op, null),
    };
}
