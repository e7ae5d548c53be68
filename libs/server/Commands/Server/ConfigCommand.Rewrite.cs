using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.CompilerServices;

namespace Garnet.server;

/// <summary>
/// CONFIG REWRITE: the parameters whose values changed since the server started (by CONFIG SET) are written back to
/// the configuration file it started from (<see cref="ServerOptions.ConfigFile"/>), in that file's format, keeping
/// everything else in it (<see cref="ConfigFileRewriter"/>). Comparing with the values at start rather than with
/// Redis's defaults keeps what the file says in its own units and names ("maxmemory": "1g" stays unless it changed).
/// </summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>
    /// The names a parameter may have in a config file besides its Redis names, where the host's option differs
    /// in more than case and dashes (see <see cref="ConfigFileRewriter"/>).
    /// </summary>
    private static readonly Dictionary<string, string[]> s_configFileNames = new(StringComparer.OrdinalIgnoreCase)
    {
        ["requirepass"] = ["password"],
        ["appendonly"] = ["EnableAOF"],
        ["busy-reply-threshold"] = ["lua-time-limit", "LuaTimeLimit"],
        ["proto-max-bulk-len"] = ["ProtoMaxBulkLength"],
    };

    private static readonly ConditionalWeakTable<StoreWrapper, Dictionary<string, string>> s_configValuesAtStart = new();

    /// <summary>Remembers every parameter's value before the first CONFIG command changes any, for <see cref="ConfigRewrite"/>.</summary>
    private void RememberConfigAtStart()
    {
        if (s_configValuesAtStart.TryGetValue(_server, out _))
            return;
        var values = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var parameter in s_configParameters)
        {
            if (parameter.AliasOf == null)
                values[parameter.Name] = parameter.Get(this);
        }
        s_configValuesAtStart.TryAdd(_server, values);
    }

    private void ConfigRewrite()
    {
        string? path = _server.Options.ConfigFile;
        if (path == null)
        {
            _writer.WriteError(ServerStrings.ErrNoConfigFile);
            return;
        }
        s_configValuesAtStart.TryGetValue(_server, out var atStart);
        var changed = new List<ConfigFileRewriter.Setting>();
        foreach (var parameter in s_configParameters)
        {
            if (parameter.AliasOf != null || parameter.Kind != ConfigKind.Mutable)
                continue;
            string value = parameter.Get(this);
            if (atStart != null && atStart.TryGetValue(parameter.Name, out string? before) && before == value)
                continue;
            var names = new List<string> { parameter.Name };
            foreach (var other in s_configParameters)
            {
                if (other.AliasOf == parameter.Name)
                    names.Add(other.Name);
            }
            if (s_configFileNames.TryGetValue(parameter.Name, out var fileNames))
                names.AddRange(fileNames);
            changed.Add(new ConfigFileRewriter.Setting(names, value));
        }
        try
        {
            ConfigFileRewriter.Rewrite(path, changed);
            _writer.WriteOk();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException)
        {
            _writer.WriteError("ERR Rewriting config file: " + e.Message.ReplaceLineEndings(" "));
        }
    }
}
