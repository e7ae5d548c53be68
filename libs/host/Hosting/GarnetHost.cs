using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Garnet;

/// <summary>
/// The server process: options in, a generic host with a console lifetime around a
/// <see cref="GarnetServer"/>, an exit code out. Ctrl-C, SIGTERM, the cancellation token and the
/// SHUTDOWN command all end it the same way, by stopping the host, which disposes the server.
/// </summary>
public static class GarnetHost
{
    /// <summary>Exit code when the server could not start (e.g. the port is taken).</summary>
    public const int StartFailedExitCode = 1;

    /// <summary>
    /// Runs the executable: parses <paramref name="args"/>, prints help, the version or a one-line error
    /// and returns its exit code, or runs the server until it is stopped and returns 0.
    /// </summary>
    public static async Task<int> RunAsync(string[] args, TextWriter? output = null, TextWriter? error = null, CancellationToken cancellationToken = default)
    {
        output ??= Console.Out;
        error ??= Console.Error;
        OptionsParseResult parsed = OptionsParser.Parse(args);
        if (parsed.Settings == null)
        {
            if (parsed.Output != null)
                output.WriteLine(parsed.Output);
            if (parsed.Error != null)
                error.WriteLine(parsed.Error);
            return parsed.ExitCode;
        }
        return await RunAsync(parsed.Settings, error, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Runs the server with <paramref name="settings"/> until the host is stopped; returns the exit code.</summary>
    public static async Task<int> RunAsync(HostSettings settings, TextWriter? error = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(settings);
        error ??= Console.Error;
        if (!TryConfigureThreadPool(settings, out string? problem))
        {
            error.WriteLine("error: " + problem);
            return OptionsParseResult.UsageErrorExitCode;
        }

        using IHost host = CreateHost(settings);
        try
        {
            await host.StartAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return 0;
        }
        catch (Garnet.server.AclFileException e)
        {
            error.WriteLine($"error: cannot load the ACL file: {e.Message.ReplaceLineEndings(" ")}");
            return StartFailedExitCode;
        }
        catch (Garnet.server.RecoveryException e)
        {
            error.WriteLine($"error: cannot recover: {e.Message.ReplaceLineEndings(" ")}");
            return StartFailedExitCode;
        }
        catch (HttpListenerException e)
        {
            error.WriteLine($"error: cannot serve metrics on {settings.Server.Address}:{settings.MetricsPort}: {e.Message.ReplaceLineEndings(" ")}");
            return StartFailedExitCode;
        }
        catch (Exception e) when (e is SocketException or IOException or UnauthorizedAccessException)
        {
            error.WriteLine($"error: cannot start the server on {settings.Server.Address}:{settings.Server.Port}: {e.Message.ReplaceLineEndings(" ")}");
            return StartFailedExitCode;
        }
        await host.WaitForShutdownAsync(cancellationToken).ConfigureAwait(false);
        return 0;
    }

    /// <summary>
    /// Builds the host: console logging at <see cref="HostSettings.LogLevel"/>, the console lifetime
    /// (Ctrl-C, SIGTERM) and a <see cref="GarnetHostedService"/>, which is also registered as itself
    /// so callers can reach the running server.
    /// </summary>
    public static IHost CreateHost(HostSettings settings)
    {
        ArgumentNullException.ThrowIfNull(settings);
        // The empty builder reads no appsettings, environment or command-line configuration: the
        // options are already parsed, and the generic command-line provider would reject them.
        HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings
        {
            ApplicationName = OptionsParser.ProgramName,
            ContentRootPath = AppContext.BaseDirectory,
        });
        builder.Logging.SetMinimumLevel(settings.LogLevel);
        builder.Logging.AddSimpleConsole(console => console.SingleLine = true);
        // A failed start is reported as one line by RunAsync; the host's own error log adds a stack trace.
        builder.Logging.AddFilter("Microsoft.Extensions.Hosting.Internal.Host", LogLevel.Critical);
        builder.Services.Configure<ConsoleLifetimeOptions>(lifetime => lifetime.SuppressStatusMessages = true);
        builder.Services.AddSingleton(settings);
        builder.Services.AddSingleton<GarnetHostedService>();
        builder.Services.AddHostedService(services => services.GetRequiredService<GarnetHostedService>());
        return builder.Build();
    }

    private static bool TryConfigureThreadPool(HostSettings settings, out string? problem)
    {
        problem = null;
        if (settings.MinThreads > 0 && !ThreadPool.SetMinThreads(settings.MinThreads, settings.MinThreads))
            problem = $"--minthreads: the thread pool refused {settings.MinThreads}";
        else if (settings.MaxThreads > 0 && !ThreadPool.SetMaxThreads(settings.MaxThreads, settings.MaxThreads))
            problem = $"--maxthreads: the thread pool refused {settings.MaxThreads} (it must be at least the processor count, {Environment.ProcessorCount}, and --minthreads)";
        return problem == null;
    }
}
