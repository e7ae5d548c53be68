#!/usr/bin/env bash
# A 50/50 GET/SET load over a data set larger than memory (the storage tier), with log compaction running and
# without it: the same server build started twice (one with --compaction-freq 1, one with 0), each loaded once, then
# measured in alternating rounds (on, off, off, on, ...). The SETs overwrite keys, so the log grows and the compacting
# server keeps copying the live records of its oldest files to the tail and deleting those files.
#
#   benchmark/compare/compaction.sh SERVER [ROUNDS] [RUNTIME]
#
# DBSIZE (1000000), VALUELENGTH (100), MEMORY (32m), SEGMENT (16m), MAX_SEGMENTS (12: about 1.5x the live data),
# COMPACTION_TYPE (Lookup). Servers on core 0, the load on core 1 (online mode: THREADS (2) connections of ITP (64)
# commands per request). Prints ops/s of each round, the log files' size at the end, and the ratio on/off.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SERVER=$1; ROUNDS=${2:-3}; RUNTIME=${3:-15}
DBSIZE=${DBSIZE:-1000000}; VALUELENGTH=${VALUELENGTH:-100}; MEMORY=${MEMORY:-32m}; SEGMENT=${SEGMENT:-16m}
MAX_SEGMENTS=${MAX_SEGMENTS:-12}; COMPACTION_TYPE=${COMPACTION_TYPE:-Lookup}; THREADS=${THREADS:-2}; ITP=${ITP:-64}
RESPBENCH="$ROOT/benchmark/Resp.benchmark/bin/Release/net10.0/Resp.benchmark"
[ -x "$RESPBENCH" ] || { echo "compaction.sh: build benchmark/Resp.benchmark -c Release first" >&2; exit 1; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 300); do (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null && return 0; sleep 0.1; done; return 1; }

WORK=$(mktemp -d)
PIDS=()
cleanup() { kill "${PIDS[@]}" 2> /dev/null || true; wait 2> /dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

start_server() { # port dir freq
    mkdir -p "$2"
    taskset -c 0 "$SERVER" --port "$1" --bind 127.0.0.1 --storage-tier --logdir "$2" --memory "$MEMORY" --page 1m \
        --segment "$SEGMENT" --compaction-freq "$3" --compaction-max-segments "$MAX_SEGMENTS" --compaction-type "$COMPACTION_TYPE" \
        > "$2.log" 2>&1 &
    PIDS+=($!)
    wait_port "$1" || { echo "server did not start:" >&2; tail -5 "$2.log" >&2; exit 1; }
}

PON=$(free_port); start_server "$PON" "$WORK/on" 1
POFF=$(free_port); start_server "$POFF" "$WORK/off" 0

common=(--keylength 8 --valuelength "$VALUELENGTH" --dbsize "$DBSIZE")
for port in "$PON" "$POFF"; do
    taskset -c 1 "$RESPBENCH" --port "$port" --op SET --threads 1 "${common[@]}" --clients 4 --batchsize 256 --totalops 1 2>&1 | grep -E '^Loaded'
done

load() { # port
    taskset -c 1 "$RESPBENCH" --port "$1" --online --op-workload GET,SET --op-percent 50,50 --threads "$THREADS" --itp "$ITP" \
        "${common[@]}" --skipload --runtime "$RUNTIME" 2>&1 | grep -o 'ops/s=[0-9]*' | head -1 | cut -d= -f2
}

ratios=()
for r in $(seq 1 "$ROUNDS"); do
    if [ $((r % 2)) -eq 1 ]; then on=$(load "$PON"); off=$(load "$POFF"); else off=$(load "$POFF"); on=$(load "$PON"); fi
    ratio=$(python3 -c "print(f'{$on/$off:.3f}')")
    ratios+=("$ratio")
    echo "round $r: compaction on $on ops/s, off $off ops/s, on/off $ratio"
done
echo "log files: compaction on $(du -sm "$WORK/on" | cut -f1) MB, off $(du -sm "$WORK/off" | cut -f1) MB"
python3 -c "import statistics,sys; r=[float(v) for v in sys.argv[1:]]; print(f'median on/off {statistics.median(r):.3f} ({len(r)} rounds)')" "${ratios[@]}"
