#!/bin/sh
# test_memory_bounded.sh: memory stays bounded on every path of the command
# line, and an output that was not written is never exit 0.
#
#   test_memory_bounded.sh COLLVIZ WORK_DIR [SANITIZE]
#
# - run --json (and --trace-out, the same document) is written as it is
#   made: 5,000,000 int8 values on 4 ranks peak within twice the memory the
#   run says it needs (it held a tree of every value: 4.6 GB for an
#   estimate of 76.3 MiB). Under an address-space cap a run either prints
#   the whole document with exit 0 or ends with a message and a non-zero
#   exit, never exit 0 with nothing on stdout (what a cap of 700 MB gave).
# - An output that could not be written (/dev/full, an unwritable
#   --trace-out) is exit 2 and one line.
# - card, cost and show at 1024 ranks peak under 200 MB: card needs no
#   plan, cost and show price a plan a step at a time (cv_cost_model). The
#   card took 3.68 GB, a multi-ring cost and show 3.68 GB each (67 million
#   transfers); test_cost_model checks the prices did not change.
# - card and cost honour COLLVIZ_MEMORY_LIMIT as run does: below what they
#   would take they refuse in one line naming it, what they would need and
#   the limit, exit 2 (they ignored it); the cost model counts what it holds
#   as it goes, so a refused one-shot at 1024 ranks (a million transfers in
#   one step) stays near the limit instead of taking the memory first.
# Peak memory is read with /usr/bin/time -f %M (skipped where it is
# missing); nothing here under the sanitizers, whose shadow memory and
# reserved address space are not the program's.
bin=$1
work=$2
sanitize=${3:-}
rm -rf "$work" && mkdir -p "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
if [ -n "$sanitize" ]; then
  echo "SKIP: built with -fsanitize=$sanitize: memory is not the program's own"
  exit 77
fi
timer=
[ -x /usr/bin/time ] && timer=/usr/bin/time

# peak_kb ARGS...: the peak resident memory of collviz ARGS in KiB (stdout
# to /dev/null), in $peak; its exit in $rc.
peak_kb() {
  $timer -f %M -o "$work/peak" "$bin" "$@" >/dev/null 2>"$work/err"
  rc=$?
  peak=$(tail -n 1 "$work/peak")
}

# The estimate a run prints when refused: "would need 76.3 MiB of memory".
# est_kb ARGS...: that figure in KiB, in $est.
est_kb() {
  msg=$(COLLVIZ_MEMORY_LIMIT=1 "$bin" "$@" 2>&1 >/dev/null)
  est=$(printf '%s\n' "$msg" | sed -n 's/.*would need \([0-9.]*\) \([MG]\)iB of memory.*/\1 \2/p' |
        awk '{ printf "%d", $1 * ($2 == "G" ? 1048576 : 1024) }')
  [ -n "$est" ] || fail "collviz $*: no estimate in: $msg"
}

# 1. run --json within twice its estimate
set -- run --op allreduce --ranks 4 --count 5000000 --dtype int8 --json
if [ -n "$timer" ]; then
  est_kb "$@"
  peak_kb "$@"
  echo "run --json, 5000000 int8 x 4 ranks: peak $peak KiB, estimate $est KiB"
  [ "$rc" = 0 ] || fail "collviz $*: exit $rc: $(cat "$work/err")"
  [ -n "$est" ] && [ "$peak" -le $((2 * est)) ] ||
    fail "collviz $*: peak $peak KiB, more than twice the estimate $est KiB"
  # --trace-out writes the same document
  set -- run --op allreduce --ranks 4 --count 5000000 --dtype int8 --trace-out "$work/t.json"
  peak_kb "$@"
  echo "run --trace-out, 5000000 int8 x 4 ranks: peak $peak KiB"
  [ "$rc" = 0 ] && [ -s "$work/t.json" ] || fail "collviz $*: exit $rc: $(cat "$work/err")"
  [ -n "$est" ] && [ "$peak" -le $((2 * est)) ] ||
    fail "collviz $*: peak $peak KiB, more than twice the estimate $est KiB"
  rm -f "$work/t.json"
else
  echo "SKIP: no /usr/bin/time, peak memory not measured"
fi

# 2. Under an address-space cap: the whole document or a message, never
# exit 0 with an empty or cut stdout.
capped() {
  cap=$1; shift
  (ulimit -v "$cap" && exec "$bin" "$@") >"$work/out" 2>"$work/err"
  rc=$?
  if [ "$rc" = 0 ]; then
    # the document's last member, then its closing brace
    tail -n 2 "$work/out" | head -n 1 | grep -q '"wrong":' && [ "$(tail -n 1 "$work/out")" = "}" ] ||
      fail "ulimit -v $cap; collviz $*: exit 0 without the whole document ($(wc -c <"$work/out") bytes)"
  else
    [ -s "$work/err" ] || fail "ulimit -v $cap; collviz $*: exit $rc and no message"
  fi
  echo "ulimit -v $cap; collviz $*: exit $rc, $(wc -c <"$work/out") bytes"
}
capped 700000 run --op allreduce --ranks 4 --count 1000000 --dtype int8 --json
capped 300000 run --op allreduce --ranks 4 --count 20000000 --dtype int8 --json
capped 700000 run --op allreduce --ranks 4 --count 1000000 --dtype float32 --json

# 3. Outputs not written: exit 2, one line naming what.
if [ -w /dev/full ]; then
  "$bin" run --op allreduce --json >/dev/full 2>"$work/err"
  rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] ||
    fail "run --json >/dev/full: exit $rc: $(cat "$work/err")"
  "$bin" run --op allreduce --count 100000 --json >/dev/full 2>"$work/err"
  rc=$?
  [ "$rc" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] && grep -q "cannot write standard output" "$work/err" ||
    fail "run --count 100000 --json >/dev/full: exit $rc: $(cat "$work/err")"
fi
"$bin" run --op allreduce --trace-out "$work/no/such/dir/t.json" >/dev/null 2>"$work/err"
rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] && grep -q "cannot write" "$work/err" ||
  fail "run --trace-out into a missing directory: exit $rc: $(cat "$work/err")"

# 4. card, cost and show at 1024 ranks under 200 MB (204800 KiB)
under200() {
  peak_kb "$@"
  echo "collviz $*: peak $peak KiB"
  [ "$rc" = 0 ] || fail "collviz $*: exit $rc: $(cat "$work/err")"
  [ "$peak" -lt 204800 ] || fail "collviz $*: peak $peak KiB, not under 200 MB"
}
if [ -n "$timer" ]; then
  under200 card --ranks 1024
  under200 card --ranks 1024 --json
  under200 cost --op allreduce --algo multi-ring --ranks 1024 --bytes 1GiB
  under200 cost --op allreduce --algo multi-ring --ranks 1024 --nodes 128 --bytes 1GiB --json
  under200 cost --op allreduce --algo one-shot --ranks 1024 --bytes 1GiB
  under200 cost --op alltoall --ranks 1024 --bytes 1GiB
  under200 cost --op alltoall --algo bruck --ranks 1024 --bytes 1GiB --json
  # nccl-tests rows without Rank lines: busbw = algbw x 2(N-1)/N at N = 1024
  {
    echo "# Collective test starting: all_reduce_perf"
    echo "#  size  count  type  redop  root  time  algbw  busbw  #wrong  time  algbw  busbw  #wrong"
    for s in 1048576 67108864 4294967296; do
      awk -v s="$s" 'BEGIN { t = 30 + s / 2e4; a = s / t / 1e3; b = a * 2 * 1023 / 1024;
        printf "%14.0f %12.0f  float  sum  -1 %9.2f %7.2f %7.2f  0 %9.2f %7.2f %7.2f  0\n",
               s, s / 4, t, a, b, t, a, b }'
    done
  } >"$work/rows.txt"
  under200 show "$work/rows.txt" --table --ranks 1024 --algo multi-ring
else
  echo "SKIP: no /usr/bin/time, card, cost and show not measured"
fi

# 5. COLLVIZ_MEMORY_LIMIT below what card and cost would take: one line
# naming it, the need and the limit, exit 2; within it, the same as without.
refused() {
  lim=$1; shift
  COLLVIZ_MEMORY_LIMIT=$lim $timer ${timer:+-f %M -o "$work/peak"} "$bin" "$@" >"$work/out" 2>"$work/err"
  rc=$?
  peak=$( [ -n "$timer" ] && tail -n 1 "$work/peak")
  echo "COLLVIZ_MEMORY_LIMIT=$lim collviz $*: exit $rc, peak ${peak:-?} KiB: $(head -n 1 "$work/err")"
  [ "$rc" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] && [ ! -s "$work/out" ] &&
    grep -q "would need [0-9.]* [KMG]iB of memory but COLLVIZ_MEMORY_LIMIT is [0-9.]* \([KMG]i\)\{0,1\}B" "$work/err" ||
    fail "COLLVIZ_MEMORY_LIMIT=$lim collviz $*: exit $rc, not refused in one line naming the limit: $(cat "$work/err")"
}
refused 1k card
refused 1k card --ranks 1024 --json
refused 100k cost --op allreduce --algo ring --ranks 1024 --bytes 1GiB
refused 100k cost --op allreduce --algo multi-ring --ranks 1024 --bytes 1GB
refused 40M cost --op allreduce --algo one-shot --ranks 1024 --bytes 1GiB
# refused before it took the million transfers' 80 MB: near the limit
if [ -n "$timer" ]; then
  [ "$peak" -lt 65536 ] || fail "a one-shot cost refused at 40M peaked at $peak KiB"
fi
refused 40M cost --op alltoall --algo bruck --ranks 1024 --bytes 1GiB --json
COLLVIZ_MEMORY_LIMIT=1M "$bin" card --ranks 1024 >"$work/out" 2>"$work/err" && [ -s "$work/out" ] ||
  fail "COLLVIZ_MEMORY_LIMIT=1M collviz card: exit $?: $(cat "$work/err")"
"$bin" cost --op allreduce --algo one-shot --ranks 64 --bytes 1MiB >"$work/a" &&
  COLLVIZ_MEMORY_LIMIT=2M "$bin" cost --op allreduce --algo one-shot --ranks 64 --bytes 1MiB >"$work/b" &&
  cmp -s "$work/a" "$work/b" ||
  fail "COLLVIZ_MEMORY_LIMIT=2M collviz cost one-shot at 64 ranks: not the same as without the limit"

[ "$fails" = 0 ] && echo "all passed"
exit "$((fails > 0))"
