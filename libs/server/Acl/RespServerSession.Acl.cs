using System;
using System.Collections.Generic;
using System.Text;

namespace Garnet.server;

/// <summary>
/// The session's side of ACL: which user it runs as, the permission check the dispatcher makes for
/// users that are not unrestricted, logins (AUTH, HELLO ... AUTH) and closing the connections of
/// removed or redefined users.
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private AclUserHandle _aclUser = null!;

    // Scratch for the keys of a command checked against key patterns (only for restricted users).
    private KeyList? _aclKeys;

    /// <summary>The user this connection runs as.</summary>
    internal AclUserHandle AclUser => _aclUser;

    /// <summary>The name of the user this connection runs as (CLIENT LIST's user=).</summary>
    public string UserName => _aclUser.Name;

    /// <summary>
    /// Whether the current user may run the current command (<c>_args</c>), in order of cost: a user allowed everything
    /// (one test), the inline check, then the full checker, which also writes and logs a refusal. Dispatch, EXEC and
    /// scripts all ask here.
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private bool Permitted(RespCommandInfo info, AclLogContext context)
    {
        var user = _aclUser.Current;
        return user.IsUnrestricted || QuickAllows(user, info) || CheckPermission(user, info, context);
    }

    /// <summary>
    /// The common case of a restricted user checked inline, by the step its definition worked out for the command
    /// (<see cref="AclQuickPlan"/>): true when that allows the command; false when it does not or the step is the full
    /// checker's, and <see cref="CheckPermission"/> then decides (and words any refusal).
    /// </summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private bool QuickAllows(AclUser user, RespCommandInfo info)
    {
        var steps = user.QuickPlan;
        uint id = (uint)info.Command;
        if (steps == null || id >= (uint)steps.Length)
            return false;
        switch (steps[id])
        {
            case AclQuickStep.Allow:
                return true;
            case AclQuickStep.KeyPrefix:
                {
                    // The empty key is left to the pattern matcher (only the empty pattern matches it).
                    var key = _args[info.FirstKey].Span;
                    return key.IsEmpty ? KeysAllowed(user.Root, info) : key.StartsWith(user.OnlyKeyPrefix!);
                }
            case AclQuickStep.KeyPrefixByArguments:
                {
                    var needed = KeyExtraction.AccessByArguments(info.Command, _args, _argCount).First;
                    var key = _args[info.FirstKey].Span;
                    if (key.IsEmpty)
                        return KeysAllowed(user.Root, info);
                    return (user.OnlyKeyPrefixAccess & needed) == needed && key.StartsWith(user.OnlyKeyPrefix!);
                }
            case AclQuickStep.KeyPatterns:
                return KeysAllowed(user.Root, info);
            default:
                return false;
        }
    }

    private bool KeysAllowed(AclSelector root, RespCommandInfo info)
    {
        var access = KeyExtraction.AccessOf(info, _args, _argCount);
        int first = info.FirstKey;
        int last = info.LastKey < 0 ? _argCount + info.LastKey : Math.Min(info.LastKey, _argCount - 1);
        int step = Math.Max(1, info.Step);
        for (int i = first; i <= last; i += step)
        {
            if (!root.AllowsKey(_args[i].Span, i == first ? access.First : access.Rest))
                return false;
        }
        return true;
    }

    private bool CheckPermission(AclUser user, RespCommandInfo info, AclLogContext context)
    {
        var result = AclChecker.Check(user, info, _args, _argCount, _aclKeys ??= new KeyList());
        if (result.Denial == AclDenial.None)
            return true;

        string obj = result.Denial == AclDenial.Command ? result.CommandName : _args[result.Position].ToString();
        _server.Statistics.AddAclDenied(result.Denial);
        _server.Acl.Log.Add(result.Denial, context, obj, user.Name, FormatClientInfo(this, DateTimeOffset.UtcNow));
        string message = DenialMessage(user, result, obj, verbose: false);
        if (context == AclLogContext.Lua)
            _writer.WriteError("ERR ACL failure in script: " + message);
        else
            _writer.WriteError("NOPERM " + message);
        return false;
    }

    /// <summary>Redis's wording of a refusal; DRYRUN names the key or channel (verbose).</summary>
    private static string DenialMessage(AclUser user, AclChecker.Result result, string obj, bool verbose) => result.Denial switch
    {
        AclDenial.Command => $"User {user.Name} has no permissions to run the '{result.CommandName}' command",
        AclDenial.Key => verbose ? $"No permissions to access the '{obj}' key" : "No permissions to access a key",
        AclDenial.Channel => verbose ? $"No permissions to access the '{obj}' channel" : "No permissions to access a channel",
        _ => throw new ArgumentOutOfRangeException(nameof(result)),
    };

    /// <summary>
    /// Logs in as <paramref name="userName"/> if it exists, is on and accepts <paramref name="password"/>;
    /// otherwise counts and logs the failed attempt (object: the command's name, as Redis records it).
    /// </summary>
    private bool TryLogin(ReadOnlySpan<byte> userName, ReadOnlySpan<byte> password)
    {
        string name = Encoding.Latin1.GetString(userName);
        var handle = _server.Acl.Find(name);
        if (handle != null && handle.Current.Accepts(password))
        {
            _aclUser = handle;
            Authenticated = true;
            return true;
        }
        _server.Statistics.AddAclDenied(AclDenial.Auth);
        var context = _transaction is { InMulti: true } ? AclLogContext.Multi : AclLogContext.TopLevel;
        _server.Acl.Log.Add(AclDenial.Auth, context, CurrentCommand.Name, name, FormatClientInfo(this, DateTimeOffset.UtcNow));
        return false;
    }

    /// <summary>Back to a fresh connection's login state (RESET): the default user, logged in only if it has nopass.</summary>
    private void ResetLogin()
    {
        _aclUser = _server.Acl.DefaultUser;
        Authenticated = _server.Acl.DefaultUserIsOpen;
    }

    /// <summary>
    /// After SETUSER, closes the connections of <paramref name="handle"/> subscribed to a channel or
    /// pattern the user may no longer use, as Redis 7 does; other connections keep running with the new
    /// rules. Another session's subscriptions are read under its gate; one busy past a short wait checks
    /// itself at its next batch (<see cref="_aclChannelsChanged"/>).
    /// </summary>
    private void DisconnectSubscribersWithoutAccess(AclUserHandle handle)
    {
        if (handle.Current.Root.AllChannels)
            return;
        foreach (var session in _server.Clients.Snapshot())
        {
            if (session._aclUser != handle || !session.IsSubscriber)
                continue;
            if (!System.Threading.Monitor.TryEnter(session._gate, TimeSpan.FromMilliseconds(100)))
            {
                session._aclChannelsChanged = true;
                continue;
            }
            try
            {
                if (session.LostChannelAccess())
                    session.CloseForAcl(this);
            }
            finally
            {
                System.Threading.Monitor.Exit(session._gate);
            }
        }
    }

    /// <summary>Set by another session's SETUSER that could not check this one's subscriptions; checked once per batch.</summary>
    private volatile bool _aclChannelsChanged;

    /// <summary>Whether a subscription is no longer allowed to this connection's user (caller holds the gate).</summary>
    private bool LostChannelAccess()
    {
        var user = _aclUser.Current;
        foreach (var channel in Subscriptions(SubscriptionKind.Channel))
        {
            if (!user.AllowsChannel(channel, isPattern: false))
                return true;
        }
        foreach (var channel in Subscriptions(SubscriptionKind.ShardChannel))
        {
            if (!user.AllowsChannel(channel, isPattern: false))
                return true;
        }
        foreach (var pattern in Subscriptions(SubscriptionKind.Pattern))
        {
            if (!user.AllowsChannel(pattern, isPattern: true))
                return true;
        }
        return false;
    }

    /// <summary>The deferred check of <see cref="DisconnectSubscribersWithoutAccess"/>, at the start of a batch.</summary>
    private void RecheckChannelAccess()
    {
        _aclChannelsChanged = false;
        if (LostChannelAccess())
            RequestKill();
    }

    /// <summary>Closes this connection for ACL: at once, or after the reply when it is <paramref name="caller"/>'s own.</summary>
    private void CloseForAcl(RespServerSession caller)
    {
        if (ReferenceEquals(this, caller))
            RequestClose();
        else
            RequestKill();
    }

    /// <summary>
    /// Closes the connections running as any of <paramref name="users"/> (deleted, or redefined by ACL
    /// LOAD), as Redis does; this connection closes after its reply.
    /// </summary>
    private void DisconnectUsers(List<AclUserHandle> users)
    {
        if (users.Count == 0)
            return;
        foreach (var session in _server.Clients.Snapshot())
        {
            if (users.Contains(session._aclUser))
                session.CloseForAcl(this);
        }
    }
}
