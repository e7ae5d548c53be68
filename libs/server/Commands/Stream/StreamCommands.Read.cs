using System;
using System.Buffers;
using System.Runtime.InteropServices;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>
/// XREAD and XREADGROUP, session side. Every key's type and ID is checked first (in argument order, as Redis does); then each
/// key's entries after its ID are read under that key's latch alone and gathered, since the reply's length (the
/// number of keys with entries) is known only at the end. With BLOCK and nothing to read the client waits in the
/// server's blocking registry (libs/server/Blocking): an XADD to one of the keys runs this again on the waiter's
/// session, in arrival order. "$" is resolved to the stream's last ID before the client blocks, so the retry reads
/// only what was added since.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>The keys' parts of an XREAD reply, gathered before its header can be written.</summary>
    private ArrayBufferWriter<byte>? _streamReadReplies;

    /// <summary>
    /// The IDs "$" stands for in the current XREAD (pinned, as arguments are pointers; held here so they outlive the
    /// command until a blocked client's waiter has copied them).
    /// </summary>
    private byte[] _streamResolvedIds = [];

    /// <summary>How a key stands for a stream command: absent, a stream, or another type.</summary>
    private enum StreamKeyKind : byte
    {
        Absent,
        Stream,
        OtherType,
    }

    /// <summary>Whether <paramref name="key"/> holds a stream, another type, or nothing; with <paramref name="lastId"/> the stream's last ID.</summary>
    private StreamKeyKind LookUpStream(ReadOnlySpan<byte> key, out byte[]? lastId)
    {
        lastId = null;
        var input = new ObjectInput(RespCommand.XREAD, GarnetObjectType.Stream, _args, 0, 0) { Flags = StreamObject.ReadReportLastId };
        var output = new ObjectOutput();
        var status = ObjectStore.Read(key, ref input, ref output);
        if (!status.Found)
            return StreamKeyKind.Absent;
        if (output.Result != ObjectResult.Ok)
            return StreamKeyKind.OtherType;
        lastId = output.Element;
        return StreamKeyKind.Stream;
    }

    /// <summary>
    /// XREAD [COUNT count] [BLOCK milliseconds] STREAMS key [key ...] id [id ...] and
    /// XREADGROUP GROUP group consumer [COUNT count] [BLOCK milliseconds] [NOACK] STREAMS key [key ...] id [id ...].
    /// </summary>
    private void StreamRead()
    {
        bool readGroup = CurrentCommand.Command == RespCommand.XREADGROUP;
        long count = 0;
        long deadline = 0;
        bool block = false;
        bool noAck = false;
        int streamsAt = 0;
        int groupAt = 0;
        for (int i = 1; i < _argCount; i++)
        {
            bool more = i < _argCount - 1;
            var arg = _args[i];
            if (more && arg.EqualsUpper("BLOCK"u8))
            {
                if (_inScriptCommand)
                {
                    _writer.WriteError($"ERR {Encoding.UTF8.GetString(_args[0].Span)} command is not allowed with BLOCK option from scripts");
                    return;
                }
                if (!TryParseStreamBlockTimeout(_args[++i].Span, out deadline))
                    return;
                block = true;
            }
            else if (more && arg.EqualsUpper("COUNT"u8))
            {
                if (!NumberFormat.TryParseLong(_args[++i].Span, out count))
                {
                    _writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (count < 0)
                    count = 0;
            }
            else if (more && arg.EqualsUpper("STREAMS"u8))
            {
                streamsAt = i + 1;
                if ((_argCount - streamsAt) % 2 != 0)
                {
                    _writer.WriteError(StreamStrings.ErrUnbalancedXRead);
                    return;
                }
                break;
            }
            else if (_argCount - i - 1 >= 2 && arg.EqualsUpper("GROUP"u8))
            {
                if (!readGroup)
                {
                    _writer.WriteError(StreamStrings.ErrGroupOnlyForReadGroup);
                    return;
                }
                groupAt = i + 1;
                i += 2;
            }
            else if (arg.EqualsUpper("NOACK"u8))
            {
                if (!readGroup)
                {
                    _writer.WriteError(StreamStrings.ErrNoAckOnlyForReadGroup);
                    return;
                }
                noAck = true;
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }
        if (streamsAt == 0)
        {
            _writer.WriteError(RespStrings.ErrSyntax);
            return;
        }
        if (readGroup && groupAt == 0)
        {
            _writer.WriteError(StreamStrings.ErrMissingGroup);
            return;
        }

        int keys = (_argCount - streamsAt) / 2;
        if (!CheckStreamReadKeys(streamsAt, keys, groupAt))
            return;

        var replies = _streamReadReplies ??= new ArrayBufferWriter<byte>();
        replies.ResetWrittenCount();
        int served = 0;
        int countFlags = (int)Math.Min(count, StreamObject.ReadGroupCountMask);
        for (int k = 0; k < keys; k++)
        {
            int keyAt = streamsAt + k;
            var key = _args[keyAt].Span;
            var output = NewObjectOutput();
            Tsavorite.Status status;
            if (readGroup)
            {
                var input = new ObjectInput(RespCommand.XREADGROUP, GarnetObjectType.Stream, _args, keyAt + 1, 0)
                {
                    Number = groupAt,
                    Number2 = keyAt + keys,
                    Flags = countFlags | (noAck ? StreamObject.ReadGroupNoAck : 0),
                };
                status = ObjectRMW(key, ref input, ref output);
                if (status.IsOutOfMemory || output.Result != ObjectResult.Ok || output.Number < 0)
                {
                    CompleteObjectReply(ref output, status);
                    return;
                }
            }
            else
            {
                StreamId.TryParseStrict(_args[keyAt + keys].Span, 0, out var after, out _);
                var input = new ObjectInput(RespCommand.XREAD, GarnetObjectType.Stream, _args, 0, 0)
                {
                    Number = unchecked((long)after.Ms),
                    Number2 = unchecked((long)after.Seq),
                    Flags = countFlags,
                };
                status = ObjectStore.Read(key, ref input, ref output);
                if (output.Result == ObjectResult.WrongType)
                {
                    CompleteObjectReply(ref output, status);
                    return;
                }
            }
            if (!status.Found || output.Number == 0)
            {
                ObjectReplies.Reset();
                continue;
            }
            served++;
            AppendStreamKeyHeader(replies, key);
            output.Writer.Flush();
            replies.Write(ObjectReplies.Written);
            ObjectReplies.Reset();
        }

        if (served > 0)
        {
            if (_writer.Resp3)
                _writer.WriteMapHeader(served);
            else
                _writer.WriteArrayHeader(served);
            _writer.WriteRaw(replies.WrittenSpan);
            return;
        }
        if (block)
        {
            BlockOnKeys(streamsAt, keys, deadline);
            return;
        }
        _writer.WriteNullArray();
    }

    /// <summary>
    /// Checks every key of XREAD / XREADGROUP in order, as Redis does before reading any: its type, its group (XREADGROUP),
    /// then its ID. Resolves "$" to the stream's last ID. Writes the first error and returns false.
    /// </summary>
    private bool CheckStreamReadKeys(int streamsAt, int keys, int groupAt)
    {
        int resolvedLength = 0;
        for (int k = 0; k < keys; k++)
        {
            int idAt = streamsAt + keys + k;
            var key = _args[streamsAt + k].Span;
            var idText = _args[idAt].Span;
            bool dollar = idText.Length == 1 && idText[0] == '$';
            byte[]? lastId = null;
            if (groupAt > 0)
            {
                var input = new ObjectInput(RespCommand.XREADGROUP, GarnetObjectType.Stream, _args, streamsAt + k + 1, 0)
                {
                    Number = groupAt,
                    Flags = StreamObject.ReadGroupCheckOnly,
                };
                var output = new ObjectOutput();
                var status = ObjectStore.Read(key, ref input, ref output);
                if (output.Result == ObjectResult.WrongType)
                {
                    _writer.WriteError(RespStrings.WrongType);
                    return false;
                }
                if (!status.Found || output.Number == 0)
                {
                    _writer.WriteError($"NOGROUP No such key '{Encoding.UTF8.GetString(key)}' or consumer group '{Encoding.UTF8.GetString(_args[groupAt].Span)}' in XREADGROUP with GROUP option");
                    return false;
                }
                if (dollar)
                {
                    _writer.WriteError(StreamStrings.ErrDollarInReadGroup);
                    return false;
                }
                if (idText.Length == 1 && idText[0] == '>')
                    continue;
            }
            else
            {
                if (LookUpStream(key, out lastId) == StreamKeyKind.OtherType)
                {
                    _writer.WriteError(RespStrings.WrongType);
                    return false;
                }
                if (dollar)
                {
                    // A blocked client's waiter copies the arguments: from now on the key's ID is its last one at this moment.
                    var resolved = lastId ?? "0-0"u8.ToArray();
                    if (_streamResolvedIds.Length < keys * StreamId.MaxTextLength)
                    {
                        // Arguments resolved earlier in this command point into the old buffer, which stays alive meanwhile.
                        var larger = GC.AllocateUninitializedArray<byte>(keys * StreamId.MaxTextLength, pinned: true);
                        Buffer.BlockCopy(_streamResolvedIds, 0, larger, 0, resolvedLength);
                        RebaseResolvedIds(streamsAt + keys, idAt, larger);
                        _streamResolvedIds = larger;
                    }
                    resolved.CopyTo(_streamResolvedIds, resolvedLength);
                    _args[idAt] = new ArgSlice((byte*)Marshal.UnsafeAddrOfPinnedArrayElement(_streamResolvedIds, resolvedLength), resolved.Length);
                    resolvedLength += resolved.Length;
                    continue;
                }
                if (idText.Length == 1 && idText[0] == '>')
                {
                    _writer.WriteError(StreamStrings.ErrGreaterOnlyInReadGroup);
                    return false;
                }
            }
            if (!StreamId.TryParseStrict(idText, 0, out _, out bool autoSeq) || autoSeq)
            {
                _writer.WriteError(StreamStrings.ErrInvalidId);
                return false;
            }
        }
        return true;
    }

    /// <summary>The key of one stream in an XREAD or XREADGROUP reply: in RESP2 it opens a [key, entries] pair; in RESP3 it is the map key.</summary>
    private void AppendStreamKeyHeader(ArrayBufferWriter<byte> replies, ReadOnlySpan<byte> key)
    {
        Span<byte> header = stackalloc byte[32];
        int length = 0;
        if (!_writer.Resp3)
        {
            "*2\r\n"u8.CopyTo(header);
            length = 4;
        }
        header[length++] = (byte)'$';
        System.Buffers.Text.Utf8Formatter.TryFormat(key.Length, header.Slice(length), out int digits);
        length += digits;
        header[length++] = (byte)'\r';
        header[length++] = (byte)'\n';
        replies.Write(header.Slice(0, length));
        replies.Write(key);
        replies.Write("\r\n"u8);
    }

    /// <summary>Points the arguments from <paramref name="first"/> up to <paramref name="end"/> that lie in the resolved-ID buffer at the same offsets of <paramref name="larger"/>.</summary>
    private void RebaseResolvedIds(int first, int end, byte[] larger)
    {
        if (_streamResolvedIds.Length == 0)
            return;
        byte* oldStart = (byte*)Marshal.UnsafeAddrOfPinnedArrayElement(_streamResolvedIds, 0);
        byte* newStart = (byte*)Marshal.UnsafeAddrOfPinnedArrayElement(larger, 0);
        for (int i = first; i < end; i++)
        {
            var arg = _args[i];
            if (arg.Pointer >= oldStart && arg.Pointer < oldStart + _streamResolvedIds.Length)
                _args[i] = new ArgSlice(newStart + (arg.Pointer - oldStart), arg.Length);
        }
    }
}
