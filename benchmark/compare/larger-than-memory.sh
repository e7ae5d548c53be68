#!/usr/bin/env bash
# GET over a data set larger than the memory budget (the storage tier), this server against another (real
# Garnet, or an older build), side by side: both servers run at once on core 0, each is loaded once, and then
# every load shape runs in alternating rounds (X, Y, Y, X, ...) on core 1, so the machine's drift hits both alike.
#
#   benchmark/compare/larger-than-memory.sh SERVER_X SERVER_Y [ROUNDS] [RUNTIME]
#
# SERVER_X / SERVER_Y: GarnetServer executables (this checkout's, a worktree's) or a garnet-server tool.
# X_ARGS / Y_ARGS: extra server options of each (e.g. Y_ARGS="--device-type RandomAccess --minthreads 64" for Garnet).
# DBSIZE (10000000), VALUELENGTH (100) and MEMORY (a quarter of the data: 320m) shape the data set; both servers
# get --storage-tier --memory MEMORY --page PAGE (1m) and a fresh --logdir each. X_MEMORY / Y_MEMORY set one side's
# memory instead (e.g. Y_MEMORY=4g: this server with everything in memory, for the read cache's target).
# Shapes: uniform and zipf 0.99 keys, each at batch 64 on 2 connections and at batch 1 on 50 connections
# (offline, ops/s), then latency at 1 command per request from 50 client threads (online, p50/p99 in µs).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
X=$1; Y=$2; ROUNDS=${3:-2}; RUNTIME=${4:-10}
DBSIZE=${DBSIZE:-10000000}; VALUELENGTH=${VALUELENGTH:-100}; MEMORY=${MEMORY:-320m}; PAGE=${PAGE:-1m}
RESPBENCH="$ROOT/benchmark/Resp.benchmark/bin/Release/net10.0/Resp.benchmark"
[ -x "$RESPBENCH" ] || { echo "larger-than-memory.sh: build benchmark/Resp.benchmark -c Release first" >&2; exit 1; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 300); do (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null && return 0; sleep 0.1; done; return 1; }

WORK=$(mktemp -d)
PIDS=()
cleanup() { kill "${PIDS[@]}" 2> /dev/null || true; wait 2> /dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

start_server() { # bin port dir memory extra-args
    local extra=()
    read -r -a extra <<< "${5:-}"
    mkdir -p "$3"
    taskset -c 0 "$1" --port "$2" --bind 127.0.0.1 --storage-tier --logdir "$3" --memory "$4" --page "$PAGE" "${extra[@]}" \
        > "$3.log" 2>&1 &
    PIDS+=($!)
    wait_port "$2" || { echo "server $1 did not start:" >&2; tail -5 "$3.log" >&2; exit 1; }
}

PX=$(free_port); start_server "$X" "$PX" "$WORK/x" "${X_MEMORY:-$MEMORY}" "${X_ARGS:-}"
PY=$(free_port); start_server "$Y" "$PY" "$WORK/y" "${Y_MEMORY:-$MEMORY}" "${Y_ARGS:-}"

common=(--threads 1 --keylength 8 --valuelength "$VALUELENGTH" --dbsize "$DBSIZE")
for side in X Y; do
    port=$([ $side = X ] && echo "$PX" || echo "$PY")
    taskset -c 1 "$RESPBENCH" --port "$port" --op SET "${common[@]}" --clients 4 --batchsize 256 --totalops 1 2>&1 \
        | grep -E '^Loaded' | sed "s/^/$side: /"
    rss=$(ps -o rss= -p "${PIDS[$([ $side = X ] && echo 0 || echo 1)]}")
    echo "$side: RSS after load $((rss / 1024)) MB, log dir $(du -sm "$WORK/$(echo $side | tr XY xy)" | cut -f1) MB"
done

offline() { # port keys clients batch
    local zipf=()
    [ "$2" = zipf ] && zipf=(--zipf 0.99)
    taskset -c 1 "$RESPBENCH" --port "$1" --op GET "${common[@]}" --skipload "${zipf[@]}" --clients "$3" --batchsize "$4" \
        --runtime "$RUNTIME" 2>&1 | grep -o 'ops/s=[0-9]*' | cut -d= -f2
}

online() { # port keys
    local zipf=()
    [ "$2" = zipf ] && zipf=(--zipf 0.99)
    taskset -c 1 "$RESPBENCH" --port "$1" --online --op-workload GET --op-percent 100 --itp 1 --threads 50 "${common[@]:2}" \
        --skipload "${zipf[@]}" --runtime "$RUNTIME" 2>&1 | grep -o 'ops/s=[0-9]*\|GET p50=[0-9.]*\|p99=[0-9.]*' | head -3 | tr '\n' ' '
}

for keys in uniform zipf; do
    for shape in "2 64" "50 1"; do
        read -r clients batch <<< "$shape"
        line="$keys batch $batch x $clients clients:"
        for r in $(seq 1 "$ROUNDS"); do
            if [ $((r % 2)) -eq 1 ]; then x=$(offline "$PX" $keys $clients $batch); y=$(offline "$PY" $keys $clients $batch)
            else y=$(offline "$PY" $keys $clients $batch); x=$(offline "$PX" $keys $clients $batch); fi
            line="$line  X $x Y $y"
        done
        echo "$line"
    done
    for r in $(seq 1 "$ROUNDS"); do
        if [ $((r % 2)) -eq 1 ]; then x=$(online "$PX" $keys); y=$(online "$PY" $keys)
        else y=$(online "$PY" $keys); x=$(online "$PX" $keys); fi
        echo "$keys latency (50 threads, 1 per request): X $x | Y $y"
    done
done
