using System;
using System.Runtime.InteropServices;

namespace Garnet.server.Scripting;

/// <summary>
/// The Lua 5.4 C API functions the script runner uses, bound directly to the liblua54 that the KeraLua
/// package ships. The runner works on raw pointers (byte spans in and out, C callbacks as
/// <c>UnmanagedCallersOnly</c> function pointers) so a redis.call allocates nothing on the managed heap.
/// Callbacks never raise Lua errors themselves: a longjmp across managed frames is undefined, so they
/// return error values that Lua code turns into errors (see <see cref="LuaPrelude"/>).
/// </summary>
/// <remarks>
/// The stack and table functions are marked <c>SuppressGCTransition</c> (a plain native call, a few
/// nanoseconds instead of a GC-mode switch): they are short, never block, and never call back into
/// managed code. The last holds because no Lua code runs inside them: they use no metamethods, and
/// the garbage collector they may step runs no finalizers, since the sandbox refuses <c>__gc</c>
/// metatables (<see cref="LuaPrelude"/>'s setmetatable). Functions that run Lua code (pcall, resume,
/// closethread, dump's writer) keep the transition.
/// </remarks>
internal static unsafe partial class LuaNative
{
    private const string Library = "lua54";

    public const int RegistryIndex = -1000000 - 1000;
    public const int MultipleReturns = -1;

    public const int Ok = 0;
    public const int Yield = 1;
    public const int ErrorRun = 2;
    public const int ErrorSyntax = 3;
    public const int ErrorMemory = 4;
    public const int ErrorInHandler = 5;

    public const int TypeNone = -1;
    public const int TypeNil = 0;
    public const int TypeBoolean = 1;
    public const int TypeLightUserData = 2;
    public const int TypeNumber = 3;
    public const int TypeString = 4;
    public const int TypeTable = 5;
    public const int TypeFunction = 6;
    public const int TypeUserData = 7;
    public const int TypeThread = 8;

    public const int MaskCount = 1 << 3;

    /// <summary>lua_sethook mask: call the hook when the interpreter starts a new line (the debugger's stepping).</summary>
    public const int MaskLine = 1 << 2;

    /// <summary>lua_Debug.event of a line hook call.</summary>
    public const int HookLine = 2;

    /// <summary>lua_Debug.event of a count hook call.</summary>
    public const int HookCount = 3;

    /// <summary>Size of <c>lua_Debug</c> (136 bytes on 64-bit) with room to spare.</summary>
    public const int DebugSize = 256;
    public const int DebugCurrentLineOffset = 48;
    public const int DebugSourceOffset = 32;
    public const int DebugWhatOffset = 24;

    /// <summary>Offset of lua_Debug.event (int).</summary>
    public const int DebugEventOffset = 0;

    /// <summary>Offset of lua_Debug.name (const char*, filled by "n").</summary>
    public const int DebugNameOffset = 8;

    [LibraryImport(Library, EntryPoint = "luaL_newstate")]
    public static partial nint NewState();

    [LibraryImport(Library, EntryPoint = "lua_close")]
    public static partial void Close(nint L);

    [LibraryImport(Library, EntryPoint = "luaL_requiref")]
    public static partial void RequireF(nint L, byte* name, delegate* unmanaged[Cdecl]<nint, int> open, int global);

    [LibraryImport(Library, EntryPoint = "luaopen_base")]
    public static partial int OpenBase(nint L);

    [LibraryImport(Library, EntryPoint = "lua_gettop")]
    [SuppressGCTransition]
    public static partial int GetTop(nint L);

    [LibraryImport(Library, EntryPoint = "lua_settop")]
    [SuppressGCTransition]
    public static partial void SetTop(nint L, int index);

    [LibraryImport(Library, EntryPoint = "lua_pushvalue")]
    [SuppressGCTransition]
    public static partial void PushValue(nint L, int index);

    [LibraryImport(Library, EntryPoint = "lua_rotate")]
    [SuppressGCTransition]
    public static partial void Rotate(nint L, int index, int n);

    [LibraryImport(Library, EntryPoint = "lua_copy")]
    [SuppressGCTransition]
    public static partial void Copy(nint L, int from, int to);

    [LibraryImport(Library, EntryPoint = "lua_checkstack")]
    [SuppressGCTransition]
    public static partial int CheckStack(nint L, int n);

    [LibraryImport(Library, EntryPoint = "lua_type")]
    [SuppressGCTransition]
    public static partial int Type(nint L, int index);

    [LibraryImport(Library, EntryPoint = "lua_toboolean")]
    [SuppressGCTransition]
    public static partial int ToBoolean(nint L, int index);

    [LibraryImport(Library, EntryPoint = "lua_tolstring")]
    [SuppressGCTransition]
    public static partial byte* ToLString(nint L, int index, nuint* length);

    [LibraryImport(Library, EntryPoint = "lua_tonumberx")]
    [SuppressGCTransition]
    public static partial double ToNumberX(nint L, int index, int* isNumber);

    [LibraryImport(Library, EntryPoint = "lua_tointegerx")]
    [SuppressGCTransition]
    public static partial long ToIntegerX(nint L, int index, int* isNumber);

    [LibraryImport(Library, EntryPoint = "lua_isinteger")]
    [SuppressGCTransition]
    public static partial int IsInteger(nint L, int index);

    [LibraryImport(Library, EntryPoint = "lua_pushnil")]
    [SuppressGCTransition]
    public static partial void PushNil(nint L);

    [LibraryImport(Library, EntryPoint = "lua_pushnumber")]
    [SuppressGCTransition]
    public static partial void PushNumber(nint L, double value);

    [LibraryImport(Library, EntryPoint = "lua_pushinteger")]
    [SuppressGCTransition]
    public static partial void PushInteger(nint L, long value);

    [LibraryImport(Library, EntryPoint = "lua_pushlstring")]
    [SuppressGCTransition]
    public static partial byte* PushLString(nint L, byte* s, nuint length);

    /// <summary>Pushes a NUL-terminated string; Lua finds a literal again by its address (no hashing).</summary>
    [LibraryImport(Library, EntryPoint = "lua_pushstring")]
    [SuppressGCTransition]
    public static partial byte* PushString(nint L, byte* s);

    /// <summary>t[k] = top, popping it. Only for tables without metatables (no metamethod may run).</summary>
    [LibraryImport(Library, EntryPoint = "lua_setfield")]
    [SuppressGCTransition]
    public static partial void SetField(nint L, int index, byte* k);

    [LibraryImport(Library, EntryPoint = "lua_pushboolean")]
    [SuppressGCTransition]
    public static partial void PushBoolean(nint L, int value);

    [LibraryImport(Library, EntryPoint = "lua_pushlightuserdata")]
    [SuppressGCTransition]
    public static partial void PushLightUserData(nint L, nint pointer);

    [LibraryImport(Library, EntryPoint = "lua_pushcclosure")]
    [SuppressGCTransition]
    public static partial void PushCClosure(nint L, delegate* unmanaged[Cdecl]<nint, int> function, int upvalues);

    [LibraryImport(Library, EntryPoint = "lua_createtable")]
    [SuppressGCTransition]
    public static partial void CreateTable(nint L, int arrayCount, int hashCount);

    [LibraryImport(Library, EntryPoint = "lua_rawget")]
    [SuppressGCTransition]
    public static partial int RawGet(nint L, int index);

    [LibraryImport(Library, EntryPoint = "lua_rawgeti")]
    [SuppressGCTransition]
    public static partial int RawGetI(nint L, int index, long n);

    [LibraryImport(Library, EntryPoint = "lua_rawset")]
    [SuppressGCTransition]
    public static partial void RawSet(nint L, int index);

    [LibraryImport(Library, EntryPoint = "lua_rawseti")]
    [SuppressGCTransition]
    public static partial void RawSetI(nint L, int index, long n);

    [LibraryImport(Library, EntryPoint = "lua_getmetatable")]
    [SuppressGCTransition]
    public static partial int GetMetatable(nint L, int index);

    [LibraryImport(Library, EntryPoint = "lua_dump")]
    public static partial int Dump(nint L, delegate* unmanaged[Cdecl]<nint, byte*, nuint, nint, int> writer, nint data, int strip);

    [LibraryImport(Library, EntryPoint = "lua_next")]
    [SuppressGCTransition]
    public static partial int Next(nint L, int index);

    [LibraryImport(Library, EntryPoint = "lua_setupvalue")]
    [SuppressGCTransition]
    public static partial byte* SetUpvalue(nint L, int function, int n);

    [LibraryImport(Library, EntryPoint = "lua_pcallk")]
    public static partial int PCallK(nint L, int args, int results, int messageHandler, nint context, nint continuation);

    [LibraryImport(Library, EntryPoint = "lua_newthread")]
    public static partial nint NewThread(nint L);

    [LibraryImport(Library, EntryPoint = "lua_resume")]
    public static partial int Resume(nint L, nint from, int args, out int results);

    [LibraryImport(Library, EntryPoint = "lua_closethread")]
    public static partial int CloseThread(nint L, nint from);

    [LibraryImport(Library, EntryPoint = "lua_xmove")]
    [SuppressGCTransition]
    public static partial void XMove(nint from, nint to, int n);

    [LibraryImport(Library, EntryPoint = "lua_sethook")]
    public static partial void SetHook(nint L, delegate* unmanaged[Cdecl]<nint, nint, void> hook, int mask, int count);

    [LibraryImport(Library, EntryPoint = "lua_yieldk")]
    public static partial int YieldK(nint L, int results, nint context, nint continuation);

    [LibraryImport(Library, EntryPoint = "lua_isyieldable")]
    [SuppressGCTransition]
    public static partial int IsYieldable(nint L);

    [LibraryImport(Library, EntryPoint = "lua_getstack")]
    [SuppressGCTransition]
    public static partial int GetStack(nint L, int level, byte* debug);

    [LibraryImport(Library, EntryPoint = "lua_getinfo")]
    [SuppressGCTransition]
    public static partial int GetInfo(nint L, byte* what, byte* debug);

    /// <summary>Pushes the value of local <paramref name="n"/> of the frame <paramref name="debug"/> describes and returns its name, or returns null (pushing nothing).</summary>
    [LibraryImport(Library, EntryPoint = "lua_getlocal")]
    [SuppressGCTransition]
    public static partial byte* GetLocal(nint L, byte* debug, int n);

    /// <summary>The address a function, table, thread or userdata value has (for the debugger's dumps).</summary>
    [LibraryImport(Library, EntryPoint = "lua_topointer")]
    [SuppressGCTransition]
    public static partial nint ToPointer(nint L, int index);

    [LibraryImport(Library, EntryPoint = "luaL_loadbufferx")]
    public static partial int LoadBufferX(nint L, byte* buffer, nuint size, byte* name, byte* mode);

    [LibraryImport(Library, EntryPoint = "luaL_ref")]
    [SuppressGCTransition]
    public static partial int Ref(nint L, int table);

    [LibraryImport(Library, EntryPoint = "luaL_unref")]
    [SuppressGCTransition]
    public static partial void Unref(nint L, int table, int reference);

    [LibraryImport(Library, EntryPoint = "luaL_openlibs")]
    public static partial void OpenLibs(nint L);

    [LibraryImport(Library, EntryPoint = "lua_gc")]
    public static partial int GarbageCollect(nint L, int what, int data);

    public static void Pop(nint L, int n) => SetTop(L, -n - 1);

    public static void Insert(nint L, int index) => Rotate(L, index, 1);

    public static void Replace(nint L, int index)
    {
        Copy(L, -1, index);
        Pop(L, 1);
    }

    public static void PushBytes(nint L, ReadOnlySpan<byte> bytes)
    {
        fixed (byte* p = bytes)
            PushLString(L, p, (nuint)bytes.Length);
    }

    /// <summary>The string at <paramref name="index"/> (numbers are converted in place), or an empty span for other types.</summary>
    public static ReadOnlySpan<byte> ToSpan(nint L, int index)
    {
        nuint length;
        byte* p = ToLString(L, index, &length);
        return p == null ? ReadOnlySpan<byte>.Empty : new ReadOnlySpan<byte>(p, (int)length);
    }

    /// <summary>The pointer-sized extra space before each state (copied to new threads): the runner's handle.</summary>
    public static ref nint ExtraSpace(nint L) => ref *(nint*)(L - sizeof(nint));
}
