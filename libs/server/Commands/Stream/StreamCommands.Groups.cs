using System;
using System.Text;

namespace Garnet.server;

/// <summary>
/// The consumer-group commands and XINFO, session side: XGROUP's and XINFO's subcommands are resolved through
/// <see cref="SubcommandTable"/>; arguments Redis checks before the key are checked here; the rest runs in the
/// <see cref="StreamObject"/>. XREADGROUP shares XREAD's code (StreamCommands.Read.cs).
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private static readonly string[] s_xgroupHelp =
    [
        "CREATE <key> <groupname> <id|$> [option]",
        "    Create a new consumer group. Options are:",
        "    * MKSTREAM",
        "      Create the empty stream if it does not exist.",
        "    * ENTRIESREAD entries_read",
        "      Set the group's entries_read counter (internal use).",
        "CREATECONSUMER <key> <groupname> <consumer>",
        "    Create a new consumer in the specified group.",
        "DELCONSUMER <key> <groupname> <consumer>",
        "    Remove the specified consumer.",
        "DESTROY <key> <groupname>",
        "    Remove the specified group.",
        "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
        "    Set the current group ID and entries_read counter.",
    ];

    private static readonly string[] s_xinfoHelp =
    [
        "CONSUMERS <key> <groupname>",
        "    Show consumers of <groupname>.",
        "GROUPS <key>",
        "    Show the stream consumer groups.",
        "STREAM <key> [FULL [COUNT <count>]",
        "    Show information about the stream.",
    ];

    /// <summary>XGROUP and XINFO's help: Redis words its last line "Prints this help." for these two.</summary>
    private void WriteStreamHelp(string[] lines)
    {
        _writer.WriteArrayHeader(lines.Length + 3);
        _writer.WriteSimpleString(Encoding.ASCII.GetBytes(CurrentCommand.Name + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:"));
        foreach (string line in lines)
            _writer.WriteSimpleString(Encoding.ASCII.GetBytes(line));
        _writer.WriteSimpleString("HELP"u8);
        _writer.WriteSimpleString("    Prints this help."u8);
    }

    /// <summary>XGROUP CREATE|SETID|DESTROY|CREATECONSUMER|DELCONSUMER|HELP.</summary>
    private void StreamGroup()
    {
        var subcommand = ResolveSubcommand(RespCommand.XGROUP);
        if (subcommand == null)
            return;
        StreamObject.GroupSubcommand kind;
        switch (subcommand.Id)
        {
            case Subcommand.XGroupHelp:
                WriteStreamHelp(s_xgroupHelp);
                return;
            case Subcommand.XGroupCreate:
            case Subcommand.XGroupSetId:
                {
                    bool create = subcommand.Id == Subcommand.XGroupCreate;
                    if (!StreamArguments.TryParseGroupOptions(_args.AsSpan(0, _argCount), 5, create, out _, out _, out var error))
                    {
                        if (error.IsEmpty)
                            WriteSubcommandSyntaxError(CurrentCommand.Name);
                        else
                            _writer.WriteError(error);
                        return;
                    }
                    if (create ? _argCount > 8 : _argCount != 5 && _argCount != 7)
                    {
                        WriteSubcommandSyntaxError(CurrentCommand.Name);
                        return;
                    }
                    kind = create ? StreamObject.GroupSubcommand.Create : StreamObject.GroupSubcommand.SetId;
                    break;
                }
            case Subcommand.XGroupDestroy: kind = StreamObject.GroupSubcommand.Destroy; break;
            case Subcommand.XGroupCreateConsumer: kind = StreamObject.GroupSubcommand.CreateConsumer; break;
            case Subcommand.XGroupDelConsumer: kind = StreamObject.GroupSubcommand.DelConsumer; break;
            default: throw new InvalidOperationException($"{subcommand.Id} is not an XGROUP subcommand.");
        }
        var input = NewObjectInput(GarnetObjectType.Stream, 3);
        input.Flags = (int)kind;
        var output = NewObjectOutput();
        var key = _args[2].Span;
        var status = ObjectRMW(key, ref input, ref output);
        // Clients blocked in XREADGROUP on the group get NOGROUP when it goes, as Redis re-runs them.
        if (kind == StreamObject.GroupSubcommand.Destroy && output.Result == ObjectResult.Ok)
            NotifyKeyWritten(key);
        CompleteObjectReply(ref output, status);
    }

    /// <summary>XINFO STREAM|GROUPS|CONSUMERS|HELP: everything but HELP looks the key up first.</summary>
    private void StreamInfo()
    {
        var subcommand = ResolveSubcommand(RespCommand.XINFO);
        if (subcommand == null)
            return;
        var kind = subcommand.Id switch
        {
            Subcommand.XInfoStream => StreamObject.InfoSubcommand.Stream,
            Subcommand.XInfoGroups => StreamObject.InfoSubcommand.Groups,
            Subcommand.XInfoConsumers => StreamObject.InfoSubcommand.Consumers,
            _ => (StreamObject.InfoSubcommand)0,
        };
        if (kind == 0)
        {
            WriteStreamHelp(s_xinfoHelp);
            return;
        }
        var input = NewObjectInput(GarnetObjectType.Stream, 3);
        input.Flags = (int)kind;
        var output = NewObjectOutput();
        var status = ObjectRead(_args[2].Span, ref input, ref output);
        CompleteObjectReply(ref output, status);
    }

    /// <summary>XPENDING: the range, count and IDLE are checked before the key.</summary>
    private void StreamPending()
    {
        if (!StreamArguments.TryParsePending(_args.AsSpan(0, _argCount), out _, out _, out _, out _, out _, out var error))
        {
            _writer.WriteError(error);
            return;
        }
        RunStreamRead();
    }

    /// <summary>XAUTOCLAIM: the idle time, start and options are checked before the key.</summary>
    private void StreamAutoClaim()
    {
        if (!StreamArguments.TryParseAutoClaim(_args.AsSpan(0, _argCount), out _, out _, out _, out _, out var error))
        {
            _writer.WriteError(error);
            return;
        }
        RunObjectCommand(GarnetObjectType.Stream, write: true);
    }
}
