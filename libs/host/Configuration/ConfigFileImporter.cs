using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Text.Json;
using CommandLine;

namespace Garnet;

/// <summary>
/// Reads a JSON config file (--config-import-path) into an <see cref="Options"/>. Keys are either an
/// option's long name ("port", "memory") or Garnet's property name ("Port", "MemorySize"), matched
/// without regard to case; values are strings, numbers or booleans, and null means "not set".
/// Comments and trailing commas are allowed, as in Garnet's own config files.
/// </summary>
internal static class ConfigFileImporter
{
    private static readonly List<PropertyInfo> s_optionProperties = FindOptionProperties();
    private static readonly Dictionary<string, PropertyInfo> s_propertiesByKey = BuildKeyMap();

    /// <summary>Loads <paramref name="path"/>; throws <see cref="OptionsException"/> on any problem.</summary>
    public static Options Load(string path)
    {
        if (!File.Exists(path))
            throw new OptionsException($"--config-import-path: file '{path}' does not exist");
        string text;
        try
        {
            text = File.ReadAllText(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new OptionsException($"--config-import-path: cannot read '{path}': {OneLine(e.Message)}");
        }

        if (!IsJson(path, text))
            return LoadRedisConf(text, path);
        var documentOptions = new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true };
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(text, documentOptions);
        }
        catch (JsonException e)
        {
            throw new OptionsException($"--config-import-path: '{path}' is not valid JSON: {OneLine(e.Message)}");
        }

        using (document)
        {
            if (document.RootElement.ValueKind != JsonValueKind.Object)
                throw new OptionsException($"--config-import-path: '{path}' must hold a JSON object of options");
            var options = new Options();
            foreach (JsonProperty property in document.RootElement.EnumerateObject())
                Apply(options, property, path);
            return options;
        }
    }

    private static void Apply(Options options, JsonProperty property, string path)
    {
        JsonElement value = property.Value;
        if (!s_propertiesByKey.TryGetValue(property.Name, out PropertyInfo? target))
        {
            if (!Garnet.server.RespServerSession.IsConfigParameter(property.Name))
                throw new OptionsException($"--config-import-path: '{path}' has unknown option '{property.Name}'");
            if (value.ValueKind is JsonValueKind.Object or JsonValueKind.Array)
                throw new OptionsException($"--config-import-path: '{path}': '{property.Name}' must be a string, number or boolean");
            if (value.ValueKind != JsonValueKind.Null)
                SetConfigParameter(options, property.Name, value.ValueKind == JsonValueKind.String ? value.GetString()! : value.GetRawText(), path);
            return;
        }
        if (value.ValueKind == JsonValueKind.Null)
            return;
        if (target.PropertyType == typeof(bool))
        {
            target.SetValue(options, value.ValueKind switch
            {
                JsonValueKind.True => true,
                JsonValueKind.False => false,
                JsonValueKind.String when bool.TryParse(value.GetString(), out bool parsed) => parsed,
                _ => throw new OptionsException($"--config-import-path: '{path}': '{property.Name}' must be true or false"),
            });
            return;
        }
        string text = value.ValueKind switch
        {
            JsonValueKind.String => value.GetString()!,
            JsonValueKind.Number => value.GetRawText(),
            JsonValueKind.True => "true",
            JsonValueKind.False => "false",
            _ => throw new OptionsException($"--config-import-path: '{path}': '{property.Name}' must be a string, number or boolean"),
        };
        target.SetValue(options, text);
    }

    /// <summary>A .json file, or one whose text starts as JSON does; anything else is read as a redis.conf.</summary>
    private static bool IsJson(string path, string text)
        => path.EndsWith(".json", StringComparison.OrdinalIgnoreCase) || text.TrimStart().StartsWith('{') || text.TrimStart().StartsWith('[');

    private static void SetConfigParameter(Options options, string name, string value, string where)
    {
        OptionsParser.CheckConfigParameter($"--config-import-path: '{where}': {name}", name, value);
        options.ConfigParameters[name] = value;
    }

    /// <summary>
    /// A redis.conf: each directive is an option (by its long name, Redis's where this host has one) or a CONFIG
    /// parameter; several save or client-output-buffer-limit lines add up, as in Redis; otherwise the last line wins.
    /// </summary>
    private static Options LoadRedisConf(string text, string path)
    {
        var options = new Options();
        var accumulated = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (var directive in RedisConfFile.Parse(text, path))
        {
            string where = $"{path}:{directive.Line}";
            if (directive.Name == "include")
                throw new OptionsException($"--config-import-path: {where}: include is not supported; put the settings in one file");
            if (directive.Arguments.Count == 0)
                throw new OptionsException($"--config-import-path: {where}: Bad directive or wrong number of arguments ('{directive.Name}' needs a value)");
            string value = string.Join(' ', directive.Arguments);
            if (directive.Name is "save" or "client-output-buffer-limit")
            {
                // The first line sets the value; the next ones add to it (save "" adds none).
                if (!accumulated.Add(directive.Name))
                {
                    PropertyInfo property = s_propertiesByKey[directive.Name];
                    string before = (string?)property.GetValue(options) ?? "";
                    value = before.Length == 0 ? value : value.Length == 0 ? before : before + " " + value;
                }
            }
            if (s_propertiesByKey.TryGetValue(directive.Name, out PropertyInfo? target))
            {
                if (target.PropertyType == typeof(bool))
                {
                    target.SetValue(options, value.ToLowerInvariant() switch
                    {
                        "yes" or "true" => true,
                        "no" or "false" => false,
                        _ => throw new OptionsException($"--config-import-path: {where}: '{directive.Name}' must be yes or no"),
                    });
                }
                else
                {
                    target.SetValue(options, value);
                }
                continue;
            }
            if (!Garnet.server.RespServerSession.IsConfigParameter(directive.Name))
                throw new OptionsException($"--config-import-path: {where}: Bad directive or wrong number of arguments ('{directive.Name}' is not an option or CONFIG parameter here)");
            SetConfigParameter(options, directive.Name, value, where);
        }
        return options;
    }

    /// <summary>Copies every option of <paramref name="file"/> that <paramref name="commandLine"/> did not give.</summary>
    public static void FillUnset(Options commandLine, Options file)
    {
        foreach (var (name, value) in file.ConfigParameters)
            commandLine.ConfigParameters.TryAdd(name, value);
        foreach (PropertyInfo property in s_optionProperties)
        {
            object? given = property.GetValue(commandLine);
            if (given is null || given is false)
                property.SetValue(commandLine, property.GetValue(file));
        }
    }

    /// <summary>The properties a config file can set: every option but the config path (no nested imports).</summary>
    private static List<PropertyInfo> FindOptionProperties()
    {
        var properties = new List<PropertyInfo>();
        foreach (PropertyInfo property in typeof(Options).GetProperties())
        {
            if (property.GetCustomAttribute<OptionAttribute>() != null && property.Name != nameof(Options.ConfigImportPath))
                properties.Add(property);
        }
        return properties;
    }

    private static Dictionary<string, PropertyInfo> BuildKeyMap()
    {
        var map = new Dictionary<string, PropertyInfo>(StringComparer.OrdinalIgnoreCase);
        foreach (PropertyInfo property in s_optionProperties)
        {
            map[property.Name] = property;
            string longName = property.GetCustomAttribute<OptionAttribute>()!.LongName;
            if (!string.IsNullOrEmpty(longName))
                map[longName] = property;
        }
        return map;
    }

    private static string OneLine(string message) => message.ReplaceLineEndings(" ");
}
