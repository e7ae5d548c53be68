using System.Runtime.CompilerServices;

// The engine's tests and micro-benchmarks inspect internal state (index buckets, log addresses).
[assembly: InternalsVisibleTo("Tsavorite.test")]
[assembly: InternalsVisibleTo("BDN.benchmark")]
