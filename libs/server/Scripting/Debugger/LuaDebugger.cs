using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using Garnet.common;
using Tsavorite;

namespace Garnet.server.Scripting;

/// <summary>
/// One client's Lua debugger (LDB), made by SCRIPT DEBUG SYNC (or YES, see <see cref="RollsBack"/>): what the debugging session knows besides the Lua state
/// itself — the script's source lines, the breakpoints, whether the next line stops (stepping), the log lines waiting
/// to be sent and the debugger commands received but not yet run.
/// </summary>
/// <remarks>
/// The client's next EVAL runs under it: the script stops before its first line, and the session then takes every
/// received byte as debugger input until the script ends (see <c>ScriptDebugCommands.cs</c>). Output goes to the
/// client as Redis sends it: an array of status lines per stop or command, the last one ending with
/// <c>&lt;endsession&gt;</c> before the EVAL's own reply; then the connection closes.
/// </remarks>
internal sealed class LuaDebugger
{
    /// <summary>Default length past which logged replies and values are trimmed (maxlen).</summary>
    private const int DefaultMaxLength = 256;

    /// <summary>The most breakpoints that may be set at once.</summary>
    private const int MaxBreakpoints = 64;

    /// <summary>Most debugger input kept while waiting for a command to complete (then the script is aborted).</summary>
    internal const int MaxInputLength = 1 << 20;

    private readonly List<string> _logs = new();
    private readonly List<int> _breakpoints = new();
    private string[] _lines = Array.Empty<string>();
    private byte[] _input = Array.Empty<byte>();
    private int _inputLength;

    /// <summary>SCRIPT DEBUG YES: the EVAL runs on a copy of the data, dropped at its end (<see cref="DebugFork"/>); SYNC otherwise.</summary>
    public bool RollsBack { get; init; }

    /// <summary>Whether the script stops at the next line it runs (the session starts stepping).</summary>
    public bool Step { get; set; } = true;

    /// <summary>Set by redis.breakpoint(): the script stops at the next line.</summary>
    public bool LuaBreakpoint { get; set; }

    /// <summary>The script line being run (the last line event of the script).</summary>
    public int CurrentLine { get; set; }

    /// <summary>Length past which logged replies and values are trimmed; 0 means unlimited.</summary>
    public int MaxLength { get; private set; } = DefaultMaxLength;

    private bool _maxLengthHintSent;

    /// <summary>Whether a debugged script is running (stopped, waiting for a debugger command): input is the debugger's.</summary>
    public bool TakesInput { get; set; }

    /// <summary>The client went away: the script runs on to its end without stopping (as in Redis).</summary>
    public bool Disconnected { get; private set; }

    /// <summary>The database the client had selected when the debugged EVAL began (restored at its end).</summary>
    public int Database { get; set; }

    /// <summary>The debugged script's key locks, taken again each time it runs (it holds none while stopped).</summary>
    public KeyLockRequest[] ScriptLocks { get; set; } = Array.Empty<KeyLockRequest>();

    /// <summary>The script being debugged, by digest (for error messages).</summary>
    public ScriptDigest Digest { get; set; }

    /// <summary>Starts a session for script <paramref name="source"/>: its lines, without trailing line breaks, for list and the stop messages.</summary>
    public void Begin(ReadOnlySpan<byte> source)
    {
        int length = source.Length;
        while (length > 0 && (source[length - 1] == '\n' || source[length - 1] == '\r'))
            length--;
        _lines = Encoding.UTF8.GetString(source.Slice(0, length)).Split('\n');
    }

    /// <summary>The client disconnected: nothing stops the script any more.</summary>
    public void Disconnect()
    {
        Disconnected = true;
        Step = false;
        LuaBreakpoint = false;
        _breakpoints.Clear();
        _inputLength = 0;
    }

    /// <summary>Adds a line to the output sent at the next stop or command.</summary>
    public void Log(string line) => _logs.Add(line);

    /// <summary>Logs <paramref name="line"/> trimmed to <see cref="MaxLength"/>, with a hint the first time one is trimmed.</summary>
    public void LogTrimmed(string line)
    {
        bool trimmed = false;
        if (MaxLength != 0 && line.Length > MaxLength)
        {
            line = string.Concat(line.AsSpan(0, MaxLength), " ...");
            trimmed = true;
        }
        Log(line);
        if (trimmed && !_maxLengthHintSent)
        {
            _maxLengthHintSent = true;
            Log("<hint> The above reply was trimmed. Use 'maxlen 0' to disable trimming.");
        }
    }

    /// <summary>Writes the logged lines as an array of status replies (line breaks become spaces) and forgets them.</summary>
    public void WriteLogs(ref RespWriter writer)
    {
        writer.WriteArrayHeader(_logs.Count);
        foreach (var line in _logs)
            writer.WriteSimpleString(Encoding.UTF8.GetBytes(line.Replace('\r', ' ').Replace('\n', ' ')));
        _logs.Clear();
    }

    /// <summary>Whether a breakpoint is set at <paramref name="line"/>.</summary>
    public bool IsBreakpoint(int line) => _breakpoints.Count != 0 && _breakpoints.Contains(line);

    /// <summary>The text of source line <paramref name="line"/> (1-based).</summary>
    private string SourceLine(int line)
        => line >= 1 && line <= _lines.Length ? _lines[line - 1].TrimEnd('\r') : "<out of range source code line>";

    /// <summary>Logs source line <paramref name="line"/> marked "->" when it is the current one and "#" when it has a breakpoint.</summary>
    public void LogSourceLine(int line)
    {
        bool current = line == CurrentLine;
        bool breakpoint = IsBreakpoint(line);
        string prefix = current && breakpoint ? "->#" : current ? "-> " : breakpoint ? "  #" : "   ";
        Log(string.Create(CultureInfo.InvariantCulture, $"{prefix}{line,-3} {SourceLine(line)}"));
    }

    /// <summary>list: the lines within <paramref name="context"/> of <paramref name="around"/> (0: every line).</summary>
    public void List(int around, int context)
    {
        for (int line = 1; line <= _lines.Length; line++)
        {
            if (around != 0 && Math.Abs(around - line) > context)
                continue;
            LogSourceLine(line);
        }
    }

    /// <summary>list [line] [ctx]: around the current line by default, 5 lines of context.</summary>
    public void List(string[] argv)
    {
        int around = CurrentLine;
        int context = 5;
        if (argv.Length > 1 && ParseLeadingInt(argv[1]) is var line and > 0)
            around = line;
        if (argv.Length > 2)
            context = ParseLeadingInt(argv[2]);
        List(around, context);
    }

    /// <summary>break: lists the breakpoints, or adds (n), removes (-n) or clears (0) them, for each argument.</summary>
    public void Break(string[] argv)
    {
        if (argv.Length == 1)
        {
            if (_breakpoints.Count == 0)
            {
                Log("No breakpoints set. Use 'b <line>' to add one.");
                return;
            }
            Log(string.Create(CultureInfo.InvariantCulture, $"{_breakpoints.Count} breakpoints set:"));
            foreach (int breakpoint in _breakpoints)
                LogSourceLine(breakpoint);
            return;
        }
        for (int i = 1; i < argv.Length; i++)
        {
            if (!NumberFormat.TryParseLong(Encoding.UTF8.GetBytes(argv[i]), out long line) || line is > int.MaxValue or < -int.MaxValue)
            {
                Log($"Invalid argument:'{argv[i]}'");
            }
            else if (line == 0)
            {
                _breakpoints.Clear();
                Log("All breakpoints removed.");
            }
            else if (line > 0)
            {
                if (_breakpoints.Count == MaxBreakpoints)
                {
                    Log("Too many breakpoints set.");
                }
                else if (line <= _lines.Length && !IsBreakpoint((int)line))
                {
                    _breakpoints.Add((int)line);
                    List((int)line, 1);
                }
                else
                {
                    Log("Wrong line number.");
                }
            }
            else
            {
                Log(_breakpoints.Remove((int)-line) ? "Breakpoint removed." : "No breakpoint in the specified line.");
            }
        }
    }

    /// <summary>maxlen [len]: sets the trimming length (0 = unlimited, at least 60 otherwise) and tells what it is.</summary>
    public void SetMaxLength(string[] argv)
    {
        if (argv.Length == 2)
        {
            int value = ParseLeadingInt(argv[1]);
            _maxLengthHintSent = true; // the user knows about the command
            if (value != 0 && value <= 60)
                value = 60;
            MaxLength = value;
        }
        Log(MaxLength != 0
            ? string.Create(CultureInfo.InvariantCulture, $"<value> replies are truncated at {MaxLength} bytes.")
            : "<value> replies are unlimited.");
    }

    /// <summary>help: the list of debugger commands, as Redis words it.</summary>
    public void Help()
    {
        foreach (var line in s_help)
            Log(line);
    }

    private static readonly string[] s_help =
    [
        "Redis Lua debugger help:",
        "[h]elp               Show this help.",
        "[s]tep               Run current line and stop again.",
        "[n]ext               Alias for step.",
        "[c]ontinue           Run till next breakpoint.",
        "[l]ist               List source code around current line.",
        "[l]ist [line]        List source code around [line].",
        "                     line = 0 means: current position.",
        "[l]ist [line] [ctx]  In this form [ctx] specifies how many lines",
        "                     to show before/after [line].",
        "[w]hole              List all source code. Alias for 'list 1 1000000'.",
        "[p]rint              Show all the local variables.",
        "[p]rint <var>        Show the value of the specified variable.",
        "                     Can also show global vars KEYS and ARGV.",
        "[b]reak              Show all breakpoints.",
        "[b]reak <line>       Add a breakpoint to the specified line.",
        "[b]reak -<line>      Remove breakpoint from the specified line.",
        "[b]reak 0            Remove all breakpoints.",
        "[t]race              Show a backtrace.",
        "[e]val <code>        Execute some Lua code (in a different callframe).",
        "[r]edis <cmd>        Execute a Redis command.",
        "[m]axlen [len]       Trim logged Redis replies and Lua var dumps to len.",
        "                     Specifying zero as <len> means unlimited.",
        "[a]bort              Stop the execution of the script. In sync",
        "                     mode dataset changes will be retained.",
        "",
        "Debugger functions you can call from Lua scripts:",
        "redis.debug()        Produce logs in the debugger console.",
        "redis.breakpoint()   Stop execution like if there was a breakpoint in the",
        "                     next line of code.",
    ];

    /// <summary>Keeps received debugger input; false when it grew past <see cref="MaxInputLength"/> (the script is then aborted).</summary>
    public unsafe bool AppendInput(byte* bytes, int length)
    {
        if (_inputLength + (long)length > MaxInputLength)
        {
            _inputLength = 0;
            return false;
        }
        if (_input.Length - _inputLength < length)
            Array.Resize(ref _input, Math.Max(_input.Length * 2, _inputLength + length));
        new ReadOnlySpan<byte>(bytes, length).CopyTo(_input.AsSpan(_inputLength));
        _inputLength += length;
        return true;
    }

    /// <summary>
    /// Takes the next debugger command from the input. As in Redis, whatever else was received with it is dropped
    /// (the debugger answers one command at a time).
    /// </summary>
    public DebugCommandParser.Result TakeCommand(out string[] argv)
    {
        var result = DebugCommandParser.TryParse(_input.AsSpan(0, _inputLength), out argv);
        if (result != DebugCommandParser.Result.Incomplete)
            _inputLength = 0;
        return result;
    }

    /// <summary>C's atoi: the leading integer of <paramref name="text"/>, 0 if there is none.</summary>
    private static int ParseLeadingInt(string text)
    {
        int i = 0;
        while (i < text.Length && char.IsWhiteSpace(text[i]))
            i++;
        bool negative = false;
        if (i < text.Length && (text[i] == '-' || text[i] == '+'))
            negative = text[i++] == '-';
        long value = 0;
        while (i < text.Length && text[i] is >= '0' and <= '9' && value < int.MaxValue)
            value = value * 10 + (text[i++] - '0');
        value = Math.Min(value, int.MaxValue);
        return (int)(negative ? -value : value);
    }
}
