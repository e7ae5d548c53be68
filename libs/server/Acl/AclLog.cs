using System;
using System.Collections.Generic;

namespace Garnet.server;

/// <summary>Why an ACL LOG entry was made; the numbers order them as Redis does when selectors disagree (the highest is reported).</summary>
internal enum AclDenial : byte
{
    None = 0,
    Command = 1,
    Key = 2,
    Auth = 3,
    Channel = 4,
}

/// <summary>Where the refused command came from.</summary>
internal enum AclLogContext : byte
{
    TopLevel,
    Multi,
    Lua,
}

/// <summary>One ACL LOG entry; repeated refusals within a minute add to its count.</summary>
internal sealed class AclLogEntry
{
    public long Count;
    public AclDenial Reason;
    public AclLogContext Context;
    public string Object = "";
    public string Username = "";
    public string ClientInfo = "";
    public long EntryId;
    public long CreatedMilliseconds;
    public long UpdatedMilliseconds;

    /// <summary>A snapshot, so a reply is not torn by a concurrent update.</summary>
    public AclLogEntry Copy() => (AclLogEntry)MemberwiseClone();
}

/// <summary>
/// The ACL log: refused commands, keys, channels and logins, newest first, at most
/// <see cref="MaxLength"/> entries (Redis's acllog-max-len). An entry equal in reason, context,
/// object and user to one updated less than a minute ago is folded into it, as Redis groups them.
/// </summary>
internal sealed class AclLog
{
    /// <summary>Most entries kept (CONFIG SET acllog-max-len); a lower value drops the oldest at the next entry. Default 128, as Redis.</summary>
    public long MaxLength { get; set; } = 128;
    private const long GroupingMilliseconds = 60_000;

    private readonly LinkedList<AclLogEntry> _entries = new();
    private long _nextId;

    public void Add(AclDenial reason, AclLogContext context, string obj, string username, string clientInfo)
    {
        long now = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        lock (_entries)
        {
            foreach (var entry in _entries)
            {
                if (entry.Reason == reason && entry.Context == context && entry.Object == obj && entry.Username == username
                    && now - entry.UpdatedMilliseconds < GroupingMilliseconds)
                {
                    entry.Count++;
                    entry.UpdatedMilliseconds = now;
                    entry.ClientInfo = clientInfo;
                    _entries.Remove(entry);
                    _entries.AddFirst(entry);
                    return;
                }
            }
            _entries.AddFirst(new AclLogEntry
            {
                Count = 1,
                Reason = reason,
                Context = context,
                Object = obj,
                Username = username,
                ClientInfo = clientInfo,
                EntryId = _nextId++,
                CreatedMilliseconds = now,
                UpdatedMilliseconds = now,
            });
            while (_entries.Count > MaxLength)
                _entries.RemoveLast();
        }
    }

    /// <summary>ACL LOG RESET.</summary>
    public void Reset()
    {
        lock (_entries)
            _entries.Clear();
    }

    /// <summary>Copies of the newest <paramref name="count"/> entries.</summary>
    public List<AclLogEntry> Newest(long count)
    {
        var result = new List<AclLogEntry>();
        lock (_entries)
        {
            foreach (var entry in _entries)
            {
                if (result.Count >= count)
                    break;
                result.Add(entry.Copy());
            }
        }
        return result;
    }
}
