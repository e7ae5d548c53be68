namespace Garnet;

/// <summary>
/// What parsing the command line came to: either settings to run the server with, or a reason to
/// exit at once (help or version text for standard output, or a one-line error for standard error).
/// </summary>
public sealed class OptionsParseResult
{
    /// <summary>Exit code for invalid options, as with most Unix tools' usage errors.</summary>
    public const int UsageErrorExitCode = 2;

    private OptionsParseResult(HostSettings? settings, int exitCode, string? output, string? error)
    {
        Settings = settings;
        ExitCode = exitCode;
        Output = output;
        Error = error;
    }

    /// <summary>The settings to run with, or null when the process should exit with <see cref="ExitCode"/>.</summary>
    public HostSettings? Settings { get; }

    /// <summary>The process exit code when <see cref="Settings"/> is null.</summary>
    public int ExitCode { get; }

    /// <summary>Text for standard output (help, version), or null.</summary>
    public string? Output { get; }

    /// <summary>A one-line error for standard error, or null.</summary>
    public string? Error { get; }

    internal static OptionsParseResult Run(HostSettings settings) => new(settings, 0, null, null);

    internal static OptionsParseResult Print(string output) => new(null, 0, output, null);

    internal static OptionsParseResult Fail(string error) => new(null, UsageErrorExitCode, null, error);
}
