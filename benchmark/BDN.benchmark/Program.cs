using BenchmarkDotNet.Running;

namespace BDN.benchmark;

/// <summary>Runs the BenchmarkDotNet suites; pass <c>--filter '*'</c> to run them all.</summary>
public static class Program
{
    public static void Main(string[] args) => BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
}
