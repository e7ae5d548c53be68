#!/usr/bin/env bash
# Compares two builds of the server on one operation by running them at the same time, so the
# machine's drift (±20% here) affects both alike. Both servers share core 0; both loads share core 1.
# Each round runs twice with the seats swapped (the server started first and the load started first
# is a little favoured), and the round's ratio is the geometric mean of the two: sqrt((x1/y1)*(x2/y2)).
#
#   benchmark/compare/pair.sh SERVER_X SERVER_Y OP [ROUNDS] [RUNTIME] [-- extra Resp.benchmark options]
#
# SERVER_X, SERVER_Y: paths to GarnetServer executables (e.g. this checkout's and a worktree's at an
# older commit), or redis-server. WARMUP=S (default 4) sets the unmeasured warm-up before each run;
# X_ARGS / Y_ARGS add server options (e.g. X_ARGS="--auth ACL --acl-file users.acl"); CLIENTS (2), BATCH (64),
# DBSIZE (1024) and VALUELENGTH (8) change the load. Prints each round's ops/s and ratio X/Y, then the median ratio.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
X=$1; Y=$2; OP=$3; ROUNDS=${4:-5}; RUNTIME=${5:-6}; WARMUP=${WARMUP:-4}
shift $(($# < 5 ? $# : 5))
[ "${1:-}" = "--" ] && shift
EXTRA=("$@")
RESPBENCH="$ROOT/benchmark/Resp.benchmark/bin/Release/net10.0/Resp.benchmark"
[ -x "$RESPBENCH" ] || { echo "pair.sh: build benchmark/Resp.benchmark -c Release first" >&2; exit 1; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

start_server() { # bin port extra-args
    local extra=()
    read -r -a extra <<< "${3:-}"
    if [[ "$(basename "$1")" == redis-server* ]]; then
        taskset -c 0 "$1" --port "$2" --bind 127.0.0.1 --save '' --appendonly no "${extra[@]}" > /dev/null 2>&1 &
    else
        taskset -c 0 "$1" --port "$2" --bind 127.0.0.1 "${extra[@]}" > /dev/null 2>&1 &
    fi
    echo $!
}

wait_port() { for _ in $(seq 1 200); do (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null && return 0; sleep 0.05; done; return 1; }

bench() { # port out
    taskset -c 1 "$RESPBENCH" --port "$1" --op "$OP" --threads 1 --clients "${CLIENTS:-2}" --batchsize "${BATCH:-64}" \
        --dbsize "${DBSIZE:-1024}" --keylength 8 --valuelength "${VALUELENGTH:-8}" --runtime "$RUNTIME" "${EXTRA[@]}" > "$2" 2>&1
}

ops() { grep -o 'ops/s=[0-9]*' "$1" | tail -1 | cut -d= -f2; }

# Runs FIRST and SECOND side by side (FIRST started first in both steps); prints "opsFIRST opsSECOND".
run_seated() {
    local p1 p2 s1 s2 o1 o2
    p1=$(free_port); p2=$(free_port)
    s1=$(start_server "$1" "$p1" "$3"); wait_port "$p1"
    s2=$(start_server "$2" "$p2" "$4"); wait_port "$p2"
    o1=$(mktemp); o2=$(mktemp)
    # A warm-up first: the servers tier up their code in the first seconds.
    RUNTIME=$WARMUP bench "$p1" /dev/null & b1=$!
    RUNTIME=$WARMUP bench "$p2" /dev/null & b2=$!
    wait $b1 $b2 || true
    bench "$p1" "$o1" & b1=$!
    bench "$p2" "$o2" & b2=$!
    wait $b1 $b2 || true
    kill "$s1" "$s2" 2> /dev/null || true
    wait "$s1" "$s2" 2> /dev/null || true
    echo "$(ops "$o1") $(ops "$o2")"
    rm -f "$o1" "$o2"
}

ratios=()
for r in $(seq 1 "$ROUNDS"); do
    read -r x1 y1 <<< "$(run_seated "$X" "$Y" "${X_ARGS:-}" "${Y_ARGS:-}")"
    read -r y2 x2 <<< "$(run_seated "$Y" "$X" "${Y_ARGS:-}" "${X_ARGS:-}")"
    ratio=$(python3 -c "import math; print(f'{math.sqrt(($x1/$y1)*($x2/$y2)):.4f}')")
    ratios+=("$ratio")
    echo "round $r: X $x1 $x2  Y $y1 $y2  X/Y $ratio"
done
python3 -c "import statistics,sys; r=[float(v) for v in sys.argv[1:]]; print(f'median X/Y {statistics.median(r):.4f} (min {min(r):.4f}, max {max(r):.4f}, {len(r)} rounds)')" "${ratios[@]}"
