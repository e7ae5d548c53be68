using System;
using System.Collections.Generic;
using Garnet.server;
using NUnit.Framework;

namespace Garnet.test.Server;

/// <summary>
/// Command ids are persisted (operation log, checkpoints), so they may only be appended. This golden
/// list fails the build's tests when an id changes or a command is added without recording it here.
/// </summary>
[TestFixture]
public sealed class CommandIdGoldenTests
{
    private static readonly Dictionary<string, int> s_golden = new()
    {
        ["NONE"] = 0,
        ["PING"] = 1,
        ["ECHO"] = 2,
        ["QUIT"] = 3,
        ["HELLO"] = 4,
        ["SELECT"] = 5,
        ["SWAPDB"] = 6,
        ["RESET"] = 7,
        ["CLIENT"] = 8,
        ["AUTH"] = 9,
        ["GET"] = 20,
        ["SET"] = 21,
        ["SETNX"] = 22,
        ["SETEX"] = 23,
        ["PSETEX"] = 24,
        ["GETSET"] = 25,
        ["GETDEL"] = 26,
        ["GETEX"] = 27,
        ["MGET"] = 28,
        ["MSET"] = 29,
        ["MSETNX"] = 30,
        ["INCR"] = 31,
        ["INCRBY"] = 32,
        ["DECR"] = 33,
        ["DECRBY"] = 34,
        ["INCRBYFLOAT"] = 35,
        ["APPEND"] = 36,
        ["STRLEN"] = 37,
        ["GETRANGE"] = 38,
        ["SUBSTR"] = 39,
        ["SETRANGE"] = 40,
        ["LCS"] = 41,
        ["DEL"] = 60,
        ["UNLINK"] = 61,
        ["EXISTS"] = 62,
        ["TYPE"] = 63,
        ["TOUCH"] = 64,
        ["EXPIRE"] = 65,
        ["PEXPIRE"] = 66,
        ["EXPIREAT"] = 67,
        ["PEXPIREAT"] = 68,
        ["TTL"] = 69,
        ["PTTL"] = 70,
        ["EXPIRETIME"] = 71,
        ["PEXPIRETIME"] = 72,
        ["PERSIST"] = 73,
        ["RENAME"] = 74,
        ["RENAMENX"] = 75,
        ["COPY"] = 76,
        ["KEYS"] = 77,
        ["SCAN"] = 78,
        ["RANDOMKEY"] = 79,
        ["DBSIZE"] = 80,
        ["FLUSHDB"] = 81,
        ["FLUSHALL"] = 82,
        ["DUMP"] = 83,
        ["RESTORE"] = 84,
        ["INFO"] = 100,
        ["CONFIG"] = 101,
        ["TIME"] = 102,
        ["DEBUG"] = 103,
        ["SHUTDOWN"] = 104,
        ["COMMAND"] = 105,
        ["MEMORY"] = 106,
        ["LASTSAVE"] = 107,
        ["SETBIT"] = 120,
        ["GETBIT"] = 121,
        ["BITCOUNT"] = 122,
        ["BITPOS"] = 123,
        ["BITOP"] = 124,
        ["BITFIELD"] = 125,
        ["BITFIELD_RO"] = 126,
        ["PFADD"] = 130,
        ["PFCOUNT"] = 131,
        ["PFMERGE"] = 132,
    };

    [Test]
    public void CommandIdsAreAppendOnly()
    {
        var values = Enum.GetValues<RespCommand>();
        foreach (var command in values)
        {
            Assert.That(s_golden.TryGetValue(command.ToString(), out int id), Is.True, $"{command} is new: record its id in this golden list");
            Assert.That((int)command, Is.EqualTo(id), $"the id of {command} changed; ids are persisted and must never change");
        }
        Assert.That(values, Has.Length.EqualTo(s_golden.Count), "a recorded command was removed; ids must stay reserved");
    }

    [Test]
    public void EveryCommandHasExactlyOneTableEntry()
    {
        var seen = new HashSet<RespCommand>();
        foreach (var info in CommandTable.All)
            Assert.That(seen.Add(info.Command), Is.True, $"{info.Name} appears twice in the command table");
        foreach (var command in Enum.GetValues<RespCommand>())
        {
            if (command != RespCommand.NONE)
                Assert.That(seen, Does.Contain(command), $"{command} has no command table entry");
        }
    }
}
