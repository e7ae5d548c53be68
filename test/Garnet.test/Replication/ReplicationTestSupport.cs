using System;
using System.Diagnostics;
using System.Text.RegularExpressions;
using System.Threading;
using Garnet.test.Durability;
using NUnit.Framework;

namespace Garnet.test.Replication;

/// <summary>Waiting for a replica and reading INFO fields, for the replication tests.</summary>
internal static class ReplicationTestSupport
{
    /// <summary>Waits until the replica's link is up and its offset is the primary's.</summary>
    public static void WaitUntilCaughtUp(OperationLogTestServer primary, OperationLogTestServer replica)
    {
        using var p = primary.Connect();
        using var r = replica.Connect();
        var watch = Stopwatch.StartNew();
        string replicaInfo = "";
        long primaryOffset = -1;
        while (watch.Elapsed < TimeSpan.FromSeconds(30))
        {
            // WAIT makes the primary's writes so far part of its files (committed), which is where replicas are sent from.
            p.Execute("WAIT", "0", "0");
            primaryOffset = long.Parse(Field(p.Execute("INFO", "replication"), "master_repl_offset"));
            replicaInfo = r.Execute("INFO", "replication");
            if (replicaInfo.Contains("master_link_status:up\r\n") && long.Parse(Field(replicaInfo, "slave_repl_offset")) == primaryOffset)
                return;
            Thread.Sleep(20);
        }
        Assert.Fail($"the replica never caught up with offset {primaryOffset}:\n{replicaInfo}");
    }

    /// <summary>The value of the INFO field <paramref name="name"/>.</summary>
    public static string Field(string info, string name)
    {
        var match = Regex.Match(info, "(?m)^" + name + ":([^\r\n]*)");
        Assert.That(match.Success, Is.True, $"INFO has no {name}:\n{info}");
        return match.Groups[1].Value;
    }
}
