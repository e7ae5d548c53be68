using System;

namespace Garnet.server;

/// <summary>
/// Whether a user may run one command with its arguments: the dispatcher (for users that are not
/// unrestricted), EXEC, scripts and ACL DRYRUN all ask here. A selector must allow the command, each
/// of its keys (with the access the command table declares for it, <see cref="RespCommandInfo.KeyAccess"/>)
/// and each channel; the root selector is tried first, then the others. When all refuse, the most
/// telling refusal is reported, as Redis orders them (channel over key over command).
/// </summary>
internal static class AclChecker
{
    /// <summary>The result of a check: why it was refused and where (argument index of the key or channel).</summary>
    public readonly record struct Result(AclDenial Denial, int Position, string CommandName);

    public static Result Check(AclUser user, RespCommandInfo info, ReadOnlySpan<ArgSlice> args, int argCount, KeyList keys)
    {
        SubcommandInfo? subcommand = null;
        if (argCount >= 2 && SubcommandTable.IsContainer(info.Command))
            subcommand = SubcommandTable.Find(info.Command, args[1]);
        string name = subcommand?.Info.LowerName ?? info.LowerName;

        bool keysExtracted = false;
        var worst = new Result(AclDenial.None, 0, name);
        var result = CheckSelector(user.Root, info, subcommand, args, argCount, keys, ref keysExtracted);
        if (result.Denial == AclDenial.None)
            return new Result(AclDenial.None, 0, name);
        worst = result with { CommandName = name };
        foreach (var selector in user.Selectors)
        {
            result = CheckSelector(selector, info, subcommand, args, argCount, keys, ref keysExtracted);
            if (result.Denial == AclDenial.None)
                return new Result(AclDenial.None, 0, name);
            if (result.Denial > worst.Denial)
                worst = result with { CommandName = name };
        }
        return worst;
    }

    private static Result CheckSelector(AclSelector selector, RespCommandInfo info, SubcommandInfo? subcommand, ReadOnlySpan<ArgSlice> args, int argCount, KeyList keys, ref bool keysExtracted)
    {
        if (!selector.AllowsCommand(info, subcommand))
            return new Result(AclDenial.Command, 0, "");

        if (!selector.AllKeys)
        {
            if (!keysExtracted)
            {
                KeyExtraction.Extract(info, args, argCount, keys);
                keysExtracted = true;
            }
            var access = KeyExtraction.AccessOf(info, args, argCount);
            for (int i = 0; i < keys.Count; i++)
            {
                int position = keys.Position(i);
                if (!selector.AllowsKey(args[position].Span, access.Of(i)))
                    return new Result(AclDenial.Key, position, "");
            }
        }

        if (!selector.AllChannels)
        {
            switch (info.Command)
            {
                case RespCommand.PUBLISH:
                case RespCommand.SPUBLISH:
                    if (!selector.AllowsChannel(args[1].Span, isPattern: false))
                        return new Result(AclDenial.Channel, 1, "");
                    break;
                case RespCommand.SUBSCRIBE:
                case RespCommand.SSUBSCRIBE:
                case RespCommand.PSUBSCRIBE:
                    bool pattern = info.Command == RespCommand.PSUBSCRIBE;
                    for (int i = 1; i < argCount; i++)
                    {
                        if (!selector.AllowsChannel(args[i].Span, pattern))
                            return new Result(AclDenial.Channel, i, "");
                    }
                    break;
            }
        }
        return new Result(AclDenial.None, 0, "");
    }
}
