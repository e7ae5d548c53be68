#!/usr/bin/env bash
# Differential test: sends the same ~3,000 commands (strings, keyspace, connection, server, RESP3, raw protocol)
# to this server and to redis-server and prints every reply that differs, split into genuine mismatches and
# expected differences (INFO contents, ids, DUMP payloads...). Not part of CI: it needs redis-server.
#
#   test/redis-diff/run.sh [--only SUBSTR] [-v]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
for tool in redis-server redis-cli python3 dotnet; do
    command -v "$tool" > /dev/null || { echo "run.sh: $tool not found (apt-get install -y redis-server redis-tools)" >&2; exit 1; }
done
dotnet build "$ROOT/src/GarnetServer" -c Release -nologo -v q > /dev/null
WORK=$(mktemp -d)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
THIS_PORT=$(free_port)
REDIS_PORT=$(free_port)
"$ROOT/src/GarnetServer/bin/Release/net10.0/GarnetServer" --port "$THIS_PORT" --quiet > "$WORK/this.log" 2>&1 &
THIS_PID=$!
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$WORK" > "$WORK/redis.log" 2>&1 &
REDIS_PID=$!
trap 'kill $THIS_PID $REDIS_PID 2> /dev/null || true; wait 2> /dev/null || true; rm -rf "$WORK"' EXIT
for port in "$THIS_PORT" "$REDIS_PORT"; do
    for _ in $(seq 1 100); do
        [ "$(redis-cli -p "$port" ping 2> /dev/null)" = "PONG" ] && break
        sleep 0.1
    done
done
python3 "$ROOT/test/redis-diff/diff.py" --a "$THIS_PORT" --b "$REDIS_PORT" "$@"
