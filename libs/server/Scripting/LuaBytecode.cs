using System;
using System.Buffers.Binary;

namespace Garnet.server.Scripting;

/// <summary>
/// Reads and rewrites a compiled script (a Lua 5.4 binary chunk from lua_dump, debug information kept).
/// <list type="bullet">
/// <item>No function is left making a tail call. Lua reuses the caller's frame for a tail call to a
/// Lua function, so after <c>return redis.call(...)</c> the script's frame, and with it the line an
/// error reply is reported on, would be gone when redis.call (a Lua function, see
/// <see cref="LuaPrelude"/>) raises. The parser always follows an OP_TAILCALL with an OP_RETURN of
/// all values from the same register, so an OP_CALL that keeps all results (C = 0) does the same
/// without the frame reuse. The only visible difference is stack depth: unbounded tail recursion now
/// hits Lua's stack limit.</item>
/// <item>Whether the script may loop: a backward jump (loops, goto) or a nested function (recursion).
/// A script that cannot runs without the instruction-count hook (<see cref="LuaRunner"/>).</item>
/// <item>Whether the script may write to its environment: an assignment to a global (OP_SETTABUP on
/// the upvalue named _ENV) or any other use of _ENV itself (OP_GETUPVAL, OP_SETUPVAL). A script that
/// does neither only reads globals, and can read them from the globals table directly instead of
/// through the read-only proxy (one table lookup instead of two).</item>
/// <item>Whether the script may change a table it did not create (KEYS and ARGV, which the runner
/// reuses): a table store (OP_SETTABLE, OP_SETI, OP_SETFIELD, OP_SETLIST, also used by table
/// constructors), or a name through which a function that changes tables can be reached (table,
/// rawset, setmetatable, load, loadstring, _G). Library functions reached otherwise only read their
/// arguments, and a global needs a constant name unless _ENV is used.</item>
/// </list>
/// </summary>
internal static class LuaBytecode
{
    // lopcodes.h of Lua 5.4; iABC instructions are op:7 A:8 k:1 B:8 C:8 from the low bit.
    private const uint OpGetUpvalue = 9;
    private const uint OpSetUpvalue = 10;
    private const uint OpSetTableUpvalue = 15;
    private const uint OpSetTable = 16;
    private const uint OpSetIndex = 17;
    private const uint OpSetField = 18;
    private const uint OpSetList = 78;
    private const uint OpJump = 56;
    private const uint OpCall = 68;
    private const uint OpTailCall = 69;
    private const uint OpReturn = 70;
    private const uint OpForLoop = 73;
    private const uint OpGenericForLoop = 77;
    private const int JumpOffset = (1 << 24) - 1;
    private const uint OpMask = 0x7F;
    private const uint KBit = 1u << 15;
    private const uint CMask = 0xFFu << 24;

    // Signature, version, format, LUAC_DATA, three type sizes, LUAC_INT and LUAC_NUM.
    private const int HeaderSize = 4 + 1 + 1 + 6 + 3 + 8 + 8;

    // Constant tags (lobject.h makevariant values).
    private const byte TagNil = 0x00;
    private const byte TagFalse = 0x01;
    private const byte TagTrue = 0x11;
    private const byte TagInteger = 0x03;
    private const byte TagFloat = 0x13;
    private const byte TagShortString = 0x04;
    private const byte TagLongString = 0x14;

    /// <summary>What <see cref="TryRewrite"/> found.</summary>
    public struct Summary
    {
        /// <summary>Tail calls turned into calls.</summary>
        public int TailCalls;

        /// <summary>Whether some function jumps backwards or the chunk defines functions.</summary>
        public bool MayLoop;

        /// <summary>Whether some function assigns a global or uses _ENV as a value.</summary>
        public bool UsesEnvironment;

        /// <summary>Whether some function may change a table it did not create.</summary>
        public bool MayChangeTables;
    }

    /// <summary>
    /// Replaces the tail calls of every function in <paramref name="chunk"/> in place and reports
    /// whether the chunk may loop. Returns false, with the chunk possibly half patched, when the chunk
    /// is not in the expected format.
    /// </summary>
    public static bool TryRewrite(Span<byte> chunk, out Summary summary)
    {
        summary = default;
        if (chunk.Length <= HeaderSize || !chunk.StartsWith("\x1bLua"u8) || chunk[4] != 0x54 || chunk[5] != 0
            || chunk[12] != sizeof(uint) || chunk[13] != sizeof(long) || chunk[14] != sizeof(double))
            return false;
        var reader = new Reader(chunk, HeaderSize + 1); // then the main function's upvalue count
        if (!PatchFunction(ref reader, ref summary) || reader.Position != chunk.Length)
            return false;
        // Through _ENV any global is reachable by a computed name.
        summary.MayChangeTables |= summary.UsesEnvironment;
        return true;
    }

    private static bool PatchFunction(ref Reader reader, ref Summary summary)
    {
        // source, linedefined, lastlinedefined, numparams, is_vararg, maxstacksize
        if (!reader.SkipString() || !reader.TryReadSize(out _) || !reader.TryReadSize(out _) || !reader.Skip(3))
            return false;

        if (!reader.TryReadSize(out long codeCount) || !reader.TryTake(codeCount * sizeof(uint), out var code))
            return false;
        // Upvalues this function assigns through or takes as values (bit n for upvalue n; 63 stands for all above).
        ulong upvalueUses = 0;
        for (int i = 0; i < (int)codeCount; i++)
        {
            var at = code.Slice(i * sizeof(uint));
            uint instruction = BinaryPrimitives.ReadUInt32LittleEndian(at);
            switch (instruction & OpMask)
            {
                case OpSetTableUpvalue:
                    upvalueUses |= 1UL << (int)Math.Min((instruction >> 7) & 0xFF, 63);
                    break;
                case OpSetTable:
                case OpSetIndex:
                case OpSetField:
                case OpSetList:
                    summary.MayChangeTables = true;
                    break;
                case OpGetUpvalue:
                case OpSetUpvalue:
                    upvalueUses |= 1UL << (int)Math.Min((instruction >> 16) & 0xFF, 63);
                    break;
                case OpForLoop:
                case OpGenericForLoop:
                    summary.MayLoop = true;
                    break;
                case OpJump:
                    if ((int)(instruction >> 7) - JumpOffset < 0)
                        summary.MayLoop = true;
                    break;
                case OpTailCall when i + 1 < (int)codeCount:
                    uint next = BinaryPrimitives.ReadUInt32LittleEndian(code.Slice((i + 1) * sizeof(uint)));
                    bool returnsAll = (next & OpMask) == OpReturn && ((next >> 7) & 0xFF) == ((instruction >> 7) & 0xFF) && ((next >> 16) & 0xFF) == 0;
                    if (returnsAll)
                    {
                        BinaryPrimitives.WriteUInt32LittleEndian(at, (instruction & ~(OpMask | KBit | CMask)) | OpCall);
                        summary.TailCalls++;
                    }
                    break;
            }
        }

        if (!reader.TryReadSize(out long constants))
            return false;
        for (long i = 0; i < constants; i++)
        {
            if (!reader.TryTake(1, out var tag))
                return false;
            bool ok;
            if (tag[0] is TagShortString or TagLongString)
            {
                ok = reader.TryReadString(out var text);
                if (ok && ReachesTableChanges(text))
                    summary.MayChangeTables = true;
            }
            else
            {
                ok = tag[0] switch
                {
                    TagNil or TagFalse or TagTrue => true,
                    TagInteger or TagFloat => reader.Skip(8),
                    _ => false,
                };
            }
            if (!ok)
                return false;
        }

        // Upvalues: instack, idx, kind.
        if (!reader.TryReadSize(out long upvalues) || !reader.Skip(upvalues * 3))
            return false;

        if (!reader.TryReadSize(out long protos))
            return false;
        if (protos > 0)
            summary.MayLoop = true;
        for (long i = 0; i < protos; i++)
        {
            if (!PatchFunction(ref reader, ref summary))
                return false;
        }

        // Debug: line deltas, absolute lines (pc, line), locals (name, startpc, endpc), upvalue names.
        if (!reader.TryReadSize(out long lineInfo) || !reader.Skip(lineInfo))
            return false;
        if (!reader.TryReadSize(out long absoluteLines))
            return false;
        for (long i = 0; i < absoluteLines; i++)
        {
            if (!reader.TryReadSize(out _) || !reader.TryReadSize(out _))
                return false;
        }
        if (!reader.TryReadSize(out long locals))
            return false;
        for (long i = 0; i < locals; i++)
        {
            if (!reader.SkipString() || !reader.TryReadSize(out _) || !reader.TryReadSize(out _))
                return false;
        }
        if (!reader.TryReadSize(out long upvalueNames))
            return false;
        if (upvalueNames < upvalues && upvalueUses != 0)
            summary.UsesEnvironment = true;
        for (long i = 0; i < upvalueNames; i++)
        {
            if (!reader.TryReadString(out var name))
                return false;
            if ((upvalueUses & (1UL << (int)Math.Min(i, 63))) != 0 && name.SequenceEqual("_ENV"u8))
                summary.UsesEnvironment = true;
        }
        return true;
    }

    /// <summary>Names through which a script reaches functions that change tables passed to them.</summary>
    private static bool ReachesTableChanges(ReadOnlySpan<byte> name)
        => name.SequenceEqual("table"u8) || name.SequenceEqual("rawset"u8) || name.SequenceEqual("setmetatable"u8)
            || name.SequenceEqual("load"u8) || name.SequenceEqual("loadstring"u8) || name.SequenceEqual("_G"u8);

    private ref struct Reader
    {
        private readonly Span<byte> _chunk;

        public Reader(Span<byte> chunk, int position)
        {
            _chunk = chunk;
            Position = position;
        }

        public int Position { get; private set; }

        /// <summary>ldump.c's dumpSize: 7 bits a byte, most significant first, the last byte flagged 0x80.</summary>
        public bool TryReadSize(out long value)
        {
            value = 0;
            while (Position < _chunk.Length)
            {
                byte b = _chunk[Position++];
                value = (value << 7) | (uint)(b & 0x7F);
                if ((b & 0x80) != 0)
                    return value <= int.MaxValue;
                if (value > int.MaxValue)
                    return false;
            }
            return false;
        }

        public bool TryTake(long length, out Span<byte> span)
        {
            if (length < 0 || length > _chunk.Length - Position)
            {
                span = default;
                return false;
            }
            span = _chunk.Slice(Position, (int)length);
            Position += (int)length;
            return true;
        }

        public bool Skip(long length) => TryTake(length, out _);

        /// <summary>A string: its size plus one (0 for none), then its bytes.</summary>
        public bool SkipString() => TryReadString(out _);

        public bool TryReadString(out Span<byte> text)
        {
            text = default;
            return TryReadSize(out long size) && (size == 0 || TryTake(size - 1, out text));
        }
    }
}
