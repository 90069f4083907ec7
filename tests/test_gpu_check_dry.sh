#!/usr/bin/env bash
# test_gpu_check_dry.sh BUILD WORK: scripts/gpu_check.sh rehearsed on the
# CUDA runtime and NCCL test doubles (--dry), as a lent GPU machine would
# run it: one --quick command whose results are only what it leaves in $OUT.
#  1. --quick --dry BUILD passes, and $OUT holds the two summaries and two
#     tarballs and nothing else (such a machine brings back few files),
#     the summaries naming every part and every op;
#  2. a part that never ends is stopped at its own time limit, the phase
#     goes on, the summary says so and the script exits 1 within its budget;
#  3. a spent budget starts nothing more and says so;
#  4. bad usage exits 2 with one line.
# PART runs one of them: rehearsal (1), hang (2) or budget (3 and 4);
# tests/cuda.cmake makes each a ctest, so the waits of 2 and 3 overlap the
# rehearsal. Without it, or with "all", all four run.
#
#   test_gpu_check_dry.sh BUILD WORK [PART]
set -uo pipefail
build=$(cd "$1" && pwd)
work=$2
part=${3:-all}
case $part in
all | rehearsal | hang | budget) ;;
*) echo "test_gpu_check_dry.sh: unknown part '$part'" >&2; exit 2 ;;
esac
want() { [ "$part" = all ] || [ "$part" = "$1" ]; }
src=$(cd "$(dirname "$0")/.." && pwd)
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work"

# 1. The whole rehearsal.
if want rehearsal; then
out=$work/out
mkdir -p "$out"
t0=$SECONDS
OUT=$out GPU_CHECK_BUDGET=240 bash "$src/scripts/gpu_check.sh" --quick --dry "$build" \
  > "$work/run1.txt" 2>&1
rc=$?
[ $rc = 0 ] || fail "--quick --dry exited $rc: $(grep -h FAILED "$out"/summary-*.md | head -3)"
files=$(cd "$out" && ls -A | sort | tr '\n' ' ')
[ "$files" = "bench.tar.gz summary-bench.md summary-tests.md tests.tar.gz " ] ||
  fail "OUT holds '$files', want the two summaries and two tarballs only"
for k in 1 2 3 4 5 6 7 8; do
  grep -q "^- test_cuda part $k/8: [0-9]* checks, 0 failures" "$out/summary-tests.md" ||
    fail "summary-tests.md has no line for part $k/8"
done
grep -q '^- test_cuda_limits: passed' "$out/summary-tests.md" || fail "no test_cuda_limits line"
grep -q '^- test_cuda_nccl: passed' "$out/summary-tests.md" || fail "no test_cuda_nccl line"
grep -q '^Phase tests passed' "$out/summary-tests.md" || fail "tests phase did not pass"
for i in 1 2 3; do
  grep -q "^- run $i: wall .* #wrong 0" "$out/summary-bench.md" || fail "no target run $i"
done
for op in broadcast scatter gather reduce allgather reducescatter allreduce alltoall sendrecv; do
  grep -q "^- $op: # Out of bounds values : 0 OK" "$out/summary-bench.md" ||
    fail "no sweep line for $op (sizes must suit every op's granularity)"
done
grep -q '^Phase bench passed' "$out/summary-bench.md" || fail "bench phase did not pass"
# (listed into files first: grep -q ending a pipe early fails it under pipefail)
tar -tzf "$out/tests.tar.gz" > "$work/tests.list"
tar -tzf "$out/bench.tar.gz" > "$work/bench.list"
grep -q 'tests/test_cuda-1.txt' "$work/tests.list" || fail "tests.tar.gz lacks the logs"
grep -q 'bench/cuda-alltoall.txt' "$work/bench.list" || fail "bench.tar.gz lacks the logs"
if "$build/collviz-mockgpu" export --help >/dev/null 2>&1; then
  grep -q 'bench/export/step-00.png' "$work/bench.list" || fail "bench.tar.gz has no exported frame"
fi
echo "rehearsal: rc $rc in $((SECONDS - t0)) s"
fi

# 2. A part that never ends: a build whose property suite sleeps.
if want hang; then
hang=$work/hang
mkdir -p "$hang"
for f in collviz-mockgpu test_cuda_limits_mock test_cuda_nccl_mock; do
  ln -s "$build/$f" "$hang/$f"
done
printf '#!/bin/sh\nexec sleep 1000\n' > "$hang/test_cuda_suite_mock"
chmod +x "$hang/test_cuda_suite_mock"
t0=$SECONDS
GPU_CHECK_BUDGET=25 bash "$src/scripts/gpu_check.sh" --tests --dry "$hang" "$work/out2" \
  > "$work/run2.txt" 2>&1
rc=$?
took=$((SECONDS - t0))
[ $rc = 1 ] || fail "a hanging part: exit $rc, want 1"
[ $took -lt 45 ] || fail "a hanging part: the phase took $took s on a 25 s budget"
grep -q '^- FAILED: test_cuda part 1/8: stopped after its time limit' "$work/out2/summary-tests.md" ||
  fail "the summary does not say the part was stopped: $(head -c 300 "$work/out2/summary-tests.md")"
grep -q '^Phase tests failed' "$work/out2/summary-tests.md" || fail "no failed-phase line"
fi

# 3. A spent budget: what cannot start is named, nothing runs past it.
if want budget; then
GPU_CHECK_BUDGET=12 bash "$src/scripts/gpu_check.sh" --bench --dry "$build" "$work/out3" \
  > "$work/run3.txt" 2>&1
rc=$?
[ $rc = 1 ] || fail "a spent budget: exit $rc, want 1"
grep -q "not started: the phase's time budget is spent" "$work/out3/summary-bench.md" ||
  fail "a spent budget is not named in the summary"

# 4. Bad usage.
msg=$(bash "$src/scripts/gpu_check.sh" --quick --dry /nonexistent 2>&1)
rc=$?
[ $rc = 2 ] || fail "--dry /nonexistent: exit $rc, want 2"
[ "$(printf '%s\n' "$msg" | wc -l)" = 1 ] && printf '%s' "$msg" | grep -q 'collviz-mockgpu' ||
  fail "--dry /nonexistent: message '$msg'"
msg=$(bash "$src/scripts/gpu_check.sh" --bogus 2>&1)
[ $? = 2 ] || fail "--bogus: want exit 2"
fi

if [ $fails = 0 ]; then
  echo "test_gpu_check_dry: $part passed"
  exit 0
fi
echo "test_gpu_check_dry: $fails failed (logs in $work)"
exit 1
