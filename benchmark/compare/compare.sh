#!/usr/bin/env bash
# Runs the same workloads against this server and against redis-server, one after the other, and
# writes a Markdown table, a CSV and an SVG chart to benchmark/compare/results/<date>/.
#
#   benchmark/compare/compare.sh [--quick] [--runtime S] [--requests N] [--repeat N] [--out DIR] [--only REGEX]
#
# --quick      1 s per workload and 100k redis-benchmark requests: a smoke check, not a measurement.
# --runtime S  seconds per Resp.benchmark workload (default 5).
# --requests N requests per redis-benchmark test (default 1000000).
# --repeat N   run each Resp.benchmark workload N times per server, alternating, and keep each
#              server's best run (default 1): on a shared machine other load only slows a run down.
# --out DIR    output directory (default benchmark/compare/results/<UTC date-time>).
# --only REGEX run only the workloads whose name matches (grep -E), e.g. --only 'ZADD|ZREM'.
#
# Both servers listen on free loopback ports. With 2+ cores, servers are pinned to core 0 and the
# load generators to the other cores (taskset), so client and server never share a core.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RUNTIME=5
REQUESTS=1000000
REPEAT=1
OUT=""
ONLY=""

while [ $# -gt 0 ]; do
    case "$1" in
        --quick) RUNTIME=1; REQUESTS=100000 ;;
        --runtime) RUNTIME="$2"; shift ;;
        --requests) REQUESTS="$2"; shift ;;
        --repeat) REPEAT="$2"; shift ;;
        --out) OUT="$2"; shift ;;
        --only) ONLY="$2"; shift ;;
        -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
    shift
done

for tool in redis-server redis-benchmark redis-cli dotnet; do
    command -v "$tool" > /dev/null || { echo "compare.sh: $tool not found (apt-get install -y redis-server redis-tools)" >&2; exit 1; }
done

DATE=$(date -u +%Y-%m-%d_%H%M%S)
OUT=${OUT:-$ROOT/benchmark/compare/results/$DATE}
mkdir -p "$OUT"
RAW="$OUT/raw"
mkdir -p "$RAW"
CSV="$OUT/results.csv"
MD="$OUT/results.md"
SVG="$OUT/results.svg"

# ---- build ---------------------------------------------------------------------------------
echo "Building (Release)..."
for proj in src/GarnetServer benchmark/Resp.benchmark benchmark/compare/ChartWriter; do
    dotnet build "$ROOT/$proj" -c Release -nologo -v q > "$RAW/build.log" 2>&1 || { cat "$RAW/build.log" >&2; exit 1; }
done
GARNET="$ROOT/src/GarnetServer/bin/Release/net10.0/GarnetServer"
RESPBENCH="$ROOT/benchmark/Resp.benchmark/bin/Release/net10.0/Resp.benchmark"
CHART="$ROOT/benchmark/compare/ChartWriter/bin/Release/net10.0/ChartWriter"

# ---- pinning -------------------------------------------------------------------------------
CORES=$(nproc)
if [ "$CORES" -ge 3 ] && command -v taskset > /dev/null; then
    # At one command per round trip a request costs the client about as much kernel time as the
    # server, so one client core is the bottleneck; give the load every core the servers do not use.
    SERVER_PIN=(taskset -c 0)
    LOAD_PIN=(taskset -c "1-$((CORES - 1))")
    PINNING="servers on core 0, load generators on cores 1-$((CORES - 1)) (taskset)"
elif [ "$CORES" -ge 2 ] && command -v taskset > /dev/null; then
    SERVER_PIN=(taskset -c 0)
    LOAD_PIN=(taskset -c 1)
    PINNING="servers on core 0, load generators on core 1 (taskset)"
else
    SERVER_PIN=()
    LOAD_PIN=()
    PINNING="not pinned (fewer than 2 cores or no taskset)"
fi

# ---- servers -------------------------------------------------------------------------------
port_free() { ! (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }
free_port() {
    local p
    for _ in $(seq 1 200); do
        p=$((20000 + RANDOM % 30000))
        if port_free "$p" && [ "$p" != "${THIS_PORT:-}" ]; then echo "$p"; return 0; fi
    done
    echo "compare.sh: no free port found" >&2
    return 1
}

THIS_PID=""
REDIS_PID=""
cleanup() {
    for pid in $THIS_PID $REDIS_PID; do
        kill "$pid" 2> /dev/null || true
    done
    for pid in $THIS_PID $REDIS_PID; do
        wait "$pid" 2> /dev/null || true
    done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

THIS_PORT=$(free_port)
"${SERVER_PIN[@]}" "$GARNET" --port "$THIS_PORT" --quiet > "$RAW/this-server.log" 2>&1 &
THIS_PID=$!
REDIS_PORT=$(free_port)
"${SERVER_PIN[@]}" redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize no > "$RAW/redis-server.log" 2>&1 &
REDIS_PID=$!

wait_ready() {
    for _ in $(seq 1 100); do
        if [ "$(redis-cli -p "$1" ping 2> /dev/null)" = "PONG" ]; then return 0; fi
        sleep 0.1
    done
    echo "compare.sh: server on port $1 did not answer PING; see $RAW" >&2
    return 1
}
wait_ready "$THIS_PORT"
wait_ready "$REDIS_PORT"
REDIS_VERSION=$(redis-server --version | sed -n 's/.*v=\([^ ]*\).*/\1/p')

# A freshly started .NET server recompiles its hot paths in the background for its first ~15 s under
# load (JIT tier-up), on the core it serves from. Both servers get the same untimed warm-up first.
echo "Warming up both servers (redis-benchmark -t get,set -n $REQUESTS -P 1, untimed)..."
for port in "$THIS_PORT" "$REDIS_PORT"; do
    timeout 600 "${LOAD_PIN[@]}" redis-benchmark -p "$port" -t get,set -n "$REQUESTS" -r 100000 -c 50 -q > /dev/null 2>&1 || true
    redis-cli -p "$port" flushall > /dev/null 2>&1 || true
done
sleep 1

# ---- running one workload ------------------------------------------------------------------
echo "workload,server,ops_per_sec,p99_us,status" > "$CSV"
RESULT_ORDER=()

record() { # workload server ops p99 status
    echo "$1,$2,$3,$4,$5" >> "$CSV"
}

port_of() { if [ "$1" = this ]; then echo "$THIS_PORT"; else echo "$REDIS_PORT"; fi; }

# resp_run NAME SERVER RUN ARGS...: one Resp.benchmark run; sets RUN_OPS and RUN_P99, or leaves
# RUN_OPS empty when the run failed or had error replies (unknown command, wrong type).
resp_run() {
    local name=$1 server=$2 run=$3
    shift 3
    local port log errors rc=0
    port=$(port_of "$server")
    log="$RAW/$(echo "$name" | tr -c 'A-Za-z0-9' '_')-$server$([ "$REPEAT" -gt 1 ] && echo "-$run" || true).txt"
    redis-cli -p "$port" flushall > /dev/null 2>&1 || true
    timeout $((RUNTIME * 4 + 120)) "${LOAD_PIN[@]}" "$RESPBENCH" --port "$port" --runtime "$RUNTIME" \
        --csv "$RAW/resp-benchmark.csv" "$@" > "$log" 2>&1 || rc=$?
    RUN_OPS=$(grep -o 'ops/s=[0-9]*' "$log" | tail -1 | cut -d= -f2 || true)
    errors=$(grep -o ' errors=[0-9]*' "$log" | tail -1 | cut -d= -f2 || true)
    RUN_P99=$(grep -o 'ALL p50=[^|]*' "$log" | grep -o 'p99=[0-9.]*' | cut -d= -f2 || true)
    if [ "$rc" -ne 0 ] || [ -z "$RUN_OPS" ] || [ "${errors:-0}" -gt 0 ]; then
        RUN_OPS=""
        printf '  %-10s %-40s not supported (rc=%s errors=%s)\n' "$server" "$name" "$rc" "${errors:-?}"
    else
        printf '  %-10s %-40s %12s ops/s %s\n' "$server" "$name" "$RUN_OPS" "${RUN_P99:+p99=${RUN_P99}us}"
    fi
}

selected() { [ -z "$ONLY" ] || echo "$1" | grep -Eq -- "$ONLY"; }

workload() { # NAME ARGS...: runs against this server, then Redis (--repeat times), and records each one's best run
    local name=$1
    shift
    selected "$name" || return 0
    RESULT_ORDER+=("$name")
    local run server
    local -A best_ops=() best_p99=()
    for run in $(seq 1 "$REPEAT"); do
        for server in this redis; do
            resp_run "$name" "$server" "$run" "$@"
            if [ -n "$RUN_OPS" ] && [ "$RUN_OPS" -gt "${best_ops[$server]:-0}" ]; then
                best_ops[$server]=$RUN_OPS
                best_p99[$server]=$RUN_P99
            fi
        done
    done
    for server in this redis; do
        if [ -n "${best_ops[$server]:-}" ]; then
            record "$name" "$server" "${best_ops[$server]}" "${best_p99[$server]}" "ok"
        else
            record "$name" "$server" "" "" "not supported"
        fi
    done
}

# redis-benchmark -t get,set with pipeline depth P; parses its --csv output (rps, p99 in ms). With --repeat, the servers
# alternate and each keeps its best run per command, as the Resp.benchmark workloads do.
redis_benchmark() {
    local depth=$1 run server port log line op name rps p99ms
    selected "redis-benchmark -P $depth" || return 0
    local -A best_ops=() best_p99=()
    for run in $(seq 1 "$REPEAT"); do
        for server in this redis; do
            port=$(port_of "$server")
            log="$RAW/redis-benchmark-P$depth-$server$([ "$REPEAT" -gt 1 ] && echo "-$run" || true).csv"
            redis-cli -p "$port" flushall > /dev/null 2>&1 || true
            timeout 600 "${LOAD_PIN[@]}" redis-benchmark -p "$port" -t get,set -n "$REQUESTS" -r 100000 -c 50 \
                -P "$depth" --csv > "$log" 2> /dev/null || true
            for op in SET GET; do
                line=$(grep "^\"$op\"," "$log" || true)
                [ -n "$line" ] || continue
                # "SET","rps","avg","min","p50","p95","p99","max" (latencies in ms)
                rps=$(echo "$line" | cut -d, -f2 | tr -d '"' | cut -d. -f1)
                p99ms=$(echo "$line" | cut -d, -f7 | tr -d '"')
                printf '  %-10s %-40s %12s ops/s p99=%sms\n' "$server" "redis-benchmark $op -c 50 -P $depth" "$rps" "$p99ms"
                if [ "$rps" -gt "${best_ops[$server$op]:-0}" ]; then
                    best_ops[$server$op]=$rps
                    best_p99[$server$op]=$(awk "BEGIN { printf \"%.1f\", $p99ms * 1000 }")
                fi
            done
        done
    done
    for op in SET GET; do
        name="redis-benchmark $op -c 50 -P $depth"
        RESULT_ORDER+=("$name")
        for server in this redis; do
            if [ -n "${best_ops[$server$op]:-}" ]; then
                record "$name" "$server" "${best_ops[$server$op]}" "${best_p99[$server$op]}" "ok"
            else
                record "$name" "$server" "" "" "not supported"
            fi
        done
    done
}

# ---- workloads -----------------------------------------------------------------------------
echo "Running workloads (${RUNTIME}s each; this server on :$THIS_PORT, redis $REDIS_VERSION on :$REDIS_PORT; $PINNING)"
SMALL=(--dbsize 1024 --keylength 8 --valuelength 8)
for op in GET SET; do
    for batch in 1 16 64 4096; do
        workload "$op batch=$batch" --op "$op" --batchsize "$batch" "${SMALL[@]}"
    done
done
for sessions in 1 8 64 256; do
    workload "online GET/SET 80/20 x$sessions sessions" --online --op-workload GET,SET --op-percent 80,20 \
        --threads 1 --clients "$sessions" "${SMALL[@]}"
done
workload "ZADD batch=64" --op ZADD --batchsize 64 "${SMALL[@]}"
workload "ZREM batch=64" --op ZREM --batchsize 64 "${SMALL[@]}"
workload "PFADD batch=64" --op PFADD --batchsize 64 "${SMALL[@]}"
workload "LPUSH batch=64" --op LPUSH --batchsize 64 "${SMALL[@]}"
workload "LPOP batch=64" --op LPOP --batchsize 64 "${SMALL[@]}"
workload "HSET batch=64" --op HSET --batchsize 64 "${SMALL[@]}"
workload "HGET batch=64" --op HGET --batchsize 64 "${SMALL[@]}"
workload "SADD batch=64" --op SADD --batchsize 64 "${SMALL[@]}"
# One MULTIINCR4 operation is a whole transaction (MULTI, 4 INCR, EXEC): ops/s are transactions/s.
workload "MULTIINCR4 batch=64" --op MULTIINCR4 --batchsize 64 "${SMALL[@]}"
workload "EVALSHA3 batch=64" --op EVALSHA3 --batchsize 64 "${SMALL[@]}"
workload "BITCOUNT 1 MB value batch=1" --op BITCOUNT --batchsize 1 --dbsize 16 --keylength 8 --valuelength 1048576
redis_benchmark 1
redis_benchmark 64

# ---- report --------------------------------------------------------------------------------
cell() { # server workload -> "ops/s" or "ops/s (p99 X µs)" or "not supported"
    local row
    row=$(awk -F, -v w="$2" -v s="$1" '$1 == w && $2 == s' "$CSV" | head -1)
    if [ "$(echo "$row" | cut -d, -f5)" != "ok" ]; then echo "not supported"; return; fi
    local ops p99
    ops=$(echo "$row" | cut -d, -f3)
    p99=$(echo "$row" | cut -d, -f4)
    printf "%'d ops/s%s" "$ops" "${p99:+, p99 ${p99} µs}"
}
ratio() {
    awk -F, -v w="$1" '$1 == w && $5 == "ok" { v[$2] = $3 } END {
        if (("this" in v) && ("redis" in v) && v["redis"] > 0) printf "%.2f×", v["this"] / v["redis"]; else printf "–" }' "$CSV"
}

CPU=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//' || true)
COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2> /dev/null || echo unknown)
if [ -n "$(git -C "$ROOT" status --porcelain 2> /dev/null | head -1)" ]; then COMMIT="$COMMIT (with uncommitted changes)"; fi
{
    echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "- Commit: $COMMIT"
    echo "- Machine: $CORES cores, ${CPU:-unknown CPU}, $(uname -sr)"
    echo "- Redis: $REDIS_VERSION (\`--save \"\" --appendonly no\`); .NET $(dotnet --version)"
    echo "- Pinning: $PINNING"
    echo "- Runtime: ${RUNTIME}s per Resp.benchmark workload$([ "$REPEAT" -gt 1 ] && echo ", best of $REPEAT alternating runs per server"); $REQUESTS requests per redis-benchmark test$([ "$REPEAT" -gt 1 ] && echo ", also best of $REPEAT alternating runs")"
    echo
    echo "| workload | this server | Redis | ratio |"
    echo "| --- | ---: | ---: | ---: |"
    for w in "${RESULT_ORDER[@]}"; do
        echo "| $w | $(cell this "$w") | $(cell redis "$w") | $(ratio "$w") |"
    done
} > "$MD"

LC_ALL=C "$CHART" "$CSV" "$SVG" "this server ($COMMIT) vs Redis $REDIS_VERSION, $CORES cores, $DATE"

echo
cat "$MD"
echo
echo "Results: $OUT (results.md, results.csv, results.svg; raw logs in raw/)"
