#!/bin/sh
# test_reliability_trace.sh: reading a trace (`--trace FILE` of gui and
# export) is bounded in memory, quotes what the file says and refuses in
# one line; each case below once went wrong.
#
#   test_reliability_trace.sh COLLVIZ WORK_DIR [SANITIZE]
#
# - A 23 MB trace of a run the stage cannot show is refused from its
#   header, before its values are read (it peaked at 1.3 GB, some 55 times
#   its size, then was refused by the stage anyway); a 25 MB trace the
#   stage shows is read within 10 times its size (it took 700 MB), or
#   refused from its header under a COLLVIZ_MEMORY_LIMIT below what it
#   needs.
# - A trace whose run fits alone but not beside --compare is one line on
#   standard error and exit 2, in words for a trace (export printed it on
#   standard output, then "no trace"; both said "lower the count or the
#   ranks", which a trace cannot do).
# - Numbers are quoted as written: "count": 9007199254740993 was quoted as
#   ...992, a 23-digit "wrong" not at all.
# - A root, slices or redop the command line refuses is refused in a trace
#   too (they were taken); recorded transfers that are not the plan's are
#   refused (they were ignored while the replay "agreed bit for bit"), and
#   the verdict says what was compared.
# Peak memory comes from /usr/bin/time (GNU time); without it, or under the
# sanitizers (whose shadow memory and quarantine are no part of collviz's
# own), those two checks are skipped and said so.
bin=${1:?usage: test_reliability_trace.sh COLLVIZ WORK_DIR}
work=${2:?usage: test_reliability_trace.sh COLLVIZ WORK_DIR [SANITIZE]}
sanitize=${3:-}
rm -rf "$work" && mkdir -p "$work" || exit 1
export HOME="$work" XDG_DATA_HOME="$work/data"
# No display: gui reads the trace and steps in the terminal.
unset DISPLAY WAYLAND_DISPLAY SDL_VIDEODRIVER
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
gnutime=
if [ -z "$sanitize" ] && /usr/bin/time -f %M true >/dev/null 2>&1; then
  gnutime=/usr/bin/time
fi

# refused WHAT WANT ARGS...: exit 2, nothing on standard output, exactly
# one line on standard error, holding WANT (a grep pattern).
refused() {
  what=$1 want=$2
  shift 2
  "$bin" "$@" >"$work/out" 2>"$work/err" </dev/null
  rc=$?
  msg=$(cat "$work/err")
  if [ "$rc" -eq 2 ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
    grep -q -- "$want" "$work/err"; then
    ok "$what: $msg"
  else
    fail "$what: exit $rc, stdout: $(head -c 300 "$work/out"), stderr: $msg (wanted: $want)"
  fi
}

# peak LIMIT_KB WHAT ARGS...: collviz's peak resident memory under LIMIT_KB;
# its exit status in $rc.
peak() {
  limit=$1 what=$2
  shift 2
  if [ -z "$gnutime" ]; then
    echo "skip: $what: peak memory is not measured here (no /usr/bin/time, or sanitizers)"
    "$bin" "$@" >/dev/null 2>&1 </dev/null
    rc=$?
    return
  fi
  "$gnutime" -f %M -o "$work/peak" "$bin" "$@" >/dev/null 2>"$work/err" </dev/null
  rc=$?
  kb=$(tail -n 1 "$work/peak")
  if [ "$kb" -le "$limit" ] 2>/dev/null; then
    ok "$what: peak $kb kB (limit $limit kB)"
  else
    fail "$what: peak $kb kB, more than $limit kB ($(head -c 300 "$work/err"))"
  fi
}

# ---------------------------------------------------------------- memory
# 64 ranks x 45000 float64 would hold 504 MiB on the stage (its limit is
# 384 MiB); the file is some 23 MB.
big=$work/big.json
"$bin" run --op allreduce --ranks 64 --count 45000 --dtype float64 --init rank \
  --trace-out "$big" >/dev/null || fail "run --trace-out $big"
size=$(wc -c <"$big")
[ "$size" -gt 20000000 ] || fail "the large trace is only $size bytes"
refused "a trace the stage cannot show, export" \
  'big.json:1:[0-9]*: it records allreduce ring with 64 ranks x 45000 float64, which would hold 504 MiB on the stage.*at most 384 MiB' \
  export --trace "$big" --gif "$work/x.gif"
refused "a trace the stage cannot show, gui" 'big.json:1:[0-9]*: it records allreduce ring' \
  gui --trace "$big"
peak $((size / 1024 * 10)) "refused from its header ($size bytes)" export --trace "$big" \
  --gif "$work/x.gif"

# 64 ranks x 50000 int8 fits the stage; the file is some 25 MB.
fits=$work/fits.json
"$bin" run --op allreduce --ranks 64 --count 50000 --dtype int8 --init random \
  --trace-out "$fits" >/dev/null || fail "run --trace-out $fits"
size=$(wc -c <"$fits")
[ "$size" -gt 20000000 ] || fail "the trace that fits is only $size bytes"
peak $((size / 1024 * 10)) "read and replayed ($size bytes)" gui --trace "$fits"
[ "$rc" -eq 0 ] || fail "gui --trace $fits in the terminal: exit $rc"
# The memory it needs (the file, its values, the stage) against the limit,
# from the header.
export COLLVIZ_MEMORY_LIMIT=100M
refused "a trace past COLLVIZ_MEMORY_LIMIT" \
  'fits.json:1:1: showing the run it records would need [0-9.]* MiB of memory (the file [0-9.]*, its values [0-9.]*, the stage [0-9.]*) but COLLVIZ_MEMORY_LIMIT is 100.0 MiB' \
  export --trace "$fits" --gif "$work/x.gif"
unset COLLVIZ_MEMORY_LIMIT

# --------------------------------------------------------------- refusal
refused "a trace beside --compare that does not fit, export" \
  "fits.json: showing the recorded run, allreduce ring against tree .*; a trace cannot be made smaller: show it alone" \
  export --trace "$fits" --compare tree --gif "$work/x.gif"
refused "a trace beside --compare that does not fit, gui" \
  "fits.json: showing the recorded run, .*a trace cannot be made smaller" \
  gui --trace "$fits" --compare tree
grep -q "lower the count" "$work/err" && fail "a trace's refusal says to lower the count"

# ---------------------------------------------------------------- quoted
t=$work/t.json
"$bin" run --op allreduce --algo tree --ranks 5 --count 7 --init random --trace-out "$t" \
  >/dev/null || fail "run --trace-out $t"
sed 's/"count":7,/"count":9007199254740993,/' "$t" >"$work/count.json"
refused "a count past 2^53 quoted as written" '"count" 9007199254740993:' \
  export --trace "$work/count.json" --gif "$work/x.gif"
sed 's/"wrong":0/"wrong":12345678901234567890123/' "$t" >"$work/wrong.json"
refused "a 23-digit wrong quoted as written" '"wrong" must be a whole number .*, not 12345678901234567890123$' \
  export --trace "$work/wrong.json" --gif "$work/x.gif"
sed 's/"count":7,/"count":7.5,/' "$t" >"$work/half.json"
refused "a count that is not whole quoted" '"count" must be a whole number .*, not 7.5$' \
  export --trace "$work/half.json" --gif "$work/x.gif"

# ------------------------------------------- what the command line refuses
sed 's/"slices":1,/"slices":4,/' "$t" >"$work/slices.json"
refused "slices on an algorithm that is not pipelined" \
  '"slices" is 4, but allreduce tree is not pipelined' \
  export --trace "$work/slices.json" --gif "$work/x.gif"
sed 's/"root":null,/"root":3,/' "$t" >"$work/root.json"
refused "a root on an op without one" '"root" is 3, but allreduce tree has no root' \
  export --trace "$work/root.json" --gif "$work/x.gif"
"$bin" run --op allgather --ranks 3 --count 4 --trace-out "$work/ag.json" >/dev/null ||
  fail "run --trace-out ag.json"
sed 's/"redop":null,/"redop":"max",/' "$work/ag.json" >"$work/redop.json"
refused "a redop on an op that does not reduce" '"redop" is "max", but allgather does not reduce' \
  export --trace "$work/redop.json" --gif "$work/x.gif"
# the first transfer sent from another rank
sed 's/"transfers":\[{"src":1,/"transfers":[{"src":2,/' "$t" >"$work/src.json"
cmp -s "$t" "$work/src.json" && fail "the edit to src.json changed nothing"
refused "a recorded transfer that is not the plan's" \
  'step 1, transfer 1: "src" is 2 where collviz.s plan for this spec has 1' \
  export --trace "$work/src.json" --gif "$work/x.gif"
out=$("$bin" export --trace "$t" --gif "$work/t.gif" 2>&1)
echo "$out" | grep -q "its 8 transfers are collviz's plan's and its results agree bit for bit" &&
  ok "the verdict says what was compared" || fail "the verdict: $out"

echo "$fails failed"
[ "$fails" -eq 0 ]
