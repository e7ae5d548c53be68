#!/usr/bin/env bash
# What a background save costs a running load: an 80/20 GET/SET load (Resp.benchmark online mode: CLIENTS closed-loop
# clients, one command per request, uniform keys over DBSIZE preloaded keys of 12 bytes with 100-byte values) measured
# in steady state and again while a loop sends BGSAVE every INTERVAL seconds, against this server, Redis and real
# Garnet 2.2.8 (which answers BGSAVE with a background checkpoint). Prints ops/s and p99 of each phase and the ratios
# under-BGSAVE / steady. Servers on core 0 (Redis's save child too: it inherits the affinity), the load and the BGSAVE
# loop on core 1.
#
#   benchmark/compare/bgsave-load.sh [RUNTIME]              (seconds per measured phase; default 20)
#
# ROUNDS (1): each round starts every server afresh (fresh directory, preload, WARMUP (5) s of the same load unmeasured)
# and runs both phases, steady first in odd rounds and BGSAVE first in even ones; the servers' order rotates from round
# to round, and the table gives medians. CLIENTS (50), DBSIZE (1000000), INTERVAL (5): seconds between BGSAVEs, the
# first FIRST (1) s into the measured window (the window opens after the load generator has connected and built its
# requests, a delay taken from the warm-up run). After a BGSAVE phase the script waits for the last save to end
# (Redis and ours: INFO persistence rdb_bgsave_in_progress; Garnet: LASTSAVE) before the next phase.
# SERVERS ("ours redis garnet"); GARNET (/tmp/garnet-tool/garnet-server), skipped when missing; REDIS (redis-server on
# the PATH); OURS (this checkout's Release build); DIR (/tmp): where a new directory bgsave-load.XXXXXX holds the
# servers' files (removed at the end). Each BGSAVE reply is counted: a server that answers errors is reported with them.
set -euo pipefail

case "${1:-}" in -h | --help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
[ $# -le 1 ] || { echo "bgsave-load.sh: one argument at most (RUNTIME); see --help" >&2; exit 2; }
RUNTIME=${1:-${RUNTIME:-20}}
ROUNDS=${ROUNDS:-1}; CLIENTS=${CLIENTS:-50}; DBSIZE=${DBSIZE:-1000000}; INTERVAL=${INTERVAL:-5}; FIRST=${FIRST:-1}
WARMUP=${WARMUP:-5}
for v in RUNTIME ROUNDS CLIENTS DBSIZE INTERVAL WARMUP; do
    [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || { echo "bgsave-load.sh: $v must be a positive integer (got '${!v}'); see --help" >&2; exit 2; }
done
[[ "$FIRST" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "bgsave-load.sh: FIRST must be a number of seconds (got '$FIRST')" >&2; exit 2; }

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OURS=${OURS:-$ROOT/src/GarnetServer/bin/Release/net10.0/GarnetServer}
RB="$ROOT/benchmark/Resp.benchmark/bin/Release/net10.0/Resp.benchmark"
REDIS=${REDIS:-$(command -v redis-server || true)}
GARNET=${GARNET:-/tmp/garnet-tool/garnet-server}
BASE=${DIR:-/tmp}
read -r -a WANTED <<< "${SERVERS:-ours redis garnet}"

command -v redis-cli > /dev/null || { echo "bgsave-load.sh: redis-cli not found (apt-get install -y redis-tools)" >&2; exit 1; }
[ -x "$RB" ] || { echo "bgsave-load.sh: build benchmark/Resp.benchmark -c Release first" >&2; exit 1; }
KINDS=()
for kind in "${WANTED[@]}"; do
    case "$kind" in
        ours) if [ -x "$OURS" ]; then KINDS+=(ours); else echo "bgsave-load.sh: skipping ours: $OURS not found (build src/GarnetServer -c Release)" >&2; fi ;;
        redis) if [ -n "$REDIS" ] && [ -x "$REDIS" ]; then KINDS+=(redis); else echo "bgsave-load.sh: skipping Redis: redis-server not found" >&2; fi ;;
        garnet) if [ -x "$GARNET" ]; then KINDS+=(garnet); else echo "bgsave-load.sh: skipping Garnet: $GARNET not found (set GARNET=path/to/garnet-server)" >&2; fi ;;
        *) echo "bgsave-load.sh: unknown server '$kind' in SERVERS (ours, redis, garnet)" >&2; exit 2 ;;
    esac
done
[ ${#KINDS[@]} -gt 0 ] || { echo "bgsave-load.sh: no server to measure" >&2; exit 1; }
[ -d "$BASE" ] || { echo "bgsave-load.sh: DIR=$BASE is not a directory" >&2; exit 2; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 600); do (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null && return 0; kill -0 "$2" 2> /dev/null || return 1; sleep 0.05; done; return 1; }
usec() { local t=$EPOCHREALTIME; echo "${t/./}"; } # microseconds since the epoch
calc() { python3 -c "print($1)"; }

WORK=$(mktemp -d "$BASE/bgsave-load.XXXXXX")
RESULTS="$WORK/results"
PID="" BENCH="" LOOP=""
stop_server() { # stops $PID (and a save child Redis forked) and waits for it
    [ -n "$PID" ] || return 0
    local children
    children=$(pgrep -P "$PID" || true)
    kill "$PID" $children 2> /dev/null || true
    for _ in $(seq 1 200); do kill -0 "$PID" 2> /dev/null || break; sleep 0.05; done
    kill -9 "$PID" $children 2> /dev/null || true
    wait "$PID" 2> /dev/null || true
    PID=""
}
cleanup() {
    for p in $LOOP $BENCH; do kill "$p" 2> /dev/null || true; wait "$p" 2> /dev/null || true; done
    stop_server
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_server() { # kind port dir; sets PID
    local kind=$1 port=$2 dir=$3
    case "$kind" in
        ours) taskset -c 0 "$OURS" --port "$port" --bind 127.0.0.1 --checkpointdir "$dir" -q > "$dir.log" 2>&1 & ;;
        redis) taskset -c 0 "$REDIS" --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" > "$dir.log" 2>&1 & ;;
        garnet) taskset -c 0 "$GARNET" --port "$port" --bind 127.0.0.1 --checkpointdir "$dir" --device-type RandomAccess --minthreads 64 > "$dir.log" 2>&1 & ;;
    esac
    PID=$!
}

LOAD=(--threads 1 --clients "$CLIENTS" --dbsize "$DBSIZE" --keylength 12 --valuelength 100)
BENCH_ARGS=(--online --op-workload GET,SET --op-percent 80,20 "${LOAD[@]}" --skipload)
bench() { # port seconds out
    taskset -c 1 "$RB" --port "$1" "${BENCH_ARGS[@]}" --runtime "$2" > "$3" 2>&1
}

info_field() { redis-cli -p "$1" info persistence 2> /dev/null | tr -d '\r' | sed -n "s/^$2://p"; }

# Sends BGSAVE at START_US + k * INTERVAL while the load generator runs and its window (ending at END_US) is open;
# writes "seconds-after-launch epoch-seconds reply" lines.
bgsave_loop() { # port launch_us start_us end_us bench_pid log
    local port=$1 launch=$2 next=$3 end=$4 bench=$5 log=$6 sent reply
    while kill -0 "$bench" 2> /dev/null; do
        if [ "$(usec)" -ge "$next" ]; then
            [ "$next" -lt "$end" ] || break
            sent=$(usec)
            reply=$(taskset -c 1 redis-cli -p "$port" BGSAVE 2>&1 | tr -d '\r' | head -1)
            printf '%d.%02d %d %s\n' $(((sent - launch) / 1000000)) $(((sent - launch) / 10000 % 100)) $((sent / 1000000)) "$reply" >> "$log"
            next=$((next + INTERVAL * 1000000))
        fi
        sleep 0.05
    done
}

# Waits (at most 120 s) until the save a BGSAVE sent at SINCE (epoch seconds) started has ended: for Redis and ours
# INFO persistence rdb_bgsave_in_progress:0, and for Garnet (and ours, when it answers LASTSAVE) a LASTSAVE >= SINCE.
wait_saved() { # kind port since
    local kind=$1 port=$2 since=$3 progress last
    for _ in $(seq 1 1200); do
        progress=$(info_field "$port" rdb_bgsave_in_progress)
        if [ -z "$progress" ] || [ "$progress" = 0 ]; then
            [ "$kind" = redis ] && return 0
            last=$(redis-cli -p "$port" LASTSAVE 2> /dev/null | tr -d '\r')
            if [[ "$last" =~ ^[0-9]+$ ]]; then [ "$last" -ge "$since" ] && return 0; elif [ "$kind" = ours ]; then return 0; fi
        fi
        sleep 0.1
    done
    echo "bgsave-load.sh: $kind: the last BGSAVE had not ended after 120 s" >&2
}

# Runs one phase and appends "round kind phase ops p99 p999 max issued accepted first-error" to RESULTS.
run_phase() { # round kind port phase
    local round=$1 kind=$2 port=$3 phase=$4 out="$WORK/$kind-$1-$4.txt" log="$WORK/$kind-$1-$4.bgsave" rc=0
    local ops p99 p999 max errors issued=0 accepted=0 firsterr="" launch saves_before saves note="" ok
    : > "$log"
    saves_before=$(info_field "$port" rdb_saves)
    launch=$(usec)
    taskset -c 1 "$RB" --port "$port" "${BENCH_ARGS[@]}" --runtime "$RUNTIME" > "$out" 2>&1 & BENCH=$! # taskset execs it: BENCH is its pid
    if [ "$phase" = bgsave ]; then
        bgsave_loop "$port" "$launch" "$((launch + $(calc "int(($SETUP + $FIRST) * 1e6)")))" \
            "$((launch + $(calc "int(($SETUP + $RUNTIME - 0.5) * 1e6)")))" "$BENCH" "$log" & LOOP=$!
    fi
    wait "$BENCH" || rc=$?
    BENCH=""
    if [ -n "$LOOP" ]; then wait "$LOOP" || true; LOOP=""; fi
    ops=$(grep -o 'ops/s=[0-9]*' "$out" | tail -1 | cut -d= -f2 || true)
    errors=$(grep -o ' errors=[0-9]*' "$out" | tail -1 | cut -d= -f2 || true)
    read -r p99 p999 max <<< "$(grep -o 'ALL p50=.*us' "$out" | sed -E 's/.*p99=([0-9.]+) p99.9=([0-9.]+) max=([0-9.]+)us.*/\1 \2 \3/' || true)"
    if [ "$rc" -ne 0 ] || [ -z "$ops" ] || [ -z "${p99:-}" ]; then
        echo "round $round $kind $phase: the load failed (rc=$rc): $(tail -2 "$out" | tr '\n' ' ')"
        ops=- p99=- p999=- max=-
    fi
    [ "${errors:-0}" = 0 ] || note=" ($errors error replies: $(grep -o 'first-error=.*' "$out" || true))"
    if [ "$phase" = bgsave ]; then
        issued=$(wc -l < "$log")
        ok='^[0-9.]+ [0-9]+ (Background saving started|OK)'
        accepted=$(grep -cE "$ok" "$log" || true)
        firsterr=$(grep -vE "$ok" "$log" | head -1 | cut -d' ' -f3- || true)
        [ "$accepted" = 0 ] || wait_saved "$kind" "$port" "$(grep -E "$ok" "$log" | tail -1 | cut -d' ' -f2)"
        # what the server's INFO persistence says about its saves, where it has the fields (Garnet has none of them)
        local facts=() value
        saves=$(info_field "$port" rdb_saves)
        [ -z "$saves" ] || [ -z "$saves_before" ] || facts+=("$((saves - saves_before)) saves finished")
        value=$(info_field "$port" rdb_last_bgsave_time_sec); [ -z "$value" ] || facts+=("last took $value s")
        value=$(info_field "$port" rdb_last_bgsave_status); [ -z "$value" ] || facts+=("last status $value")
        value=$(info_field "$port" rdb_last_cow_size); [ -z "$value" ] || facts+=("copy-on-write $(calc "f'{$value / 1e6:.1f}'") MB")
        [ ${#facts[@]} = 0 ] || note="$note; INFO: $(IFS=,; echo "${facts[*]}" | sed 's/,/, /g')"
        note="  BGSAVE at $(cut -d' ' -f1 "$log" | tr '\n' ' ')s after launch (window from ${SETUP}s): $accepted/$issued accepted${firsterr:+, first error: $firsterr}$note"
    fi
    printf 'round %s %-7s %-7s %9s ops/s  p99 %9s us  p99.9 %9s us  max %9s us%s\n' "$round" "$kind" "$phase" "$ops" "$p99" "$p999" "$max" "$note"
    echo "$round $kind $phase $ops $p99 $p999 $max $issued $accepted ${firsterr// /_}" >> "$RESULTS"
}

measure() { # round kind
    local round=$1 kind=$2 port dir out t0 t1 keys phases
    dir="$WORK/$kind"
    rm -rf "$dir" "$dir.log"; mkdir -p "$dir"
    port=$(free_port)
    start_server "$kind" "$port" "$dir"
    if ! wait_port "$port" "$PID"; then
        echo "bgsave-load.sh: $kind did not start; its log:" >&2; tail -5 "$dir.log" >&2; stop_server; return 0
    fi
    out=$(taskset -c 1 "$RB" --port "$port" --op SET --threads 1 --clients 4 --batchsize 256 --dbsize "$DBSIZE" --keylength 12 \
        --valuelength 100 --totalops 1 2>&1) || { echo "bgsave-load.sh: loading $kind failed: $(tail -1 <<< "$out")" >&2; stop_server; return 0; }
    keys=$(redis-cli -p "$port" dbsize 2> /dev/null | tr -d '\r')
    [ "$keys" = "$DBSIZE" ] || echo "bgsave-load.sh: $kind holds $keys keys after loading $DBSIZE" >&2
    # the warm-up also times how long the load generator takes to connect and build its requests before its clock starts
    t0=$(usec); bench "$port" "$WARMUP" "$WORK/warmup.txt" || true; t1=$(usec)
    SETUP=$(calc "f'{max(0.0, ($t1 - $t0) / 1e6 - $WARMUP):.2f}'")
    echo "round $round $kind: $keys keys, warm-up $(grep -o 'ops/s=[0-9]*' "$WORK/warmup.txt" | tail -1 || echo 'failed'), load generator setup ${SETUP}s"
    if [ $((round % 2)) = 1 ]; then phases="steady bgsave"; else phases="bgsave steady"; fi
    for phase in $phases; do run_phase "$round" "$kind" "$port" "$phase"; done
    stop_server
    rm -rf "$dir" "$dir.log"
}

echo "bgsave-load.sh: GET/SET 80/20, $CLIENTS clients, $DBSIZE keys (12 B keys, 100 B values), ${RUNTIME}s per phase, BGSAVE every ${INTERVAL}s, $ROUNDS round(s), servers: ${KINDS[*]}"
: > "$RESULTS"
for round in $(seq 1 "$ROUNDS"); do
    count=${#KINDS[@]}
    for i in $(seq 0 $((count - 1))); do
        measure "$round" "${KINDS[$(((i + round - 1) % count))]}"
    done
done

median() { { grep -v '^-$' || true; } | sort -g | awk '{ a[NR] = $1 } END { if (NR) printf "%.15g\n", (a[int((NR + 1) / 2)] + a[int(NR / 2) + 1]) / 2; else print "-" }'; }
col() { awk -v k="$1" -v p="$2" -v c="$3" '$2 == k && $3 == p { print $c }' "$RESULTS" | median; }
echo
echo "median over $ROUNDS round(s); latencies in µs over all commands; BGSAVE every ${INTERVAL}s in the bgsave phase"
printf '%-7s %-7s %10s %10s %10s %10s  %s\n' server phase ops/s p99 p99.9 max "BGSAVE accepted/issued"
for kind in "${KINDS[@]}"; do
    grep -q " $kind " "$RESULTS" || { printf '%-7s did not run\n' "$kind"; continue; }
    for phase in steady bgsave; do
        extra=""
        if [ "$phase" = bgsave ]; then
            extra="$(awk -v k="$kind" '$2 == k && $3 == "bgsave" { a += $9; i += $8 } END { print a "/" i }' "$RESULTS")"
            err=$(awk -v k="$kind" '$2 == k && $3 == "bgsave" && $10 != "" { print $10; exit }' "$RESULTS" | tr '_' ' ')
            [ -z "$err" ] || extra="$extra (error: $err)"
        fi
        printf '%-7s %-7s %10s %10s %10s %10s  %s\n' "$kind" "$phase" "$(col "$kind" "$phase" 4)" "$(col "$kind" "$phase" 5)" \
            "$(col "$kind" "$phase" 6)" "$(col "$kind" "$phase" 7)" "$extra"
    done
    accepted=$(awk -v k="$kind" '$2 == k && $3 == "bgsave" { a += $9 } END { print a + 0 }' "$RESULTS")
    python3 - "$kind" "$(col "$kind" steady 4)" "$(col "$kind" bgsave 4)" "$(col "$kind" steady 5)" "$(col "$kind" bgsave 5)" "$accepted" << 'EOF'
import sys
kind, so, bo, sp, bp, accepted = sys.argv[1:]
note = "bgsave / steady: ops/s, p99" + ("" if int(accepted) else "; no BGSAVE was accepted, so this is steady against steady")
try:
    print(f"{kind:<7} {'ratio':<7} {float(bo) / float(so):9.3f}x {float(bp) / float(sp):9.2f}x  ({note})")
except ValueError:
    print(f"{kind:<7} {'ratio':<7} {'-':>10} {'-':>10}")
EOF
done
