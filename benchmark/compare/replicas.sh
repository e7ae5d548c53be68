#!/usr/bin/env bash
# SET throughput of a primary with 0, 1 and 2 replicas (batch 64, 1024 keys, 4 connections), this server against Redis
# with the same replicas. Each round starts every configuration afresh, in an order that rotates from round to round;
# the primary and its replicas all run on core 0, the load on core 1. This server's primary runs with the operation log
# committed each second (--aof --aof-commit-freq 1000, as appendfsync everysec), which replication streams; Redis runs
# as configured by REDIS_ARGS (default: no persistence, Redis's default).
#
#   benchmark/compare/replicas.sh [ROUNDS] [RUNTIME]
#
# CLUSTER=1 measures durable writes in cluster mode instead: one primary with every slot, its replicas joined with
# CLUSTER REPLICATE; this server with commit-before-ack (--aof at commit frequency 0: each reply waits for the fsync and
# for every replica in sync to apply the write), Redis with appendonly yes and appendfsync always (each reply waits
# for the fsync; replicas are sent the write afterwards).
#
# REDIS=path/to/redis-server (default: the one on the PATH); ONLY=REGEX keeps the configurations ("ours 2", "redis 0", ...)
# it matches. Prints each run, then the median ops/s per configuration.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ROUNDS=${1:-3}
RUNTIME=${2:-8}
WARMUP=${WARMUP:-8}
DIR=${DIR:-/tmp/replicas-bench}
REDIS=${REDIS:-$(command -v redis-server)}
REDIS_ARGS=${REDIS_ARGS:-}
REDIS_CLI=${REDIS_CLI:-$(command -v redis-cli)}
OURS="$ROOT/src/GarnetServer/bin/Release/net10.0/GarnetServer"
RESPBENCH="$ROOT/benchmark/Resp.benchmark/bin/Release/net10.0/Resp.benchmark"
[ -x "$OURS" ] || { echo "replicas.sh: build src/GarnetServer -c Release first" >&2; exit 1; }
[ -x "$RESPBENCH" ] || { echo "replicas.sh: build benchmark/Resp.benchmark -c Release first" >&2; exit 1; }

# Below 55536: a Redis cluster node also listens on its port + 10000.
free_port() {
    python3 -c '
import random, socket
while True:
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", random.randint(20000, 55000)))
        print(s.getsockname()[1])
        break
    except OSError:
        pass'
}
wait_port() { for _ in $(seq 1 200); do (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null && return 0; sleep 0.05; done; return 1; }

CLUSTER=${CLUSTER:-}
start() { # kind port dir -> pid
    local kind=$1 port=$2 dir=$3 extra=()
    mkdir -p "$dir"
    case "$kind$CLUSTER" in
        ours) taskset -c 0 "$OURS" --port "$port" --checkpointdir "$dir" --aof --aof-commit-freq 1000 -q > "$dir.log" 2>&1 & ;;
        ours1) taskset -c 0 "$OURS" --port "$port" --checkpointdir "$dir" --aof --aof-commit-freq 0 --cluster -q > "$dir.log" 2>&1 & ;;
        redis)
            read -r -a extra <<< "$REDIS_ARGS"
            taskset -c 0 "$REDIS" --port "$port" --dir "$dir" --save '' "${extra[@]}" > "$dir.log" 2>&1 & ;;
        redis1)
            taskset -c 0 "$REDIS" --port "$port" --dir "$dir" --save '' --appendonly yes --appendfsync always --cluster-enabled yes \
                --cluster-config-file "$dir/nodes.conf" > "$dir.log" 2>&1 & ;;
    esac
    echo $!
}

# Makes the node on port $2 a replica of the one on port $1: REPLICAOF, or in cluster mode MEET and CLUSTER REPLICATE.
follow() {
    if [ -z "$CLUSTER" ]; then
        "$REDIS_CLI" -p "$2" REPLICAOF 127.0.0.1 "$1" > /dev/null
        return
    fi
    local id
    id=$("$REDIS_CLI" -p "$1" CLUSTER MYID)
    "$REDIS_CLI" -p "$2" CLUSTER MEET 127.0.0.1 "$1" > /dev/null
    for _ in $(seq 1 200); do
        "$REDIS_CLI" -p "$2" CLUSTER NODES | grep -q "^$id" && break
        sleep 0.05
    done
    "$REDIS_CLI" -p "$2" CLUSTER REPLICATE "$id" > /dev/null
}

# Waits until the replica on port $1 reports its link up.
wait_synced() {
    for _ in $(seq 1 600); do
        "$REDIS_CLI" -p "$1" INFO replication 2> /dev/null | grep -q 'master_link_status:up' && return 0
        sleep 0.1
    done
    echo "the replica on port $1 never synced" >&2
    return 1
}

RESULTS=$(mktemp)
CONFIGS=()
for config in "ours 0" "redis 0" "ours 1" "redis 1" "ours 2" "redis 2"; do
    [[ -z "${ONLY:-}" || "$config" =~ $ONLY ]] && CONFIGS+=("$config")
done
for round in $(seq 1 "$ROUNDS"); do
    count=${#CONFIGS[@]}
    for i in $(seq 0 $((count - 1))); do
        read -r kind replicas <<< "${CONFIGS[$(((i + round - 1) % count))]}"
        rm -rf "$DIR"; mkdir -p "$DIR"
        pids=()
        rports=()
        port=$(free_port)
        pids+=("$(start "$kind" "$port" "$DIR/primary")")
        wait_port "$port"
        if [ -n "$CLUSTER" ]; then
            "$REDIS_CLI" -p "$port" CLUSTER ADDSLOTSRANGE 0 16383 > /dev/null
            for _ in $(seq 1 200); do
                "$REDIS_CLI" -p "$port" CLUSTER INFO | grep -q 'cluster_state:ok' && break
                sleep 0.05
            done
        fi
        for r in $(seq 1 "$replicas"); do
            rport=$(free_port)
            pids+=("$(start "$kind" "$rport" "$DIR/replica$r")")
            wait_port "$rport"
            rports+=("$rport")
            follow "$port" "$rport"
            wait_synced "$rport"
        done
        taskset -c 1 "$RESPBENCH" --port "$port" --op SET --threads 1 --clients 4 --batchsize 64 --dbsize 1024 --keylength 8 \
            --valuelength 8 --runtime "$WARMUP" > /dev/null 2>&1 || true
        out=$(taskset -c 1 "$RESPBENCH" --port "$port" --op SET --threads 1 --clients 4 --batchsize 64 --dbsize 1024 --keylength 8 \
            --valuelength 8 --runtime "$RUNTIME" --skipload 2>&1 || true)
        ops=$(grep -o 'ops/s=[0-9]*' <<< "$out" | tail -1 | cut -d= -f2)
        # Whether the replicas kept up: how long after the load each took to apply everything the primary had.
        catchup=""
        primary_offset=$("$REDIS_CLI" -p "$port" INFO replication | tr -d '\r' | awk -F: '$1 == "master_repl_offset" { print $2 }')
        for rport in "${rports[@]}"; do
            start_ms=$(date +%s%3N)
            while [ "$("$REDIS_CLI" -p "$rport" INFO replication | tr -d '\r' | awk -F: '$1 == "slave_repl_offset" { print $2 }')" -lt "$primary_offset" ]; do
                sleep 0.01
                [ $(($(date +%s%3N) - start_ms)) -gt 30000 ] && break
            done
            catchup="$catchup $(($(date +%s%3N) - start_ms))ms"
        done
        for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
        for pid in "${pids[@]}"; do wait "$pid" 2> /dev/null || true; done
        echo "round $round $kind replicas=$replicas ${ops:-0}${catchup:+ (replicas caught up after$catchup)}"
        echo "$kind $replicas ${ops:-0}" >> "$RESULTS"
    done
done

echo
echo "median ops/s over $ROUNDS rounds"
for replicas in 0 1 2; do
    for kind in ours redis; do
        median=$(awk -v k="$kind" -v r="$replicas" '$1 == k && $2 == r { print $3 }' "$RESULTS" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
        printf '%-6s replicas=%s %10s\n' "$kind" "$replicas" "$median"
    done
done
rm -f "$RESULTS"
rm -rf "$DIR"
