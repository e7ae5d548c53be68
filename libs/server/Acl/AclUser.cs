using System;
using System.Collections.Generic;
using System.Security.Cryptography;
using System.Text;

namespace Garnet.server;

/// <summary>
/// One user's definition: whether it is on, its password hashes (SHA-256, lower-case hex, as Redis
/// keeps them), nopass, and its root selector plus further selectors. A published definition is never
/// changed: SETUSER applies its rules to a copy and swaps the copy into the user's
/// <see cref="AclUserHandle"/>, so sessions read a consistent definition without locks.
/// </summary>
internal sealed class AclUser
{
    private readonly List<string> _passwords = [];
    private readonly List<AclSelector> _selectors = [];

    public AclUser(string name)
    {
        Name = name;
    }

    /// <summary>The user name.</summary>
    public string Name { get; }

    /// <summary>Whether AUTH may log in as this user (on/off).</summary>
    public bool Enabled { get; private set; }

    /// <summary>Any password is accepted.</summary>
    public bool NoPass { get; private set; }

    /// <summary>The SHA-256 hashes of the passwords, lower-case hex.</summary>
    public IReadOnlyList<string> Passwords => _passwords;

    /// <summary>The permissions outside any parentheses.</summary>
    public AclSelector Root { get; private set; } = new();

    /// <summary>The selectors in parentheses, in the order added.</summary>
    public IReadOnlyList<AclSelector> Selectors => _selectors;

    /// <summary>
    /// Every command, key and channel is allowed: the dispatcher then skips the check with this one
    /// test, so the default user costs nothing. Computed by <see cref="Freeze"/>.
    /// </summary>
    public bool IsUnrestricted { get; private set; }

    /// <summary>A deep copy, named <paramref name="name"/>.</summary>
    public AclUser Clone(string? name = null)
    {
        var copy = new AclUser(name ?? Name) { Enabled = Enabled, NoPass = NoPass, Root = Root.Clone() };
        copy._passwords.AddRange(_passwords);
        foreach (var selector in _selectors)
            copy._selectors.Add(selector.Clone());
        return copy;
    }

    /// <summary>Computes the cached facts once the rules are applied; the definition is not changed after.</summary>
    public AclUser Freeze()
    {
        IsUnrestricted = Root.IsUnrestricted;
        HasOnlyRoot = _selectors.Count == 0;
        OnlyKeyPrefix = null;
        if (HasOnlyRoot && !Root.AllKeys && Root.Keys.Count == 1 && Root.Keys[0].LiteralPrefix() is { } prefix)
        {
            OnlyKeyPrefix = prefix;
            OnlyKeyPrefixAccess = Root.Keys[0].Access;
        }
        QuickPlan = AclQuickPlan.Build(this);
        return this;
    }

    /// <summary>
    /// When the user's only key pattern is a literal prefix and "*" (~app:*, the usual restriction): that prefix, so the
    /// inline check of a one-key command is a prefix comparison. Null otherwise.
    /// </summary>
    public byte[]? OnlyKeyPrefix { get; private set; }

    /// <summary>How the dispatcher checks each built-in command inline (by command id); null when the full checker always decides.</summary>
    public AclQuickStep[]? QuickPlan { get; private set; }

    /// <summary>The access the <see cref="OnlyKeyPrefix"/> pattern grants.</summary>
    public KeyAccess OnlyKeyPrefixAccess { get; private set; }

    /// <summary>
    /// Whether the root selector alone decides (no other selectors): the dispatcher can then check a command with
    /// fixed key positions inline (<see cref="RespServerSession"/>'s QuickAllows) instead of through <see cref="AclChecker"/>.
    /// </summary>
    public bool HasOnlyRoot { get; private set; }

    /// <summary>Whether <paramref name="password"/> logs in as this user (the user must be on).</summary>
    public bool Accepts(ReadOnlySpan<byte> password)
    {
        if (!Enabled)
            return false;
        if (NoPass)
            return true;
        var given = Encoding.ASCII.GetBytes(HexOfHash(SHA256.HashData(password)));
        bool match = false;
        foreach (string stored in _passwords)
            match |= CryptographicOperations.FixedTimeEquals(given, Encoding.ASCII.GetBytes(stored));
        return match;
    }

    /// <summary>Whether some selector allows the channel (or, for a pattern subscription, the pattern itself).</summary>
    public bool AllowsChannel(ReadOnlySpan<byte> channel, bool isPattern)
    {
        if (Root.AllowsChannel(channel, isPattern))
            return true;
        foreach (var selector in _selectors)
        {
            if (selector.AllowsChannel(channel, isPattern))
                return true;
        }
        return false;
    }

    /// <summary>The SHA-256 of a password as Redis stores it: lower-case hex.</summary>
    public static string HashPassword(string password) => HexOfHash(SHA256.HashData(Encoding.Latin1.GetBytes(password)));

    private static string HexOfHash(byte[] hash) => Convert.ToHexString(hash).ToLowerInvariant();

    /// <summary>
    /// Applies one rule. User rules (on, off, passwords, reset, selectors) are handled here, the rest
    /// by the root selector. On error the user may be half-changed: callers apply rules to a copy.
    /// </summary>
    public AclRuleError Apply(string op, ExtensionRegistry? extensions)
    {
        if (Is(op, "on"))
            Enabled = true;
        else if (Is(op, "off"))
            Enabled = false;
        else if (Is(op, "nopass"))
        {
            NoPass = true;
            _passwords.Clear();
        }
        else if (Is(op, "resetpass"))
        {
            NoPass = false;
            _passwords.Clear();
        }
        else if (Is(op, "skip-sanitize-payload") || Is(op, "sanitize-payload"))
        {
            // Accepted for compatibility: RESTORE payloads are always checked here.
        }
        else if (Is(op, "clearselectors"))
            _selectors.Clear();
        else if (Is(op, "reset"))
        {
            NoPass = false;
            _passwords.Clear();
            Enabled = false;
            _selectors.Clear();
            Root = new AclSelector();
        }
        else if (op.Length > 0 && (op[0] == '>' || op[0] == '#'))
        {
            string hash;
            if (op[0] == '>')
                hash = HashPassword(op.Substring(1));
            else if (!IsValidHash(op, out hash))
                return AclRuleError.BadHash;
            if (!_passwords.Contains(hash))
                _passwords.Add(hash);
            NoPass = false;
        }
        else if (op.Length > 0 && (op[0] == '<' || op[0] == '!'))
        {
            string hash;
            if (op[0] == '<')
                hash = HashPassword(op.Substring(1));
            else if (!IsValidHash(op, out hash))
                return AclRuleError.BadHash;
            if (!_passwords.Remove(hash))
                return AclRuleError.PasswordNotFound;
        }
        else if (op.Length > 0 && op[0] == '(')
        {
            if (op[^1] != ')')
                return AclRuleError.Syntax;
            var selector = new AclSelector();
            foreach (string inner in op.Substring(1, op.Length - 2).Split(' ', StringSplitOptions.RemoveEmptyEntries))
            {
                var error = selector.Apply(inner, extensions);
                if (error != AclRuleError.None)
                    return error;
            }
            _selectors.Add(selector);
        }
        else
            return Root.Apply(op, extensions);
        return AclRuleError.None;
    }

    private static bool Is(string op, string keyword) => string.Equals(op, keyword, StringComparison.OrdinalIgnoreCase);

    /// <summary>#hash and !hash take exactly 64 lower-case hex digits.</summary>
    private static bool IsValidHash(string op, out string hash)
    {
        hash = op.Substring(1);
        if (hash.Length != 64)
            return false;
        foreach (char c in hash)
        {
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
                return false;
        }
        return true;
    }

    /// <summary>The rules after "user name" as ACL LIST prints them: flags, password hashes, root selector, (selectors).</summary>
    public string Describe()
    {
        var text = new StringBuilder(Enabled ? "on" : "off");
        if (NoPass)
            text.Append(" nopass");
        foreach (string hash in _passwords)
            text.Append(" #").Append(hash);
        text.Append(' ').Append(Root.Describe());
        foreach (var selector in _selectors)
            text.Append(" (").Append(selector.Describe()).Append(')');
        return text.ToString();
    }
}
