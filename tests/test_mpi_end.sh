#!/bin/sh
# test_mpi_end.sh: a run under mpirun ends every process even when one of
# them stops at the end of the run, after its last message: rank 1 of 4 is
# stopped (kill -STOP) once its buffers are freed, that is once it has
# done its part and waits for rank 0 to finish verifying and printing.
# Rank 0 still prints its verdict; then no process may wait for rank 1 in
# MPI_Finalize, which has no deadline of its own: within
# COLLVIZ_MPI_TIMEOUT and a few seconds every process is gone, mpirun
# exits 3, and one line from a rank other than 1 says that rank 1 (or some
# rank) did not answer. A generous outer `timeout` turns a hang into a
# failure; this is no timing of speed.
# Skipped (77) where there is no mpirun or collviz was built without MPI.
#
#   sh tests/test_mpi_end.sh COLLVIZ [MPIEXEC]
set -u
collviz=${1:?usage: test_mpi_end.sh COLLVIZ [MPIEXEC]}
mpiexec=${2:-$(command -v mpirun || true)}
if ! "$collviz" list | grep -q '^backends:.* mpi' || [ -z "$mpiexec" ] || ! [ -x "$mpiexec" ]; then
    echo "test_mpi_end: no mpirun or no MPI in this build; skipped"
    exit 77
fi
tmp=$(mktemp -d) || exit 2
cleanup() {
    for f in "$tmp"/pids/*; do
        [ -f "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
# As tests/test_mpi.sh: root, more processes than cores, no X displays.
export HWLOC_COMPONENTS=-gl
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# Under AddressSanitizer freed buffers wait in its quarantine, and rank 1's
# memory would not fall when the run frees them: no quarantine here.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}quarantine_size_mb=0"
fail=0
check() { # what, status
    if [ "$2" -ne 0 ]; then
        echo "FAIL: $1"
        fail=1
    else
        echo "ok: $1"
    fi
}
rss_kb() { awk '/^VmRSS:/ { print $2; found = 1 } END { if (!found) print -1 }' "/proc/$1/status" 2>/dev/null || echo -1; }

limit=10
mkdir "$tmp/pids"
COLLVIZ_MPI_TIMEOUT=$limit timeout 90 "$mpiexec" -np 4 \
    sh -c 'echo $$ >"$0/$OMPI_COMM_WORLD_RANK"; exec "$@"' "$tmp/pids" \
    "$collviz" run --backend mpi --op allreduce --algo ring --dtype int8 --count 16000000 \
    </dev/null >"$tmp/out" 2>&1 &
launcher=$!
n=0
while [ ! -s "$tmp/pids/1" ] && [ $n -lt 300 ]; do
    sleep 0.1
    n=$((n + 1))
done
victim=$(cat "$tmp/pids/1")
# Rank 1's memory rises with its buffers (two of 16 MB at least) and falls
# when the run frees them: then it has sent its results to rank 0.
peak=0 stopped=0 stop_at=0 n=0
while [ $n -lt 1200 ]; do
    kb=$(rss_kb "$victim")
    [ "$kb" -lt 0 ] && break
    [ "$kb" -gt "$peak" ] && peak=$kb
    if [ "$peak" -gt 40000 ] && [ "$kb" -lt $((peak / 2)) ]; then
        kill -STOP "$victim" && stopped=1 && stop_at=$(date +%s)
        break
    fi
    sleep 0.05
    n=$((n + 1))
done
[ "$stopped" -eq 1 ]
check "rank 1 stopped after its part of the run (its memory peaked at $peak kB, then fell)" $?
wait $launcher
rc=$?
took=$(($(date +%s) - stop_at))
left=""
for r in 0 1 2 3; do
    # gone, or a zombie (a container's init may never reap it)
    if [ -f "$tmp/pids/$r" ] && [ -e "/proc/$(cat "$tmp/pids/$r")" ] &&
        ! grep -q '^State:[[:space:]]*Z' "/proc/$(cat "$tmp/pids/$r")/status" 2>/dev/null; then
        left="$left $r"
    fi
done
said=$(grep '^collviz' "$tmp/out")
[ "$rc" -eq 3 ] && [ -z "$left" ] && [ "$took" -le $((limit + 12)) ]
check "every process ended ${took} s after the stop (COLLVIZ_MPI_TIMEOUT=$limit): mpirun exit $rc (3 wanted, 124: a hang), still there:${left:- none}" $?
grep -q '^verified: 0 of' "$tmp/out"
check "rank 0 printed its verdict first" $?
[ "$(echo "$said" | wc -l)" -eq 1 ] &&
    echo "$said" | grep -q "^collviz: rank [023]: --backend mpi: .*\(rank 1\|some rank\).* within $limit s (COLLVIZ_MPI_TIMEOUT)"
check "one line, from a rank that waited: $said" $?
if [ "$fail" -ne 0 ]; then
    echo "--- mpirun's output:"
    tail -30 "$tmp/out"
fi
exit "$fail"
