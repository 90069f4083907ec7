#!/usr/bin/env bash
# cpu_vs_mpi.sh: collviz's CPU backend beside OpenMPI on the same machine,
# same size: ring AllReduce of float32 over 8 ranks (collviz bench also
# prints the memory-bandwidth bound it measures in the same run), then
# MPI_Allreduce with 8 processes.
#   bench/cpu_vs_mpi.sh [SIZE] [ITERS]     (default 64M 20)
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-64M}; iters=${2:-20}
scripts/deps.sh openmpi-bin libopenmpi-dev
[ -x build/collviz ] || scripts/build.sh >/dev/null
bytes=$(build/collviz cost --op allreduce --ranks 8 --bytes "$size" --json | sed -n 's/.*"bytes":[[:space:]]*\([0-9]*\).*/\1/p')
mkdir -p build/bench
mpicc -O2 -o build/bench/mpi_allreduce bench/mpi_allreduce.c
echo "## machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "## collviz bench --op allreduce --algo ring --ranks 8 -b $size -e $size -n $iters"
build/collviz bench --op allreduce --algo ring --ranks 8 -b "$size" -e "$size" -n "$iters"
echo "## mpirun -np 8 build/bench/mpi_allreduce $bytes $iters 1"
root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
mpirun "${root[@]}" --oversubscribe -np 8 build/bench/mpi_allreduce "$bytes" "$iters" 1
