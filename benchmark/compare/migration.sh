#!/usr/bin/env bash
# Time to move every slot holding N keys (8-byte keys and 8-byte values) from one cluster node to another:
#   ours:   MIGRATE 127.0.0.1 <target> "" 0 60000 SLOTSRANGE 0 16383 (server to server), until CLUSTER MTASKS is 0;
#   redis:  redis-cli --cluster reshard of all 16384 slots between two Redis nodes (redis-cli moves the keys);
#   garnet: real Garnet's MIGRATE ... SLOTSRANGE 0 16383 (GARNET=path to garnet-server; skipped when unset).
# Each pair starts empty, the source serves every slot, the keys are loaded with redis-cli --pipe (not timed). Both
# nodes run on core 0, redis-cli on core 1. Prints each system's time, keys on the target and keys left on the source.
#
#   benchmark/compare/migration.sh [N] [SYSTEMS]      SYSTEMS: "ours redis garnet" (the default) or any of them, run in
#                                                     the order given; one named twice runs twice on fresh nodes
set -euo pipefail
N=${1:-10000000}
SYSTEMS=${2:-ours redis garnet}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OURS=$ROOT/src/GarnetServer/bin/Release/net10.0/GarnetServer
D=/tmp/migration-bench
rm -rf $D
mkdir -p $D

LOAD=$D/load.resp
python3 - "$N" > $LOAD << 'EOF'
import sys
n = int(sys.argv[1])
out = sys.stdout
for start in range(0, n, 100000):
    out.write(''.join('*3\r\n$3\r\nSET\r\n$8\r\n%08d\r\n$8\r\n%08d\r\n' % (i, i) for i in range(start, min(n, start + 100000))))
EOF

wait_pong() { for _ in $(seq 1 3000); do [ "$(redis-cli -p $1 ping 2> /dev/null)" = "PONG" ] && return 0; sleep 0.02; done; return 1; }
now() { date +%s.%N; }
dbsize() { redis-cli -p $1 dbsize; }

# Source on $1 serving every slot, target on $2 met and seeing it; then the keys loaded into the source.
prepare() {
    redis-cli -p $1 cluster addslotsrange 0 16383 > /dev/null
    redis-cli -p $1 cluster meet 127.0.0.1 $2 > /dev/null
    for _ in $(seq 1 600); do
        redis-cli -p $2 cluster nodes | grep -q "connected 0-16383" && redis-cli -p $1 cluster info | grep -q "cluster_known_nodes:2" \
            && redis-cli -p $1 cluster info | grep -q "cluster_state:ok" && break
        sleep 0.1
    done
    taskset -c 1 redis-cli -p $1 --pipe < $LOAD 2>&1 | tail -1
    echo "  loaded: source holds $(dbsize $1) keys"
}

report() { # name seconds source target
    echo "$1: moved all slots in $2 s; target holds $(dbsize $4) keys, source $(dbsize $3)"
}

for system in $SYSTEMS; do
    case $system in
    ours)
        rm -rf $D/oa $D/ob; mkdir -p $D/oa $D/ob
        taskset -c 0 $OURS --port 7601 --bind 127.0.0.1 --cluster --checkpointdir $D/oa > $D/oa.log 2>&1 & A=$!
        taskset -c 0 $OURS --port 7602 --bind 127.0.0.1 --cluster --checkpointdir $D/ob > $D/ob.log 2>&1 & B=$!
        wait_pong 7601; wait_pong 7602
        prepare 7601 7602
        t0=$(now)
        redis-cli -p 7601 migrate 127.0.0.1 7602 "" 0 60000 SLOTSRANGE 0 16383 > /dev/null
        until [ "$(redis-cli -p 7601 cluster mtasks)" = "0" ]; do sleep 0.01; done
        t1=$(now)
        report ours "$(echo "$t1 - $t0" | bc)" 7601 7602
        redis-cli -p 7601 info cluster | grep -E "slot_migration" | tr -d '\r' | sed 's/^/  /'
        kill $A $B; wait $A $B 2> /dev/null || true
        ;;
    redis)
        rm -rf $D/ra $D/rb; mkdir -p $D/ra $D/rb
        taskset -c 0 redis-server --port 7611 --bind 127.0.0.1 --dir $D/ra --cluster-enabled yes --save '' --appendonly no > $D/ra.log 2>&1 & A=$!
        taskset -c 0 redis-server --port 7612 --bind 127.0.0.1 --dir $D/rb --cluster-enabled yes --save '' --appendonly no > $D/rb.log 2>&1 & B=$!
        wait_pong 7611; wait_pong 7612
        prepare 7611 7612
        from=$(redis-cli -p 7611 cluster myid); to=$(redis-cli -p 7612 cluster myid)
        t0=$(now)
        taskset -c 1 redis-cli --cluster reshard 127.0.0.1:7611 --cluster-from $from --cluster-to $to --cluster-slots 16384 --cluster-yes > $D/reshard.log 2>&1
        t1=$(now)
        report redis "$(echo "$t1 - $t0" | bc)" 7611 7612
        kill $A $B; wait $A $B 2> /dev/null || true
        ;;
    garnet)
        [ -n "${GARNET:-}" ] || { echo "garnet: skipped (GARNET not set)"; continue; }
        rm -rf $D/ga $D/gb; mkdir -p $D/ga $D/gb
        taskset -c 0 $GARNET --port 7621 --bind 127.0.0.1 --cluster --checkpointdir $D/ga --device-type RandomAccess > $D/ga.log 2>&1 & A=$!
        taskset -c 0 $GARNET --port 7622 --bind 127.0.0.1 --cluster --checkpointdir $D/gb --device-type RandomAccess > $D/gb.log 2>&1 & B=$!
        wait_pong 7621; wait_pong 7622
        prepare 7621 7622
        t0=$(now)
        redis-cli -p 7621 migrate 127.0.0.1 7622 "" 0 60000 SLOTSRANGE 0 16383 > /dev/null
        until [ "$(redis-cli -p 7621 cluster mtasks)" = "0" ] && redis-cli -p 7622 cluster nodes | grep "myself" | grep -q "0-16383"; do sleep 0.01; done
        t1=$(now)
        report garnet "$(echo "$t1 - $t0" | bc)" 7621 7622
        kill $A $B; wait $A $B 2> /dev/null || true
        ;;
    esac
done
rm -rf $D
