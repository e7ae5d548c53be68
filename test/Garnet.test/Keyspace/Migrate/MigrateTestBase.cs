using System;
using System.Collections.Generic;
using Garnet.server;
using Garnet.test.Extensions;
using NUnit.Framework;

namespace Garnet.test.Keyspace;

/// <summary>
/// The fixture's server is MIGRATE's source; <see cref="StartTarget"/> starts further in-process servers on free ports to
/// migrate to (stopped after each test). Both know the test custom object type (MYDICTSET), so it can migrate.
/// </summary>
public abstract class MigrateTestBase : ServerTestBase
{
    private readonly List<GarnetServer> _targets = new();

    protected override void BeforeStart(GarnetServer server) => RegisterDict(server);

    private static void RegisterDict(GarnetServer server)
    {
        server.Register.NewObjectCommand(new DictSet());
        server.Register.NewObjectCommand(new DictGet());
    }

    /// <summary>Starts a target server; <paramref name="configure"/> changes its options first (a password, databases).</summary>
    protected GarnetServer StartTarget(Action<ServerOptions>? configure = null)
    {
        var options = Garnet.test.Host.HostTestHelpers.SmallSettings(0).Server;
        configure?.Invoke(options);
        var target = new GarnetServer(options);
        _targets.Add(target);
        RegisterDict(target);
        target.Start();
        return target;
    }

    [TearDown]
    public void StopTargets()
    {
        foreach (var target in _targets)
            target.Dispose();
        _targets.Clear();
    }

    /// <summary>MIGRATE to <paramref name="target"/> on 127.0.0.1 with the given arguments after the port.</summary>
    protected static string Migrate(RawClient client, GarnetServer target, params string[] rest)
    {
        var arguments = new string[3 + rest.Length];
        arguments[0] = "MIGRATE";
        arguments[1] = "127.0.0.1";
        arguments[2] = target.Port.ToString();
        rest.CopyTo(arguments, 3);
        return client.Execute(arguments);
    }

    /// <summary>The target's error as MIGRATE passes it back.</summary>
    protected static string TargetError(string error) => "-ERR Target instance replied with error: " + error + "\r\n";
}
