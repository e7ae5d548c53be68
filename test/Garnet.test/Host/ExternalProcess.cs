using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;

namespace Garnet.test.Host;

/// <summary>Runs an external program for a test: arguments, optional standard input, bounded time.</summary>
internal sealed class ExternalProcess : IDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _output = new();
    private readonly StringBuilder _error = new();
    private readonly object _lock = new();

    private ExternalProcess(Process process)
    {
        _process = process;
    }

    /// <summary>Standard output so far.</summary>
    public string Output
    {
        get
        {
            lock (_lock)
                return _output.ToString();
        }
    }

    /// <summary>Standard error so far.</summary>
    public string Error
    {
        get
        {
            lock (_lock)
                return _error.ToString();
        }
    }

    public int Id => _process.Id;

    /// <summary>
    /// Starts <paramref name="fileName"/>; standard input is left open only if <paramref name="redirectInput"/>;
    /// <paramref name="environment"/> sets (or, with a null value, removes) variables of the child's environment.
    /// </summary>
    public static ExternalProcess Start(string fileName, IEnumerable<string> arguments, bool redirectInput = false,
        IReadOnlyDictionary<string, string?>? environment = null)
    {
        var info = new ProcessStartInfo(fileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
        };
        foreach (string argument in arguments)
            info.ArgumentList.Add(argument);
        if (environment != null)
        {
            foreach (var (name, value) in environment)
            {
                if (value == null)
                    info.Environment.Remove(name);
                else
                    info.Environment[name] = value;
            }
        }
        var process = new Process { StartInfo = info };
        var wrapper = new ExternalProcess(process);
        process.OutputDataReceived += (_, e) => wrapper.Append(wrapper._output, e.Data);
        process.ErrorDataReceived += (_, e) => wrapper.Append(wrapper._error, e.Data);
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        if (!redirectInput)
            process.StandardInput.Close();
        return wrapper;
    }

    /// <summary>Runs a program to completion (killed after <paramref name="timeout"/>) and returns it.</summary>
    public static ExternalProcess Run(string fileName, IEnumerable<string> arguments, TimeSpan timeout, string? input = null,
        IReadOnlyDictionary<string, string?>? environment = null)
    {
        var process = Start(fileName, arguments, redirectInput: input != null, environment);
        if (input != null)
        {
            // Latin-1 keeps RESP bytes as they are.
            var stdin = process._process.StandardInput.BaseStream;
            stdin.Write(Encoding.Latin1.GetBytes(input));
            stdin.Close();
        }
        process.WaitForExit(timeout);
        return process;
    }

    /// <summary>The standard input stream (when redirected).</summary>
    public Stream Input => _process.StandardInput.BaseStream;

    public bool HasExited => _process.HasExited;

    public int ExitCode => _process.ExitCode;

    /// <summary>Waits for the exit and for the output to be read; kills the process after <paramref name="timeout"/>.</summary>
    public void WaitForExit(TimeSpan timeout)
    {
        if (!_process.WaitForExit(timeout))
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit();
            throw new TimeoutException($"{_process.StartInfo.FileName} did not exit in {timeout}. Output: {Output} Error: {Error}");
        }
        _process.WaitForExit();
    }

    /// <summary>Waits until standard output contains <paramref name="text"/>; false after <paramref name="timeout"/>.</summary>
    public bool WaitForOutput(string text, TimeSpan timeout)
    {
        DateTime deadline = DateTime.UtcNow + timeout;
        while (DateTime.UtcNow < deadline)
        {
            if (Output.Contains(text, StringComparison.Ordinal))
                return true;
            if (_process.HasExited)
                return Output.Contains(text, StringComparison.Ordinal);
            Thread.Sleep(20);
        }
        return false;
    }

    /// <summary>Sends SIGTERM, as a service manager or `kill` would.</summary>
    public void Terminate()
    {
        const int SigTerm = 15;
        if (kill(_process.Id, SigTerm) != 0)
            throw new InvalidOperationException($"kill failed with errno {Marshal.GetLastPInvokeError()}");
    }

    /// <summary>Kills the process at once (SIGKILL on Unix), as a crash would end it, and waits for it.</summary>
    public void Kill()
    {
        _process.Kill(entireProcessTree: true);
        _process.WaitForExit();
    }

    /// <summary>Finds <paramref name="name"/> on the PATH, or null.</summary>
    public static string? FindOnPath(string name)
    {
        string? path = Environment.GetEnvironmentVariable("PATH");
        if (path == null)
            return null;
        foreach (string directory in path.Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            string candidate = Path.Combine(directory, name);
            if (File.Exists(candidate))
                return candidate;
        }
        return null;
    }

    private void Append(StringBuilder target, string? line)
    {
        if (line == null)
            return;
        lock (_lock)
            target.Append(line).Append('\n');
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit();
        }
        _process.Dispose();
    }

    [DllImport("libc", SetLastError = true)]
    private static extern int kill(int pid, int signal);
}
