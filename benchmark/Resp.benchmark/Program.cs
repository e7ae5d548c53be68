using System;

namespace Resp.benchmark;

/// <summary>Entry point of the RESP load generator; see <see cref="BenchmarkOptions"/> for the options.</summary>
public static class Program
{
    /// <summary>Parses the options, runs one measurement per --threads value and prints one line for each.</summary>
    public static int Main(string[] args)
    {
        var options = BenchmarkOptions.FromCommandLine(args, Console.Error);
        if (options == null)
            return 2;

        var problems = options.Validate();
        if (problems.Count > 0)
        {
            foreach (string problem in problems)
                Console.Error.WriteLine(problem);
            return 2;
        }

        try
        {
            var runner = new BenchmarkRunner(options, Console.Error);
            foreach (int threads in options.Threads)
            {
                var result = runner.RunOnce(threads);
                Console.WriteLine(ResultFormatter.Line(result));
                if (options.Csv != null)
                    ResultFormatter.AppendCsv(options.Csv, result);
            }
            return 0;
        }
        catch (Exception e) when (e is InvalidOperationException or System.Net.Sockets.SocketException or System.IO.IOException)
        {
            Console.Error.WriteLine("Resp.benchmark: " + e.Message);
            return 1;
        }
    }
}
