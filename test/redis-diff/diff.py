#!/usr/bin/env python3
"""Differential tester: this server (default port 7701) vs redis-server (default 7702).

Usage: python3 diff.py [--a PORT] [--b PORT] [--only SUBSTR] [-v]

Sends identical RESP commands to both servers (fresh connection per group,
FLUSHALL at the start of every group) and compares raw replies byte for byte.
Mismatches are classified as GENUINE or ACCEPTABLE (per-test comparison mode).
Standard library only.
"""
import socket, time, sys, shlex, argparse, re

# --------------------------------------------------------------------------
# RESP client
# --------------------------------------------------------------------------

class Timeout(Exception):
    pass


class Closed(Exception):
    pass


class Conn:
    def __init__(self, port, host='127.0.0.1', timeout=2.5):
        self.port = port
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b''
        self.timeout = timeout
        self.closed = False
        self.vars = {}

    def close(self):
        try:
            self.sock.close()
        except Exception:
            pass

    def _fill(self):
        try:
            d = self.sock.recv(65536)
        except socket.timeout:
            raise Timeout()
        except (ConnectionResetError, BrokenPipeError):
            d = b''
        if not d:
            self.closed = True
            raise Closed()
        self.buf += d

    def _line(self):
        while True:
            i = self.buf.find(b'\r\n')
            if i >= 0:
                l = self.buf[:i]
                self.buf = self.buf[i + 2:]
                return l
            self._fill()

    def _n(self, n):
        while len(self.buf) < n:
            self._fill()
        d = self.buf[:n]
        self.buf = self.buf[n:]
        return d

    def read_reply(self):
        raw = []
        tree = self._read(raw)
        return b''.join(raw), tree

    def _read(self, raw):
        line = self._line()
        raw.append(line + b'\r\n')
        if not line:
            return ('?', line)
        t = chr(line[0])
        body = line[1:]
        if t in '+-:,(#_':
            return (t, body)
        if t in '$=!':
            n = int(body)
            if n < 0:
                return (t, None)
            d = self._n(n + 2)
            raw.append(d)
            return (t, d[:-2])
        if t in '*~>%|':
            n = int(body)
            if n < 0:
                return (t, None)
            cnt = n * 2 if t in '%|' else n
            items = [self._read(raw) for _ in range(cnt)]
            if t == '|':
                real = self._read(raw)
                return ('|', (items, real))
            return (t, items)
        return ('?', line)

    def send(self, data):
        try:
            self.sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            self.closed = True
            raise Closed()

    def collect(self, quiet=0.6, maxwait=3.0):
        out = self.buf
        self.buf = b''
        end = time.time() + maxwait
        self.sock.settimeout(quiet)
        closed = False
        while time.time() < end:
            try:
                d = self.sock.recv(65536)
            except socket.timeout:
                break
            except (ConnectionResetError, BrokenPipeError):
                closed = True
                break
            if not d:
                closed = True
                break
            out += d
        self.sock.settimeout(self.timeout)
        self.closed = closed
        return out, closed


def encode(args):
    parts = [b'*%d\r\n' % len(args)]
    for a in args:
        if isinstance(a, str):
            a = a.encode()
        elif isinstance(a, int):
            a = str(a).encode()
        parts.append(b'$%d\r\n%s\r\n' % (len(a), a))
    return b''.join(parts)


def esc(b):
    if b is None:
        return 'None'
    if isinstance(b, str):
        return b
    s = repr(b)
    return s[2:-1] if s.startswith("b'") else s[1:]


def shape(tree):
    t, v = tree
    if t in '*~>%':
        if v is None:
            return t + '-1'
        return (t, tuple(shape(x) for x in v))
    if t == '|':
        return ('|', shape(v[1]))
    if t == '-':
        return ('-', v.split(b' ')[0])
    if t in '$=' and v is None:
        return t + '-1'
    return t


def approx_eq(a, b, tol):
    ta, va = a
    tb, vb = b
    if ta != tb:
        return False
    if ta in '*~>%':
        if va is None or vb is None:
            return va is vb
        return len(va) == len(vb) and all(approx_eq(x, y, tol) for x, y in zip(va, vb))
    if ta in ':(':
        try:
            return abs(int(va) - int(vb)) <= tol
        except ValueError:
            return va == vb
    if ta in '$' and va is not None and vb is not None:
        try:
            return abs(int(va) - int(vb)) <= tol
        except ValueError:
            return va == vb
    return va == vb


def sort_tree(tree):
    t, v = tree
    if t in '*~' and v is not None:
        return (t, sorted([sort_tree(x) for x in v], key=repr))
    return tree


def scan_norm(tree):
    t, v = tree
    if t == '*' and v and len(v) == 2:
        return (t, [v[0], sort_tree(v[1])])
    return tree


def pairs_sorted(tree):
    """CONFIG GET / HGETALL-like flat pair arrays or maps: sort by key."""
    t, v = tree
    if t == '*' and v is not None and len(v) % 2 == 0:
        prs = sorted([(v[i], v[i + 1]) for i in range(0, len(v), 2)], key=repr)
        return (t, [x for p in prs for x in p])
    if t == '%' and v is not None:
        prs = sorted([(v[i], v[i + 1]) for i in range(0, len(v), 2)], key=repr)
        return (t, [x for p in prs for x in p])
    return tree


HELLO_VOLATILE = {b'server', b'version', b'id'}


def cmdinfo_norm(tree):
    """COMMAND INFO: keep name, arity, flags, first/last/step, ACL categories; drop tips, key specs;
    normalize subcommands recursively and sort them."""
    t, v = tree
    if t != '*' or v is None:
        return tree
    out = []
    for e in v:
        if e[0] == '*' and e[1] is not None and len(e[1]) >= 7:
            items = list(e[1][:7])
            items[2] = sort_tree(items[2])
            items[6] = sort_tree(items[6])
            if len(e[1]) >= 10:
                sub = cmdinfo_norm(('*', e[1][9][1]))
                items.append(sort_tree(sub))
            out.append(('*', items))
        else:
            out.append(e)
    return (t, out)


def hello_norm(tree):
    t, v = tree
    if t in '*%' and v is not None and len(v) % 2 == 0:
        out = []
        for i in range(0, len(v), 2):
            k, val = v[i], v[i + 1]
            if k[1] in HELLO_VOLATILE:
                val = ('$', b'<volatile>')
            out += [k, val]
        return (t, out)
    return tree


def client_info_fields(tree):
    t, v = tree
    if t in '$=' and v:
        names = [f.split(b'=')[0] for f in v.strip().split(b' ')]
        return ('$', b' '.join(names))
    return tree

# --------------------------------------------------------------------------
# Test description helpers
# --------------------------------------------------------------------------

class Var:
    """Placeholder for a per-server saved value (e.g. DUMP payload)."""
    def __init__(self, name, fn=None):
        self.name, self.fn = name, fn


class T:
    """One command.
    mode: exact | tol | shape | accept | sorted | scan | pairs | hello | fields | ignore
    """
    def __init__(self, args, mode='exact', tol=1, save=None, raw=None, note='', sleep=0, conn=0, fn=None, nrep=1):
        self.nrep = nrep
        self.conn = conn
        self.fn = fn
        if isinstance(args, str) and raw is None:
            args = shlex.split(args)
        self.args = args
        self.mode = mode
        self.tol = tol
        self.save = save
        self.raw = raw
        self.note = note
        self.sleep = sleep

    def render(self, conn):
        if self.raw is not None:
            return self.raw
        out = []
        for a in self.args:
            if isinstance(a, Var):
                val = conn.vars.get(a.name, b'')
                if a.fn:
                    val = a.fn(val)
                out.append(val)
            else:
                out.append(a)
        return encode(out)

    def label(self):
        pre = '[conn%d] ' % self.conn if self.conn else ''
        return pre + self._label()

    def _label(self):
        if self.fn is not None:
            return 'FN ' + ' '.join(self.args)
        if self.raw is not None:
            return 'RAW ' + esc(self.raw)
        parts = []
        for a in self.args:
            if isinstance(a, Var):
                parts.append('<%s%s>' % (a.name, '*' if a.fn else ''))
            elif isinstance(a, (bytes, str)) and len(a) > 80:
                parts.append("<%r * %d>" % (a[:1], len(a)) if len(set(a)) == 1 else '<%d-byte arg %s...>' % (len(a), esc(a[:20])))
            elif isinstance(a, bytes):
                s = esc(a)
                parts.append('"%s"' % s if (not a or b' ' in a or not a.isascii() or any(c < 33 for c in a)) else s)
            else:
                s = str(a)
                parts.append('"%s"' % s if (s == '' or ' ' in s) else s)
        return ' '.join(parts)


class G:
    def __init__(self, family, name, tests, setup=None):
        self.family, self.name, self.tests = family, name, tests
        self.setup = setup or []


class P:
    """Protocol test: raw payload(s) on a fresh connection; collect output and close state."""
    def __init__(self, name, payload, then=b'*1\r\n$4\r\nPING\r\n', mode='exact', chunk=0):
        self.name, self.payload, self.then, self.mode, self.chunk = name, payload, then, mode, chunk


def now():
    return int(time.time())

# --------------------------------------------------------------------------
# Test definitions
# --------------------------------------------------------------------------

def string_groups():
    F = 'Strings'
    NOW = now()
    gs = []
    gs.append(G(F, 'SET basic/options', [
        T('SET k v'), T('GET k'), T('GET missing'),
        T('SET k v2 NX'), T('GET k'), T('SET k2 v XX'), T('GET k2'),
        T('SET k v3 XX'), T('GET k'), T('SET k3 v NX'), T('GET k3'),
        T('SET k v EX 100'), T('TTL k', 'tol'), T('SET k v PX 100000'), T('PTTL k', 'tol', tol=200),
        T('SET k v EXAT %d' % (NOW + 1000)), T('TTL k', 'tol'), T('EXPIRETIME k', 'tol'),
        T('SET k v PXAT %d' % ((NOW + 1000) * 1000)), T('PEXPIRETIME k', 'tol', tol=1000),
        T('SET k v2 KEEPTTL'), T('TTL k', 'tol'), T('GET k'),
        T('SET k v3'), T('TTL k'),
        T('SET k v4 GET'), T('SET newk v GET'), T('GET newk'),
        T('SET k v5 NX GET'), T('SET nk2 v NX GET'), T('SET k v6 XX GET'), T('SET nk3 v XX GET'),
        T('SET k v EX 100 GET'), T('TTL k', 'tol'),
        T('set K lower-upper'), T('GET K'), T('get k'),
        T('SeT k mixedcase'), T('gEt k'),
        T('SET k v ex 10'), T('SET k v px 10000'), T('SET k v nx'), T('SET k v xx'), T('SET k v keepttl get'),
    ]))
    gs.append(G(F, 'SET errors', [
        T('SET'), T('SET k'), T('SET k v NX XX'), T('SET k v XX NX'),
        T('SET k v EX 0'), T('SET k v EX -1'), T('SET k v EX abc'), T('SET k v EX 1.5'), T('SET k v EX ""'),
        T('SET k v PX 0'), T('SET k v PX -5'), T('SET k v PX 9223372036854775807'),
        T('SET k v EX 9223372036854775807'), T('SET k v EX 9223372036854775808'), T('SET k v EX 9223372036854776'),
        T('SET k v EX 922337203685477'), T('TTL k', 'tol'), T('SET k v EX 92233720368547758'),
        T('SET k v PX 92233720368547758'), T('SET k v EXAT 0'), T('SET k v EXAT -1'), T('SET k v PXAT 0'),
        T('SET k v EXAT 1'), T('EXISTS k'),
        T('SET k v PXAT 1'), T('EXISTS k'), T('SET k v PXAT 9223372036854775807'),
        T('SET k v EX 10 PX 100'), T('SET k v EX 10 EX 10'), T('SET k v EX 10 KEEPTTL'), T('SET k v KEEPTTL PX 10'),
        T('SET k v EXAT 10 PXAT 10'), T('SET k v EX'), T('SET k v PX'), T('SET k v FOO'), T('SET k v GET GET'),
        T('SET k v NX NX'), T('SET k v KEEPTTL KEEPTTL'), T('SET k v EX 10 EX 20'), T('TTL k', 'tol'),
        T('SET k v EX +5'), T('SET k v EX " 5"'), T('SET k v EX 05'), T('SET k v EX 0x10'),
        T('RPUSH list a'), T('SET list v GET'), T('GET list'), T('TYPE list'), T('SET list v'), T('TYPE list'),
        T('RPUSH list2 a'), T('SET list2 v NX GET'), T('SET list2 v XX GET'), T('TYPE list2'),
    ]))
    gs.append(G(F, 'binary/empty', [
        T(['SET', b'', b'']), T(['GET', b'']), T(['STRLEN', b'']), T(['EXISTS', b'']),
        T(['SET', b'a\x00b', b'\x00\x01\x02\xff\r\n']), T(['GET', b'a\x00b']), T(['GET', b'a']),
        T(['STRLEN', b'a\x00b']), T(['APPEND', b'a\x00b', b'\x00']), T(['GET', b'a\x00b']),
        T(['SET', b'\r\n', b'x']), T(['GET', b'\r\n']),
        T(['SET', 'big', b'x' * 100000]), T('STRLEN big'), T('GETRANGE big 99990 -1'),
        T(['SET', 'utf', 'héllo wörld ✓']), T('GET utf'), T('STRLEN utf'), T('GETRANGE utf 1 2'),
        T(['MSET', b'\x00', b'1', b'\x00\x00', b'2']), T(['MGET', b'\x00', b'\x00\x00', b'']),
        T(['INCR', b'\x00']), T(['INCRBYFLOAT', b'\x00\x00', '0.5']),
        T(['SET', 'nulnum', b'1\x00']), T('INCR nulnum'),
    ]))
    gs.append(G(F, 'SETNX/SETEX/PSETEX/GETSET/GETDEL', [
        T('SETNX k v'), T('SETNX k v2'), T('GET k'), T('SETNX k'), T('SETNX k v extra'),
        T('SETEX k 100 v'), T('TTL k', 'tol'), T('GET k'), T('SETEX k 0 v'), T('SETEX k -1 v'), T('SETEX k abc v'),
        T('SETEX k 1.5 v'), T('SETEX k 9223372036854775807 v'), T('SETEX k 100'), T('SETEX k'), T('SETEX k 10 v x'),
        T('PSETEX k 100000 v'), T('PTTL k', 'tol', tol=200), T('PSETEX k 0 v'), T('PSETEX k -1 v'), T('PSETEX k x v'),
        T('PSETEX k 9223372036854775807 v'), T('PSETEX k 1 v'),
        T('SET g 1'), T('GETSET g 2'), T('GET g'), T('GETSET newg x'), T('GET newg'), T('GETSET g'),
        T('SETEX ttlk 100 v'), T('GETSET ttlk x'), T('TTL ttlk'),
        T('RPUSH l a'), T('GETSET l x'), T('GETDEL l'), T('SETNX l v'),
        T('SET d v'), T('GETDEL d'), T('GETDEL d'), T('EXISTS d'), T('GETDEL'), T('GETDEL a b'),
        T('SET rr 1'), T('SETEX rr 10 2'), T('SETNX rr 3'), T('GET rr'),
    ]))
    gs.append(G(F, 'GETEX', [
        T('SET k v'), T('GETEX k'), T('TTL k'), T('GETEX k EX 100'), T('TTL k', 'tol'),
        T('GETEX k PX 200000'), T('PTTL k', 'tol', tol=200), T('GETEX k EXAT %d' % (NOW + 500)), T('TTL k', 'tol'),
        T('GETEX k PXAT %d' % ((NOW + 700) * 1000)), T('TTL k', 'tol'), T('GETEX k PERSIST'), T('TTL k'),
        T('GETEX missing'), T('GETEX missing EX 10'), T('GETEX missing PERSIST'),
        T('GETEX k EX 0'), T('GETEX k EX -1'), T('GETEX k EX abc'), T('GETEX k PX 0'), T('GETEX k EX 10 PX 10'),
        T('GETEX k PERSIST EX 10'), T('GETEX k EX 10 PERSIST'), T('GETEX k FOO'), T('GETEX k EX'), T('GETEX k KEEPTTL'),
        T('GETEX k EX 9223372036854775807'), T('GETEX k PX 9223372036854775807'), T('GETEX k EXAT 0'),
        T('GETEX k EXAT 1'), T('EXISTS k'), T('SET k v'), T('GETEX k PXAT 1'), T('EXISTS k'),
        T('SET k v'), T('GETEX k EX 10 EX 20'), T('TTL k', 'tol'), T('GETEX k PERSIST PERSIST'), T('TTL k'),
        T('GETEX'), T('RPUSH l a'), T('GETEX l'), T('GETEX l EX 10'), T('getex k ex 50'), T('TTL k', 'tol'),
    ]))
    gs.append(G(F, 'MGET/MSET/MSETNX', [
        T('MSET a 1 b 2 c 3'), T('MGET a b c d'), T('MGET a'), T('MGET'), T('MSET'), T('MSET a'),
        T('MSET a 1 b'), T('MSET a 10 a 20'), T('GET a'),
        T('RPUSH l x'), T('MGET a l b'), T('MSET l v'), T('TYPE l'),
        T('MSETNX x 1 y 2'), T('MGET x y'), T('MSETNX x 5 z 6'), T('MGET x z'), T('MSETNX'), T('MSETNX x'),
        T('MSETNX x 1 y'), T('MSETNX n1 1 n1 2'), T('GET n1'),
        T('SETEX t 100 v'), T('MSET t v2'), T('TTL t'),
    ]))
    gs.append(G(F, 'INCR/DECR family', [
        T('INCR n'), T('INCR n'), T('INCRBY n 10'), T('DECR n'), T('DECRBY n 5'), T('GET n'),
        T('INCRBY n -100'), T('DECRBY n -100'), T('GET n'),
        T('SET s abc'), T('INCR s'), T('DECR s'), T('INCRBY s 1'), T('DECRBY s 1'),
        T('SET s " 1"'), T('INCR s'), T('SET s "1 "'), T('INCR s'), T('SET s 01'), T('INCR s'),
        T('SET s +1'), T('INCR s'), T('SET s -0'), T('INCR s'), T('SET s 0'), T('INCR s'),
        T('SET s 1.0'), T('INCR s'), T('SET s ""'), T('INCR s'), T('SET s -'), T('INCR s'),
        T('SET s 9223372036854775807'), T('INCR s'), T('INCRBY s 1'), T('DECR s'), T('GET s'),
        T('SET s -9223372036854775808'), T('DECR s'), T('DECRBY s 1'), T('INCRBY s -1'), T('INCR s'),
        T('SET s 9223372036854775808'), T('INCR s'),
        T('SET s -9223372036854775809'), T('DECR s'),
        T('SET s 0'), T('DECRBY s -9223372036854775808'), T('INCRBY s -9223372036854775808'), T('GET s'),
        T('DECRBY s 9223372036854775807'), T('DECRBY s 2'), T('GET s'),
        T('INCRBY n abc'), T('INCRBY n 1.5'), T('INCRBY n 99999999999999999999'), T('INCRBY n ""'),
        T('INCRBY n'), T('INCRBY'), T('INCR'), T('INCR a b'), T('DECRBY n'), T('DECRBY n x'),
        T('INCRBY n 9223372036854775807'), T('INCRBY n2 9223372036854775807'), T('INCRBY n2 1'),
        T('RPUSH l a'), T('INCR l'), T('DECR l'), T('INCRBY l 1'), T('DECRBY l 1'),
        T('SETEX t 100 5'), T('INCR t'), T('TTL t', 'tol'),
        T(['SET', 'big', '1' * 30]), T('INCR big'),
        T('SET str 12345678901234567890'), T('DECR str'),
    ]))
    gs.append(G(F, 'INCRBYFLOAT', [
        T('INCRBYFLOAT f 1.5'), T('INCRBYFLOAT f 0.1'), T('INCRBYFLOAT f -1.6'), T('GET f'),
        T('SET f 10.5'), T('INCRBYFLOAT f 0.1'), T('INCRBYFLOAT f -5.0e3'), T('INCRBYFLOAT f 3.0e3'),
        T('SET f 0'), T('INCRBYFLOAT f 3.0e3'), T('INCRBYFLOAT f 1e17'), T('INCRBYFLOAT f 1e20'),
        T('SET f 0'), T('INCRBYFLOAT f 1e-20'), T('SET f 0'), T('INCRBYFLOAT f 5.0e-10'),
        T('SET f 0.1'), T('INCRBYFLOAT f 0.2'), T('SET f 1'), T('INCRBYFLOAT f 2'),
        T('SET f 0'), T('INCRBYFLOAT f -0'), T('SET f 0'), T('INCRBYFLOAT f -0.0'),
        T('SET f 1.23456789012345678'), T('INCRBYFLOAT f 0'), T('SET f 3'), T('INCRBYFLOAT f 1.7976931348623157e308'),
        T('INCRBYFLOAT f 1.7976931348623157e308'), T('GET f'),
        T('SET f 1'), T('INCRBYFLOAT f inf'), T('INCRBYFLOAT f -inf'), T('INCRBYFLOAT f +inf'), T('INCRBYFLOAT f nan'),
        T('INCRBYFLOAT f NaN'), T('INCRBYFLOAT f Infinity'), T('INCRBYFLOAT f abc'), T('INCRBYFLOAT f ""'),
        T('INCRBYFLOAT f " 1"'), T('INCRBYFLOAT f "1 "'), T('INCRBYFLOAT f 1e400'), T('INCRBYFLOAT f 0x10'),
        T('INCRBYFLOAT f .5'), T('INCRBYFLOAT f 5.'), T('INCRBYFLOAT f +1'), T('INCRBYFLOAT f 1e'), T('INCRBYFLOAT f 1e+2'),
        T('INCRBYFLOAT f 1E2'), T('GET f'),
        T('SET f inf'), T('INCRBYFLOAT f 1'), T('SET f nan'), T('INCRBYFLOAT f 1'), T('SET f abc'), T('INCRBYFLOAT f 1'),
        T('SET f " 1"'), T('INCRBYFLOAT f 1'), T('SET f 1e3'), T('INCRBYFLOAT f 1'), T('SET f 0x10'), T('INCRBYFLOAT f 1'),
        T('SET f 1.5'), T('INCR f'),
        T('INCRBYFLOAT f'), T('INCRBYFLOAT'), T('INCRBYFLOAT f 1 2'),
        T('RPUSH l a'), T('INCRBYFLOAT l 1'),
        T('SET i 5'), T('INCRBYFLOAT i 0'), T('GET i'), T('INCRBYFLOAT i -5'), T('GET i'),
        T('SET f 100'), T('INCRBYFLOAT f -100.5'), T('SET f 1'), T('INCRBYFLOAT f 1e-5'), T('INCRBYFLOAT f 123456789.123'),
        T('SET f 0'), T('INCRBYFLOAT f 1e-300'), T('INCRBYFLOAT f 1e300'),
        T('SETEX t 100 1.5'), T('INCRBYFLOAT t 1'), T('TTL t', 'tol'),
    ]))
    gs.append(G(F, 'APPEND/STRLEN/GETRANGE/SUBSTR', [
        T('APPEND k hello'), T('APPEND k " world"'), T('GET k'), T('STRLEN k'), T('STRLEN missing'),
        T('APPEND k ""'), T('APPEND e ""'), T('EXISTS e'), T('GET e'), T('APPEND'), T('APPEND k'), T('STRLEN'), T('STRLEN a b'),
        T('SET n 12345'), T('APPEND n 6'), T('GET n'), T('STRLEN n'), T('SET n 100'), T('STRLEN n'),
        T('SET n -100'), T('STRLEN n'),
        T('RPUSH l a'), T('APPEND l x'), T('STRLEN l'), T('GETRANGE l 0 1'),
        T('SET s "This is a string"'),
        T('GETRANGE s 0 3'), T('GETRANGE s -3 -1'), T('GETRANGE s 0 -1'), T('GETRANGE s 10 100'),
        T('GETRANGE s 5 2'), T('GETRANGE s 100 200'), T('GETRANGE s -100 -50'), T('GETRANGE s -100 2'),
        T('GETRANGE s -1 -2'), T('GETRANGE s 0 0'), T('GETRANGE s -1 -1'), T('GETRANGE s 15 15'), T('GETRANGE s 16 16'),
        T('GETRANGE s 3 -100'), T('GETRANGE s -1 0'),
        T('GETRANGE s 0 9223372036854775807'), T('GETRANGE s -9223372036854775808 9223372036854775807'),
        T('GETRANGE s 0 9223372036854775808'), T('GETRANGE s a 1'), T('GETRANGE s 0 b'), T('GETRANGE s 0 1.5'),
        T('GETRANGE missing 0 -1'), T('GETRANGE missing 0 10'), T('GETRANGE s 0'), T('GETRANGE s'), T('GETRANGE s 0 1 2'),
        T('SET es ""'), T('GETRANGE es 0 -1'), T('GETRANGE es 0 0'), T('GETRANGE es -1 -1'),
        T('SET num 1234567'), T('GETRANGE num 2 4'), T('GETRANGE num -2 -1'),
        T('SUBSTR s 0 3'), T('SUBSTR s -3 -1'), T('SUBSTR s 5 2'), T('SUBSTR missing 0 1'), T('SUBSTR s 0'), T('SUBSTR s x y'),
    ]))
    gs.append(G(F, 'SETRANGE', [
        T('SET k "Hello World"'), T('SETRANGE k 6 Redis'), T('GET k'), T('SETRANGE k 20 X'), T('GET k'), T('STRLEN k'),
        T('SETRANGE k -1 x'), T('SETRANGE k abc x'), T('SETRANGE k 1.5 x'), T('SETRANGE k 0'), T('SETRANGE k'),
        T('SETRANGE m 0 ""'), T('EXISTS m'), T('SETRANGE m 100 ""'), T('EXISTS m'), T('SETRANGE m 5 abc'), T('GET m'),
        T('SETRANGE k 0 ""'), T('GET k'), T('SETRANGE k 100 ""'), T('STRLEN k'),
        T('SETRANGE m2 536870912 ""'), T('EXISTS m2'), T('SETRANGE k 536870912 ""'), T('SETRANGE k 9223372036854775807 ""'),
        T('SETRANGE k 536870912 x'), T('SETRANGE k 536870911 xx'),
        T('SETRANGE k 9223372036854775807 x'), T('SETRANGE k 4294967296 x'), T('SETRANGE k 2147483648 x'),
        T('SETRANGE k2 33554400 x'), T('STRLEN k2'), T('DEL k2'),
        T('SETRANGE k 536870911 x'), T('STRLEN k'), T('DEL k'),
        T(['APPEND', 'ap', b'x' * 1000]), T('SET k "Hello World"'),
        T('SETRANGE k -1 ""'),
        T('RPUSH l a'), T('SETRANGE l 0 x'), T('SETRANGE l 0 ""'),
        T('SET n 1234'), T('SETRANGE n 1 9'), T('GET n'), T('INCR n'),
        T(['SETRANGE', 'b', '3', b'\x00\xff']), T(['GET', 'b']),
        T('SETEX t 100 abc'), T('SETRANGE t 1 X'), T('TTL t', 'tol'),
    ]))
    gs.append(G(F, 'LCS', [
        T('MSET key1 ohmytext key2 mynewtext'), T('LCS key1 key2'), T('LCS key1 key2 LEN'), T('LCS key1 key2 IDX'),
        T('LCS key1 key2 IDX MINMATCHLEN 4'), T('LCS key1 key2 IDX WITHMATCHLEN'),
        T('LCS key1 key2 IDX MINMATCHLEN 4 WITHMATCHLEN'), T('LCS key1 key2 IDX WITHMATCHLEN MINMATCHLEN 4'),
        T('LCS key1 key2 LEN IDX'), T('LCS key1 key2 IDX LEN'), T('LCS key1 key2 MINMATCHLEN 4'),
        T('LCS key1 key2 LEN MINMATCHLEN 4'), T('LCS key1 key2 WITHMATCHLEN'),
        T('LCS key1 key2 IDX MINMATCHLEN -1'), T('LCS key1 key2 IDX MINMATCHLEN abc'), T('LCS key1 key2 IDX MINMATCHLEN'),
        T('LCS key1 key2 IDX MINMATCHLEN 0'), T('LCS key1 key2 IDX MINMATCHLEN 100'),
        T('LCS key1 key2 FOO'), T('LCS key1'), T('LCS'), T('LCS key1 missing'), T('LCS missing1 missing2'),
        T('LCS missing1 missing2 LEN'), T('LCS missing1 missing2 IDX'), T('LCS missing1 missing2 IDX WITHMATCHLEN'),
        T('LCS key1 key1'), T('LCS key1 key1 IDX WITHMATCHLEN'),
        T('RPUSH l a'), T('LCS key1 l'), T('LCS l key1'),
        T('MSET a ABCBDAB b BDCABA'), T('LCS a b'), T('LCS a b IDX WITHMATCHLEN'),
        T('MSET e1 "" e2 abc'), T('LCS e1 e2'), T('LCS e1 e2 LEN'), T('LCS e1 e2 IDX'),
        T('MSET x1 abc x2 xyz'), T('LCS x1 x2'), T('LCS x1 x2 IDX'),
        T('lcs key1 key2 len'), T('lcs key1 key2 idx minmatchlen 2 withmatchlen'),
        T('SET n1 12345'), T('SET n2 2345'), T('LCS n1 n2 LEN'),
    ]))
    return gs


def keyspace_groups():
    F = 'Keyspace'
    NOW = now()
    gs = []
    gs.append(G(F, 'DEL/UNLINK/EXISTS/TYPE/TOUCH', [
        T('MSET a 1 b 2 c 3'), T('DEL a'), T('DEL a'), T('DEL b c d'), T('DEL'), T('DEL a a'),
        T('MSET a 1 b 2'), T('UNLINK a b c'), T('UNLINK'),
        T('SET x 1'), T('EXISTS x'), T('EXISTS x x x'), T('EXISTS x y x'), T('EXISTS'), T('EXISTS nope'),
        T('RPUSH l a'), T('SADD s a'), T('HSET h f v'), T('ZADD z 1 a'), T('XADD st 1-1 f v'),
        T('TYPE x'), T('TYPE l'), T('TYPE s'), T('TYPE h'), T('TYPE z'), T('TYPE st'), T('TYPE missing'), T('TYPE'), T('TYPE a b'),
        T('TOUCH x l missing'), T('TOUCH'), T('TOUCH x x'),
        T('DEL x l s h z st'), T('DBSIZE'),
    ]))
    gs.append(G(F, 'EXPIRE family', [
        T('SET k v'), T('EXPIRE k 100'), T('TTL k', 'tol'), T('PEXPIRE k 100000'), T('PTTL k', 'tol', tol=200),
        T('EXPIREAT k %d' % (NOW + 300)), T('TTL k', 'tol'), T('EXPIRETIME k', 'tol'),
        T('PEXPIREAT k %d' % ((NOW + 400) * 1000)), T('PEXPIRETIME k', 'tol', tol=1000), T('EXPIRETIME k', 'tol'),
        T('PERSIST k'), T('PERSIST k'), T('TTL k'), T('PTTL k'), T('EXPIRETIME k'), T('PEXPIRETIME k'),
        T('TTL missing'), T('PTTL missing'), T('EXPIRETIME missing'), T('PEXPIRETIME missing'), T('PERSIST missing'),
        T('EXPIRE missing 10'), T('PEXPIRE missing 10'), T('EXPIREAT missing 10'), T('PEXPIREAT missing 10'),
        T('EXPIRE k 100 NX'), T('EXPIRE k 200 NX'), T('TTL k', 'tol'), T('EXPIRE k 300 XX'), T('TTL k', 'tol'),
        T('EXPIRE k 100 GT'), T('EXPIRE k 500 GT'), T('TTL k', 'tol'), T('EXPIRE k 600 LT'), T('EXPIRE k 50 LT'), T('TTL k', 'tol'),
        T('PERSIST k'), T('EXPIRE k 100 XX'), T('EXPIRE k 100 GT'), T('EXPIRE k 100 LT'), T('TTL k', 'tol'),
        T('PERSIST k'), T('EXPIRE k 100 NX GT'), T('EXPIRE k 100 NX XX'), T('EXPIRE k 100 GT LT'), T('EXPIRE k 100 NX LT'),
        T('EXPIRE k 100 XX GT'), T('EXPIRE k 100 XX LT'), T('TTL k', 'tol'), T('EXPIRE k 100 FOO'), T('EXPIRE k 100 nx'),
        T('EXPIRE k 100 XX XX'), T('TTL k', 'tol'), T('EXPIRE k 100 NX NX'),
        T('PEXPIRE k 100500 GT'), T('PEXPIRE k 100000 NX XX'), T('EXPIREAT k %d LT' % (NOW + 20)), T('TTL k', 'tol'),
        T('PEXPIREAT k %d GT' % ((NOW + 2000) * 1000)), T('TTL k', 'tol'), T('EXPIREAT k 100 NX GT'),
        T('EXPIRE k abc'), T('EXPIRE k 1.5'), T('EXPIRE k'), T('EXPIRE'), T('PEXPIRE k x'), T('EXPIREAT k x'), T('PEXPIREAT k 1.0'),
        T('EXPIRE k 9223372036854775807'), T('EXPIRE k 9223372036854775'), T('EXPIRE k 92233720368547758'),
        T('PEXPIRE k 9223372036854775807'), T('EXPIREAT k 9223372036854775807'), T('PEXPIREAT k 9223372036854775807'),
        T('EXPIRE k -9223372036854775808'), T('PEXPIRE k -9223372036854775808'), T('EXPIREAT k -9223372036854775808'),
        T('EXISTS k'), T('SET k v'),
        T('EXPIRE k -9223372036854775'), T('EXISTS k'), T('SET k v'),
        T('TTL k'), T('EXPIRE k 0'), T('EXISTS k'), T('SET k v'), T('EXPIRE k -1'), T('EXISTS k'), T('SET k v'),
        T('PEXPIRE k -1'), T('EXISTS k'), T('SET k v'), T('EXPIREAT k 1'), T('EXISTS k'), T('SET k v'),
        T('PEXPIREAT k 0'), T('EXISTS k'), T('SET k v EX 100'), T('EXPIRE k -5 GT'), T('EXISTS k'),
        T('EXPIRE k -5 LT'), T('EXISTS k'),
        T('SET k v'), T('EXPIRE k -5 XX'), T('EXISTS k'), T('EXPIRE k -5 NX'), T('EXISTS k'),
        T('TTL'), T('TTL a b'), T('PTTL'), T('EXPIRETIME'), T('PERSIST'), T('PERSIST a b'),
        T('SET k v'), T('EXPIRE k 100'), T('SET k v2'), T('TTL k'),
        T('RPUSH l a'), T('EXPIRE l 100'), T('TTL l', 'tol'), T('PERSIST l'), T('TTL l'),
        T('SET short v PX 100'), T('GET short', sleep=0.3), T('EXISTS short'), T('TTL short'),
    ]))
    gs.append(G(F, 'RENAME/RENAMENX/COPY', [
        T('SET a 1'), T('RENAME a b'), T('GET a'), T('GET b'), T('RENAME b b'), T('GET b'),
        T('RENAME missing x'), T('RENAME missing missing'), T('RENAMENX missing x'), T('RENAMENX missing missing'),
        T('SET c 3'), T('RENAMENX b c'), T('RENAMENX b d'), T('MGET b c d'), T('RENAMENX d d'),
        T('RENAME'), T('RENAME a'), T('RENAME a b c'), T('RENAMENX a'),
        T('SET t v EX 100'), T('RENAME t t2'), T('TTL t2', 'tol'), T('SET o 1'), T('RENAME o t2'), T('TTL t2'),
        T('RPUSH l x'), T('RENAME l ls'), T('TYPE ls'), T('SET str 1'), T('RENAME ls str'), T('TYPE str'), T('LRANGE str 0 -1'),
        T(['SET', b'bin\x00', 'v']), T(['RENAME', b'bin\x00', b'bin\x00\x01']), T(['GET', b'bin\x00\x01']),
        T('SET src hello'), T('COPY src dst'), T('GET dst'), T('COPY src dst'), T('COPY src dst REPLACE'),
        T('COPY missing dst'), T('COPY src src'), T('COPY src src REPLACE'), T('COPY src dst DB 1'), T('COPY src dst DB 1'),
        T('COPY src dst DB 1 REPLACE'), T('COPY src dst REPLACE DB 1'), T('COPY src dst DB 0'), T('COPY src dst DB 0 REPLACE'),
        T('COPY src dst DB 16'), T('COPY src dst DB -1'), T('COPY src dst DB abc'), T('COPY src dst DB'),
        T('COPY src dst FOO'), T('COPY src'), T('COPY'), T('COPY src dst REPLACE REPLACE'),
        T('SELECT 1'), T('GET dst'), T('SELECT 0'),
        T('SET te v EX 100'), T('COPY te te2'), T('TTL te2', 'tol'),
        T('RPUSH lsrc a b'), T('COPY lsrc ldst'), T('LRANGE ldst 0 -1'), T('COPY lsrc src REPLACE'), T('TYPE src'),
        T('SELECT 1'), T('FLUSHDB'), T('SELECT 0'),
    ]))
    gs.append(G(F, 'KEYS', [
        T('MSET hello 1 hallo 1 hxllo 1 hllo 1 heeeello 1 "h*llo" 1 "h?llo" 1 "h[a]llo" 1 hbllo 1 hcllo 1 hdllo 1 abc 1'),
        T('KEYS h?llo', 'sorted'), T('KEYS h*llo', 'sorted'), T('KEYS h[ae]llo', 'sorted'), T('KEYS h[^e]llo', 'sorted'),
        T('KEYS h[a-c]llo', 'sorted'), T('KEYS h[c-a]llo', 'sorted'), T('KEYS "h\\*llo"', 'sorted'), T('KEYS "h\\?llo"', 'sorted'),
        T('KEYS "h\\[a\\]llo"', 'sorted'), T('KEYS "h[\\a]llo"', 'sorted'), T('KEYS *', 'sorted'), T('KEYS ""', 'sorted'),
        T('KEYS abc'), T('KEYS ABC'), T('KEYS nomatch*'), T('KEYS'), T('KEYS a b'), T('KEYS "h[a"', 'sorted'),
        T('KEYS "h[!e]llo"', 'sorted'), T('KEYS "*\\\\"', 'sorted'), T('KEYS "h[a-]llo"', 'sorted'), T('KEYS "h[]llo"', 'sorted'),
        T('KEYS "[h]*"', 'sorted'), T('KEYS "*[o]"', 'sorted'), T('KEYS "h**llo"', 'sorted'), T('KEYS "\\h*"', 'sorted'),
        T('KEYS "h[^a-c]llo"', 'sorted'), T('KEYS "???"', 'sorted'), T('KEYS "h[a-z"', 'sorted'),
        T(['SET', b'n\x00ul', '1']), T(['KEYS', b'n\x00*']), T(['KEYS', b'n?ul']),
    ]))
    gs.append(G(F, 'SCAN', [
        T('MSET k1 1 k2 2 k3 3 a1 1'), T('RPUSH l1 x'), T('SADD s1 x'), T('HSET h1 f v'), T('ZADD z1 1 m'),
        T('SCAN 0 COUNT 1000', 'scan'), T('SCAN 0 MATCH k* COUNT 1000', 'scan'), T('SCAN 0 TYPE string COUNT 1000', 'scan'),
        T('SCAN 0 TYPE list COUNT 1000', 'scan'), T('SCAN 0 TYPE set COUNT 1000', 'scan'), T('SCAN 0 TYPE hash COUNT 1000', 'scan'),
        T('SCAN 0 TYPE zset COUNT 1000', 'scan'), T('SCAN 0 TYPE STRING COUNT 1000', 'scan'), T('SCAN 0 TYPE foo COUNT 1000', 'scan'),
        T('SCAN 0 MATCH k* TYPE string COUNT 1000', 'scan'), T('SCAN 0 MATCH nomatch COUNT 1000', 'scan'),
        T('SCAN 0 COUNT 0'), T('SCAN 0 COUNT -1'), T('SCAN 0 COUNT abc'), T('SCAN 0 COUNT'), T('SCAN 0 MATCH'),
        T('SCAN 0 TYPE'), T('SCAN 0 FOO bar'), T('SCAN abc'), T('SCAN -1'), T('SCAN 1.5'), T('SCAN'),
        T('SCAN 18446744073709551615', 'shape'), T('SCAN 18446744073709551616'), T('SCAN 0 COUNT 9223372036854775807', 'scan'),
        T('SCAN 0 count 1000 match a*', 'scan'), T('SCAN 0 MATCH k* MATCH a* COUNT 1000', 'scan'),
        T('SCAN 0 COUNT 1000 COUNT 1000', 'scan'),
    ]))
    gs.append(G(F, 'RANDOMKEY/DBSIZE/FLUSH', [
        T('RANDOMKEY'), T('DBSIZE'), T('SET a 1'), T('RANDOMKEY'), T('DBSIZE'), T('RANDOMKEY x'), T('DBSIZE x'),
        T('FLUSHDB'), T('DBSIZE'), T('SET a 1'), T('FLUSHDB SYNC'), T('SET a 1'), T('FLUSHDB ASYNC'), T('DBSIZE'),
        T('FLUSHDB sync'), T('FLUSHDB FOO'), T('FLUSHDB SYNC ASYNC'), T('FLUSHDB ASYNC ASYNC'),
        T('FLUSHALL SYNC'), T('FLUSHALL ASYNC'), T('FLUSHALL FOO'), T('FLUSHALL SYNC SYNC'), T('FLUSHALL a b'),
        T('SELECT 2'), T('SET x 1'), T('SELECT 0'), T('FLUSHDB'), T('SELECT 2'), T('DBSIZE'), T('FLUSHALL'), T('DBSIZE'),
    ]))
    gs.append(G(F, 'DUMP/RESTORE', [
        T('SET k hello'), T('DUMP k', 'accept', save='d'), T('DUMP missing'), T('DUMP'), T('DUMP a b'),
        T(['RESTORE', 'k2', '0', Var('d')]), T('GET k2'), T(['RESTORE', 'k2', '0', Var('d')]),
        T(['RESTORE', 'k2', '0', Var('d'), 'REPLACE']), T(['RESTORE', 'k3', '100000', Var('d')]), T('PTTL k3', 'tol', tol=200),
        T(['RESTORE', 'k4', str((NOW + 1000) * 1000), Var('d'), 'ABSTTL']), T('TTL k4', 'tol'),
        T(['RESTORE', 'k5', '1000', Var('d'), 'ABSTTL']), T('EXISTS k5'),
        T(['RESTORE', 'k6', '0', Var('d'), 'IDLETIME', '100']), T('OBJECT IDLETIME k6', 'tol', tol=2),
        T(['RESTORE', 'k7', '0', Var('d'), 'FREQ', '5']), T(['RESTORE', 'k7b', '0', Var('d'), 'IDLETIME', '10', 'FREQ', '5']),
        T(['RESTORE', 'k8', '0', Var('d'), 'IDLETIME', '-1']), T(['RESTORE', 'k8', '0', Var('d'), 'IDLETIME', 'abc']),
        T(['RESTORE', 'k8', '0', Var('d'), 'FREQ', '256']), T(['RESTORE', 'k8', '0', Var('d'), 'FREQ', '-1']),
        T(['RESTORE', 'k8', '0', Var('d'), 'FREQ']), T(['RESTORE', 'k8', '0', Var('d'), 'IDLETIME']),
        T(['RESTORE', 'k8', '0', Var('d'), 'FOO']), T(['RESTORE', 'k8', '-1', Var('d')]), T(['RESTORE', 'k8', 'abc', Var('d')]),
        T(['RESTORE', 'k8', '1.5', Var('d')]),
        T(['RESTORE', 'k8', '0', b'garbage']), T(['RESTORE', 'k8', '0', b'']),
        T(['RESTORE', 'k8', '0', Var('d', lambda b: b[:-1] + bytes([b[-1] ^ 0xff]) if b else b'x')]),
        T(['RESTORE', 'k8', '0', Var('d', lambda b: b[:-3])]), T('EXISTS k8'),
        T(['RESTORE', 'k', '0', b'garbage']), T(['RESTORE', 'k', '0', b'garbage', 'REPLACE']),
        T('RESTORE k8 0'), T('RESTORE'), T('GET k'),
        T(['RESTORE', 'k9', '0', Var('d'), 'REPLACE', 'REPLACE', 'ABSTTL']), T('GET k9'),
        T('RPUSH l a b c'), T('DUMP l', 'accept', save='dl'), T(['RESTORE', 'l2', '0', Var('dl')]), T('LRANGE l2 0 -1'),
        T(['RESTORE', 'k', '0', Var('dl'), 'REPLACE']), T('TYPE k'),
        T('SET n 12345'), T('DUMP n', 'accept', save='dn'), T(['RESTORE', 'n2', '0', Var('dn')]), T('GET n2'), T('INCR n2'),
        T(['SET', 'bin', b'\x00\xff\x00']), T('DUMP bin', 'accept', save='db'), T(['RESTORE', 'bin2', '0', Var('db')]),
        T(['GET', 'bin2']),
    ]))
    gs.append(G(F, 'OBJECT/MEMORY misc', [
        T('SET k hello'), T('OBJECT ENCODING k', 'accept'), T('OBJECT ENCODING missing'), T('OBJECT FREQ k'),
        T('OBJECT REFCOUNT k', 'accept'), T('OBJECT IDLETIME k', 'tol'), T('OBJECT IDLETIME missing'), T('OBJECT FOO k'),
        T('OBJECT'), T('MEMORY USAGE missing'), T('MEMORY USAGE k', 'shape'), T('MEMORY USAGE k SAMPLES 5', 'shape'),
        T('MEMORY USAGE k SAMPLES'), T('MEMORY USAGE k FOO'), T('MEMORY USAGE'), T('MEMORY FOO'),
    ]))
    return gs


def connection_groups():
    F = 'Connection'
    gs = []
    gs.append(G(F, 'PING/ECHO', [
        T('PING'), T('PING hello'), T('PING "hello world"'), T(['PING', b'']), T(['PING', b'a\x00b']), T('PING a b'),
        T('ping'), T('ECHO hi'), T(['ECHO', b'']), T(['ECHO', b'\x00\r\n']), T('ECHO'), T('ECHO a b'),
        T('NOSUCHCMD'), T('NOSUCHCMD a b'), T(['', 'x']), T('GET\x00'),
    ]))
    gs.append(G(F, 'HELLO', [
        T('HELLO', 'hello'), T('HELLO 2', 'hello'), T('HELLO 1'), T('HELLO 4'), T('HELLO 0'), T('HELLO -1'),
        T('HELLO abc'), T('HELLO 2.0'), T('HELLO 2 AUTH default pw', 'hello'), T('HELLO 2 AUTH default'), T('HELLO 2 AUTH'),
        T('HELLO 2 AUTH nouser pw'), T('HELLO 2 SETNAME myname', 'hello'), T('CLIENT GETNAME'),
        T('HELLO 2 SETNAME "bad name"'), T('CLIENT GETNAME'), T('HELLO 2 SETNAME'), T('HELLO 2 FOO'), T('HELLO 2 SETNAME a SETNAME b', 'hello'),
        T('CLIENT GETNAME'), T('HELLO 2 SETNAME ""', 'hello'), T('CLIENT GETNAME'),
        T('HELLO 3', 'hello'), T('PING'), T('GET missing'), T('HELLO 2', 'hello'), T('GET missing'),
        T('hello 3 setname x', 'hello'), T('CLIENT GETNAME'),
    ]))
    gs.append(G(F, 'SELECT/SWAPDB', [
        T('SELECT 0'), T('SELECT 15'), T('SELECT 16'), T('SELECT -1'), T('SELECT abc'), T('SELECT 1.0'), T('SELECT'),
        T('SELECT 1 2'), T('SELECT 9999999999999'), T('SELECT " 1"'),
        T('SELECT 1'), T('SET a db1'), T('SELECT 2'), T('SET a db2'), T('SWAPDB 1 2'), T('GET a'), T('SELECT 1'), T('GET a'),
        T('SWAPDB 1 1'), T('GET a'), T('SWAPDB 0 16'), T('SWAPDB -1 0'), T('SWAPDB a b'), T('SWAPDB 0'), T('SWAPDB'),
        T('SWAPDB 0 1 2'), T('SELECT 0'), T('FLUSHALL'),
    ]))
    gs.append(G(F, 'CLIENT', [
        T('CLIENT ID', 'shape'), T('CLIENT SETNAME foo'), T('CLIENT GETNAME'), T('CLIENT SETNAME "foo bar"'),
        T('CLIENT SETNAME "foo\nbar"'), T('CLIENT GETNAME'), T('CLIENT SETNAME ""'), T('CLIENT GETNAME'),
        T(['CLIENT', 'SETNAME', b'a\x00b']), T('CLIENT SETNAME'), T('CLIENT SETNAME a b'), T('CLIENT GETNAME x'),
        T('CLIENT SETNAME héllo'), T('CLIENT SETNAME a~b!@#$%^&*()'), T('CLIENT GETNAME'),
        T('CLIENT INFO', 'fields'), T('CLIENT INFO x'),
        T('CLIENT SETINFO lib-name mylib'), T('CLIENT SETINFO lib-ver 1.0'), T('CLIENT SETINFO lib-name "my lib"'),
        T('CLIENT SETINFO lib-ver "1 0"'), T('CLIENT SETINFO foo bar'), T('CLIENT SETINFO lib-name'), T('CLIENT SETINFO'),
        T('CLIENT SETINFO LIB-NAME x'), T('CLIENT SETINFO lib-name ""'),
        T('CLIENT NO-EVICT on'), T('CLIENT NO-EVICT off'), T('CLIENT NO-EVICT ON'), T('CLIENT NO-EVICT maybe'), T('CLIENT NO-EVICT'),
        T('CLIENT NO-TOUCH on'), T('CLIENT NO-TOUCH off'), T('CLIENT NO-TOUCH x'), T('CLIENT NO-TOUCH'),
        T('CLIENT KILL'), T('CLIENT KILL 1.2.3.4:5'), T('CLIENT KILL ID 999999'), T('CLIENT KILL ID abc'), T('CLIENT KILL ID'),
        T('CLIENT KILL FOO bar'), T('CLIENT KILL ADDR 1.2.3.4:5'), T('CLIENT KILL TYPE foo'), T('CLIENT KILL TYPE normal SKIPME yes', 'shape'),
        T('CLIENT KILL SKIPME maybe'), T('CLIENT KILL USER nosuch'), T('CLIENT KILL LADDR 1.2.3.4:5'), T('CLIENT KILL MAXAGE abc'),
        T('CLIENT KILL ID 999999 ID 1000000'),
        T('CLIENT FOO'), T('CLIENT'), T('client id', 'shape'), T('CLIENT LIST', 'accept'), T('CLIENT LIST TYPE foo'),
        T('CLIENT LIST ID abc'), T('CLIENT LIST ID 999999'), T('CLIENT REPLY ON'), T('CLIENT REPLY foo'),
        T('CLIENT TRACKINGINFO', 'accept'), T('CLIENT GETREDIR'), T('CLIENT UNPAUSE'), T('CLIENT PAUSE abc'),
        T('CLIENT UNBLOCK 999999'), T('CLIENT UNBLOCK abc'), T('CLIENT UNBLOCK 999999 FOO'),
    ]))
    gs.append(G(F, 'RESET/QUIT/misc', [
        T('SELECT 3'), T('CLIENT SETNAME nm'), T('RESET'), T('CLIENT GETNAME'), T('SET rk 1'), T('SELECT 0'), T('EXISTS rk'),
        T('RESET x'), T('HELLO 3', 'hello'), T('RESET'), T('GET missing'), T('MULTI'), T('RESET'), T('EXEC'),
        T('AUTH pw'), T('AUTH user pw'), T('AUTH'), T('AUTH a b c'),
        T('QUIT extra'), T('QUIT'),
    ]))
    return gs


def server_groups():
    F = 'Server'
    gs = []
    gs.append(G(F, 'TIME/CONFIG/COMMAND/misc', [
        T('TIME', 'shape'), T('TIME x'), T('LASTSAVE', 'shape'), T('DBSIZE'),
        T('CONFIG GET maxmemory', 'shape'), T('CONFIG GET maxmemory*', 'accept'), T('CONFIG GET *max-*-entries*', 'accept'),
        T('CONFIG GET nonexistent'), T('CONFIG GET'), T('CONFIG GET port bind', 'shape'), T('CONFIG GET PORT', 'cfgkeys'), T('CONFIG GET port PORT', 'cfgkeys'), T('CONFIG GET port port*', 'cfgkeys'), T('CONFIG GET hash-max-ziplist-entries', 'cfgkeys'), T('CONFIG GET timeout maxclients databases', 'cfgkeys'), T('CONFIG SET timeout 0'), T('CONFIG SET timeout abc'), T('CONFIG SET timeout 0 nonexistent 1'), T('CONFIG SET timeout 0 timeout 0'),
        T('CONFIG GET databases', 'pairs'), T('CONFIG GET "*"', 'accept'), T('CONFIG GET timeout', 'shape'),
        T('CONFIG GET save appendonly', 'cfgkeys'), T('CONFIG GET maxmemory maxmemory', 'shape'),
        T('CONFIG SET nonexistent 1'), T('CONFIG SET nonexistent'), T('CONFIG SET'), T('CONFIG SET maxmemory abc'),
        T('CONFIG SET a 1 b 2'), T('CONFIG FOO'), T('CONFIG'), T('CONFIG RESETSTAT'), T('CONFIG HELP', 'accept'),
        T('COMMAND COUNT', 'shape'), T('COMMAND COUNT x'), T('COMMAND INFO get'), T('COMMAND INFO set'), T('COMMAND INFO get set'),
        T('COMMAND INFO nosuch'), T('COMMAND INFO GET'), T('COMMAND INFO'), T('COMMAND INFO client'), T('COMMAND INFO client|id'),
        T('COMMAND INFO mset incrbyfloat lcs'), T('COMMAND INFO ping echo'),
        T('COMMAND GETKEYS set k v'), T('COMMAND GETKEYS mset a 1 b 2'), T('COMMAND GETKEYS get'), T('COMMAND GETKEYS'),
        T('COMMAND GETKEYS nosuch a'), T('COMMAND GETKEYS ping'), T('COMMAND GETKEYS eval "return 1" 2 k1 k2 a1'),
        T('COMMAND GETKEYS eval "return 1" 0'), T('COMMAND GETKEYS eval "return 1" 3 k1'), T('COMMAND GETKEYS eval "return 1" -1'),
        T('COMMAND GETKEYS del a b c'), T('COMMAND GETKEYS rename a b'), T('COMMAND GETKEYS lcs a b'), T('COMMAND GETKEYS copy a b DB 1'),
        T('COMMAND GETKEYS mget a b'), T('COMMAND GETKEYS mset a 1 b'), T('COMMAND GETKEYS getex k EX 10'),
        T('COMMAND GETKEYSANDFLAGS set k v'), T('COMMAND GETKEYSANDFLAGS mset a 1 b 2'),
        T('COMMAND LIST FILTERBY PATTERN get*', 'sorted'), T('COMMAND DOCS get', 'accept'), T('COMMAND FOO'),
        T('MEMORY USAGE missing'), T('LASTSAVE x'), T('DBSIZE extra'),
        T('INFO', 'accept'), T('INFO server', 'accept'), T('INFO nosuchsection', 'accept'),
        T('DEBUG', 'accept'), T('SAVE', 'accept'), T('BGSAVE', 'accept'), T('ROLE', 'shape'), T('LOLWUT', 'accept'),
    ]))
    return gs


def resp3_groups():
    F = 'RESP3'
    gs = []
    H = T('HELLO 3', 'hello')
    gs.append(G(F, 'RESP3 replies', [
        H, T('GET missing'), T('SET k v'), T('GET k'), T('SET k v GET'), T('SET nk v NX GET'), T('SET k v NX'), T('SET k2 v XX'),
        T('MGET k missing'), T('GETDEL missing'), T('GETEX missing'), T('GETSET gs v'), T('GETSET gs v2'),
        T('INCRBYFLOAT f 1.5'), T('INCRBYFLOAT f 3.0e3'), T('INCRBYFLOAT f inf'), T('INCR n'), T('INCRBY n 5'),
        T('LCS k k'), T('MSET key1 ohmytext key2 mynewtext'), T('LCS key1 key2 IDX'), T('LCS key1 key2 IDX WITHMATCHLEN MINMATCHLEN 2'),
        T('LCS key1 key2 LEN'),
        T('TTL k'), T('EXPIRETIME k'), T('TYPE k'), T('TYPE missing'), T('EXISTS k'), T('DEL k2'),
        T('KEYS k'), T('KEYS nomatch'), T('SCAN 0 MATCH key1 COUNT 1000'), T('RANDOMKEY', 'accept'), T('DBSIZE'),
        T('DUMP missing'), T('OBJECT ENCODING missing'), T('MEMORY USAGE missing'),
        T('PING'), T('PING x'), T('ECHO x'), T('CLIENT GETNAME'), T('CLIENT SETNAME n'), T('CLIENT GETNAME'),
        T('CLIENT ID', 'shape'), T('CLIENT INFO', 'fields'), T('TIME', 'shape'),
        T('CONFIG GET maxmemory', 'shape'), T('CONFIG GET nonexistent'), T('CONFIG GET port databases', 'pairs'),
        T('COMMAND INFO get'), T('COMMAND INFO nosuch'), T('COMMAND GETKEYS set k v'), T('COMMAND COUNT', 'shape'),
        T('COMMAND GETKEYSANDFLAGS set k v'),
        T('HSET h a 1'), T('HGETALL h'), T('HGETALL missing'), T('SADD s a'), T('SMEMBERS s'), T('SMEMBERS missing'),
        T('ZADD z 1.5 a'), T('ZSCORE z a'), T('ZSCORE z missing'), T('ZRANGE z 0 -1 WITHSCORES'), T('ZINCRBY z 1 a'),
        T('HRANDFIELD missing 2'), T('LPOP missing'), T('LPOP missing 2'), T('RPUSH l a'), T('LPOP l 5'),
        T('SET k v'), T('OBJECT FREQ k'), T('NOSUCHCMD'), T('GET'), T('RPUSH list a'), T('GET list'),
        T('EXPIRE k 100 NX GT'), T('INCR k'), T('SET k v EX 0'),
        T('HELLO', 'hello'), T('HELLO 2', 'hello'), T('GET missing'),
    ]))
    return gs



def extra_groups():
    gs = []
    F = 'Strings'
    BIG = 260000000000  # ~8200 years: beyond .NET DateTime.MaxValue (year 9999)
    gs.append(G('Keyspace', 'large expire values', [
        T('SET k v EX 100000000'), T('TTL k', 'tol'), T('SET k v EX 10000000000'), T('TTL k', 'tol'),
        T('SET k v EX 100000000000'), T('TTL k', 'tol'), T('SET k v EX 250000000000'), T('TTL k', 'tol'),
        T('SET k v EX %d' % BIG), T('TTL k', 'tol'), T('SET k v EX 1000000000000'), T('TTL k', 'tol'),
        T('SET k v PX %d' % (BIG * 1000)), T('TTL k', 'tol'),
        T('SET k v'), T('EXPIRE k %d' % BIG), T('TTL k', 'tol'), T('EXPIRETIME k', 'tol'),
        T('SET k v'), T('PEXPIRE k %d' % (BIG * 1000)), T('TTL k', 'tol'),
        T('SET k v'), T('EXPIREAT k 253402300799'), T('EXPIRETIME k'), T('EXPIREAT k 253402300800'), T('EXPIRETIME k'),
        T('PEXPIREAT k 253402300800000'), T('PEXPIRETIME k'), T('EXPIREAT k 9000000000000'), T('EXPIRETIME k'),
        T('EXPIREAT k 9223372036854775'), T('EXPIRETIME k'), T('EXPIREAT k 9223372036854776'),
        T('SET k v EXAT 253402300800'), T('EXPIRETIME k'), T('SET k v EXAT 9223372036854775'), T('EXPIRETIME k'),
        T('SET k v PXAT 9223372036854775806'), T('PEXPIRETIME k'), T('SET k v EXAT 9223372036854776'),
        T('SET k v'), T('GETEX k EX %d' % BIG), T('TTL k', 'tol'), T('GETEX k PXAT 9223372036854775807'), T('PEXPIRETIME k'),
        T('SETEX k2 %d v' % BIG), T('TTL k2', 'tol'), T('PSETEX k3 %d v' % (BIG * 1000)), T('TTL k3', 'tol'),
        T('SET k v'), T('DUMP k', 'accept', save='d'), T(['RESTORE', 'r1', str(BIG * 1000), Var('d')]), T('TTL r1', 'tol'),
        T(['RESTORE', 'r2', '9223372036854775807', Var('d'), 'ABSTTL']), T('PEXPIRETIME r2'),
        T('SET k v EX 100'), T('EXPIRE k %d GT' % BIG), T('TTL k', 'tol'),
    ]))
    exp = []
    def e(cmd, mode='exact'):
        exp.append(T('SET ek v PX 30'))
        exp.append(T(cmd, mode, sleep=0.12))
    for c in ['GET ek', 'EXISTS ek', 'TYPE ek', 'TTL ek', 'PTTL ek', 'STRLEN ek', 'APPEND ek x', 'INCR ek',
              'INCRBYFLOAT ek 1.5', 'GETRANGE ek 0 -1', 'SETRANGE ek 2 x', 'GETSET ek n', 'GETDEL ek', 'GETEX ek EX 10',
              'SETNX ek n', 'SET ek n NX', 'SET ek n XX', 'SET ek n KEEPTTL GET', 'MSETNX ek n', 'MGET ek ek',
              'RENAME ek ek2', 'RENAMENX ek ek2', 'COPY ek ek3', 'EXPIRE ek 100', 'PERSIST ek', 'DEL ek', 'UNLINK ek',
              'TOUCH ek', 'DUMP ek', 'LCS ek ek', 'KEYS ek', 'SCAN 0 MATCH ek COUNT 1000', 'EXPIRETIME ek',
              'RANDOMKEY', 'OBJECT ENCODING ek', 'MEMORY USAGE ek', 'DECRBY ek 5', 'SETEX ek 10 z']:
        e(c)
        exp.append(T('EXISTS ek'))
    exp += [T('SET src v'), T('SET dst old PX 30'), T('RENAME src dst', sleep=0.12), T('TTL dst'), T('GET dst'),
            T('SET src v'), T('SET dst old PX 30'), T('RENAMENX src dst', sleep=0.12), T('GET dst'),
            T('SET src v'), T('SET dst old PX 30'), T('COPY src dst', sleep=0.12), T('GET dst')]
    gs.append(G('Keyspace', 'expired-key semantics (lazy expiry)', exp))

    gs.append(G(F, 'misc strings 2', [
        T(['MSET'] + sum([['key%d' % i, 'val%d' % i] for i in range(300)], [])), T(['MGET'] + ['key%d' % i for i in range(0, 320, 3)]),
        T('DBSIZE'), T(['DEL'] + ['key%d' % i for i in range(0, 400, 2)]), T('DBSIZE'),
        T('SETEX t 100 hello'), T('APPEND t x'), T('TTL t', 'tol'), T('SETRANGE t 0 Y'), T('TTL t', 'tol'), T('GET t'),
        T('INCRBY t 1'), T('SET t 5 KEEPTTL'), T('INCR t'), T('TTL t', 'tol'), T('DECR t'), T('GETDEL t'), T('TTL t'),
        T('SET i 10'), T('APPEND i 5'), T('INCR i'), T('GETRANGE i 0 0'), T('SETRANGE i 0 9'), T('INCR i'),
        T('SET f 1.5'), T('APPEND f 0'), T('INCRBYFLOAT f 0.5'),
        T('SET k v EX 10 NX GET'), T('SET k v EX 10 NX GET'), T('SET k v2 XX GET PX 5000'), T('PTTL k', 'tol', tol=200),
        T('SET k 1'), T('SET k 2 GET KEEPTTL XX'),
        T(['SET', 'x' * 1000, 'y']), T(['GET', 'x' * 1000]), T(['STRLEN', 'x' * 1000]),
        T(['SET', 'nl', b'line1\nline2\r\nline3']), T('GET nl'), T(['SET', 'only0', b'\x00']), T('STRLEN only0'),
        T('GETRANGE only0 0 0'), T('LCS nl only0'),
        T(['SET', 'bin', bytes(range(256))]), T('GET bin'), T('GETRANGE bin 250 -1'), T('SETRANGE bin 254 \x01'),
        T('GETRANGE bin -3 -1'), T(['SETRANGE', 'bin', '300', b'\xff\x00']), T('STRLEN bin'), T('GETRANGE bin 255 -1'),
        T('INCRBY bigi 9223372036854775806'), T('INCR bigi'), T('INCR bigi'), T('GET bigi'),
        T('DECRBY smalli 9223372036854775807'), T('DECR smalli'), T('DECR smalli'), T('GET smalli'),
        T('INCRBYFLOAT fl 10'), T('GET fl'), T('INCRBYFLOAT fl 1e-1'), T('INCRBYFLOAT fl 0.9'), T('GET fl'),
        T('SET fl 5e3'), T('GET fl'), T('INCRBYFLOAT fl 0'), T('SET fl 1e308'), T('INCRBYFLOAT fl 1e308'), T('GET fl'),
        T('SET fl -1e-310'), T('INCRBYFLOAT fl 0'), T('INCRBYFLOAT fl2 123e-2'), T('INCRBYFLOAT fl3 -.5'),
        T('INCRBYFLOAT fl4 0.1'), T('INCRBYFLOAT fl4 0.7'), T('INCRBYFLOAT fl5 2.5e-5'), T('INCRBYFLOAT fl6 1234567890123456789'),
        T('INCRBYFLOAT fl7 0.000001'), T('INCRBYFLOAT fl8 1.1e16'), T('INCRBYFLOAT fl9 3.14159265358979323846'),
    ]))
    gs.append(G(F, 'LCS more', [
        T('MSET a "the quick brown fox" b "a quick brown dog jumps"'), T('LCS a b'), T('LCS a b LEN'),
        T('LCS a b IDX'), T('LCS a b IDX MINMATCHLEN 3 WITHMATCHLEN'), T('LCS a b IDX WITHMATCHLEN WITHMATCHLEN'),
        T('LCS a b IDX IDX'), T('LCS a b LEN LEN'), T('LCS a b MINMATCHLEN 1 MINMATCHLEN 2 IDX'),
        T('LCS a b IDX MINMATCHLEN 9223372036854775807'), T('LCS a b IDX MINMATCHLEN 9223372036854775808'),
        T('LCS a b idx withmatchlen'),
        T(['MSET', 'x', b'\x00a\x00b\x00', 'y', b'a\x00b']), T('LCS x y'), T('LCS x y IDX WITHMATCHLEN'),
        T('MSET aa aaaa bb aa'), T('LCS aa bb IDX WITHMATCHLEN'), T('LCS bb aa IDX'),
        T('SET num 12345'), T('SET num2 2345'), T('LCS num num2'),
    ]))
    gs.append(G('Server', 'COMMAND INFO per command (flags/arity/acl)', [
        T('COMMAND INFO %s' % c, 'cmdinfo') for c in
        ['get', 'set', 'setnx', 'setex', 'psetex', 'getset', 'getdel', 'getex', 'mget', 'mset', 'msetnx', 'incr', 'incrby',
         'decr', 'decrby', 'incrbyfloat', 'append', 'strlen', 'getrange', 'substr', 'setrange', 'lcs', 'del', 'unlink',
         'exists', 'type', 'touch', 'expire', 'pexpire', 'expireat', 'pexpireat', 'ttl', 'pttl', 'expiretime',
         'pexpiretime', 'persist', 'rename', 'renamenx', 'copy', 'keys', 'scan', 'randomkey', 'dbsize', 'flushdb',
         'flushall', 'dump', 'restore', 'ping', 'echo', 'hello', 'select', 'swapdb', 'reset', 'client', 'quit', 'auth',
         'time', 'config', 'command', 'memory', 'lastsave', 'info', 'object']
    ] + [T('COMMAND GETKEYS %s' % c) for c in [
        'getex k PERSIST', 'set k v GET', 'lcs a b IDX', 'copy a b', 'expire k 10', 'getrange k 0 1', 'msetnx a 1 b 2',
        'restore k 0 x', 'touch a b', 'unlink a b c', 'exists a a', 'renamenx a b', 'rename a', 'get a b', 'mget',
        'dump k', 'substr k 0 1', 'keys *', 'scan 0', 'object encoding k', 'memory usage k', 'setrange k 0 v',
        'sort k', 'sort k STORE d', 'eval "return 1" 1 k', 'evalsha abc 1 k', 'xread streams s 0', 'zunionstore d 2 a b']]))
    gs.append(G('Connection', 'CLIENT KILL self / QUIT close', [
        T('CLIENT ID', 'shape', save='cid'), T(['CLIENT', 'KILL', 'ID', Var('cid')]), T('PING'),
    ]))
    gs.append(G('Connection', 'QUIT closes', [T('QUIT'), T('PING')]))
    gs.append(G('Connection', 'HELLO 3 extras', [
        T('HELLO 3 AUTH default ""', 'hello'), T('HELLO 3 AUTH default anything SETNAME abc', 'hello'), T('CLIENT GETNAME'),
        T('HELLO 3 SETNAME "a b"'), T('HELLO 2 AUTH default x SETNAME'), T('HELLO 3 AUTH a'),
        T('HELLO 3 auth default x setname y', 'hello'), T('ECHO x'), T('CLIENT SETNAME "x y"'), T('CLIENT INFO x'),
        T('SELECT 100'), T('PING a b'), T('SET k v EX abc'), T('INCR k'), T('CONFIG GET nonexistent'),
        T('TIME', 'shape'), T('LASTSAVE', 'shape'), T('MEMORY USAGE nokey'), T('COMMAND COUNT', 'shape'),
        T('EXPIRETIME nokey'), T('TTL nokey'), T('KEYS *'), T('SCAN 0'), T('MGET a b'), T('RESET'), T('GET a'),
    ]))
    return gs


def fuzz_groups(seed=20240601):
    import random
    R = random.Random(seed)
    gs = []
    # INCRBYFLOAT formatting / parsing
    tests = []
    def rfloat():
        k = R.randrange(9)
        if k == 0:
            return str(R.randint(-10**6, 10**6))
        if k == 1:
            return '%.*f' % (R.randint(0, 6), R.uniform(-1000, 1000))
        if k == 2:
            return '%.*e' % (R.randint(0, 8), R.uniform(-1e6, 1e6))
        if k == 3:
            return '%.17g' % R.uniform(-1, 1)
        if k == 4:
            return '%.*E' % (R.randint(0, 4), 10 ** R.uniform(-30, 30))
        if k == 5:
            return R.choice(['0', '-0', '0.0', '1e0', '1.', '.1', '-.1', '+.5', '00012', '-00.5', '1e-0', '0e10',
                             '1_000', '1,5', '0b1', '1e', 'e1', '--1', '1-', '١', '0x1p3', 'infinity', '-nan', ' ', '\t1'])
        if k == 6:
            return str(R.choice([1, -1]) * R.randint(1, 10**18)) + R.choice(['', '.5', 'e2', 'e-3'])
        if k == 7:
            return '%.20g' % (R.random() * 10 ** R.randint(-20, 20))
        return '%r' % (R.uniform(-1e-5, 1e-5))
    for i in range(120):
        if R.random() < 0.3:
            tests.append(T(['SET', 'f', rfloat()]))
        tests.append(T(['INCRBYFLOAT', 'f', rfloat()]))
        if R.random() < 0.2:
            tests.append(T('GET f'))
    gs.append(G('Strings', 'fuzz INCRBYFLOAT', tests))

    # INCRBY/DECRBY near limits
    tests = []
    LIM = 2 ** 63
    def rint():
        k = R.randrange(5)
        if k == 0:
            return str(R.randint(-LIM, LIM - 1))
        if k == 1:
            return str(R.choice([LIM - 1, -LIM, LIM, -LIM - 1, 0, 1, -1]) + R.randint(-3, 3))
        if k == 2:
            return str(R.randint(-1000, 1000))
        if k == 3:
            return R.choice(['+1', '-0', '01', '1 ', ' 1', '1e3', '0x10', '', '-', '9' * 25, '-' + '9' * 25, '1.0'])
        return str(R.randint(-10**10, 10**10))
    for i in range(120):
        if R.random() < 0.35:
            tests.append(T(['SET', 'n', rint()]))
        tests.append(T([R.choice(['INCRBY', 'DECRBY']), 'n', rint()]))
        if R.random() < 0.2:
            tests.append(T([R.choice(['INCR', 'DECR']), 'n']))
    gs.append(G('Strings', 'fuzz INCRBY/DECRBY', tests))

    # GETRANGE/SETRANGE/APPEND
    tests = [T('SET s "0123456789abcdefghij"'), T('SET e ""'), T('SET n 1234567')]
    for i in range(120):
        k = R.choice(['s', 's', 'e', 'n', 'missing'])
        a = R.choice([R.randint(-30, 30), R.randint(-30, 30), -2 ** 63, 2 ** 63 - 1, 0, -1])
        b = R.choice([R.randint(-30, 30), R.randint(-30, 30), -2 ** 63, 2 ** 63 - 1, 0, -1])
        tests.append(T(['GETRANGE', k, str(a), str(b)]))
    for i in range(50):
        k = R.choice(['w1', 'w2', 'n'])
        off = R.choice([R.randint(0, 40), R.randint(0, 5), -1])
        val = R.choice(['', 'x', 'XYZ', '\x00\x01', '12'])
        tests.append(T(['SETRANGE', k, str(off), val]))
        tests.append(T(['GET', k]))
        if R.random() < 0.2:
            tests.append(T(['APPEND', k, R.choice(['', 'ab', '7'])]))
    gs.append(G('Strings', 'fuzz GETRANGE/SETRANGE', tests))

    # LCS
    tests = []
    for i in range(80):
        a = ''.join(R.choice('abc') for _ in range(R.randint(0, 14)))
        b = ''.join(R.choice('abc') for _ in range(R.randint(0, 14)))
        tests.append(T(['MSET', 'x', a, 'y', b]))
        opts = []
        mode = R.randrange(4)
        if mode == 0:
            opts = []
        elif mode == 1:
            opts = ['LEN']
        else:
            opts = ['IDX']
            if R.random() < 0.5:
                opts += ['MINMATCHLEN', str(R.randint(0, 4))]
            if R.random() < 0.5:
                opts += ['WITHMATCHLEN']
            R.shuffle(opts) if R.random() < 0.3 and 'MINMATCHLEN' not in opts else None
        tests.append(T(['LCS', 'x', 'y'] + opts))
    gs.append(G('Strings', 'fuzz LCS', tests))

    # KEYS glob patterns
    keys = ['a', 'b', 'ab', 'ba', 'aab', 'a*b', 'a?b', 'a[b', 'a]b', 'a\\b', 'a^b', 'a-b', '[', ']', '*', '?', '\\',
            '^', '-', 'abc', 'a.b', 'A', 'aB', '', 'b-a', '[a]', '\\a']
    tests = [T(['MSET'] + sum([[k, '1'] for k in keys], []))]
    alphabet = ['a', 'b', '*', '?', '[', ']', '^', '-', '\\', 'c', '!', 'B']
    for i in range(150):
        p = ''.join(R.choice(alphabet) for _ in range(R.randint(1, 6)))
        tests.append(T(['KEYS', p], 'sorted'))
    for p in ['[a-b]', '[b-a]', '[a-]', '[-a]', '[\\]]', '[\\\\]', '[^]', '[]]', '[]', 'a\\', '\\', '[a', '*\\', '[!a]',
              '[^a]*', '[a-c-e]', '[*]', '[?]', '*[', '[[]', '\\[a\\]', '[A-Z]', '[a-z]*', '**', '?*?', '*?*?*']:
        tests.append(T(['KEYS', p], 'sorted'))
        tests.append(T(['SCAN', '0', 'MATCH', p, 'COUNT', '1000'], 'scan'))
    gs.append(G('Keyspace', 'fuzz KEYS/SCAN MATCH patterns', tests))

    # EXPIRE option matrix (TTL values spaced far apart to avoid ms races)
    tests = []
    for state in ['none', 'ttl500']:
        for cmd in ['EXPIRE', 'PEXPIRE']:
            for val in [100, 1000]:
                for opts in [[], ['NX'], ['XX'], ['GT'], ['LT'], ['XX', 'GT'], ['XX', 'LT'], ['GT', 'XX'], ['LT', 'XX']]:
                    tests.append(T('SET k v EX 500' if state == 'ttl500' else 'SET k v'))
                    v = val if cmd == 'EXPIRE' else val * 1000
                    tests.append(T([cmd, 'k', str(v)] + opts))
                    tests.append(T('TTL k', 'tol'))
            tests.append(T('SET k v EX 500' if state == 'ttl500' else 'SET k v'))
            tests.append(T(['EXPIREAT', 'k', str(now() + 2000), 'GT']))
            tests.append(T('TTL k', 'tol'))
    gs.append(G('Keyspace', 'EXPIRE option matrix', tests))
    return gs


def limits_groups():
    return [G('Strings', 'large values (>32MB)', [
        T(['SET', 'big', b'x' * (32 << 20)]), T('STRLEN big'),
        T(['SET', 'big', b'x' * (40 << 20)]), T('STRLEN big'),
        T(['APPEND', 'a', b'x' * (20 << 20)]), T(['APPEND', 'a', b'x' * (20 << 20)]), T('STRLEN a'),
        T('SETRANGE s 33554431 x'), T('STRLEN s'), T('SETRANGE s 67108864 x'), T('STRLEN s'),
        T('DEL big a s'),
    ])]


def scan_all(count, extra=()):
    """Iterate SCAN to completion; synthesize a reply: sorted unique keys + duplicate/iteration info."""
    def fn(conn):
        cur = b'0'
        seen = []
        rounds = 0
        while True:
            conn.send(encode(['SCAN', cur, 'COUNT', str(count)] + list(extra)))
            raw, tree = conn.read_reply()
            if tree[0] != '*':
                return raw, tree
            cur = tree[1][0][1]
            seen += [x[1] for x in tree[1][1][1]]
            rounds += 1
            if cur == b'0' or rounds > 10000:
                break
        uniq = sorted(set(seen))
        raw = encode(uniq).replace(b'*', b'*', 1)
        return raw, ('*', [('$', k) for k in uniq])
    return fn


def multi_groups():
    gs = []
    gs.append(G('Keyspace', 'multi-connection SWAPDB/FLUSH/KILL', [
        T('SELECT 1', conn=0), T('SET a db1', conn=0), T('SELECT 0', conn=1), T('SET a db0', conn=1),
        T('SWAPDB 0 1', conn=1), T('GET a', conn=1), T('GET a', conn=0), T('SWAPDB 1 0', conn=0), T('GET a', conn=0),
        T('SET t v EX 100', conn=1), T('SWAPDB 0 1', conn=0), T('TTL t', 'tol', conn=0), T('DBSIZE', conn=1),
        T('FLUSHALL', conn=1), T('DBSIZE', conn=0),
        T('SET shared 1', conn=0), T('INCR shared', conn=1), T('GET shared', conn=0),
        T('CLIENT SETNAME other', conn=1), T('CLIENT GETNAME', conn=0),
        T('CLIENT ID', 'shape', save='id1', conn=1),
        T(['CLIENT', 'KILL', 'ID', Var('id1')], conn=0), T('PING', conn=1), T('PING', conn=1),
        T('CLIENT ID', 'shape', save='id2', conn=2), T(['CLIENT', 'KILL', 'ID', Var('id2'), 'SKIPME', 'no'], conn=0),
        T('PING', conn=2), T('CLIENT KILL ID 99999999', conn=0),
        T('CLIENT ID', 'shape', save='id3', conn=3), T(['CLIENT', 'LIST', 'ID', Var('id3')], 'fields', conn=0),
        T('CLIENT KILL TYPE pubsub', conn=0), T('CLIENT KILL TYPE master', conn=0), T('CLIENT KILL TYPE replica', conn=0),
        T('PING', conn=0),
    ]))
    keys = ['key:%d' % i for i in range(500)] + ['other:%d' % i for i in range(37)]
    gs.append(G('Keyspace', 'SCAN full iteration', [
        T(['MSET'] + sum([[k, 'v'] for k in keys], [])), T('RPUSH list:1 a'), T('SADD set:1 a'),
        T(['COUNT', '1'], fn=scan_all(1)), T(['COUNT', '10'], fn=scan_all(10)), T(['COUNT', '100'], fn=scan_all(100)),
        T(['MATCH', 'other:*', 'COUNT', '7'], fn=scan_all(7, ('MATCH', 'other:*'))),
        T(['TYPE', 'list', 'COUNT', '5'], fn=scan_all(5, ('TYPE', 'list'))),
        T(['TYPE', 'set', 'COUNT', '50'], fn=scan_all(50, ('TYPE', 'set'))),
        T(['MATCH', 'key:1?', 'TYPE', 'string', 'COUNT', '3'], fn=scan_all(3, ('MATCH', 'key:1?', 'TYPE', 'string'))),
        T('DBSIZE'),
    ]))
    gs.append(G('Keyspace', 'COPY/MOVE across DBs', [
        T('SET te v EX 100'), T('COPY te te2 DB 1'), T('SELECT 1'), T('TTL te2', 'tol'), T('GET te2'),
        T('COPY te2 te DB 0'), T('COPY te2 te DB 0 REPLACE'), T('SELECT 0'), T('TTL te', 'tol'),
        T('SET m v'), T('MOVE m 1'), T('MOVE m 1'), T('MOVE missing 1'), T('SET m v'), T('MOVE m 0'), T('MOVE m 16'),
        T('MOVE m abc'), T('MOVE m'), T('SELECT 1'), T('MOVE m 0'), T('SELECT 0'), T('GET m'),
        T('SELECT 5'), T('SET r 1'), T('RENAME r r2'), T('GET r2'), T('KEYS *'), T('DBSIZE'), T('FLUSHDB'), T('SELECT 0'),
    ]))
    return gs


def more_groups():
    gs = []
    gs.append(G('Connection', 'subscribe context', [
        T('SUBSCRIBE ch'), T('PING'), T('PING x'), T('GET k'), T('SET k v'), T('ECHO x'), T('SELECT 1'),
        T('CLIENT ID', 'shape'), T('UNSUBSCRIBE ch'), T('PING'), T('SUBSCRIBE a b', nrep=2), T('RESET'), T('PING'),
        T('HELLO 3', 'hello'), T('SUBSCRIBE ch'), T('PING'), T('GET k'), T('RESET'),
    ]))
    pat = '*a' * 20 + '*b'
    gs.append(G('Keyspace', 'pathological patterns / many args', [
        T(['SET', 'a' * 60, '1']), T(['KEYS', pat]), T(['SCAN', '0', 'MATCH', pat, 'COUNT', '100']),
        T(['KEYS', '[' * 200]), T(['KEYS', '\\' * 201]), T(['KEYS', '*' * 5000]), T(['KEYS', '?' * 60]),
        T(['EXISTS'] + ['x'] * 2000), T(['SET', 'x', '1']), T(['EXISTS'] + ['x'] * 2000), T(['DEL'] + ['x'] * 2000),
        T(['MGET'] + ['k%d' % i for i in range(3000)]), T(['TOUCH'] + ['k%d' % i for i in range(3000)]),
        T(['UNLINK'] + ['k%d' % i for i in range(3000)]), T(['ECHO', b'e' * 1000000]),
        T(['SETEX', 'l', '100', 'v']), T('RPUSH lst a'), T('SETEX lst 100 v'), T('TYPE lst'), T('RPUSH lst2 a'),
        T('PSETEX lst2 100000 v'), T('TYPE lst2'), T('RPUSH lst3 a'), T('MSETNX lst3 v new v'), T('EXISTS new'),
        T('RPUSH lst4 a'), T('GETEX lst4 PERSIST'), T('RPUSH lst5 a'), T('GETDEL lst5'), T('EXISTS lst5'),
        T('SET k v EX 100'), T('GETEX k'), T('TTL k', 'tol'), T('SET k v2 KEEPTTL GET'), T('TTL k', 'tol'),
        T('SET nk v KEEPTTL'), T('TTL nk'),
    ]))
    return gs


def protocol_tests():
    P_ = P
    tests = [
        P_('inline PING', b'PING\r\n'),
        P_('inline PING LF only', b'PING\n'),
        P_('inline SET quoted', b'SET a "b c"\r\nGET a\r\n'),
        P_('inline single quotes', b"SET a 'b c'\r\nGET a\r\n"),
        P_('inline escapes in dquotes', b'SET a "x\\x41\\n\\t\\\\y"\r\nGET a\r\n'),
        P_('inline unbalanced quotes', b'SET a "b c\r\n'),
        P_('inline unbalanced single quote', b"SET a 'b\r\n"),
        P_('inline quote followed by char', b'SET a "b"c\r\n'),
        P_('inline empty quoted arg', b'SET a ""\r\nSTRLEN a\r\n'),
        P_('inline multiple spaces', b'  SET   a    b  \r\nGET a\r\n'),
        P_('inline tabs', b'SET\ta\tb\r\nGET a\r\n'),
        P_('empty lines', b'\r\n\r\nPING\r\n'),
        P_('only spaces line', b'   \r\nPING\r\n'),
        P_('inline unknown cmd', b'FOO bar\r\n'),
        P_('inline lower case', b'ping\r\n'),
        P_('inline wrong arity', b'GET\r\n'),
        P_('multibulk *-5', b'*-5\r\nPING\r\n'),
        P_('multibulk *-1', b'*-1\r\n*1\r\n$4\r\nPING\r\n'),
        P_('multibulk *0', b'*0\r\n*1\r\n$4\r\nPING\r\n'),
        P_('multibulk *abc', b'*abc\r\n'),
        P_('multibulk *1x', b'*1x\r\n'),
        P_('multibulk * empty', b'*\r\n'),
        P_('multibulk huge count', b'*1048577\r\n'),
        P_('multibulk 2147483648', b'*2147483648\r\n'),
        P_('bulk $-2', b'*1\r\n$-2\r\n'),
        P_('bulk $-1', b'*1\r\n$-1\r\n'),
        P_('bulk $abc', b'*1\r\n$abc\r\n'),
        P_('bulk $ empty', b'*1\r\n$\r\n'),
        P_('bulk $600000000', b'*1\r\n$600000000\r\n'),
        P_('bulk $536870913', b'*2\r\n$3\r\nGET\r\n$536870913\r\n'),
        P_('bulk missing $ sign', b'*1\r\n4\r\nPING\r\n'),
        P_('bulk wrong type char', b'*1\r\n:4\r\nPING\r\n'),
        P_('bulk length mismatch (short)', b'*1\r\n$3\r\nPING\r\n'),
        P_('bulk without CRLF terminator', b'*1\r\n$4\r\nPINGxx*1\r\n$4\r\nPING\r\n'),
        P_('bulk $0 command', b'*1\r\n$0\r\n\r\n'),
        P_('pipelined ok then bad', b'*1\r\n$4\r\nPING\r\n*1\r\n$x\r\n'),
        P_('multibulk LF only', b'*1\n$4\nPING\n'),
        P_('multibulk +1', b'*+1\r\n$4\r\nPING\r\n'),
        P_('bulk $+4', b'*1\r\n$+4\r\nPING\r\n'),
        P_('bulk $04', b'*1\r\n$04\r\nPING\r\n'),
        P_('multibulk *01', b'*01\r\n$4\r\nPING\r\n'),
        P_('multibulk *1 then inline', b'*1\r\nPING\r\n'),
        P_('inline after multibulk', b'*1\r\n$4\r\nPING\r\nPING\r\n'),
        P_('QUIT multibulk', b'*1\r\n$4\r\nQUIT\r\n'),
        P_('QUIT inline', b'QUIT\r\n'),
        P_('pipeline many', b'*1\r\n$4\r\nPING\r\n' * 50),
        P_('inline with NUL', b'ECHO a\x00b\r\n', mode='accept'),
        P_('inline big', b'ECHO ' + b'x' * 70000 + b'\r\n'),
        P_('inline newline in middle LF', b'SET a b\nGET a\n'),
        P_('inline CR only', b'PING\rPING\r\n'),
        P_('byte-by-byte multibulk', b'*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nhe\x00lo\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n', chunk=1),
        P_('byte-by-byte inline', b'SET a "b c"\r\nGET a\r\n', chunk=1),
        P_('1MB bulk in 1000-byte chunks', b'*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1048576\r\n' + b'z' * 1048576 + b'\r\n*2\r\n$6\r\nSTRLEN\r\n$1\r\nk\r\n', chunk=65536),
        P_('inline too big without newline', b'ECHO ' + b'x' * 70000),
        P_('inline quoted bad hex', b'SET a "\\x4g"\r\nGET a\r\n'),
        P_('inline quoted empty command', b'""\r\n'),
        P_('inline quoted command', b'"PING"\r\n'),
        P_('inline quoted with NUL escape', b'SET a "x\\x00y"\r\nSTRLEN a\r\n'),
        P_('multibulk with only CR', b'*1\r$4\r\nPING\r\n'),
        P_('bulk with trailing garbage', b'*1\r\n$4\r\nPINGab\r\n'),
        P_('multibulk count too large vs data then PING', b'*3\r\n$3\r\nGET\r\n$1\r\nk\r\n'),
        P_('RESP3 HELLO then nulls', b'*2\r\n$5\r\nHELLO\r\n$1\r\n3\r\n*2\r\n$3\r\nGET\r\n$7\r\nmissing\r\n*3\r\n$4\r\nMGET\r\n$1\r\na\r\n$1\r\nb\r\n', mode='hello'),
        P_('multibulk bulk exceeds 512MB', b'*1\r\n$536870912\r\n'),
        P_('multibulk bulk exactly proto max', b'*1\r\n$536870911\r\n'),
        P_('multibulk negative zero', b'*-0\r\n*1\r\n$4\r\nPING\r\n'),
        P_('bulk $-0', b'*1\r\n$-0\r\n'),
        P_('multibulk *1 with space', b'*1 \r\n$4\r\nPING\r\n'),
        P_('bulk $4 with space', b'*1\r\n$4 \r\nPING\r\n'),
        P_('pipeline mixed errors', b'*1\r\n$4\r\nPING\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n*1\r\n$3\r\nGET\r\n'
           b'SET k "v v"\r\n*3\r\n$6\r\nINCRBY\r\n$1\r\nk\r\n$1\r\n1\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n'
           b'NOSUCH\r\n*1\r\n$4\r\nPING\r\n'),
        P_('pipeline error then protocol error', b'*1\r\n$3\r\nGET\r\n*1\r\n$4\r\nPING\r\n*x\r\n*1\r\n$4\r\nPING\r\n'),
        P_('QUIT in pipeline stops processing', b'*1\r\n$4\r\nPING\r\n*1\r\n$4\r\nQUIT\r\n*1\r\n$4\r\nPING\r\n'),
        P_('inline then multibulk mixed', b'SET a 1\r\n*2\r\n$4\r\nINCR\r\n$1\r\na\r\nGET a\r\n'),
    ]
    return tests

# --------------------------------------------------------------------------
# Runner
# --------------------------------------------------------------------------

class Result:
    def __init__(self):
        self.genuine = []   # (family, group, label, a, b, note)
        self.accept = []
        self.total = 0
        self.equal = 0


def one(conn, t):
    """execute single test on conn; returns (raw, tree) or ('<TIMEOUT>', None) etc."""
    if t.fn is not None:
        try:
            return t.fn(conn)
        except Timeout:
            return b'<TIMEOUT: no reply>', None
        except Closed:
            return b'<CONNECTION CLOSED>', None
    data = t.render(conn)
    try:
        conn.send(data)
        raw, tree = conn.read_reply()
        for _ in range(t.nrep - 1):
            r2, t2 = conn.read_reply()
            raw += r2
            tree = ('*', [tree, t2])
    except Timeout:
        return b'<TIMEOUT: no reply>', None
    except Closed:
        return b'<CONNECTION CLOSED>', None
    if t.save and tree is not None and tree[0] in '$=:' and tree[1] is not None:
        conn.vars[t.save] = tree[1]
    return raw, tree


def compare(t, ra, ta, rb, tb):
    """returns 'eq', 'acc', 'gen'"""
    if ra == rb:
        return 'eq'
    if t.mode == 'ignore':
        return 'eq'
    if ta is None or tb is None:
        return 'gen'
    if t.mode == 'accept':
        return 'acc'
    if t.mode == 'tol':
        return 'eq' if approx_eq(ta, tb, t.tol) else 'gen'
    if t.mode == 'sorted':
        return 'eq' if sort_tree(ta) == sort_tree(tb) else 'gen'
    if t.mode == 'scan':
        return 'eq' if scan_norm(ta) == scan_norm(tb) else 'gen'
    if t.mode == 'pairs':
        if pairs_sorted(ta) == pairs_sorted(tb):
            return 'eq'
        return 'acc' if shape(ta) == shape(tb) else 'gen'
    if t.mode == 'shape':
        return 'acc' if shape(ta) == shape(tb) else 'gen'
    if t.mode == 'hello':
        if hello_norm(ta) == hello_norm(tb):
            return 'acc'
        return 'gen'
    if t.mode == 'cfgkeys':
        def keys(tr):
            tt, v = pairs_sorted(tr)
            if tt in '*%' and v is not None:
                return (tt, [v[i] for i in range(0, len(v), 2)])
            return tr
        if keys(ta) == keys(tb):
            return 'acc'
        return 'gen'
    if t.mode == 'cmdinfo':
        if cmdinfo_norm(ta) == cmdinfo_norm(tb):
            return 'acc'
        return 'gen'
    if t.mode == 'fields':
        return 'acc' if shape(ta) == shape(tb) else 'gen'
    return 'gen'


def run_group(g, pa, pb, res, verbose):
    sides = []
    for p in (pa, pb):
        c = Conn(p)
        c.send(encode(['FLUSHALL']))
        c.read_reply()
        sides.append({'port': p, 'conns': {0: c}, 'vars': {}})
        c.vars = sides[-1]['vars']

    def get(side, idx):
        c = side['conns'].get(idx)
        if c is None:
            c = Conn(side['port'])
            c.vars = side['vars']
            side['conns'][idx] = c
        return c

    for t in g.tests:
        res.total += 1
        if t.sleep:
            time.sleep(t.sleep)
        ca, cb = get(sides[0], t.conn), get(sides[1], t.conn)
        ra, ta = one(ca, t)
        rb, tb = one(cb, t)
        verdict = compare(t, ra, ta, rb, tb)
        entry = (g.family, g.name, t.label(), ra, rb, t.note)
        if verdict == 'eq':
            res.equal += 1
        elif verdict == 'acc':
            res.accept.append(entry)
        else:
            res.genuine.append(entry)
        if verbose:
            print('%s %-40s A=%s B=%s' % ({'eq': '  ', 'acc': '~ ', 'gen': '!!'}[verdict], t.label()[:40], esc(ra)[:80], esc(rb)[:80]))
        # a side that timed out or was closed gets a fresh connection for that slot
        for side, r in ((sides[0], ra), (sides[1], rb)):
            if r.startswith(b'<TIMEOUT') or r.startswith(b'<CONNECTION'):
                side['conns'][t.conn].close()
                del side['conns'][t.conn]
    for side in sides:
        for c in side['conns'].values():
            c.close()


def run_protocol(t, port):
    c = Conn(port)
    c.send(encode(['FLUSHALL']))
    c.read_reply()
    try:
        if t.chunk:
            for i in range(0, len(t.payload), t.chunk):
                c.send(t.payload[i:i + t.chunk])
                time.sleep(0.003)
        else:
            c.send(t.payload)
        out1, closed1 = c.collect()
    except Closed:
        out1, closed1 = b'', True
    out2, closed2 = b'', closed1
    if not closed1 and t.then:
        try:
            c.send(t.then)
            out2, closed2 = c.collect()
        except Closed:
            closed2 = True
    c.close()
    return (out1, closed1, out2, closed2)


def proto_hello_norm(r):
    def n(b):
        b = re.sub(rb'\$7\r\nversion\r\n\$\d+\r\n[^\r]*\r\n', b'<version>', b)
        return re.sub(rb'\$2\r\nid\r\n:\d+\r\n', b'<id>', b)
    return (n(r[0]), r[1], n(r[2]), r[3])


def fmt_proto(r):
    out1, c1, out2, c2 = r
    s = esc(out1)
    if len(s) > 300:
        s = s[:300] + '...(%d bytes)' % len(out1)
    s += ' [CLOSED]' if c1 else ''
    if not c1:
        s += ' || then PING -> ' + esc(out2)[:200] + (' [CLOSED]' if c2 else ' [open]')
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--a', type=int, default=7701, help='this server port')
    ap.add_argument('--b', type=int, default=7702, help='reference redis port')
    ap.add_argument('--only', default=None)
    ap.add_argument('-v', action='store_true')
    args = ap.parse_args()
    res = Result()
    groups = string_groups() + keyspace_groups() + connection_groups() + server_groups() + resp3_groups() + extra_groups() + fuzz_groups() + limits_groups() + multi_groups() + more_groups()
    for g in groups:
        if args.only and args.only.lower() not in (g.family + ' ' + g.name).lower():
            continue
        if args.v:
            print('=== %s / %s' % (g.family, g.name))
        run_group(g, args.a, args.b, res, args.v)
    for t in protocol_tests():
        if args.only and args.only.lower() not in ('protocol ' + t.name).lower():
            continue
        res.total += 1
        ra = run_protocol(t, args.a)
        rb = run_protocol(t, args.b)
        if args.v:
            print('%s PROTO %s\n   A=%s\n   B=%s' % ('  ' if ra == rb else '!!', t.name, fmt_proto(ra), fmt_proto(rb)))
        if ra == rb:
            res.equal += 1
        elif t.mode == 'hello' and proto_hello_norm(ra) == proto_hello_norm(rb):
            res.equal += 1
        elif t.mode == 'accept':
            res.accept.append(('Protocol', t.name, 'RAW ' + esc(t.payload)[:120], fmt_proto(ra), fmt_proto(rb), ''))
        else:
            res.genuine.append(('Protocol', t.name, 'RAW ' + esc(t.payload)[:120], fmt_proto(ra), fmt_proto(rb), ''))
    print('\n#### Summary: %d commands, %d identical, %d genuine mismatches, %d acceptable differences\n'
          % (res.total, res.equal, len(res.genuine), len(res.accept)))
    print('#### GENUINE MISMATCHES')
    for fam, grp, lab, a, b, note in res.genuine:
        print('[%s / %s] %s' % (fam, grp, lab))
        print('    this : %s' % (a if isinstance(a, str) else esc(a)))
        print('    redis: %s' % (b if isinstance(b, str) else esc(b)))
    print('\n#### ACCEPTABLE DIFFERENCES')
    for fam, grp, lab, a, b, note in res.accept:
        sa, sb = esc(a), esc(b)
        print('[%s / %s] %s\n    this : %s\n    redis: %s' % (fam, grp, lab, sa[:200], sb[:200]))


if __name__ == '__main__':
    main()
