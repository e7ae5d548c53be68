namespace Garnet.server;

/// <summary>
/// Command ids. The values are persisted (operation log, checkpoints), so they are explicit and
/// only ever appended; a golden test guards them.
/// </summary>
public enum RespCommand : ushort
{
    NONE = 0,

    // Connection
    PING = 1,
    ECHO = 2,
    QUIT = 3,
    HELLO = 4,
    SELECT = 5,
    SWAPDB = 6,
    RESET = 7,
    CLIENT = 8,
    AUTH = 9,

    // Strings
    GET = 20,
    SET = 21,
    SETNX = 22,
    SETEX = 23,
    PSETEX = 24,
    GETSET = 25,
    GETDEL = 26,
    GETEX = 27,
    MGET = 28,
    MSET = 29,
    MSETNX = 30,
    INCR = 31,
    INCRBY = 32,
    DECR = 33,
    DECRBY = 34,
    INCRBYFLOAT = 35,
    APPEND = 36,
    STRLEN = 37,
    GETRANGE = 38,
    SUBSTR = 39,
    SETRANGE = 40,
    LCS = 41,

    // Keyspace
    DEL = 60,
    UNLINK = 61,
    EXISTS = 62,
    TYPE = 63,
    TOUCH = 64,
    EXPIRE = 65,
    PEXPIRE = 66,
    EXPIREAT = 67,
    PEXPIREAT = 68,
    TTL = 69,
    PTTL = 70,
    EXPIRETIME = 71,
    PEXPIRETIME = 72,
    PERSIST = 73,
    RENAME = 74,
    RENAMENX = 75,
    COPY = 76,
    KEYS = 77,
    SCAN = 78,
    RANDOMKEY = 79,
    DBSIZE = 80,
    FLUSHDB = 81,
    FLUSHALL = 82,
    DUMP = 83,
    RESTORE = 84,

    // Server
    INFO = 100,
    CONFIG = 101,
    TIME = 102,
    DEBUG = 103,
    SHUTDOWN = 104,
    COMMAND = 105,
    MEMORY = 106,
    LASTSAVE = 107,

    // Bitmaps (string store)
    SETBIT = 120,
    GETBIT = 121,
    BITCOUNT = 122,
    BITPOS = 123,
    BITOP = 124,
    BITFIELD = 125,
    BITFIELD_RO = 126,

    // HyperLogLog (string store)
    PFADD = 130,
    PFCOUNT = 131,
    PFMERGE = 132,
}
