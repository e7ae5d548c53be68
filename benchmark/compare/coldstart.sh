#!/usr/bin/env bash
# Cold start: what a user sees who starts a server and points redis-benchmark at it at once. Each run starts a fresh
# server (core 0), times it to its first PONG, reads its RSS at idle, then sends the first requests it ever serves
# (redis-benchmark on core 1, 50 clients, random keys over 100,000) and records their throughput. Forms and loads
# alternate within each round, so the machine's drift (±20%) spreads over all of them.
#
#   benchmark/compare/coldstart.sh [STARTS]        (default 10 fresh starts per form and load)
#
# FORMS (default "jit r2r redis") picks the servers, from:
#   jit            the Release build as `dotnet run -c Release` runs it (bin/Release/net10.0, JIT only)
#   dotnet-run     the README's command itself, `dotnet run -c Release --project src/GarnetServer` (its build check
#                  counts in the time to PONG)
#   r2r            `dotnet publish -c Release -r linux-x64 -p:PublishReadyToRun=true` (framework-dependent)
#   r2r-composite  the same, self-contained, our assemblies and the framework compiled as one composite image
#   redis          redis-server (no persistence)
#   garnet         real Garnet 2.2.8 from `dotnet tool install --tool-path /tmp/garnet-tool garnet-server`
# ENV_<form> adds environment settings to a form (e.g. ENV_r2r="DOTNET_TieredPGO=0") and ARGS_<form> server options
# (e.g. ARGS_jit_cold="--warm-up 0"; - and + in a form's name become _); a form named X+Y runs form X with ENV_<X+Y> and
# ARGS_<X+Y>, to compare settings of one build. LOADS (default "get-p1 set-p1 get-p64 set-p64"): requests are
# 300,000 at -P 1 and 3,000,000 at -P 64. Publishes what it needs into artifacts/coldstart (BUILD=0 skips that).
# Prints one line per run, then per form and load the median ops/s and its ratio to redis's median, the median time
# to the first PONG and the median idle RSS.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
STARTS=${1:-10}
FORMS=${FORMS:-"jit r2r redis"}
LOADS=${LOADS:-"get-p1 set-p1 get-p64 set-p64"}
OUT=${OUT:-$ROOT/artifacts/coldstart}
GARNET_TOOL=${GARNET_TOOL:-/tmp/garnet-tool/garnet-server}
mkdir -p "$OUT"

command -v redis-benchmark > /dev/null || { echo "coldstart.sh: needs redis-benchmark (apt-get install -y redis-tools)" >&2; exit 1; }

publish() { # name extra-publish-args...
    local name=$1; shift
    [ "${BUILD:-1}" = 0 ] && [ -x "$OUT/$name/GarnetServer" ] && return 0
    rm -rf "$OUT/$name"
    dotnet publish "$ROOT/src/GarnetServer" -c Release -r linux-x64 -o "$OUT/$name" "$@" > "$OUT/$name.publish.log" 2>&1 \
        || { echo "coldstart.sh: publishing $name failed, see $OUT/$name.publish.log" >&2; exit 1; }
}

base_form() { echo "${1%%+*}"; }

for form in $FORMS; do
    case $(base_form "$form") in
        jit | dotnet-run)
            [ "${BUILD:-1}" = 0 ] || dotnet build "$ROOT/src/GarnetServer" -c Release > "$OUT/jit.build.log" 2>&1 ;;
        r2r) publish r2r --self-contained false -p:PublishReadyToRun=true ;;
        r2r-composite) publish r2r-composite --self-contained true -p:PublishReadyToRun=true -p:PublishReadyToRunComposite=true ;;
        redis) command -v redis-server > /dev/null || { echo "coldstart.sh: needs redis-server" >&2; exit 1; } ;;
        garnet) [ -x "$GARNET_TOOL" ] || { echo "coldstart.sh: needs $GARNET_TOOL" >&2; exit 1; } ;;
        *) echo "coldstart.sh: unknown form $form" >&2; exit 1 ;;
    esac
done

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Starts form $1 on port $2 in its own session (dotnet run has a child) and waits for its first PONG; prints its pid
# and the milliseconds from the start to that PONG (polled every millisecond, up to 120 s; -1 if none came).
start_form() {
    local form=$1 port=$2 envvar="ENV_${1//[+-]/_}" argsvar="ARGS_${1//[+-]/_}"
    local cmd extra=()
    read -r -a extra <<< "${!argsvar:-}"
    case $(base_form "$form") in
        jit) cmd=(dotnet "$ROOT/src/GarnetServer/bin/Release/net10.0/GarnetServer.dll" --port "$port" --bind 127.0.0.1 "${extra[@]}") ;;
        dotnet-run) cmd=(dotnet run -c Release --project "$ROOT/src/GarnetServer" -- --port "$port" --bind 127.0.0.1 "${extra[@]}") ;;
        r2r | r2r-composite) cmd=("$OUT/$(base_form "$form")/GarnetServer" --port "$port" --bind 127.0.0.1 "${extra[@]}") ;;
        redis) cmd=(redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no "${extra[@]}") ;;
        garnet) cmd=("$GARNET_TOOL" --port "$port" --bind 127.0.0.1 "${extra[@]}") ;;
    esac
    python3 - "$port" "${!envvar:-}" taskset -c 0 "${cmd[@]}" << 'EOF2'
import os, socket, subprocess, sys, time
port, settings, cmd = int(sys.argv[1]), sys.argv[2].split(), sys.argv[3:]
env = dict(os.environ, **dict(s.split("=", 1) for s in settings))
started = time.monotonic()
server = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
ms = -1
while time.monotonic() - started < 120 and server.poll() is None:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            if s.recv(16).startswith(b"+PONG"):
                ms = int((time.monotonic() - started) * 1000)
                break
    except OSError:
        time.sleep(0.001)
print(server.pid, ms)
EOF2
}

# The server's resident memory in KiB: the largest RSS in its process group (dotnet run's child is the server).
rss_kb() {
    local best=0 pid rss
    for pid in $(pgrep -g "$1" || true); do
        rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2> /dev/null || echo 0)
        [ "${rss:-0}" -gt "$best" ] && best=$rss
    done
    echo "$best"
}

# Whether process $1 still runs (its launcher is gone, so it may stay a zombie where nothing reaps orphans).
running() { [ -e "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2> /dev/null)" != Z ]; }

RESULTS="$OUT/results.$(date +%Y%m%d-%H%M%S).txt"
echo "# form load start ops_per_s ms_to_pong idle_rss_kib" > "$RESULTS"

run_one() { # form load start
    local form=$1 load=$2 start=$3 port pid pong rss op pipeline requests ops
    op=${load%%-*}; pipeline=${load##*-p}
    requests=$([ "$pipeline" = 1 ] && echo 300000 || echo 3000000)
    port=$(free_port)
    read -r pid pong < <(start_form "$form" "$port")
    sleep 0.5
    rss=$(rss_kb "$pid")
    ops=$(taskset -c 1 redis-benchmark -p "$port" -t "$op" -n "$requests" -r 100000 -c 50 -P "$pipeline" --csv 2> /dev/null \
        | awk -F, 'NR == 2 {gsub(/"/, "", $2); print int($2)}')
    kill -TERM -- "-$pid" 2> /dev/null || true
    for _ in $(seq 1 100); do running "$pid" || break; sleep 0.05; done
    kill -KILL -- "-$pid" 2> /dev/null || true
    echo "$form $load $start ${ops:-0} $pong $rss" | tee -a "$RESULTS"
}

forms=($FORMS)
for start in $(seq 1 "$STARTS"); do
    for load in $LOADS; do
        # Rotate the order of the forms each round, so none always runs first.
        n=${#forms[@]}
        for i in $(seq 0 $((n - 1))); do
            run_one "${forms[$(((i + start) % n))]}" "$load" "$start"
        done
    done
done

echo
echo "results: $RESULTS"
python3 - "$RESULTS" << 'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if not l.startswith("#")]
forms = list(dict.fromkeys(r[0] for r in rows))
loads = list(dict.fromkeys(r[1] for r in rows))
med = lambda xs: statistics.median(xs) if xs else 0
print(f"{'form':<22}{'load':<9}{'median ops/s':>14}{'vs redis':>10}{'ms to PONG':>12}{'idle RSS MiB':>14}")
for load in loads:
    base = med([int(r[3]) for r in rows if r[0] == "redis" and r[1] == load])
    for form in forms:
        mine = [r for r in rows if r[0] == form and r[1] == load]
        ops = med([int(r[3]) for r in mine])
        ratio = f"{ops / base:.2f}x" if base else "-"
        print(f"{form:<22}{load:<9}{ops:>14,.0f}{ratio:>10}{med([int(r[4]) for r in mine]):>12.0f}{med([int(r[5]) for r in mine]) / 1024:>14.1f}")
EOF
