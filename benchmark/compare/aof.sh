#!/usr/bin/env bash
# SET throughput with the append-only file under each commit mode, against Redis (appendfsync always and everysec) and,
# when given, real Garnet (--aof, with and without --aof-commit-wait). Each round starts every configuration afresh on an
# empty directory, in an order that rotates from round to round, and runs two loads: batch 1 over 50 connections and
# batch 64 over 4 connections (Resp.benchmark, one client thread). Servers on core 0, the load on core 1.
#
#   benchmark/compare/aof.sh [ROUNDS] [RUNTIME]
#
# GARNET=path/to/GarnetServer (real Garnet 2.2.8, e.g. from `dotnet tool install --tool-path DIR garnet-server --version 2.2.8`)
# adds its two configurations; REDIS=path/to/redis-server (default: the one on the PATH). DIR (default /tmp/aof-bench)
# holds the servers' files. ONLY="name ..." keeps the configurations named, LOADS_ONLY="b1x50" the loads named (A/B runs of one
# pair). Prints each run and then, per configuration and load, the median ops/s.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ROUNDS=${1:-3}
RUNTIME=${2:-8}
# A fresh server tiers up its code about 6-7 s into this load (a burst of JIT compilation on one core): the unmeasured
# warm-up lasts past it, or a run measures the compiler too.
WARMUP=${WARMUP:-8}
DIR=${DIR:-/tmp/aof-bench}
REDIS=${REDIS:-$(command -v redis-server)}
OURS=${OURS:-$ROOT/src/GarnetServer/bin/Release/net10.0/GarnetServer}
RESPBENCH="$ROOT/benchmark/Resp.benchmark/bin/Release/net10.0/Resp.benchmark"
[ -x "$OURS" ] || { echo "aof.sh: build src/GarnetServer -c Release first" >&2; exit 1; }
[ -x "$RESPBENCH" ] || { echo "aof.sh: build benchmark/Resp.benchmark -c Release first" >&2; exit 1; }

# name|kind|options
CONFIGS=(
    "ours-commit-before-ack|ours|--aof --aof-commit-freq 0"
    "ours-every-1000ms|ours|--aof --aof-commit-freq 1000"
    "ours-commit-on-request|ours|--aof --aof-commit-freq -1"
    "redis-always|redis|--appendonly yes --appendfsync always"
    "redis-everysec|redis|--appendonly yes --appendfsync everysec"
)
# BASE=path/to/another/GarnetServer (a build to compare with, e.g. main's) adds its commit-before-ack configuration.
if [ -n "${BASE:-}" ]; then
    CONFIGS+=("base-commit-before-ack|base|--aof --aof-commit-freq 0")
fi
if [ -n "${GARNET:-}" ]; then
    CONFIGS+=(
        "garnet-aof|garnet|--aof"
        "garnet-aof+wait|garnet|--aof --aof-commit-wait"
    )
fi
LOADS=("b1x50|--clients 50 --batchsize 1" "b64x4|--clients 4 --batchsize 64")
keep() { # list-name filter: drops the entries of the array whose name (before the first |) the filter does not name
    local -n list=$1
    local kept=() entry
    for entry in "${list[@]}"; do
        [[ " $2 " == *" ${entry%%|*} "* ]] && kept+=("$entry")
    done
    list=("${kept[@]}")
}
[ -n "${ONLY:-}" ] && keep CONFIGS "$ONLY"
[ -n "${LOADS_ONLY:-}" ] && keep LOADS "$LOADS_ONLY"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 200); do (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null && return 0; sleep 0.05; done; return 1; }

start() { # kind options port dir -> pid
    local kind=$1 options=$2 port=$3 dir=$4 extra=()
    read -r -a extra <<< "$options"
    case "$kind" in
        ours) taskset -c 0 "$OURS" --port "$port" --checkpointdir "$dir" "${extra[@]}" -q > "$dir.log" 2>&1 & ;;
        base) taskset -c 0 "$BASE" --port "$port" --checkpointdir "$dir" "${extra[@]}" -q > "$dir.log" 2>&1 & ;;
        redis) taskset -c 0 "$REDIS" --port "$port" --dir "$dir" --save '' "${extra[@]}" > "$dir.log" 2>&1 & ;;
        garnet) taskset -c 0 "$GARNET" --port "$port" --checkpointdir "$dir" --device-type RandomAccess --minthreads 64 "${extra[@]}" > "$dir.log" 2>&1 & ;;
    esac
    echo $!
}

RESULTS=$(mktemp)
for round in $(seq 1 "$ROUNDS"); do
    count=${#CONFIGS[@]}
    for i in $(seq 0 $((count - 1))); do
        entry=${CONFIGS[$(((i + round - 1) % count))]}
        IFS='|' read -r name kind options <<< "$entry"
        for load in "${LOADS[@]}"; do
            IFS='|' read -r loadname loadoptions <<< "$load"
            read -r -a loadargs <<< "$loadoptions"
            rm -rf "$DIR"; mkdir -p "$DIR/data"
            port=$(free_port)
            pid=$(start "$kind" "$options" "$port" "$DIR/data")
            wait_port "$port" || { echo "$name did not start: $(cat "$DIR/data.log")" >&2; exit 1; }
            taskset -c 1 "$RESPBENCH" --port "$port" --op SET --threads 1 "${loadargs[@]}" --dbsize 100000 --keylength 8 \
                --valuelength 64 --runtime "$WARMUP" > /dev/null 2>&1 || true
            out=$(taskset -c 1 "$RESPBENCH" --port "$port" --op SET --threads 1 "${loadargs[@]}" --dbsize 100000 --keylength 8 \
                --valuelength 64 --runtime "$RUNTIME" --skipload 2>&1 || true)
            ops=$(grep -o 'ops/s=[0-9]*' <<< "$out" | tail -1 | cut -d= -f2)
            kill "$pid" 2> /dev/null || true
            wait "$pid" 2> /dev/null || true
            echo "round $round $name $loadname ${ops:-0}"
            echo "$name $loadname ${ops:-0}" >> "$RESULTS"
        done
    done
done

echo
echo "median ops/s over $ROUNDS rounds"
for load in "${LOADS[@]}"; do
    loadname=${load%%|*}
    for entry in "${CONFIGS[@]}"; do
        name=${entry%%|*}
        median=$(awk -v n="$name" -v l="$loadname" '$1 == n && $2 == l { print $3 }' "$RESULTS" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
        printf '%-26s %-6s %10s\n' "$name" "$loadname" "$median"
    done
done
rm -f "$RESULTS"
rm -rf "$DIR"
