#!/usr/bin/env bash
# ncclog_parse.sh: how fast `collviz nccl-log` reads a long training log.
# Builds a log of SIZE_MB megabytes: a 16-rank, 2-node NCCL_DEBUG=INFO init
# (assets/ncclog/two-nodes-16.log) buried in a long run's output (loss
# lines from every rank, NCCL's per-call INFO lines), then times
#   collviz nccl-log LOG --text
# three times beside `wc -l LOG` (the cost of just reading the bytes),
# with /usr/bin/time -v for the peak resident memory.
#   bench/ncclog_parse.sh [SIZE_MB]     (default 400)
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-400}
[ -x build/collviz ] || scripts/build.sh >/dev/null
log=${TMPDIR:-/tmp}/collviz-ncclog-bench.log
python3 - "$log" "$size_mb" <<'PY'
import sys, random
path, mb = sys.argv[1], int(sys.argv[2])
init = open("assets/ncclog/two-nodes-16.log").read()
rnd = random.Random(1)
lines = []
for i in range(20000):
    r = rnd.randrange(16)
    host = "gpu-a" if r < 8 else "gpu-b"
    if i % 3:
        lines.append(f"[rank{r}]:[2026-11-24 10:{i//600%60:02d}:{i%60:02d}] step {i} loss "
                     f"{2+rnd.random():.4f} lr 3.0e-04 grad_norm {rnd.random():.3f} tok/s 18234\n")
    else:
        lines.append(f"{host}:{4100+r}:{4200+r} [{r%8}] NCCL INFO AllReduce: opCount {i:x} "
                     f"sendbuff 0x7f12a0000000 recvbuff 0x7f12a0000000 count 67108864 "
                     f"datatype 7 op 0 root 0 comm 0x55d4207bc2d1 [nranks=16] stream 0x5612\n")
noise = "".join(lines)
with open(path, "w") as f:
    f.write(init)
    written = len(init)
    while written < mb * 1000 * 1000:
        f.write(noise)
        written += len(noise)
PY
bytes=$(stat -c %s "$log")
echo "## machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "## log: $log, $bytes bytes, $(wc -l < "$log") lines"
for run in 1 2 3; do
    t0=$(date +%s.%N); wc -l "$log" >/dev/null; t1=$(date +%s.%N)
    /usr/bin/time -v build/collviz nccl-log "$log" --text >/dev/null 2>"$log.time"
    t2=$(date +%s.%N)
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log.time")
    awk -v w="$(echo "$t1 - $t0" | bc)" -v p="$(echo "$t2 - $t1" | bc)" -v b="$bytes" -v rss="$rss" -v run="$run" \
        'BEGIN { printf "run %d: nccl-log %.3f s (%.0f MB/s), wc -l %.3f s, ratio %.2f, peak RSS %.1f MB\n",
                 run, p, b / p / 1e6, w, p / w, rss / 1024 }'
done
rm -f "$log" "$log.time"
