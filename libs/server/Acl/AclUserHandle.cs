namespace Garnet.server;

/// <summary>
/// A user as sessions hold it: the name stays, the definition is replaced by SETUSER and ACL LOAD
/// (sessions see the new permissions at their next command), and DELUSER marks it deleted.
/// </summary>
internal sealed class AclUserHandle
{
    private volatile AclUser _current;

    public AclUserHandle(AclUser user)
    {
        _current = user;
    }

    /// <summary>The user's definition now.</summary>
    public AclUser Current
    {
        get => _current;
        set => _current = value;
    }

    /// <summary>The user name.</summary>
    public string Name => _current.Name;

    /// <summary>Set when the user is removed (DELUSER, or ACL LOAD without it).</summary>
    public volatile bool Deleted;
}
