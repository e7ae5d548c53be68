namespace Garnet.server.Scripting;

/// <summary>
/// The Lua side of the scripting environment, run once per Lua state with the full standard
/// libraries. It builds the sandbox scripts see: a read-only global table (assigning a global fails
/// as in Redis 7, reading a missing one fails too), read-only library tables, no io/os (but
/// os.clock)/package/debug/dofile/loadfile/print, text-only loadstring, and the redis, bit and cjson
/// libraries, plus struct and cmsgpack.
/// Errors are raised here in Lua (never from C# callbacks, see <see cref="LuaNative"/>).
/// It returns the globals table (where the runner sets KEYS and ARGV) and the read-only environment
/// proxy: the _ENV of loaded chunks and of scripts that assign globals or use _ENV itself (scripts
/// that only read globals get the globals table, see <see cref="LuaBytecode"/>); then, for function
/// libraries, their environment and the two functions that begin and end loading one (while a
/// library loads, its globals are only the load-time redis API with register_function).
/// </summary>
internal static class LuaPrelude
{
    public const string Source = """
local rcall, sha1hex, setresp, armhook, null, version, versionnum, ldb = ...

local error, type, select, tostring, tonumber, setmetatable, getmetatable, rawset, rawget, rawequal, pairs, next =
      error, type, select, tostring, tonumber, setmetatable, getmetatable, rawset, rawget, rawequal, pairs, next
local sfmt, sbyte, schar, ssub, sfind, sgsub, srep = string.format, string.byte, string.char, string.sub, string.find, string.gsub, string.rep
local tconcat, mtype, mtointeger, mfloor, huge = table.concat, math.type, math.tointeger, math.floor, math.huge
local utf8char = utf8.char
local realload = load

local protected = setmetatable({}, { __mode = 'k' })

-- Almost everything a script allocates (KEYS and ARGV strings, replies) dies with the run: the
-- generational collector frees it in cheap minor collections (a few percent of a short script).
collectgarbage('generational')

local function readonly_error() error("Attempt to modify a readonly table", 2) end

-- A read-only view of t: reads go to t, writes fail, pairs walks t, the metatable is hidden.
local function readonly(t)
  local proxy = {}
  setmetatable(proxy, {
    __index = t,
    __newindex = readonly_error,
    __pairs = function() return function(_, k) return next(t, k) end, proxy, nil end,
    __len = function() return #t end,
    __metatable = false,
  })
  protected[proxy] = true
  return proxy
end

-- The string metatable stays (for s:upper()) but scripts cannot reach or change it.
getmetatable('').__metatable = false

local G = {}

------------------------------------------------------------------------------------------------
-- bit (LuaBitOp semantics: results are signed 32-bit integers)
------------------------------------------------------------------------------------------------
local bit = {}
local function tobit(x)
  local n = mtointeger(x)
  if n == nil then
    if type(x) ~= 'number' then
      x = tonumber(x)
      if x == nil then error("bad argument to bit operation (number expected)", 3) end
      n = mtointeger(x)
    end
    if n == nil then
      if x ~= x or x == huge or x == -huge then return 0 end
      n = mfloor(x + 0.5)
      n = mtointeger(n) or 0
    end
  end
  n = n & 0xFFFFFFFF
  if n >= 0x80000000 then n = n - 0x100000000 end
  return n
end
bit.tobit = function(x) return tobit(x) end
bit.bnot = function(x) return tobit(~tobit(x)) end
bit.band = function(x, ...) local r = tobit(x) for i = 1, select('#', ...) do r = r & tobit((select(i, ...))) end return tobit(r) end
bit.bor = function(x, ...) local r = tobit(x) for i = 1, select('#', ...) do r = r | tobit((select(i, ...))) end return tobit(r) end
bit.bxor = function(x, ...) local r = tobit(x) for i = 1, select('#', ...) do r = r ~ tobit((select(i, ...))) end return tobit(r) end
bit.lshift = function(x, n) return tobit((tobit(x) & 0xFFFFFFFF) << (tobit(n) & 31)) end
bit.rshift = function(x, n) return tobit((tobit(x) & 0xFFFFFFFF) >> (tobit(n) & 31)) end
bit.arshift = function(x, n)
  local v, s = tobit(x), tobit(n) & 31
  if v >= 0 then return tobit(v >> s) end
  return tobit(~((~v) >> s))
end
bit.rol = function(x, n)
  local v, s = tobit(x) & 0xFFFFFFFF, tobit(n) & 31
  return tobit((v << s) | (v >> (32 - s)))
end
bit.ror = function(x, n)
  local v, s = tobit(x) & 0xFFFFFFFF, tobit(n) & 31
  return tobit((v >> s) | (v << (32 - s)))
end
bit.bswap = function(x)
  local v = tobit(x) & 0xFFFFFFFF
  return tobit(((v & 0xFF) << 24) | ((v & 0xFF00) << 8) | ((v >> 8) & 0xFF00) | (v >> 24))
end
bit.tohex = function(x, n)
  local v = tobit(x) & 0xFFFFFFFF
  n = n == nil and 8 or tobit(n)
  local upper = false
  if n < 0 then upper = true; n = -n end
  if n > 8 then n = 8 end
  local s = sfmt(upper and '%08X' or '%08x', v)
  return ssub(s, 9 - n)
end

------------------------------------------------------------------------------------------------
-- cjson
------------------------------------------------------------------------------------------------
local cjson = { null = null }
local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['/'] = '\\/', ['\b'] = '\\b', ['\f'] = '\\f', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
local function escape_char(c) return escapes[c] or sfmt('\\u%04x', sbyte(c)) end
local function encode_number(x)
  if mtype(x) == 'integer' then return sfmt('%d', x) end
  if x ~= x or x == huge or x == -huge then error("Cannot serialise number: must not be NaN or Inf", 0) end
  local i = mtointeger(x)
  if i and i > -1e14 and i < 1e14 then return sfmt('%d', i) end
  return sfmt('%.14g', x)
end
local encode_value
local function encode_table(t, depth, buf)
  if depth > 1000 then error("Cannot serialise, excessive nesting (" .. depth .. ")", 0) end
  local max, items, isarray = 0, 0, true
  for k in next, t do
    if type(k) == 'number' and k > 0 and mtointeger(k) then
      if k > max then max = k end
      items = items + 1
    else
      isarray = false
      break
    end
  end
  if isarray and items > 0 then
    if max > items * 2 and max > 10 then error("Cannot serialise table: excessively sparse array", 0) end
    buf[#buf + 1] = '['
    for i = 1, max do
      if i > 1 then buf[#buf + 1] = ',' end
      encode_value(rawget(t, i), depth + 1, buf)
    end
    buf[#buf + 1] = ']'
    return
  end
  buf[#buf + 1] = '{'
  local first = true
  for k, v in next, t do
    local tk = type(k)
    local key
    if tk == 'string' then key = k
    elseif tk == 'number' then key = encode_number(k)
    else error("Cannot serialise table: table key must be a number or string", 0) end
    if not first then buf[#buf + 1] = ',' end
    first = false
    buf[#buf + 1] = '"' .. (sgsub(key, '[%c"\\/]', escape_char)) .. '":'
    encode_value(v, depth + 1, buf)
  end
  buf[#buf + 1] = '}'
end
encode_value = function(v, depth, buf)
  local tv = type(v)
  if tv == 'string' then buf[#buf + 1] = '"' .. (sgsub(v, '[%c"\\/]', escape_char)) .. '"'
  elseif tv == 'number' then buf[#buf + 1] = encode_number(v)
  elseif tv == 'boolean' then buf[#buf + 1] = v and 'true' or 'false'
  elseif tv == 'nil' or rawequal(v, null) then buf[#buf + 1] = 'null'
  elseif tv == 'table' then encode_table(v, depth, buf)
  else error("Cannot serialise " .. tv .. ": type not supported", 0) end
end
cjson.encode = function(...)
  armhook()
  if select('#', ...) ~= 1 then error("bad argument #1 to 'encode' (expected 1 argument)", 0) end
  local buf = {}
  encode_value((...), 1, buf)
  return tconcat(buf)
end

local function decode_fail(expected, s, i)
  local found
  if i > #s then found = 'T_END'
  else
    local c = ssub(s, i, i)
    if c == '{' then found = 'T_OBJ_BEGIN' elseif c == '}' then found = 'T_OBJ_END'
    elseif c == '[' then found = 'T_ARR_BEGIN' elseif c == ']' then found = 'T_ARR_END'
    elseif c == ',' then found = 'T_COMMA' elseif c == ':' then found = 'T_COLON'
    elseif c == '"' then found = 'T_STRING' else found = 'invalid token' end
  end
  error("Expected " .. expected .. " but found " .. found .. " at character " .. i, 0)
end
local function skip(s, i) return sfind(s, '[^ \t\r\n]', i) or #s + 1 end
local unescapes = { b = '\b', f = '\f', n = '\n', r = '\r', t = '\t', ['"'] = '"', ['\\'] = '\\', ['/'] = '/' }
local function decode_string(s, i)
  local out, j = {}, i + 1
  while true do
    local k = sfind(s, '["\\]', j)
    if not k then decode_fail('value', s, i) end
    out[#out + 1] = ssub(s, j, k - 1)
    if sbyte(s, k) == 34 then return tconcat(out), k + 1 end
    local c = ssub(s, k + 1, k + 1)
    if c == 'u' then
      local cp = tonumber(ssub(s, k + 2, k + 5), 16)
      if not cp or #ssub(s, k + 2, k + 5) ~= 4 then decode_fail('value', s, i) end
      j = k + 6
      if cp >= 0xD800 and cp <= 0xDBFF and ssub(s, j, j + 1) == '\\u' then
        local low = tonumber(ssub(s, j + 2, j + 5), 16)
        if low and low >= 0xDC00 and low <= 0xDFFF then
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)
          j = j + 6
        end
      end
      out[#out + 1] = utf8char(cp)
    elseif unescapes[c] then
      out[#out + 1] = unescapes[c]
      j = k + 2
    else
      decode_fail('value', s, i)
    end
  end
end
local decode_value
decode_value = function(s, i, depth)
  i = skip(s, i)
  local c = ssub(s, i, i)
  if c == '{' then
    if depth > 1000 then error("Found too many nested data structures (" .. depth .. ") at character " .. i, 0) end
    local t = {}
    i = skip(s, i + 1)
    if ssub(s, i, i) == '}' then return t, i + 1 end
    while true do
      if ssub(s, i, i) ~= '"' then decode_fail('object key string', s, i) end
      local k
      k, i = decode_string(s, i)
      i = skip(s, i)
      if ssub(s, i, i) ~= ':' then decode_fail('colon', s, i) end
      local v
      v, i = decode_value(s, i + 1, depth + 1)
      t[k] = v
      i = skip(s, i)
      local d = ssub(s, i, i)
      if d == '}' then return t, i + 1 end
      if d ~= ',' then decode_fail('comma or object end', s, i) end
      i = skip(s, i + 1)
    end
  elseif c == '[' then
    if depth > 1000 then error("Found too many nested data structures (" .. depth .. ") at character " .. i, 0) end
    local t, n = {}, 0
    i = skip(s, i + 1)
    if ssub(s, i, i) == ']' then return t, i + 1 end
    while true do
      local v
      v, i = decode_value(s, i, depth + 1)
      n = n + 1
      t[n] = v
      i = skip(s, i)
      local d = ssub(s, i, i)
      if d == ']' then return t, i + 1 end
      if d ~= ',' then decode_fail('comma or array end', s, i) end
      i = i + 1
    end
  elseif c == '"' then
    return decode_string(s, i)
  elseif ssub(s, i, i + 3) == 'true' then return true, i + 4
  elseif ssub(s, i, i + 4) == 'false' then return false, i + 5
  elseif ssub(s, i, i + 3) == 'null' then return null, i + 4
  else
    local e = select(2, sfind(s, '^-?%d+%.?%d*[eE]?[-+]?%d*', i))
    if e then
      local text = ssub(s, i, e)
      local n = tonumber(text)
      if n then
        if not sfind(text, '[.eE]') then n = mtointeger(n) or n end
        return n, e + 1
      end
    end
    decode_fail('value', s, i)
  end
end
cjson.decode = function(...)
  armhook()
  if select('#', ...) ~= 1 then error("bad argument #1 to 'decode' (expected 1 argument)", 0) end
  local s = ...
  if type(s) ~= 'string' then error("bad argument #1 to 'decode' (string expected, got " .. type(s) .. ")", 0) end
  local v, i = decode_value(s, 1, 1)
  i = skip(s, i)
  if i <= #s then decode_fail('the end', s, i) end
  return v
end
cjson.encode_keep_buffer = function() return true end
cjson.encode_max_depth = function() return 1000 end
cjson.decode_max_depth = function() return 1000 end
cjson.encode_number_precision = function() return 14 end
cjson.encode_sparse_array = function() return false, 2, 10 end
cjson.encode_invalid_numbers = function() return false end
cjson.decode_invalid_numbers = function() return true end

------------------------------------------------------------------------------------------------
-- struct (pack, unpack, size) over string.pack: the formats match but for 's' (zero-terminated), 'z' here.
------------------------------------------------------------------------------------------------
local spack, sunpack, spacksize = string.pack, string.unpack, string.packsize
local function struct_format(fmt)
  if type(fmt) ~= 'string' then error("bad argument #1 to 'struct' (string expected)", 0) end
  return (sgsub(fmt, 's', 'z'))
end
local struct = {
  pack = function(fmt, ...) return spack(struct_format(fmt), ...) end,
  unpack = function(fmt, s, pos) return sunpack(struct_format(fmt), s, pos) end,
  size = function(fmt) return spacksize(struct_format(fmt)) end,
}

------------------------------------------------------------------------------------------------
-- cmsgpack (pack, unpack): MessagePack as lua-cmsgpack writes and reads it.
------------------------------------------------------------------------------------------------
local cmsgpack = {}
local mp_encode
local function mp_table(t, buf, depth)
  if depth > 16 then buf[#buf + 1] = '\xc0' return end
  local n, isarray = 0, true
  for k in next, t do
    n = n + 1
    if type(k) ~= 'number' or k ~= n and not (mtointeger(k) and k > 0) then isarray = false end
  end
  if isarray then for i = 1, n do if rawget(t, i) == nil then isarray = false break end end end
  if isarray then
    if n < 16 then buf[#buf + 1] = schar(0x90 + n) elseif n < 65536 then buf[#buf + 1] = spack('>BI2', 0xdc, n) else buf[#buf + 1] = spack('>BI4', 0xdd, n) end
    for i = 1, n do mp_encode(rawget(t, i), buf, depth + 1) end
  else
    if n < 16 then buf[#buf + 1] = schar(0x80 + n) elseif n < 65536 then buf[#buf + 1] = spack('>BI2', 0xde, n) else buf[#buf + 1] = spack('>BI4', 0xdf, n) end
    for k, v in next, t do mp_encode(k, buf, depth + 1) mp_encode(v, buf, depth + 1) end
  end
end
mp_encode = function(v, buf, depth)
  local tv = type(v)
  if tv == 'nil' then buf[#buf + 1] = '\xc0'
  elseif tv == 'boolean' then buf[#buf + 1] = v and '\xc3' or '\xc2'
  elseif tv == 'number' then
    local i = mtointeger(v)
    if i then
      if i >= 0 then
        if i < 128 then buf[#buf + 1] = schar(i)
        elseif i < 256 then buf[#buf + 1] = spack('>BB', 0xcc, i)
        elseif i < 65536 then buf[#buf + 1] = spack('>BI2', 0xcd, i)
        elseif i < 4294967296 then buf[#buf + 1] = spack('>BI4', 0xce, i)
        else buf[#buf + 1] = spack('>BI8', 0xcf, i) end
      else
        if i >= -32 then buf[#buf + 1] = spack('>b', i)
        elseif i >= -128 then buf[#buf + 1] = spack('>Bb', 0xd0, i)
        elseif i >= -32768 then buf[#buf + 1] = spack('>Bi2', 0xd1, i)
        elseif i >= -2147483648 then buf[#buf + 1] = spack('>Bi4', 0xd2, i)
        else buf[#buf + 1] = spack('>Bi8', 0xd3, i) end
      end
    elseif sunpack('>f', spack('>f', v)) == v then buf[#buf + 1] = spack('>Bf', 0xca, v)
    else buf[#buf + 1] = spack('>Bd', 0xcb, v) end
  elseif tv == 'string' then
    local n = #v
    if n < 32 then buf[#buf + 1] = schar(0xa0 + n)
    elseif n < 256 then buf[#buf + 1] = spack('>BB', 0xd9, n)
    elseif n < 65536 then buf[#buf + 1] = spack('>BI2', 0xda, n)
    else buf[#buf + 1] = spack('>BI4', 0xdb, n) end
    buf[#buf + 1] = v
  elseif tv == 'table' then mp_table(v, buf, depth)
  else buf[#buf + 1] = '\xc0' end
end
cmsgpack.pack = function(...)
  armhook()
  local n = select('#', ...)
  if n == 0 then error("MessagePack pack needs input.", 0) end
  local buf = {}
  for i = 1, n do mp_encode((select(i, ...)), buf, 1) end
  return tconcat(buf)
end
local mp_decode
local function mp_items(s, i, n, map)
  local t = {}
  for j = 1, n do
    if map then local k, v k, i = mp_decode(s, i) v, i = mp_decode(s, i) if k ~= nil then t[k] = v end
    else t[j], i = mp_decode(s, i) end
  end
  return t, i
end
mp_decode = function(s, i)
  local c = sbyte(s, i)
  if c == nil then error("Missing bytes in input.", 0) end
  i = i + 1
  if c < 0x80 then return c, i
  elseif c < 0x90 then return mp_items(s, i, c - 0x80, true)
  elseif c < 0xa0 then return mp_items(s, i, c - 0x90, false)
  elseif c < 0xc0 then local n = c - 0xa0 return ssub(s, i, i + n - 1), i + n
  elseif c >= 0xe0 then return c - 256, i
  elseif c == 0xc0 then return nil, i
  elseif c == 0xc2 then return false, i
  elseif c == 0xc3 then return true, i
  elseif c == 0xca then return sunpack('>f', s, i)
  elseif c == 0xcb then return sunpack('>d', s, i)
  elseif c == 0xcc then return sunpack('>B', s, i)
  elseif c == 0xcd then return sunpack('>I2', s, i)
  elseif c == 0xce then return sunpack('>I4', s, i)
  elseif c == 0xcf then return sunpack('>i8', s, i)
  elseif c == 0xd0 then return sunpack('>b', s, i)
  elseif c == 0xd1 then return sunpack('>i2', s, i)
  elseif c == 0xd2 then return sunpack('>i4', s, i)
  elseif c == 0xd3 then return sunpack('>i8', s, i)
  elseif c == 0xd9 or c == 0xc4 then local n n, i = sunpack('>B', s, i) return ssub(s, i, i + n - 1), i + n
  elseif c == 0xda or c == 0xc5 then local n n, i = sunpack('>I2', s, i) return ssub(s, i, i + n - 1), i + n
  elseif c == 0xdb or c == 0xc6 then local n n, i = sunpack('>I4', s, i) return ssub(s, i, i + n - 1), i + n
  elseif c == 0xdc then local n n, i = sunpack('>I2', s, i) return mp_items(s, i, n, false)
  elseif c == 0xdd then local n n, i = sunpack('>I4', s, i) return mp_items(s, i, n, false)
  elseif c == 0xde then local n n, i = sunpack('>I2', s, i) return mp_items(s, i, n, true)
  elseif c == 0xdf then local n n, i = sunpack('>I4', s, i) return mp_items(s, i, n, true)
  end
  error("Bad data format in input.", 0)
end
cmsgpack.unpack = function(s)
  armhook()
  if type(s) ~= 'string' then error("bad argument #1 to 'unpack' (string expected)", 0) end
  local out, n, i = {}, 0, 1
  while i <= #s do
    n = n + 1
    out[n], i = mp_decode(s, i)
  end
  return table.unpack(out, 1, n)
end

------------------------------------------------------------------------------------------------
-- redis
------------------------------------------------------------------------------------------------
local redis = {}
local function err_table(msg) return { err = msg } end
-- Redis's rule for error text: "-CODE msg" keeps its code, anything else gets "ERR ".
local function to_error_text(s)
  if ssub(s, 1, 1) ~= '-' then s = '-' .. s end
  local space = sfind(s, ' ', 1, true)
  local code, msg
  if space then code, msg = ssub(s, 2, space - 1), ssub(s, space + 1) else code, msg = 'ERR', ssub(s, 2) end
  msg = sgsub(msg, '[\r\n]+$', '')
  return code .. ' ' .. msg
end

-- redis.call and redis.pcall raise errors from Lua (the C# side only returns them): rcall returns the
-- reply, plus 1 when it is an error reply (call raises it) or 2 when the call itself was invalid
-- (both raise). Scripts are compiled without tail calls (LuaRunner), so "return redis.call(...)"
-- keeps the script's frame and the error its line.
redis.call = function(...)
  local r, raise = rcall(...)
  if raise then error(r, 0) end
  return r
end
redis.pcall = function(...)
  local r, raise = rcall(...)
  if raise == 2 then error(r, 0) end
  return r
end
redis.error_reply = function(...)
  local s = ...
  if select('#', ...) ~= 1 or type(s) ~= 'string' then return err_table('ERR wrong number or type of arguments') end
  return err_table(to_error_text(s))
end
redis.status_reply = function(...)
  local s = ...
  if select('#', ...) ~= 1 or type(s) ~= 'string' then return err_table('ERR wrong number or type of arguments') end
  return { ok = s }
end
redis.sha1hex = function(...)
  if select('#', ...) ~= 1 then error(err_table('ERR wrong number of arguments'), 0) end
  local s = ...
  if type(s) == 'number' then s = tostring(s) elseif type(s) ~= 'string' then s = '' end
  return sha1hex(s)
end
redis.LOG_DEBUG, redis.LOG_VERBOSE, redis.LOG_NOTICE, redis.LOG_WARNING = 0, 1, 2, 3
redis.log = function(...)
  local n = select('#', ...)
  if n < 2 then error(err_table('ERR redis.log() requires two arguments or more.'), 0) end
  local level = ...
  if type(level) ~= 'number' then error(err_table('ERR First argument must be a number (log level).'), 0) end
  if level < 0 or level > 3 then error(err_table('ERR Invalid debug level.'), 0) end
  -- The server has no log sink for scripts yet: the message is checked and dropped.
end
redis.setresp = function(...)
  if select('#', ...) ~= 1 then error(err_table('ERR redis.setresp() requires one argument.'), 0) end
  local v = ...
  if v ~= 2 and v ~= 3 then error(err_table('ERR RESP version must be 2 or 3.'), 0) end
  setresp(v)
end
redis.REPL_NONE, redis.REPL_AOF, redis.REPL_SLAVE, redis.REPL_REPLICA, redis.REPL_ALL = 0, 1, 2, 2, 3
redis.set_repl = function(...)
  if select('#', ...) ~= 1 then error(err_table('ERR redis.set_repl() requires one argument.'), 0) end
  local v = ...
  if type(v) ~= 'number' or v < 0 or v > 3 then error(err_table('ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.'), 0) end
end
redis.replicate_commands = function() return true end
-- The Lua debugger's hooks (SCRIPT DEBUG): ldb(1, ...) logs the values, ldb(2) stops at the next line; outside a
-- debugging session they do nothing (breakpoint returns false).
redis.breakpoint = function() return ldb(2) end
redis.debug = function(...) ldb(1, ...) end
redis.REDIS_VERSION = version
redis.REDIS_VERSION_NUM = versionnum

------------------------------------------------------------------------------------------------
-- The sandboxed globals.
------------------------------------------------------------------------------------------------
local env

for _, name in ipairs({ 'assert', 'error', 'ipairs', 'next', 'pairs', 'pcall', 'rawequal', 'rawget', 'rawlen',
                         'select', 'tonumber', 'tostring', 'type', 'xpcall', 'collectgarbage' }) do
  G[name] = _G[name]
end
G._VERSION = _VERSION
G.unpack = table.unpack
G.rawset = function(t, k, v)
  if protected[t] then error("Attempt to modify a readonly table", 2) end
  return rawset(t, k, v)
end
-- A metatable's __gc is ignored, as Lua 5.1 (Redis's) ignores it for tables: a finalizer would run
-- script code inside the runner's native calls (see LuaNative), where it must not.
G.setmetatable = function(t, mt)
  if protected[t] then error("Attempt to modify a readonly table", 2) end
  local gc = type(mt) == 'table' and rawget(mt, '__gc') or nil
  if gc == nil then return setmetatable(t, mt) end
  rawset(mt, '__gc', nil)
  local ok, r = pcall(setmetatable, t, mt)
  rawset(mt, '__gc', gc)
  if not ok then error(r, 0) end
  return r
end
G.getmetatable = getmetatable
-- Scripts that cannot loop run without the instruction-count hook (LuaRunner): code loaded at run
-- time, and the library functions here that loop over their input (cjson, cmsgpack), turn it on.
local function hooked(f)
  return function(...)
    armhook()
    return f(...)
  end
end
-- Only source text loads (no bytecode), into the sandbox.
G.loadstring = function(s, name)
  if type(s) ~= 'string' then return nil, 'loadstring expects a string' end
  local f, e = realload(s, name or s, 't', env)
  if f == nil then return nil, e end
  return hooked(f)
end
G.load = function(s, name)
  if type(s) ~= 'string' then return nil, 'load expects a string' end
  local f, e = realload(s, name or '=(load)', 't', env)
  if f == nil then return nil, e end
  return hooked(f)
end
G.string = readonly(string)
G.table = readonly(table)
G.math = readonly(math)
G.coroutine = readonly(coroutine)
G.os = readonly({ clock = os.clock })
G.bit = readonly(bit)
G.cjson = readonly(cjson)
G.struct = readonly(struct)
G.cmsgpack = readonly(cmsgpack)
G.redis = readonly(redis)

-- Scripts that never assign a global nor use _ENV read the globals from G itself (LuaRunner);
-- all others, and loaded chunks, get the read-only proxy env.
-- Level 2: the error points at the script's line that read the global (also through a tail call).
local function missing_global(_, k)
  error("Script attempted to access nonexistent global variable '" .. tostring(k) .. "'", 2)
end

setmetatable(G, {
  __index = missing_global,
  __newindex = readonly_error,
  __metatable = false,
})

env = setmetatable({}, {
  __index = G,
  __newindex = readonly_error,
  __pairs = function() return function(_, k) return next(G, k) end, env, nil end,
  __metatable = false,
})
protected[env] = true
rawset(G, '_G', env)

------------------------------------------------------------------------------------------------
-- Function libraries (FUNCTION LOAD, FCALL). Library code runs in its own environment, fenv. While
-- it loads (begin_load .. end_load), its only global is a `redis` that registers functions, logs and
-- tells the version; afterwards its functions see the scripts' globals except KEYS and ARGV (they
-- get their keys and arguments as parameters).
------------------------------------------------------------------------------------------------
local slower = string.lower

-- The functions' globals: G as the prelude built it (KEYS and ARGV are added to G later).
local FG = {}
for k, v in next, G do FG[k] = v end
setmetatable(FG, { __index = missing_global, __newindex = readonly_error, __metatable = false })

local fenv_meta = { __index = FG, __newindex = readonly_error, __metatable = false }
local fenv = setmetatable({}, fenv_meta)
fenv_meta.__pairs = function() return function(_, k) return next(FG, k) end, fenv, nil end
protected[fenv] = true
rawset(FG, '_G', fenv)

local registered, registered_names -- while a library loads: its registrations, and their names in lower case
local flag_bits = { ['no-writes'] = 1, ['allow-oom'] = 2, ['allow-stale'] = 4, ['no-cluster'] = 8, ['allow-cross-slot-keys'] = 16 }

local function register_fail(msg) error(err_table('ERR ' .. msg), 0) end
local function is_text(v) local t = type(v) return t == 'string' or t == 'number' end

-- The flags table's array part as bits, or nil for an unknown flag.
local function flags_of(t)
  local bits, i = 0, 1
  while true do
    local v = t[i]
    if v == nil then return bits end
    if not is_text(v) then return nil end
    local b = flag_bits[slower(tostring(v))]
    if b == nil then return nil end
    bits = bits | b
    i = i + 1
  end
end

local load_api = {}
-- redis.register_function(name, callback) or redis.register_function{function_name=, callback=, flags=, description=}
load_api.register_function = function(...)
  if registered == nil then register_fail('redis.register_function can only be called on FUNCTION LOAD command') end
  local n = select('#', ...)
  if n < 1 or n > 2 then register_fail('wrong number of arguments to redis.register_function') end
  local name, callback, flags, description
  if n == 1 then
    local named = ...
    if type(named) ~= 'table' then
      register_fail('calling redis.register_function with a single argument is only applicable to Lua table (representing named arguments).')
    end
    for k, v in next, named do
      if not is_text(k) then register_fail('named argument key given to redis.register_function is not a string') end
      local key = slower(tostring(k))
      if key == 'function_name' then
        if not is_text(v) then register_fail('function_name argument given to redis.register_function must be a string') end
        name = tostring(v)
      elseif key == 'description' then
        if not is_text(v) then register_fail('description argument given to redis.register_function must be a string') end
        description = tostring(v)
      elseif key == 'callback' then
        if type(v) ~= 'function' then register_fail('callback argument given to redis.register_function must be a function') end
        callback = v
      elseif key == 'flags' then
        if type(v) ~= 'table' then register_fail('flags argument to redis.register_function must be a table representing function flags') end
        flags = flags_of(v)
        if flags == nil then register_fail('unknown flag given') end
      else
        register_fail('unknown argument given to redis.register_function')
      end
    end
    if name == nil then register_fail('redis.register_function must get a function name argument') end
    if callback == nil then register_fail('redis.register_function must get a callback argument') end
  else
    name, callback = ...
    if not is_text(name) then register_fail('first argument to redis.register_function must be a string') end
    name = tostring(name)
    if type(callback) ~= 'function' then register_fail('second argument to redis.register_function must be a function') end
  end
  if not sfind(name, '^[A-Za-z0-9_]+$') then
    register_fail('Function names can only contain letters, numbers, or underscores(_) and must be at least one character long')
  end
  local key = slower(name)
  if registered_names[key] then register_fail('Function already exists in the library') end
  registered_names[key] = true
  registered[#registered + 1] = { name, callback, flags or 0, description }
end
load_api.log = redis.log
load_api.LOG_DEBUG, load_api.LOG_VERBOSE, load_api.LOG_NOTICE, load_api.LOG_WARNING = redis.LOG_DEBUG, redis.LOG_VERBOSE, redis.LOG_NOTICE, redis.LOG_WARNING
load_api.REDIS_VERSION = version
load_api.REDIS_VERSION_NUM = versionnum
-- As in Redis, anything else of redis is missing while loading (redis.call fails there).
local load_redis = setmetatable({}, {
  __index = function(_, k)
    local v = rawget(load_api, k)
    if v == nil then return missing_global(_, k) end
    return v
  end,
  __newindex = readonly_error,
  __metatable = false,
})
protected[load_redis] = true

local function load_index(_, k)
  if k == 'redis' then return load_redis end
  return missing_global(_, k)
end

local function begin_load()
  registered, registered_names = {}, {}
  fenv_meta.__index = load_index
end

-- Ends a load, whether it succeeded or not, and returns what it registered: { name, callback, flags, description } each.
local function end_load()
  local r = registered
  registered, registered_names = nil, nil
  fenv_meta.__index = FG
  return r
end

return G, env, fenv, begin_load, end_load
""";
}
