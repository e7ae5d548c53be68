using System;
using System.Collections.Generic;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Acl;

/// <summary>
/// The dispatcher checks a user restricted to key patterns inline for commands whose keys are at the command table's
/// positions; ACL DRYRUN always goes through the full checker. Over every command with keys, both must agree: keys
/// outside the user's patterns are refused, keys inside them are allowed when the pattern grants what each key needs
/// (all access, read only, write only).
/// </summary>
[TestFixture]
public sealed class AclInlineCheckTests : ServerTestBase
{
    private static string[] Invocation(RespCommandInfo info, string keyPrefix)
    {
        int count = Math.Max(Math.Abs(info.Arity), info.FirstKey + 2);
        var words = new string[count];
        words[0] = info.Name;
        for (int i = 1; i < count; i++)
            words[i] = keyPrefix + i;
        return words;
    }

    [TestCase("~ok*", "&*")]
    [TestCase("%R~ok*", "&*")]
    [TestCase("%W~ok*", "&*")]
    [TestCase("~o[k]*", "&*")] // not a literal prefix: the inline check matches the pattern
    [TestCase("%R~o[k]*", "&*")]
    // Redis 7's default for a new user: no channels. Commands with keys are still checked inline.
    [TestCase("~ok*", "resetchannels")]
    [TestCase("%W~ok*", "resetchannels")]
    [TestCase("~o[k]*", "resetchannels")]
    public void InlineAndFullChecksAgreeOnEveryCommandWithKeys(string pattern, string channels)
    {
        using var admin = ConnectRaw();
        // Categories that could stall or end the test server are left out.
        Assert.That(admin.Execute("ACL", "SETUSER", "limited", "reset", "on", "nopass", pattern, channels, "+@all", "-@dangerous", "-@admin",
            "-@blocking", "-@scripting", "-@transaction", "-@connection"), Is.EqualTo("+OK\r\n"));
        using var limited = ConnectRaw();
        Assert.That(limited.Execute("AUTH", "limited", "any"), Is.EqualTo("+OK\r\n"));

        var disagreements = new List<string>();
        int checkedCommands = 0;
        foreach (var info in CommandTable.All)
        {
            if (info.FirstKey <= 0)
                continue;
            foreach (string prefix in new[] { "no", "ok" })
            {
                string[] words = Invocation(info, prefix);
                var dryRun = new List<string> { "ACL", "DRYRUN", "limited" };
                dryRun.AddRange(words);
                string judged = admin.Execute(dryRun.ToArray());
                if (!judged.StartsWith("+OK") && !judged.Contains("no permissions", StringComparison.OrdinalIgnoreCase))
                    continue; // DRYRUN refused the line itself (arity): nothing to compare
                bool allowedByFull = judged.StartsWith("+OK");
                string ran = limited.Execute(words);
                bool refusedInline = ran.StartsWith("-NOPERM", StringComparison.Ordinal);
                if (allowedByFull == refusedInline)
                    disagreements.Add($"{string.Join(' ', words)}: DRYRUN {judged.Trim()} / ran {ran.Trim()}");
                checkedCommands++;
            }
        }
        Assert.That(checkedCommands, Is.GreaterThan(100));
        Assert.That(disagreements, Is.Empty);
        if (channels == "resetchannels")
        {
            Assert.That(limited.Execute("PUBLISH", "okchannel", "m"), Does.StartWith("-NOPERM"));
            Assert.That(limited.Execute("SPUBLISH", "okchannel", "m"), Does.StartWith("-NOPERM"));
            Assert.That(limited.Execute("SUBSCRIBE", "okchannel"), Does.StartWith("-NOPERM"));
        }
    }
}
