#!/usr/bin/env bash
# cpu_vs_mpi.sh: collviz's CPU backend against this machine's memory bound
# and against Open MPI, op by op, and what a bench run costs beyond its
# timed iterations. For each of allreduce, allgather, reducescatter,
# broadcast (ring) and alltoall (pairwise), 8 ranks x SIZE float32:
#   bound  the share of the memory bound `collviz bench` reaches (its own
#          STREAM-like probe, measured in the same run; target >= 75%)
#   xMPI   Open MPI's time over collviz's for the same op and size, 8
#          processes under `mpirun --oversubscribe`, --mca defaults
#          (target >= 3)
#   wall   the bench's whole wall time over its timed iterations
# The tables each program prints go to build/bench/cpu_vs_mpi.log.
#   bench/cpu_vs_mpi.sh [SIZE] [ITERS] [OPS...]     (default 64M 10, all five)
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-64M}; iters=${2:-10}; shift $(( $# < 2 ? $# : 2 ))
ops=("$@"); [ ${#ops[@]} -gt 0 ] || ops=(allreduce allgather reducescatter broadcast alltoall)
scripts/deps.sh openmpi-bin libopenmpi-dev >/dev/null
[ -x build/collviz ] || scripts/build.sh >/dev/null
mkdir -p build/bench
mpicc -O2 -o build/bench/mpi_coll bench/mpi_coll.c
log=build/bench/cpu_vs_mpi.log; : > "$log"
root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
num() { sed -n "s/.*\"$1\":[[:space:]]*\([-0-9.e+]*\).*/\1/p" | head -1; }
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# 8 ranks x $size float32, $iters iterations; collviz bench --backend cpu against"
echo "# mpirun --oversubscribe -np 8 (Open MPI $(mpirun --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1))"
printf '# %-14s %11s %9s %11s %7s %7s %7s\n' op "collviz ms" "bound %" "MPI ms" xMPI wall "probe"
for op in "${ops[@]}"; do
  json=$(build/collviz bench --op "$op" --ranks 8 -b "$size" -e "$size" -n "$iters" --json 2>>"$log")
  echo "$json" >> "$log"
  bytes=$(echo "$json" | num size)
  t=$(echo "$json" | num time_us); pct=$(echo "$json" | num bound_pct)
  wall=$(echo "$json" | num wall_s); timed=$(echo "$json" | num timed_s)
  copy=$(echo "$json" | num copy_bandwidth_GBps); red=$(echo "$json" | num reduce_bandwidth_GBps)
  mpi=$(mpirun "${root[@]}" --oversubscribe -np 8 build/bench/mpi_coll "$op" "$bytes" "$iters" 1 2>>"$log" | tee -a "$log" | tail -1)
  mt=$(echo "$mpi" | awk '{print $3}'); mwrong=$(echo "$mpi" | awk '{print $6}')
  [ "$mwrong" = 0 ] || echo "# warning: MPI $op result wrong ($mwrong ranks)"
  awk -v op="$op" -v t="$t" -v p="$pct" -v m="$mt" -v w="$wall" -v tt="$timed" -v c="$copy" -v r="$red" 'BEGIN {
    printf "  %-14s %11.1f %9.1f %11.1f %7.2f %7.2f %3.0f/%-3.0f\n", op, t / 1000, p, m / 1000, m / t, w / tt, c, r }'
done
echo "# probe: copy / reduce GB/s (bytes read + written) the bench's bound uses"
