using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

namespace Garnet.server;

/// <summary>Raised when the ACL file given at start-up cannot be loaded.</summary>
public sealed class AclFileException(string message) : Exception(message);

/// <summary>
/// The server's users (ACL SETUSER, DELUSER, LOAD, SAVE) and the ACL log. The "default" user always
/// exists: "on nopass ~* &amp;* +@all", or with the configured password instead of nopass. Changes are
/// made under one lock on copies and published whole (see <see cref="AclUserHandle"/>); sessions read
/// their user's current definition without locking.
/// </summary>
public sealed class AccessControlList
{
    /// <summary>The name of the user every connection starts as.</summary>
    public const string DefaultUserName = "default";

    private readonly object _lock = new();
    private readonly string? _defaultPassword;
    private readonly ExtensionRegistry? _extensions;
    private Dictionary<string, AclUserHandle> _users = new(StringComparer.Ordinal);

    /// <summary>Creates the users: the default user, then those of <paramref name="aclFile"/> if given (which may redefine default).</summary>
    public AccessControlList(string? defaultPassword, string? aclFile, ExtensionRegistry? extensions)
    {
        _defaultPassword = defaultPassword;
        _extensions = extensions;
        FilePath = aclFile;
        DefaultUser = new AclUserHandle(BuiltInDefault());
        _users[DefaultUserName] = DefaultUser;
        if (aclFile != null)
        {
            string? error = Load(out _);
            if (error != null)
                throw new AclFileException(error);
        }
    }

    /// <summary>The ACL file (ACL LOAD, ACL SAVE), or null.</summary>
    public string? FilePath { get; }

    /// <summary>Refused commands and logins.</summary>
    internal AclLog Log { get; } = new();

    /// <summary>The default user.</summary>
    internal AclUserHandle DefaultUser { get; }

    /// <summary>Whether a connection is logged in as the default user without AUTH (it is on and has nopass), as Redis decides per connection.</summary>
    public bool DefaultUserIsOpen
    {
        get
        {
            var user = DefaultUser.Current;
            return user.Enabled && user.NoPass;
        }
    }

    private AclUser BuiltInDefault()
    {
        var user = new AclUser(DefaultUserName);
        foreach (string op in new[] { "on", _defaultPassword == null ? "nopass" : ">" + _defaultPassword, "~*", "&*", "+@all" })
            user.Apply(op, null);
        return user.Freeze();
    }

    /// <summary>The user named <paramref name="name"/>, or null.</summary>
    internal AclUserHandle? Find(string name)
    {
        lock (_lock)
            return _users.GetValueOrDefault(name);
    }

    /// <summary>The user names, sorted as Redis lists them (byte order).</summary>
    internal List<string> SortedNames()
    {
        List<string> names;
        lock (_lock)
            names = new List<string>(_users.Keys);
        names.Sort(StringComparer.Ordinal);
        return names;
    }

    /// <summary>
    /// ACL SETUSER: applies <paramref name="rules"/> left to right to a copy of the user (a new user
    /// starts "off resetchannels -@all") and publishes it only if every rule is valid. Returns the error
    /// reply (without '-'), or null.
    /// </summary>
    internal string? SetUser(string name, IReadOnlyList<string> rules) => SetUser(name, rules, out _);

    /// <inheritdoc cref="SetUser(string, IReadOnlyList{string})"/>
    internal string? SetUser(string name, IReadOnlyList<string> rules, out AclUserHandle? changed)
    {
        changed = null;
        var merged = MergeSelectors(rules, out string? error);
        if (merged == null)
            return error;
        lock (_lock)
        {
            var handle = _users.GetValueOrDefault(name);
            var user = handle?.Current.Clone() ?? new AclUser(name);
            foreach (string rule in merged)
            {
                var ruleError = user.Apply(rule, _extensions);
                if (ruleError != AclRuleError.None)
                    return $"ERR Error in ACL SETUSER modifier '{rule}': {AclStrings.RuleErrorText(ruleError)}";
            }
            user.Freeze();
            if (handle == null)
                _users[name] = new AclUserHandle(user);
            else
                handle.Current = user;
            changed = handle;
        }
        return null;
    }

    /// <summary>
    /// Joins a selector given over several arguments ("(~x", "+get)") into one rule, as Redis does;
    /// null with the error when a parenthesis is not closed.
    /// </summary>
    internal static List<string>? MergeSelectors(IReadOnlyList<string> rules, out string? error)
    {
        error = null;
        var merged = new List<string>(rules.Count);
        StringBuilder? selector = null;
        string opening = "";
        foreach (string rule in rules)
        {
            if (selector == null && rule.Length > 0 && rule[0] == '(' && rule[^1] != ')')
            {
                selector = new StringBuilder(rule);
                opening = rule;
                continue;
            }
            if (selector != null)
            {
                selector.Append(' ').Append(rule);
                if (rule.Length > 0 && rule[^1] == ')')
                {
                    merged.Add(selector.ToString());
                    selector = null;
                }
                continue;
            }
            merged.Add(rule);
        }
        if (selector != null)
        {
            error = $"ERR Unmatched parenthesis in acl selector starting at '{opening}'.";
            return null;
        }
        return merged;
    }

    /// <summary>ACL DELUSER of one user: the removed user (its sessions are to be closed), or null if there was none.</summary>
    internal AclUserHandle? DeleteUser(string name)
    {
        lock (_lock)
        {
            if (!_users.Remove(name, out var handle))
                return null;
            handle.Deleted = true;
            return handle;
        }
    }

    /// <summary>
    /// ACL LOAD (and start-up): replaces every user with the file's, atomically (a bad line changes
    /// nothing). <paramref name="affected"/> gets the users removed or changed, whose sessions Redis 7.2
    /// disconnects. Returns the error reply (without '-'), or null.
    /// </summary>
    internal string? Load(out List<AclUserHandle> affected)
    {
        affected = [];
        if (FilePath == null)
            return Encoding.ASCII.GetString(AclStrings.ErrNoAclFile);
        string[] lines;
        try
        {
            lines = File.ReadAllLines(FilePath, Encoding.Latin1);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return $"ERR Error loading ACLs, opening file '{FilePath}': {e.Message}";
        }

        var loaded = new Dictionary<string, AclUser>(StringComparer.Ordinal);
        var errors = new StringBuilder();
        for (int n = 0; n < lines.Length; n++)
        {
            string line = lines[n].Trim();
            if (line.Length == 0)
                continue;
            string[] words = line.Split((char[])[' ', '\t'], StringSplitOptions.RemoveEmptyEntries);
            if (words[0] != "user" || words.Length < 2)
            {
                errors.Append($"{FilePath}:{n + 1}: should start with user keyword. ");
                continue;
            }
            string name = words[1];
            if (loaded.ContainsKey(name))
            {
                errors.Append($"{FilePath}:{n + 1}: Duplicate user '{name}' found. ");
                continue;
            }
            var merged = MergeSelectors(words.AsSpan(2).ToArray(), out string? mergeError);
            if (merged == null)
            {
                errors.Append($"{FilePath}:{n + 1}: {mergeError!.Substring(4)} ");
                continue;
            }
            var user = new AclUser(name);
            foreach (string rule in merged)
            {
                var ruleError = user.Apply(rule, _extensions);
                if (ruleError != AclRuleError.None)
                {
                    errors.Append($"{FilePath}:{n + 1}: {AclStrings.RuleErrorText(ruleError)}. ");
                    break;
                }
            }
            loaded[name] = user.Freeze();
        }
        if (errors.Length > 0)
            return "ERR " + errors.ToString().TrimEnd();
        if (!loaded.ContainsKey(DefaultUserName))
            loaded[DefaultUserName] = BuiltInDefault();

        lock (_lock)
        {
            var users = new Dictionary<string, AclUserHandle>(StringComparer.Ordinal);
            foreach (var (name, handle) in _users)
            {
                if (!loaded.TryGetValue(name, out var user))
                {
                    handle.Deleted = true;
                    affected.Add(handle);
                    continue;
                }
                if (user.Describe() != handle.Current.Describe())
                    affected.Add(handle);
                handle.Current = user;
                users[name] = handle;
            }
            foreach (var (name, user) in loaded)
            {
                if (!users.ContainsKey(name))
                    users[name] = new AclUserHandle(user);
            }
            _users = users;
        }
        return null;
    }

    /// <summary>ACL SAVE: writes every user as a "user name rules" line, through a temporary file so a failed write keeps the old one.</summary>
    internal bool Save()
    {
        if (FilePath == null)
            return false;
        var text = new StringBuilder();
        lock (_lock)
        {
            foreach (string name in SortedNames())
                text.Append("user ").Append(name).Append(' ').Append(_users[name].Current.Describe()).Append('\n');
        }
        try
        {
            string temporary = FilePath + ".tmp";
            File.WriteAllText(temporary, text.ToString(), Encoding.Latin1);
            File.Move(temporary, FilePath, overwrite: true);
            return true;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }
}
