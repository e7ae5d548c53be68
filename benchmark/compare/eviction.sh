#!/usr/bin/env bash
# Memory and eviction measurements of this server next to redis-server (and, with --garnet DIR, real
# Garnet for bytes per key), run side by side in alternating rounds. Prints a Markdown table.
#
#   benchmark/compare/eviction.sh [--rounds N] [--keys LIST] [--runtime S] [--garnet DIR] [--only PART]
#
# Parts (--only bytes|overwrite|zipf|expiry|baseline):
#   bytes      bytes per key after loading N keys (11-byte keys, 64-byte values) from RSS, for each N in --keys.
#   overwrite  SET of random sizes (10-600 bytes) over 200,000 keys (about 61 MB of values) with maxmemory
#              128 MB (twice the live data) and allkeys-lru: throughput and errors.
#   zipf       1 SET : 9 GET, zipf(0.99) keys, over a keyspace 4x the budget (400,000 keys of 300 bytes,
#              maxmemory 32 MB, allkeys-lru): keyspace hit ratio after a warm-up of 3M zipf SETs.
#   expiry     used_memory 15 s after 1M SETEX of one second; refused SETs in rounds of 200k one-second keys
#              under maxmemory 64mb noeviction.
#   baseline   GET and SET at batch 64 against the server built from --baseline-commit (default e2d0602),
#              the build before the log-lifecycle work: alternating rounds, best of each.
#
# --rounds N   rounds per part, alternating the servers (default 3); each server's best round is kept.
# --garnet DIR a directory with garnet-server 2.2.8 (dotnet tool install --tool-path DIR garnet-server
#              --version 2.2.8), measured for bytes per key only (it has no maxmemory policies).
#
# Servers are pinned to core 0 and the load generator to core 1 (taskset), on free loopback ports.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ROUNDS=3
KEYS="1000000 10000000"
RUNTIME=15
GARNET_DIR=""
ONLY=""
BASELINE_COMMIT=e2d0602

while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) ROUNDS="$2"; shift ;;
        --keys) KEYS="$2"; shift ;;
        --runtime) RUNTIME="$2"; shift ;;
        --garnet) GARNET_DIR="$2"; shift ;;
        --only) ONLY="$2"; shift ;;
        --baseline-commit) BASELINE_COMMIT="$2"; shift ;;
        -h | --help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
    shift
done

for tool in redis-server redis-cli dotnet taskset; do
    command -v "$tool" > /dev/null || { echo "eviction.sh: $tool not found (apt-get install -y redis-server redis-tools)" >&2; exit 1; }
done

WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null || true; rm -rf "$WORK"' EXIT

dotnet build "$ROOT/src/GarnetServer" -c Release -nologo -v q > "$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; exit 1; }
dotnet build "$ROOT/benchmark/Resp.benchmark" -c Release -nologo -v q >> "$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; exit 1; }
OURS="$ROOT/src/GarnetServer/bin/Release/net10.0/GarnetServer"
LOAD="$ROOT/benchmark/Resp.benchmark/bin/Release/net10.0/Resp.benchmark"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

PID=""
PORT=""
# start_server KIND [maxmemory policy]: KIND is ours, redis, garnet or baseline.
start_server() {
    local kind=$1 maxmemory=${2:-0} policy=${3:-noeviction}
    PORT=$(free_port)
    case "$kind" in
        ours) taskset -c 0 "$OURS" --port "$PORT" --memory 4g --maxmemory "$maxmemory" --maxmemory-policy "$policy" > "$WORK/server.log" 2>&1 & ;;
        baseline) taskset -c 0 "$WORK/baseline/GarnetServer" --port "$PORT" > "$WORK/server.log" 2>&1 & ;;
        redis) taskset -c 0 redis-server --port "$PORT" --save "" --appendonly no --maxmemory "$maxmemory" --maxmemory-policy "$policy" > "$WORK/server.log" 2>&1 & ;;
        garnet) taskset -c 0 "$GARNET_DIR/garnet-server" --port "$PORT" > "$WORK/server.log" 2>&1 & ;;
    esac
    PID=$!
    for _ in $(seq 1 100); do
        redis-cli -p "$PORT" PING > /dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "server $kind did not start:" >&2
    cat "$WORK/server.log" >&2
    exit 1
}

stop_server() {
    kill "$PID" 2> /dev/null || true
    wait "$PID" 2> /dev/null || true
}

rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$PID/status"; }
info_field() { redis-cli -p "$PORT" INFO all | tr -d '\r' | awk -F: -v f="$1" '$1 == f {print $2}'; }
# load ARGS...: runs Resp.benchmark on core 1 and prints its result line.
load() { taskset -c 1 "$LOAD" --port "$PORT" "$@" 2> "$WORK/load.err" | grep -E '^(offline|online) ' | tail -1; }
field() { sed -n "s|.* $1=\([^ ]*\).*|\1|p"; }
best() { sort -g | tail -1; }

echo "| measurement | this server | Redis $(redis-server --version | sed -n 's/.*v=\([^ ]*\).*/\1/p') | notes |"
echo "| --- | --- | --- | --- |"

if [ -z "$ONLY" ] || [ "$ONLY" = bytes ]; then
    for n in $KEYS; do
        declare -A perkey=()
        kinds="ours redis"
        [ -n "$GARNET_DIR" ] && kinds="$kinds garnet"
        for round in $(seq 1 "$ROUNDS"); do
            for kind in $kinds; do
                start_server "$kind"
                before=$(rss_kb)
                # The preload writes every key once (SET, 11-byte keys, 64-byte values); one GET follows.
                load --op GET --dbsize "$n" --keylength 11 --valuelength 64 --totalops 1 --threads 1 > /dev/null
                sleep 1
                after=$(rss_kb)
                keys=$(redis-cli -p "$PORT" DBSIZE)
                stop_server
                value=$(( (after - before) * 1024 / keys ))
                # The lowest of the rounds: RSS only ever gains from noise.
                if [ -z "${perkey[$kind]:-}" ] || [ "$value" -lt "${perkey[$kind]}" ]; then perkey[$kind]=$value; fi
            done
        done
        note="RSS growth / DBSIZE, best of $ROUNDS"
        [ -n "$GARNET_DIR" ] && note="$note; real Garnet 2.2.8: ${perkey[garnet]} B/key"
        echo "| bytes per key, $n keys | ${perkey[ours]} | ${perkey[redis]} | $note |"
        unset perkey
    done
fi

if [ -z "$ONLY" ] || [ "$ONLY" = overwrite ]; then
    ours_best=""; redis_best=""; ours_errors=0; redis_errors=0
    for round in $(seq 1 "$ROUNDS"); do
        for kind in ours redis; do
            start_server "$kind" 128mb allkeys-lru
            line=$(load --op SET --dbsize 200000 --keylength 11 --valuelength 10 --valuelength-max 600 --batchsize 64 --threads 1 --clients 4 --runtime "$RUNTIME")
            ops=$(echo "$line" | field 'ops/s'); errors=$(echo "$line" | field errors)
            evicted=$(info_field evicted_keys)
            stop_server
            if [ "$kind" = ours ]; then
                ours_errors=$((ours_errors + errors)); ours_best=$(printf '%s\n%s\n' "$ours_best" "$ops" | best); ours_evicted=$evicted
            else
                redis_errors=$((redis_errors + errors)); redis_best=$(printf '%s\n%s\n' "$redis_best" "$ops" | best); redis_evicted=$evicted
            fi
        done
    done
    echo "| random-size overwrite, maxmemory 128mb allkeys-lru, ops/s | $ours_best (errors $ours_errors, evicted $ours_evicted) | $redis_best (errors $redis_errors, evicted $redis_evicted) | ratio $(python3 -c "print(f'{$ours_best/$redis_best:.2f}')"); best of $ROUNDS, ${RUNTIME}s each |"
fi

if [ -z "$ONLY" ] || [ "$ONLY" = zipf ]; then
    ours_ratio=""; redis_ratio=""
    for round in $(seq 1 "$ROUNDS"); do
        for kind in ours redis; do
            start_server "$kind" 32mb allkeys-lru
            # The warm-up writes 3,000,000 zipf-sampled keys (GET misses do not fill a cache here, so the keys
            # must come from writes); the measured run samples another sequence (another seed).
            load --op SET --dbsize 400000 --keylength 11 --valuelength 300 --zipf 0.99 --batchsize 64 --threads 1 --totalops 3000000 --skipload > /dev/null
            redis-cli -p "$PORT" CONFIG RESETSTAT > /dev/null
            load --op SETGET --dbsize 400000 --keylength 11 --valuelength 300 --zipf 0.99 --batchsize 64 --threads 1 --runtime "$RUNTIME" --skipload --seed 99 > /dev/null
            hits=$(info_field keyspace_hits); misses=$(info_field keyspace_misses)
            stop_server
            ratio=$(python3 -c "print(f'{100*$hits/($hits+$misses):.1f}')")
            if [ "$kind" = ours ]; then ours_ratio="$ours_ratio $ratio"; else redis_ratio="$redis_ratio $ratio"; fi
        done
    done
    echo "| zipf(0.99) 1 SET : 9 GET, keyspace 4x maxmemory 32mb, allkeys-lru: hit ratio % per round | $ours_ratio | $redis_ratio | keyspace_hits / (hits + misses) |"
fi

if [ -z "$ONLY" ] || [ "$ONLY" = expiry ]; then
    declare -A grown=() refused=()
    for kind in ours redis; do
        # 1,000,000 SETEX of 1 second (64-byte values, keys sampled from 1M), then 15 s with no commands.
        start_server "$kind"
        before=$(info_field used_memory)
        load --op SETEX --ttl 1 --dbsize 1000000 --keylength 11 --valuelength 64 --totalops 1000000 --skipload --batchsize 64 --threads 1 > /dev/null
        sleep 15
        after=$(info_field used_memory)
        stop_server
        grown[$kind]=$(( (after - before) / 1024 ))
        # Rounds of 200,000 SETEX of 1 second under maxmemory 64mb and noeviction, 1.5 s apart.
        start_server "$kind" 64mb noeviction
        errors=""
        for round in 1 2 3 4 5; do
            line=$(load --op SETEX --ttl 1 --dbsize 1000000 --keylength 11 --valuelength 200 --totalops 200000 --skipload --batchsize 64 --threads 1)
            errors="$errors $(echo "$line" | field errors)"
            sleep 1.5
        done
        stop_server
        refused[$kind]=$errors
    done
    echo "| used_memory 15 s after 1M SETEX of 1 s (KB above start) | ${grown[ours]} | ${grown[redis]} | no maxmemory |"
    echo "| refused SETs per round, 5 rounds of 200k SETEX 1 s under 64mb noeviction | ${refused[ours]} | ${refused[redis]} | 200-byte values, 1.5 s apart |"
    unset grown refused
fi

if [ -z "$ONLY" ] || [ "$ONLY" = baseline ]; then
    git -C "$ROOT" worktree add -f "$WORK/src" "$BASELINE_COMMIT" > /dev/null 2>&1
    dotnet build "$WORK/src/src/GarnetServer" -c Release -nologo -v q -o "$WORK/baseline" > "$WORK/baseline.log" 2>&1 || { cat "$WORK/baseline.log" >&2; exit 1; }
    git -C "$ROOT" worktree remove --force "$WORK/src" > /dev/null 2>&1 || true
    for op in GET SET; do
        declare -A bestops=()
        for round in $(seq 1 "$ROUNDS"); do
            for kind in ours baseline; do
                start_server "$kind"
                line=$(load --op "$op" --dbsize 1024 --keylength 8 --valuelength 8 --batchsize 64 --threads 1 --clients 4 --runtime "$RUNTIME")
                stop_server
                ops=$(echo "$line" | field 'ops/s')
                bestops[$kind]=$(printf '%s\n%s\n' "${bestops[$kind]:-}" "$ops" | best)
            done
        done
        echo "| $op batch 64, ops/s vs $BASELINE_COMMIT | ${bestops[ours]} | — | $BASELINE_COMMIT: ${bestops[baseline]}, ratio $(python3 -c "print(f'{${bestops[ours]}/${bestops[baseline]}:.3f}')") |"
        unset bestops
    done
fi
