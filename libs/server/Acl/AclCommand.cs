using System;
using System.Collections.Generic;
using System.Security.Cryptography;
using System.Text;
using Garnet.common;

namespace Garnet.server;

/// <summary>ACL SETUSER / GETUSER / DELUSER / LIST / USERS / WHOAMI / CAT / GENPASS / LOG / DRYRUN / LOAD / SAVE / HELP.</summary>
public sealed unsafe partial class RespServerSession
{
    private void AclCommand()
    {
        var subcommand = ResolveSubcommand(RespCommand.ACL);
        if (subcommand == null)
            return;
        switch (subcommand.Id)
        {
            case Subcommand.AclSetUser: AclSetUser(); break;
            case Subcommand.AclGetUser: AclGetUser(); break;
            case Subcommand.AclDelUser: AclDelUser(); break;
            case Subcommand.AclList: AclList(); break;
            case Subcommand.AclUsers: AclUsers(); break;
            case Subcommand.AclWhoAmI: _writer.WriteBulk(Encoding.Latin1.GetBytes(_aclUser.Name)); break;
            case Subcommand.AclCat: AclCat(); break;
            case Subcommand.AclGenPass: AclGenPass(); break;
            case Subcommand.AclLog: AclLogCommand(); break;
            case Subcommand.AclDryRun: AclDryRun(); break;
            case Subcommand.AclLoad: AclLoad(); break;
            case Subcommand.AclSave: AclSave(); break;
            case Subcommand.AclHelp: WriteHelp(AclStrings.Help); break;
            default: throw new InvalidOperationException($"{subcommand.Id} is not an ACL subcommand.");
        }
    }

    // ACL rules, user names and patterns are read as Latin-1 so that any byte survives the round trip to ACL LIST and the file.
    private string AclArgument(int i) => Encoding.Latin1.GetString(_args[i].Span);

    private void AclSetUser()
    {
        string name = AclArgument(2);
        if (name.AsSpan().IndexOfAny(' ', '\0') >= 0)
        {
            _writer.WriteError(AclStrings.ErrUsernameSpaces);
            return;
        }
        var rules = new string[_argCount - 3];
        for (int i = 3; i < _argCount; i++)
            rules[i - 3] = AclArgument(i);
        string? error = _server.Acl.SetUser(name, rules, out var changed);
        if (error != null)
        {
            _writer.WriteError(error);
            return;
        }
        if (changed != null)
            DisconnectSubscribersWithoutAccess(changed);
        _writer.WriteOk();
    }

    /// <summary>ACL GETUSER: Redis 7.2's map of flags, passwords, commands, keys, channels and selectors; nil for no such user.</summary>
    private void AclGetUser()
    {
        var handle = _server.Acl.Find(AclArgument(2));
        if (handle == null)
        {
            _writer.WriteNull();
            return;
        }
        var user = handle.Current;
        _writer.WriteMapHeader(6);
        _writer.WriteBulk("flags"u8);
        _writer.WriteSetHeader(user.NoPass ? 2 : 1);
        _writer.WriteBulk(user.Enabled ? "on"u8 : "off"u8);
        if (user.NoPass)
            _writer.WriteBulk("nopass"u8);
        _writer.WriteBulk("passwords"u8);
        _writer.WriteArrayHeader(user.Passwords.Count);
        foreach (string hash in user.Passwords)
            _writer.WriteBulk(hash);
        WriteSelectorFields(user.Root);
        _writer.WriteBulk("selectors"u8);
        _writer.WriteArrayHeader(user.Selectors.Count);
        foreach (var selector in user.Selectors)
        {
            _writer.WriteMapHeader(3);
            WriteSelectorFields(selector);
        }
    }

    private void WriteSelectorFields(AclSelector selector)
    {
        _writer.WriteBulk("commands"u8);
        _writer.WriteBulk(Encoding.Latin1.GetBytes(selector.DescribeCommands()));
        _writer.WriteBulk("keys"u8);
        _writer.WriteBulk(Encoding.Latin1.GetBytes(selector.DescribeKeys()));
        _writer.WriteBulk("channels"u8);
        _writer.WriteBulk(Encoding.Latin1.GetBytes(selector.DescribeChannels()));
    }

    /// <summary>ACL DELUSER: the number deleted; their connections are closed.</summary>
    private void AclDelUser()
    {
        var deleted = new List<AclUserHandle>();
        for (int i = 2; i < _argCount; i++)
        {
            string name = AclArgument(i);
            if (name == AccessControlList.DefaultUserName)
            {
                DisconnectUsers(deleted);
                _writer.WriteError(AclStrings.ErrDefaultUserCannotBeRemoved);
                return;
            }
            var handle = _server.Acl.DeleteUser(name);
            if (handle != null)
                deleted.Add(handle);
        }
        DisconnectUsers(deleted);
        _writer.WriteInteger(deleted.Count);
    }

    private void AclList()
    {
        var names = _server.Acl.SortedNames();
        var lines = new List<string>(names.Count);
        foreach (string name in names)
        {
            var handle = _server.Acl.Find(name);
            if (handle != null)
                lines.Add("user " + name + " " + handle.Current.Describe());
        }
        _writer.WriteArrayHeader(lines.Count);
        foreach (string line in lines)
            _writer.WriteBulk(Encoding.Latin1.GetBytes(line));
    }

    private void AclUsers()
    {
        var names = _server.Acl.SortedNames();
        _writer.WriteArrayHeader(names.Count);
        foreach (string name in names)
            _writer.WriteBulk(Encoding.Latin1.GetBytes(name));
    }

    /// <summary>ACL CAT: the category names, or the commands (and subcommands, as "parent|sub") of one category.</summary>
    private void AclCat()
    {
        if (_argCount == 2)
        {
            _writer.WriteArrayHeader(AclCategoryNames.All.Length);
            foreach (var (name, _) in AclCategoryNames.All)
                _writer.WriteBulk(name);
            return;
        }
        if (_argCount > 3)
        {
            WriteSubcommandSyntaxError("ACL");
            return;
        }
        var category = AclCategoryNames.Find(AclArgument(2));
        if (category == AclCategories.None)
        {
            _writer.WriteError($"ERR Unknown category '{AclArgument(2)}'");
            return;
        }
        var names = new List<string>();
        foreach (var info in CommandTable.All)
        {
            if ((info.AclCategories & category) != 0)
                names.Add(info.LowerName);
            foreach (var subcommand in SubcommandTable.Of(info.Command))
            {
                if ((subcommand.Info.AclCategories & category) != 0)
                    names.Add(subcommand.Info.LowerName);
            }
        }
        foreach (var info in _server.Extensions.All)
        {
            if ((info.AclCategories & category) != 0)
                names.Add(info.LowerName);
        }
        _writer.WriteArrayHeader(names.Count);
        foreach (string name in names)
            _writer.WriteBulk(name);
    }

    /// <summary>ACL GENPASS [bits]: random hex, four bits a digit (256 bits by default).</summary>
    private void AclGenPass()
    {
        long bits = 256;
        if (_argCount > 3)
        {
            WriteSubcommandSyntaxError("ACL");
            return;
        }
        if (_argCount == 3 && (!NumberFormat.TryParseLong(_args[2].Span, out bits) || bits <= 0 || bits > 4096))
        {
            _writer.WriteError(AclStrings.ErrGenPassBits);
            return;
        }
        int digits = (int)((bits + 3) / 4);
        string hex = Convert.ToHexString(RandomNumberGenerator.GetBytes((digits + 1) / 2)).ToLowerInvariant();
        _writer.WriteBulk(hex.Substring(0, digits));
    }

    /// <summary>ACL LOG [count | RESET]: the newest entries (10 by default), each a map as Redis 7.2 replies.</summary>
    private void AclLogCommand()
    {
        long count = 10;
        if (_argCount > 3)
        {
            WriteSubcommandSyntaxError("ACL");
            return;
        }
        if (_argCount == 3)
        {
            if (_args[2].EqualsUpper("RESET"u8))
            {
                _server.Acl.Log.Reset();
                _writer.WriteOk();
                return;
            }
            if (!NumberFormat.TryParseLong(_args[2].Span, out count))
            {
                _writer.WriteError(RespStrings.ErrNotInteger);
                return;
            }
            if (count < 0)
            {
                _writer.WriteError(AclStrings.ErrLogCount);
                return;
            }
        }
        var entries = _server.Acl.Log.Newest(count);
        long now = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        _writer.WriteArrayHeader(entries.Count);
        foreach (var entry in entries)
        {
            _writer.WriteMapHeader(10);
            _writer.WriteBulk("count"u8);
            _writer.WriteInteger(entry.Count);
            _writer.WriteBulk("reason"u8);
            _writer.WriteBulk(entry.Reason switch
            {
                AclDenial.Command => "command"u8,
                AclDenial.Key => "key"u8,
                AclDenial.Channel => "channel"u8,
                _ => "auth"u8,
            });
            _writer.WriteBulk("context"u8);
            _writer.WriteBulk(entry.Context switch
            {
                AclLogContext.Multi => "multi"u8,
                AclLogContext.Lua => "lua"u8,
                _ => "toplevel"u8,
            });
            _writer.WriteBulk("object"u8);
            _writer.WriteBulk(Encoding.Latin1.GetBytes(entry.Object));
            _writer.WriteBulk("username"u8);
            _writer.WriteBulk(Encoding.Latin1.GetBytes(entry.Username));
            _writer.WriteBulk("age-seconds"u8);
            _writer.WriteDouble((now - entry.UpdatedMilliseconds) / 1000.0);
            _writer.WriteBulk("client-info"u8);
            _writer.WriteBulk(entry.ClientInfo);
            _writer.WriteBulk("entry-id"u8);
            _writer.WriteInteger(entry.EntryId);
            _writer.WriteBulk("timestamp-created"u8);
            _writer.WriteInteger(entry.CreatedMilliseconds);
            _writer.WriteBulk("timestamp-last-updated"u8);
            _writer.WriteInteger(entry.UpdatedMilliseconds);
        }
    }

    /// <summary>ACL DRYRUN user command [arg ...]: +OK if the user may run it, else the reason as a bulk string (naming the key or channel).</summary>
    private void AclDryRun()
    {
        string name = AclArgument(2);
        var handle = _server.Acl.Find(name);
        if (handle == null)
        {
            _writer.WriteError($"ERR User '{name}' not found");
            return;
        }
        var info = FindCommand(_args[3].Span);
        if (info == null)
        {
            _writer.WriteError($"ERR Command '{AclArgument(3)}' not found");
            return;
        }
        int count = _argCount - 3;
        if (!info.ArityAccepts(count))
        {
            WriteWrongArity(info.LowerName);
            return;
        }
        var user = handle.Current;
        var args = _args.AsSpan(3, count);
        var result = AclChecker.Check(user, info, args, count, _aclKeys ??= new KeyList());
        if (result.Denial == AclDenial.None)
        {
            _writer.WriteOk();
            return;
        }
        string obj = result.Denial == AclDenial.Command ? result.CommandName : Encoding.Latin1.GetString(args[result.Position].Span);
        _writer.WriteBulk(Encoding.Latin1.GetBytes(DenialMessage(user, result, obj, verbose: true)));
    }

    private void AclLoad()
    {
        string? error = _server.Acl.Load(out var affected);
        if (error != null)
        {
            _writer.WriteError(error);
            return;
        }
        DisconnectUsers(affected);
        _writer.WriteOk();
    }

    private void AclSave()
    {
        if (_server.Acl.FilePath == null)
            _writer.WriteError(AclStrings.ErrNoAclFile);
        else if (!_server.Acl.Save())
            _writer.WriteError(AclStrings.ErrSaveFailed);
        else
            _writer.WriteOk();
    }
}
