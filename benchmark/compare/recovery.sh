#!/usr/bin/env bash
# Recovery time of N keys (12-byte keys, 100-byte values): this server replaying its operation log (--aof --recover) and
# loading a checkpoint (SAVE, then --recover: the checkpoint and the empty log after it), and Redis loading its AOF and
# its RDB (OURS_ONLY=1 skips Redis). Each server is loaded through Resp.benchmark, stopped, the
# page cache dropped (when allowed), and started again; the time is from the start to the first PONG. Servers on core 0,
# the load on core 1.
#
#   benchmark/compare/recovery.sh [N]
set -euo pipefail
N=${1:-10000000}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OURS=$ROOT/src/GarnetServer/bin/Release/net10.0/GarnetServer
RB=$ROOT/benchmark/Resp.benchmark/bin/Release/net10.0/Resp.benchmark
D=/tmp/replay-bench; rm -rf $D; mkdir -p $D/ours $D/redis
wait_port() { for _ in $(seq 1 6000); do (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null && return 0; sleep 0.01; done; return 1; }
wait_pong() { for _ in $(seq 1 60000); do [ "$(redis-cli -p $1 ping 2>/dev/null)" = "PONG" ] && return 0; sleep 0.01; done; return 1; }
load() { taskset -c 1 $RB --port $1 --op SET --threads 1 --clients 4 --batchsize 256 --dbsize $N --keylength 12 --valuelength 100 --totalops 1 > /dev/null 2>&1 || true; }

# ours
taskset -c 0 $OURS --port 7101 --aof --aof-commit-freq 1000 --checkpointdir $D/ours -q > $D/ours.log 2>&1 & P=$!; wait_port 7101
load 7101; echo "ours dbsize $(redis-cli -p 7101 dbsize) aof $(du -sh $D/ours/AOF | cut -f1)"; kill $P; wait $P || true
sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true
t0=$(date +%s.%N); taskset -c 0 $OURS --port 7101 --aof --aof-commit-freq 1000 --checkpointdir $D/ours --recover -q > $D/ours2.log 2>&1 & P=$!; wait_pong 7101; t1=$(date +%s.%N)
echo "ours AOF replay to first PONG: $(echo "$t1 - $t0" | bc) s, dbsize $(redis-cli -p 7101 dbsize), rss $(ps -o rss= -p $P) KB"
t0=$(date +%s.%N); redis-cli -p 7101 save > /dev/null; t1=$(date +%s.%N)
echo "ours SAVE: $(echo "$t1 - $t0" | bc) s, checkpoint $(du -sh $D/ours/checkpoints | cut -f1), aof left $(du -sh $D/ours/AOF | cut -f1)"; kill $P; wait $P || true
sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true
t0=$(date +%s.%N); taskset -c 0 $OURS --port 7101 --aof --aof-commit-freq 1000 --checkpointdir $D/ours --recover -q > $D/ours3.log 2>&1 & P=$!; wait_pong 7101; t1=$(date +%s.%N)
echo "ours checkpoint load to first PONG: $(echo "$t1 - $t0" | bc) s, dbsize $(redis-cli -p 7101 dbsize), rss $(ps -o rss= -p $P) KB"; kill $P; wait $P || true

if [ -z "${OURS_ONLY:-}" ]; then
# redis AOF
taskset -c 0 redis-server --port 7102 --dir $D/redis --save '' --appendonly yes --appendfsync everysec > $D/redis.log 2>&1 & P=$!; wait_port 7102
load 7102; echo "redis dbsize $(redis-cli -p 7102 dbsize) aof $(du -sh $D/redis/appendonlydir | cut -f1)"; redis-cli -p 7102 save > /dev/null; redis-cli -p 7102 shutdown > /dev/null 2>&1 || true; wait $P || true
sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true
t0=$(date +%s.%N); taskset -c 0 redis-server --port 7102 --dir $D/redis --save '' --appendonly yes --appendfsync everysec > $D/redis2.log 2>&1 & P=$!; wait_pong 7102; t1=$(date +%s.%N)
echo "redis AOF load to first PONG: $(echo "$t1 - $t0" | bc) s, dbsize $(redis-cli -p 7102 dbsize)"; grep -i "loaded\|DB loaded" $D/redis2.log | tail -2; redis-cli -p 7102 shutdown nosave > /dev/null 2>&1 || true; wait $P || true
sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true
t0=$(date +%s.%N); taskset -c 0 redis-server --port 7102 --dir $D/redis --save '' --appendonly no > $D/redis3.log 2>&1 & P=$!; wait_pong 7102; t1=$(date +%s.%N)
echo "redis RDB load to first PONG: $(echo "$t1 - $t0" | bc) s, dbsize $(redis-cli -p 7102 dbsize)"; grep -i "loaded" $D/redis3.log | tail -2; redis-cli -p 7102 shutdown nosave > /dev/null 2>&1 || true; wait $P || true
fi
rm -rf $D
