#!/usr/bin/env bash
# Snapshot time of N keys (12-byte keys, 100-byte values): this server's SAVE, Redis's BGSAVE (from the command to
# `rdb_bgsave_in_progress:0` in INFO persistence, polled every 10 ms) and real Garnet's SAVE, next to the disk's
# sequential write bandwidth measured in the same run (dd, 2 GiB, O_DIRECT, fsync). Each server starts afresh on an
# empty directory, is loaded through Resp.benchmark's preload and then saves once; MB written is what `du -sb` finds in
# its directory after the save less before it (MB = 10^6 bytes). Servers on core 0, the load on core 1.
#
#   benchmark/compare/save.sh [N]                         (default N=10000000)
#
# ROUNDS (1): rounds; the servers' order rotates from round to round and the table gives each one's median.
# SERVERS ("ours redis garnet"): which to measure. GARNET (/tmp/garnet-tool/garnet-server): real Garnet 2.2.8 (from
# `dotnet tool install --tool-path /tmp/garnet-tool garnet-server --version 2.2.8`), skipped when missing. REDIS
# (redis-server on the PATH). OURS (this checkout's Release build). DIR (/tmp): a new directory save-bench.XXXXXX in it
# holds the servers' files and the dd file, and is removed at the end; DD_MB (2048) sets dd's size.
#
# Started as: ours `--checkpointdir <dir>`; Redis `--save '' --appendonly no --dir <dir>`; Garnet `--checkpointdir <dir>
# --device-type RandomAccess --minthreads 64`. A server that replies an error to SAVE / BGSAVE is reported with that reply.
set -euo pipefail

case "${1:-}" in -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
N=${1:-10000000}
ROUNDS=${ROUNDS:-1}
[[ "$N" =~ ^[1-9][0-9]*$ ]] || { echo "save.sh: N must be a positive integer (got '$N'); see --help" >&2; exit 2; }
[[ "${DD_MB:-2048}" =~ ^[1-9][0-9]*$ ]] || { echo "save.sh: DD_MB must be a positive integer" >&2; exit 2; }
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "save.sh: ROUNDS must be a positive integer (got '$ROUNDS')" >&2; exit 2; }
[ $# -le 1 ] || { echo "save.sh: one argument at most (N); see --help" >&2; exit 2; }

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OURS=${OURS:-$ROOT/src/GarnetServer/bin/Release/net10.0/GarnetServer}
RB="$ROOT/benchmark/Resp.benchmark/bin/Release/net10.0/Resp.benchmark"
REDIS=${REDIS:-$(command -v redis-server || true)}
GARNET=${GARNET:-/tmp/garnet-tool/garnet-server}
BASE=${DIR:-/tmp}
DD_MB=${DD_MB:-2048}
read -r -a WANTED <<< "${SERVERS:-ours redis garnet}"

command -v redis-cli > /dev/null || { echo "save.sh: redis-cli not found (apt-get install -y redis-tools)" >&2; exit 1; }
[ -x "$RB" ] || { echo "save.sh: build benchmark/Resp.benchmark -c Release first" >&2; exit 1; }
KINDS=()
for kind in "${WANTED[@]}"; do
    case "$kind" in
        ours) if [ -x "$OURS" ]; then KINDS+=(ours); else echo "save.sh: skipping ours: $OURS not found (build src/GarnetServer -c Release)" >&2; fi ;;
        redis) if [ -n "$REDIS" ] && [ -x "$REDIS" ]; then KINDS+=(redis); else echo "save.sh: skipping Redis: redis-server not found" >&2; fi ;;
        garnet) if [ -x "$GARNET" ]; then KINDS+=(garnet); else echo "save.sh: skipping Garnet: $GARNET not found (set GARNET=path/to/garnet-server)" >&2; fi ;;
        *) echo "save.sh: unknown server '$kind' in SERVERS (ours, redis, garnet)" >&2; exit 2 ;;
    esac
done
[ ${#KINDS[@]} -gt 0 ] || { echo "save.sh: no server to measure" >&2; exit 1; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 600); do (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null && return 0; kill -0 "$2" 2> /dev/null || return 1; sleep 0.05; done; return 1; }
now() { date +%s.%N; }
calc() { python3 -c "print($1)"; }

PID=""
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
[ -d "$BASE" ] || { echo "save.sh: DIR=$BASE is not a directory" >&2; exit 2; }
DIR=$(mktemp -d "$BASE/save-bench.XXXXXX")
RESULTS=$(mktemp)
cleanup() { stop_server; rm -f "$RESULTS"; rm -rf "$DIR"; }
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

# dd's own figure ("... copied, 3.1 s, 692 MB/s") in MB/s, and the rate from our own clock around it
disk_bandwidth() { # prints "dd_mbps timed_mbps seconds"
    local f="$DIR/dd.bin" out t0 t1 rc=0
    sync
    t0=$(now)
    out=$(LC_ALL=C dd if=/dev/zero of="$f" bs=1M count="$DD_MB" oflag=direct conv=fsync 2>&1) || rc=$?
    t1=$(now)
    if [ "$rc" -ne 0 ]; then # a file system without O_DIRECT (tmpfs): buffered, still fsync'd
        echo "save.sh: dd with oflag=direct failed ($(tail -1 <<< "$out")); measuring without it" >&2
        t0=$(now)
        out=$(LC_ALL=C dd if=/dev/zero of="$f" bs=1M count="$DD_MB" conv=fsync 2>&1)
        t1=$(now)
    fi
    rm -f "$f"
    python3 - "$(tail -1 <<< "$out")" "$t0" "$t1" "$DD_MB" << 'EOF'
import re, sys
line, t0, t1, mb = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
m = re.search(r'([0-9.]+) ([kMGT]?)B/s', line)
scale = {'': 1e-6, 'k': 1e-3, 'M': 1, 'G': 1e3, 'T': 1e6}
reported = float(m.group(1)) * scale[m.group(2)] if m else float('nan')
secs = t1 - t0
print(f"{reported:.1f} {mb * 1048576 / 1e6 / secs:.1f} {secs:.3f}")
EOF
}

# Redis notices its child's exit in serverCron (10 times a second), so the polled time can include up to 100 ms of
# waiting; its log's millisecond timestamps show the fork and the child's own writing time.
redis_log_times() { # log
    python3 - "$1" << 'EOF2'
import re, sys
from datetime import datetime
t = {}
for line in open(sys.argv[1], errors='replace'):
    m = re.match(r'\d+:[A-Z] (\d+ \w+ \d+ [\d:.]+) [*#.-] (.*)', line)
    if not m:
        continue
    when = datetime.strptime(m.group(1), '%d %b %Y %H:%M:%S.%f')
    for key, text in (('start', 'Background saving started'), ('saved', 'DB saved on disk'), ('done', 'Background saving terminated')):
        if m.group(2).startswith(text):
            t[key] = when
if 'start' in t and 'saved' in t:
    print(f"child wrote the RDB in {(t['saved'] - t['start']).total_seconds():.3f} s", end='')
    if 'done' in t:
        print(f", parent saw it done after {(t['done'] - t['start']).total_seconds():.3f} s", end='')
    print()
else:
    print("no save lines found")
EOF2
}

info_field() { redis-cli -p "$1" info persistence 2> /dev/null | tr -d '\r' | sed -n "s/^$2://p"; }

# Loads, saves and prints "round kind seconds bytes status"; status is ok or what went wrong.
measure() { # round kind
    local round=$1 kind=$2 port dir out loaded keys before after t0 t1 reply status secs bytes files
    dir="$DIR/$kind"
    rm -rf "$dir" "$dir.log"; mkdir -p "$dir"
    port=$(free_port)
    start_server "$kind" "$port" "$dir"
    if ! wait_port "$port" "$PID"; then
        echo "save.sh: $kind did not start; its log:" >&2; tail -5 "$dir.log" >&2
        stop_server; echo "$round $kind - - did-not-start" >> "$RESULTS"; return 0
    fi
    out=$(taskset -c 1 "$RB" --port "$port" --op SET --threads 1 --clients 4 --batchsize 256 --dbsize "$N" --keylength 12 \
        --valuelength 100 --totalops 1 2>&1) || { echo "save.sh: loading $kind failed: $(tail -1 <<< "$out")" >&2; stop_server; echo "$round $kind - - load-failed" >> "$RESULTS"; return 0; }
    loaded=$(grep -o 'Loaded [0-9]* keys ([A-Za-z]*) in [0-9.]* s' <<< "$out" | grep -o 'in [0-9.]* s' || true)
    keys=$(redis-cli -p "$port" dbsize 2> /dev/null | tr -d '\r')
    [ "$keys" = "$N" ] || echo "save.sh: $kind holds $keys keys after loading $N" >&2
    sync
    before=$(du -sb "$dir" | cut -f1)
    status=ok
    case "$kind" in
        ours | garnet)
            t0=$(now); reply=$(redis-cli -p "$port" SAVE 2>&1 | tr -d '\r'); t1=$(now)
            [ "$reply" = OK ] || status="SAVE replied: $reply"
            ;;
        redis)
            t0=$(now); reply=$(redis-cli -p "$port" BGSAVE 2>&1 | tr -d '\r')
            if [[ "$reply" == "Background saving started"* ]]; then
                while [ "$(info_field "$port" rdb_bgsave_in_progress)" != 0 ]; do sleep 0.01; done
                t1=$(now)
                reply=$(info_field "$port" rdb_last_bgsave_status)
                [ "$reply" = ok ] || status="rdb_last_bgsave_status:$reply"
                echo "  redis rdb_last_bgsave_status:$reply rdb_last_cow_size:$(info_field "$port" rdb_last_cow_size);" \
                    "from its log: $(redis_log_times "$dir.log")"
            else
                t1=$(now); status="BGSAVE replied: $reply"
            fi
            ;;
    esac
    after=$(du -sb "$dir" | cut -f1)
    # what the save left, largest first: apparent size (du -sb) and allocated size (a sparse file allocates less)
    files=$(find "$dir" -type f -printf '%s %b %f\n' | sort -rn | head -4 | awk '{ printf "%s%s %.1f MB", (NR > 1 ? ", " : ""), $3, $1 / 1e6;
        if ($2 * 512 < 0.9 * $1) printf " (%.1f MB allocated)", $2 * 512 / 1e6 }')
    [ -z "$files" ] || echo "  $kind largest files: $files"
    stop_server
    rm -rf "$dir" "$dir.log"
    secs=$(calc "f'{$t1 - $t0:.3f}'")
    bytes=$((after - before))
    if [ "$status" = ok ]; then
        printf 'round %s %-7s keys %s (loaded %s)  save %8.3f s  %9.1f MB  %8.1f MB/s\n' "$round" "$kind" "$keys" "${loaded#in }" \
            "$secs" "$(calc "$bytes / 1e6")" "$(calc "$bytes / 1e6 / $secs")"
        echo "$round $kind $secs $bytes ok" >> "$RESULTS"
    else
        printf 'round %s %-7s keys %s (loaded %s)  FAILED after %.3f s: %s\n' "$round" "$kind" "$keys" "${loaded#in }" "$secs" "$status"
        echo "$round $kind - - ${status// /_}" >> "$RESULTS"
    fi
}

echo "save.sh: N=$N keys (12-byte keys, 100-byte values), $ROUNDS round(s), servers: ${KINDS[*]}, files in $DIR"
DD=()
for round in $(seq 1 "$ROUNDS"); do
    read -r ddrep ddown ddsecs <<< "$(disk_bandwidth)"
    echo "round $round dd: $DD_MB MiB O_DIRECT+fsync in $ddsecs s: dd reports $ddrep MB/s, timed $ddown MB/s"
    DD+=("$ddown $ddrep")
    count=${#KINDS[@]}
    for i in $(seq 0 $((count - 1))); do
        measure "$round" "${KINDS[$(((i + round - 1) % count))]}"
    done
done

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR) printf "%.15g\n", (a[int((NR + 1) / 2)] + a[int(NR / 2) + 1]) / 2 }'; }
DDOWN=$(printf '%s\n' "${DD[@]}" | cut -d' ' -f1 | median)
DDREP=$(printf '%s\n' "${DD[@]}" | cut -d' ' -f2 | median)
echo
printf 'N=%s keys; median over %s round(s); disk: dd %s MiB O_DIRECT+fsync, timed %.1f MB/s (dd reports %.1f MB/s)\n' "$N" "$ROUNDS" "$DD_MB" "$DDOWN" "$DDREP"
printf '%-7s %-14s %10s %10s %10s %12s\n' server how seconds MB MB/s "of disk"
declare -A SECS=()
for kind in "${KINDS[@]}"; do
    case "$kind" in ours) how=SAVE ;; redis) how="BGSAVE..done" ;; garnet) how=SAVE ;; esac
    ok=$(awk -v k="$kind" '$2 == k && $5 == "ok"' "$RESULTS")
    if [ -z "$ok" ]; then
        why=$(awk -v k="$kind" '$2 == k { print $5 }' "$RESULTS" | head -1 | tr '_' ' ')
        printf '%-7s %-14s %s\n' "$kind" "$how" "failed: $why"
        continue
    fi
    secs=$(awk '{ print $3 }' <<< "$ok" | median)
    bytes=$(awk '{ print $4 }' <<< "$ok" | median)
    mbps=$(calc "$bytes / 1e6 / $secs")
    SECS[$kind]=$secs
    printf '%-7s %-14s %10.3f %10.1f %10.1f %11.1f%%\n' "$kind" "$how" "$secs" "$(calc "$bytes / 1e6")" "$mbps" "$(calc "100 * $mbps / $DDOWN")"
done
if [ -n "${SECS[ours]:-}" ] && [ -n "${SECS[redis]:-}" ]; then
    echo "ours vs Redis: $(calc "f'{${SECS[redis]} / ${SECS[ours]}:.2f}'")x faster (Redis seconds / ours seconds)"
else
    echo "ours vs Redis: n/a (one of them has no successful save)"
fi
