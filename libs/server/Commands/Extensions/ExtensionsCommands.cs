using System.Collections.Generic;

namespace Garnet.server;

/// <summary>REGISTERCS and MODULE: loading extension assemblies at runtime (see Extensions/ExtensionLoader.cs).</summary>
public sealed unsafe partial class RespServerSession
{
    private void ExecuteExtensionsCommand(RespCommand command)
    {
        switch (command)
        {
            case RespCommand.REGISTERCS:
                // REGISTERCS [SRC] path [path ...]
                LoadExtensions(_args[1].EqualsUpper("SRC"u8) ? 2 : 1);
                break;
            case RespCommand.MODULE:
                Module();
                break;
            default:
                throw new System.InvalidOperationException($"{command} is not an extensions command.");
        }
    }

    /// <summary>MODULE LOADCS path [args...] | LIST | HELP.</summary>
    private void Module()
    {
        if (_args[1].EqualsUpper("LOADCS"u8))
        {
            if (_argCount < 3)
            {
                WriteWrongArity("module|loadcs");
                return;
            }
            LoadExtensions(2, onlyFirst: true);
        }
        else if (_args[1].EqualsUpper("LIST"u8))
        {
            // As Redis 7 shapes it: one map per loaded module (name, ver, path, args).
            var modules = _server.Extensions.Modules();
            _writer.WriteArrayHeader(modules.Length);
            foreach (var (name, path) in modules)
            {
                _writer.WriteMapHeader(4);
                _writer.WriteBulk("name"u8);
                _writer.WriteBulk(name);
                _writer.WriteBulk("ver"u8);
                _writer.WriteInteger(1);
                _writer.WriteBulk("path"u8);
                _writer.WriteBulk(path);
                _writer.WriteBulk("args"u8);
                _writer.WriteArrayHeader(0);
            }
        }
        else if (_args[1].EqualsUpper("HELP"u8))
        {
            _writer.WriteArrayHeader(3);
            _writer.WriteSimpleString("MODULE LOADCS <path> [<arg> ...]"u8);
            _writer.WriteSimpleString("    Load the C# extension assembly at <path> (inside --extension-dir)."u8);
            _writer.WriteSimpleString("MODULE LIST"u8);
        }
        else
        {
            WriteUnknownSubcommand("MODULE");
        }
    }

    private void LoadExtensions(int first, bool onlyFirst = false)
    {
        if (first >= _argCount)
        {
            WriteWrongArity("registercs");
            return;
        }
        var paths = new List<string>();
        for (int i = first; i < (onlyFirst ? first + 1 : _argCount); i++)
            paths.Add(_args[i].ToString());
        string? error = ExtensionLoader.Load(paths, _server.Options, _server.Extensions, out _);
        if (error != null)
            _writer.WriteError(error);
        else
            _writer.WriteOk();
    }
}
