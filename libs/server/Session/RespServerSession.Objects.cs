using System;
using Garnet.common;
using Tsavorite;

namespace Garnet.server;

/// <summary>
/// Running object commands: the engine operation with an <see cref="ObjectInput"/>, and the reply the
/// object wrote into the reply buffer (or WRONGTYPE / -OOM) copied to the client afterwards.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private ClientSession<ObjectInput, ObjectOutput, ObjectStoreFunctions>? _objectSession;
    /// <summary>Object commands' replies while the key's latch is held; made at the first (see <see cref="ObjectReplies"/>).</summary>
    private ReplyBuffer? _replyBuffer;

    private ReplyBuffer ObjectReplies => _replyBuffer ??= new ReplyBuffer();

    /// <summary>The object-command engine session of the selected database (valid during a batch).</summary>
    internal ClientSession<ObjectInput, ObjectOutput, ObjectStoreFunctions> ObjectStore => _objectSession!;

    /// <summary>The selected database's heap objects.</summary>
    internal ObjectTable Objects => _database!.Objects;

    /// <summary>
    /// An input running the current command on an object of <paramref name="type"/>, with the
    /// arguments from <paramref name="firstArg"/> on (by default, those after the key).
    /// </summary>
    internal ObjectInput NewObjectInput(GarnetObjectType type, int firstArg = 2)
        => new(CurrentCommand.Command, type, _args, firstArg, _argCount - firstArg);

    /// <summary>An output whose writer fills the (emptied) reply buffer in this connection's protocol.</summary>
    internal ObjectOutput NewObjectOutput()
    {
        ObjectReplies.Reset();
        var output = new ObjectOutput();
        output.Writer.Attach(ObjectReplies);
        output.Writer.Resp3 = _writer.Resp3;
        output.Writer.ErrorListener = this;
        return output;
    }

    /// <summary>Runs an object write (RMW) on <paramref name="key"/>; the reply is not yet sent (see <see cref="CompleteObjectReply"/>).</summary>
    internal Status ObjectRMW(ReadOnlySpan<byte> key, ref ObjectInput input, ref ObjectOutput output)
    {
        bool onlyRemoves = input.Operation == ObjectOperation.Run && ObjectStoreFunctions.OnlyRemoves(input.Command);
        int errors = _errorReplies;
        var status = onlyRemoves ? ObjectStore.RMWExisting(key, ref input, ref output) : ObjectStore.RMW(key, ref input, ref output);
        // A removal on an absent key (NeedInitialUpdate declined it) answers as on an empty object,
        // which it cannot change: it finds nothing to remove.
        if (onlyRemoves && status.NotFound && !output.Ran && output.Result == ObjectResult.Ok)
            GarnetObjectFactory.Empty(input.Type).Operate(ref input, ref output);
        // Notifications/: "new", the command's event, "del" when it emptied the key.
        if (KeyspaceEventsOn && !_objectEventsHeld)
            NotifyObjectWrite(key, in input, ref output, status, failed: _errorReplies != errors);
        // Clients blocked on the key (BLPOP, BZPOPMIN, XREAD...) get a chance to pop what was written. Only
        // commands that can add elements (deny-oom) signal: a pop must not wake waiters to find nothing.
        if (input.Type is GarnetObjectType.List or GarnetObjectType.SortedSet or GarnetObjectType.Stream && output.Result == ObjectResult.Ok && MayAddElements(in input))
            NotifyKeyWritten(key);
        return status;
    }

    /// <summary>
    /// Runs an object read on <paramref name="key"/>. For an absent key, a command runs on a shared
    /// empty object, so it answers as Redis does for a missing key.
    /// </summary>
    internal Status ObjectRead(ReadOnlySpan<byte> key, ref ObjectInput input, ref ObjectOutput output)
    {
        var status = ObjectStore.Read(key, ref input, ref output);
        if (status.NotFound && input.Operation == ObjectOperation.Run)
        {
            NotifyReadMiss(key, status);
            GarnetObjectFactory.Empty(input.Type).Operate(ref input, ref output);
        }
        return status;
    }

    /// <summary>
    /// Sends the outcome of an object operation: -OOM, WRONGTYPE, or the reply the command wrote.
    /// Returns whether the command ran (its reply was sent).
    /// </summary>
    internal bool CompleteObjectReply(ref ObjectOutput output, Status status)
    {
        if (status.IsOutOfMemory || output.Result == ObjectResult.OutOfMemory)
        {
            _writer.WriteError(RespStrings.ErrOutOfMemory);
            return false;
        }
        if (output.Result == ObjectResult.WrongType)
        {
            _writer.WriteError(RespStrings.WrongType);
            return false;
        }
        output.Writer.Flush();
        _writer.WriteRaw(ObjectReplies.Written);
        ObjectReplies.Reset();
        return true;
    }

    /// <summary>
    /// The common shape of a single-key object command: key at argument 1, the rest handed to
    /// <see cref="GarnetObject.Operate"/>, run as an update or a read, reply sent.
    /// </summary>
    internal void RunObjectCommand(GarnetObjectType type, bool write)
    {
        var input = NewObjectInput(type);
        var output = NewObjectOutput();
        var status = write ? ObjectRMW(_args[1].Span, ref input, ref output) : ObjectRead(_args[1].Span, ref input, ref output);
        CompleteObjectReply(ref output, status);
    }

    /// <summary>
    /// A deep copy of the object at <paramref name="key"/>, for commands that combine several keys
    /// (SUNION, ZUNIONSTORE, SORT...) and compute outside the latches. Null when the key is absent;
    /// WrongType when it holds another type (<see cref="GarnetObjectType.None"/> accepts any object).
    /// </summary>
    internal ObjectResult ReadObjectSnapshot(ReadOnlySpan<byte> key, GarnetObjectType type, out GarnetObject? snapshot, RespCommand command = RespCommand.NONE)
    {
        var input = new ObjectInput(command, type, _args, 0, 0) { Operation = ObjectOperation.Snapshot };
        var output = new ObjectOutput();
        var status = ObjectStore.Read(key, ref input, ref output);
        snapshot = status.Found && output.Result == ObjectResult.Ok ? output.Object : null;
        return status.Found ? output.Result : ObjectResult.Ok;
    }

    /// <summary>
    /// Makes <paramref name="key"/> hold <paramref name="obj"/> whatever it held before (the *STORE
    /// commands), without expiration unless <paramref name="expirationUnixMs"/> is given; an empty or null
    /// object deletes the key instead, as Redis does for an empty result.
    /// </summary>
    internal Status StoreObject(ReadOnlySpan<byte> key, GarnetObject? obj, long expirationUnixMs = 0)
    {
        if (obj == null || obj.Count == 0)
        {
            var deleted = Store.Delete(key);
            if (KeyspaceEventsOn)
                NotifyStored(key, empty: true, deleted);
            return deleted;
        }
        obj.DecideEncoding(_server.Options.EncodingThresholds);
        var input = new ObjectInput(RespCommand.NONE, obj.Type, _args, 0, 0)
        {
            Operation = ObjectOperation.Install,
            Install = obj,
            ExpirationUnixMs = expirationUnixMs,
        };
        var output = new ObjectOutput();
        var status = ObjectStore.RMW(key, ref input, ref output);
        if (KeyspaceEventsOn && output.Result == ObjectResult.Ok)
            NotifyStored(key, empty: false, status);
        // Clients blocked on the key may pop from the stored list or sorted set (SORT ... STORE, ZUNIONSTORE...).
        if (obj.Type is GarnetObjectType.List or GarnetObjectType.SortedSet or GarnetObjectType.Stream && output.Result == ObjectResult.Ok)
            NotifyKeyWritten(key);
        return status;
    }
}
