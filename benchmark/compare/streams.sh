#!/usr/bin/env bash
# Streams against Redis (issue 22's measurements): XADD at batch 64 over 4 connections and at batch 1 over 50, XRANGE of
# 10 entries at both, consumers of one group reading and acknowledging (XREADGROUP COUNT 10 + XACK, 4 connections), and
# memory per entry for 1M entries of three fields (12-byte values). Each round starts each server afresh, in an order
# that alternates from round to round; servers on core 0, the load (Resp.benchmark, StreamConsumers) on core 1. A fresh
# server first runs each load for WARMUP seconds on other keys, so that this server's code is compiled before it is
# measured. XADD appends to one stream; XRANGE reads the first ten entries of 1,000 streams of ten.
#
#   benchmark/compare/streams.sh [ROUNDS] [RUNTIME]
#
# REDIS=path/to/redis-server (default: the one on the PATH). Prints each run, then the median per system and load.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ROUNDS=${1:-3}
RUNTIME=${2:-5}
WARMUP=${WARMUP:-4}
DIR=${DIR:-/tmp/streams-bench}
REDIS=${REDIS:-$(command -v redis-server)}
CLI=${CLI:-$(command -v redis-cli)}
OURS="$ROOT/src/GarnetServer/bin/Release/net10.0/GarnetServer"
CONSUMERS="$ROOT/benchmark/compare/StreamConsumers/bin/Release/net10.0/StreamConsumers"
RESPBENCH="$ROOT/benchmark/Resp.benchmark/bin/Release/net10.0/Resp.benchmark"
[ -x "$OURS" ] || { echo "streams.sh: build src/GarnetServer -c Release first" >&2; exit 1; }
[ -x "$CONSUMERS" ] || { echo "streams.sh: build benchmark/compare/StreamConsumers -c Release first" >&2; exit 1; }
[ -x "$RESPBENCH" ] || { echo "streams.sh: build benchmark/Resp.benchmark -c Release first" >&2; exit 1; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 200); do (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null && return 0; sleep 0.05; done; return 1; }

start() { # system port -> pid
    rm -rf "$DIR"; mkdir -p "$DIR"
    case "$1" in
        ours) taskset -c 0 "$OURS" --port "$2" --checkpointdir "$DIR" -q > "$DIR.log" 2>&1 & ;;
        redis) taskset -c 0 "$REDIS" --port "$2" --dir "$DIR" --save '' --appendonly no > "$DIR.log" 2>&1 & ;;
    esac
    echo $!
}

stop() { kill "$1" 2> /dev/null || true; wait "$1" 2> /dev/null || true; }

# ops/s of one Resp.benchmark run: port op clients batch dbsize keylength seconds [--skipload]. Key lengths keep the
# loads' keys apart: 7 for the warm-up, 8 for XADD's stream (00000000), 9 for XRANGE's.
ops() {
    local port=$1 op=$2 clients=$3 batch=$4 dbsize=$5 keylength=$6 seconds=$7
    shift 7
    taskset -c 1 "$RESPBENCH" --port "$port" --op "$op" --threads 1 --clients "$clients" --batchsize "$batch" \
        --dbsize "$dbsize" --keylength "$keylength" --valuelength 12 --runtime "$seconds" "$@" 2>&1 | grep -o 'ops/s=[0-9]*' | tail -1 | cut -d= -f2
}

RESULTS=$(mktemp)
record() { echo "round $1 $2 $3 $4"; echo "$2 $3 $4" >> "$RESULTS"; }

for round in $(seq 1 "$ROUNDS"); do
    if (( round % 2 )); then systems=(ours redis); else systems=(redis ours); fi
    for system in "${systems[@]}"; do
        port=$(free_port)
        pid=$(start "$system" "$port")
        wait_port "$port" || { echo "$system did not start: $(cat "$DIR.log")" >&2; exit 1; }
        # Warm-up, on other keys.
        ops "$port" XADD 4 64 1 7 "$WARMUP" > /dev/null
        ops "$port" XADD 50 1 1 7 "$WARMUP" --skipload > /dev/null
        ops "$port" XRANGE 50 1 1000 7 "$WARMUP" > /dev/null
        ops "$port" XRANGE 4 64 1000 7 "$WARMUP" --skipload > /dev/null
        "$CLI" -p "$port" XGROUP CREATE 0000000 wg 0 > /dev/null
        taskset -c 1 "$CONSUMERS" "$port" 0000000 wg 4 10 "$WARMUP" > /dev/null

        record "$round" "$system" xadd-b64x4 "$(ops "$port" XADD 4 64 1 8 "$RUNTIME")"
        record "$round" "$system" xadd-b1x50 "$(ops "$port" XADD 50 1 1 8 "$RUNTIME" --skipload)"
        record "$round" "$system" xrange10-b1x50 "$(ops "$port" XRANGE 50 1 1000 9 "$RUNTIME")"
        record "$round" "$system" xrange10-b64x4 "$(ops "$port" XRANGE 4 64 1000 9 "$RUNTIME" --skipload)"
        # The consumers read the entries the two XADD runs appended.
        "$CLI" -p "$port" XGROUP CREATE 00000000 g 0 > /dev/null
        consumed=$(taskset -c 1 "$CONSUMERS" "$port" 00000000 g 4 10 "$RUNTIME" | grep -o 'entries/s=[0-9]*' | cut -d= -f2)
        record "$round" "$system" xreadgroup10+xack "$consumed"
        stop "$pid"

        # Memory: 1M entries of three fields in one stream of a fresh server.
        port=$(free_port)
        pid=$(start "$system" "$port")
        wait_port "$port" || { echo "$system did not start: $(cat "$DIR.log")" >&2; exit 1; }
        taskset -c 1 "$RESPBENCH" --port "$port" --op XADD --threads 1 --clients 4 --batchsize 64 --dbsize 1 --keylength 8 \
            --valuelength 12 --totalops 1000000 --skipload > /dev/null 2>&1
        length=$("$CLI" -p "$port" XLEN 00000000)
        usage=$("$CLI" -p "$port" MEMORY USAGE 00000000 SAMPLES 0)
        record "$round" "$system" bytes-per-entry "$(( usage / length ))"
        stop "$pid"
    done
done

echo
echo "median over $ROUNDS rounds (ops/s; entries/s for the consumers; bytes per entry by MEMORY USAGE)"
for load in xadd-b64x4 xadd-b1x50 xrange10-b1x50 xrange10-b64x4 xreadgroup10+xack bytes-per-entry; do
    line="$load"
    for system in ours redis; do
        median=$(awk -v s="$system" -v l="$load" '$1 == s && $2 == l { print $3 }' "$RESULTS" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
        line="$line $system=$median"
    done
    echo "$line"
done
rm -f "$RESULTS"
rm -rf "$DIR"
