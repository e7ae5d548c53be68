using System;
using Garnet.common;

namespace Garnet.server;

/// <summary>MEMORY USAGE / STATS / DOCTOR / PURGE / HELP (STATS and DOCTOR in MemoryStatsCommand.cs).</summary>
public sealed unsafe partial class RespServerSession
{
    /// <summary>A key's share of the hash index: one bucket entry.</summary>
    private const int IndexEntryBytes = sizeof(long);

    private static readonly string[] s_memoryHelp =
    [
        "USAGE <key> [SAMPLES <count>]",
        "    Return the memory in bytes the key and its value use: the log record plus its index entry.",
        "STATS",
        "    Return information about the memory usage of the server, and the engine's figures per database: the log's",
        "    addresses and regions, the hash index, pages evicted and records copied forward, objects' heap.",
        "DOCTOR",
        "    Return memory problems reports.",
        "PURGE",
        "    Ask the allocator to release memory.",
        "MALLOC-STATS",
        "    Return the .NET heap's and the engine's native memory statistics.",
    ];

    private void MemoryCommand()
    {
        var subcommand = ResolveSubcommand(RespCommand.MEMORY);
        if (subcommand == null)
            return;
        switch (subcommand.Id)
        {
            case Subcommand.MemoryUsage: MemoryUsage(); break;
            case Subcommand.MemoryPurge: MemoryPurge(); break;
            case Subcommand.MemoryHelp: WriteHelp(s_memoryHelp); break;
            case Subcommand.MemoryStats: MemoryStats(); break;
            case Subcommand.MemoryDoctor: MemoryDoctor(); break;
            case Subcommand.MemoryMallocStats: MemoryMallocStats(); break; // MemoryMallocStats.cs
            default: throw new InvalidOperationException($"{subcommand.Id} is not a MEMORY subcommand.");
        }
    }

    /// <summary>
    /// MEMORY PURGE: where Redis asks its allocator to give dirty pages back, the databases' head movers look at
    /// their head pages now and empty those mostly dead (as they would on their own, later), and a full compacting
    /// collection hands the managed heap's free space back to the system.
    /// </summary>
    private void MemoryPurge()
    {
        for (int i = 0; i < _server.DatabaseCount; i++)
            _server.PeekDatabase(i)?.MainStore.ReclaimDeadPagesSoon();
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Aggressive, blocking: true, compacting: true);
        _writer.WriteOk();
    }

    /// <summary>
    /// MEMORY USAGE key [SAMPLES count]: the record's allocated size plus its index entry, or nil.
    /// SAMPLES is validated and otherwise ignored, since string values are measured exactly.
    /// </summary>
    private void MemoryUsage()
    {
        for (int i = 3; i < _argCount; i++)
        {
            if (_args[i].EqualsUpper("SAMPLES"u8) && i + 1 < _argCount)
            {
                if (!NumberFormat.TryParseLong(_args[++i].Span, out long samples))
                {
                    _writer.WriteError(RespStrings.ErrNotInteger);
                    return;
                }
                if (samples < 0)
                {
                    _writer.WriteError(RespStrings.ErrSyntax);
                    return;
                }
            }
            else
            {
                _writer.WriteError(RespStrings.ErrSyntax);
                return;
            }
        }
        var output = default(StringOutput);
        var status = ReadString(_args[2].Span, RespCommand.MEMORY, ref output);
        if (status.Found)
            _writer.WriteInteger(output.Number + IndexEntryBytes);
        else
            _writer.WriteNull();
    }
}
