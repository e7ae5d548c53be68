using System;
using System.Globalization;
using System.Runtime;
using System.Text;

namespace Garnet.server;

/// <summary>
/// MEMORY MALLOC-STATS: where Redis prints its allocator's (jemalloc's) statistics, the statistics of what allocates
/// here: the .NET garbage-collected heap (per generation, collections, pauses, pinned objects) and the engine's native
/// memory (log pages in memory, hash indexes, large values' blocks).
/// </summary>
public sealed unsafe partial class RespServerSession
{
    private void MemoryMallocStats()
    {
        var invariant = CultureInfo.InvariantCulture;
        var text = new StringBuilder(2048);
        var gc = GC.GetGCMemoryInfo(GCKind.Any);
        text.Append("___ Begin .NET memory statistics ___\n");
        text.Append(invariant, $"Runtime: {System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription}\n");
        text.Append(invariant, $"GC: {(GCSettings.IsServerGC ? "server" : "workstation")}, latency mode {GCSettings.LatencyMode}, concurrent {gc.Concurrent}, compacted {gc.Compacted}\n");
        text.Append(invariant, $"Heap: size {gc.HeapSizeBytes}, committed {gc.TotalCommittedBytes}, fragmented {gc.FragmentedBytes}, promoted {gc.PromotedBytes}\n");
        text.Append(invariant, $"Machine: available {gc.TotalAvailableMemoryBytes}, memory load {gc.MemoryLoadBytes}, high load threshold {gc.HighMemoryLoadThresholdBytes}\n");
        text.Append(invariant, $"Allocated: total {GC.GetTotalAllocatedBytes(precise: false)}, live estimate {GC.GetTotalMemory(forceFullCollection: false)}\n");
        text.Append(invariant, $"Pinned objects: {gc.PinnedObjectsCount}, finalization pending: {gc.FinalizationPendingCount}\n");
        text.Append(invariant, $"Pause time: {GC.GetTotalPauseDuration().TotalMilliseconds:F3} ms total, {gc.PauseTimePercentage:F2}% of run time\n");
        text.Append("Generations (after the last collection):\n");
        string[] names = ["gen0", "gen1", "gen2", "large object heap", "pinned object heap"];
        var generations = gc.GenerationInfo;
        for (int i = 0; i < generations.Length && i < names.Length; i++)
        {
            var generation = generations[i];
            string collections = i <= GC.MaxGeneration ? GC.CollectionCount(i).ToString(invariant) : "-";
            text.Append(invariant, $"  {names[i]}: size {generation.SizeAfterBytes} (before {generation.SizeBeforeBytes}), fragmentation {generation.FragmentationAfterBytes}, collections {collections}\n");
        }
        var report = MemoryReport.Measure(_server);
        var total = report.Total;
        text.Append("Native (engine):\n");
        text.Append(invariant, $"  log pages in memory: {total.PagesInMemory}, bytes {total.LogBytes}\n");
        text.Append(invariant, $"  hash index: bytes {total.IndexBytes}, buckets {total.Buckets}, overflow buckets {total.OverflowBuckets}\n");
        text.Append(invariant, $"  large values: {total.LargeValues}, bytes {total.LargeValueBytes}\n");
        text.Append(invariant, $"  objects (managed heap): {total.Objects}, bytes {total.ObjectBytes}\n");
        text.Append("--- End .NET memory statistics ---\n");
        _writer.WriteVerbatim(Encoding.UTF8.GetBytes(text.ToString()));
    }
}
