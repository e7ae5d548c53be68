using System.Threading.Tasks;

namespace Garnet;

/// <summary>Entry point of the server executable; see <see cref="GarnetHost"/> and <c>--help</c>.</summary>
public static class Program
{
    public static Task<int> Main(string[] args) => GarnetHost.RunAsync(args);
}
