#!/bin/sh
# test_messages_cli.sh COLLVIZ
#
# Messages that misled, each one line naming the variable or the file and
# line and what is allowed, exit 2; or a note that says what was left out:
#  - COLLVIZ_MEMORY_LIMIT of 23 digits is too large, and says the largest
#    (it said "is not a size above 0");
#  - show: "#  Rank" lines of 100,000 ranks name the rank past the 1024
#    collviz models (they said "1025 ranks"); a row of 2^62 bytes is too
#    large to model, said of the row's size (it named --count, a flag show
#    is not given); a row holding a NUL byte is skipped with a note (it was
#    dropped unsaid); a time of 1e300 us is refused at its line (it was
#    drawn as a 300-digit number).
# The show cases need the build with the window (skipped without it).
set -u
collviz=${1:?usage: test_messages_cli.sh COLLVIZ}
fails=0
unset DISPLAY WAYLAND_DISPLAY
export SDL_VIDEODRIVER=dummy
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# expect NAME CODE PATTERN COMMAND...: the exit code, one line on stderr
# starting "collviz: " matching the extended regular expression (a note
# counts too; the line "no display" show prints without a window does not).
expect() {
    name=$1 code=$2 pattern=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    said=$(grep -v "^collviz: no display (" "$tmp/err")
    if [ "$rc" = "$code" ] && [ "$(printf '%s\n' "$said" | wc -l)" -eq 1 ] &&
        printf '%s\n' "$said" | grep -Eq -- "$pattern"; then
        echo "ok: $name: $said"
    else
        echo "FAIL: $name: exit $rc (wanted $code), said: $said"
        fails=$((fails + 1))
    fi
}

expect "COLLVIZ_MEMORY_LIMIT of 23 digits" 2 \
    '^collviz: COLLVIZ_MEMORY_LIMIT=99999999999999999999999 is too large: at most 9223372036854775807 bytes' \
    env COLLVIZ_MEMORY_LIMIT=99999999999999999999999 "$collviz" list
expect "COLLVIZ_MEMORY_LIMIT just past 2^63 - 1" 2 \
    '^collviz: COLLVIZ_MEMORY_LIMIT=9223372036854775808 is too large' \
    env COLLVIZ_MEMORY_LIMIT=9223372036854775808 "$collviz" list

if ! "$collviz" show --help >/dev/null 2>&1; then
    echo "test_messages_cli: no show in this build (no window); its cases skipped"
    [ "$fails" -eq 0 ] || exit 1
    exit 0
fi

# A small nccl-tests table of all_reduce_perf on 2 ranks, its rows after
# what $1 puts between the header and them.
table() { # FILE, then lines for the "#  Rank" place, then rows
    out=$1 ranks=$2 rows=$3
    {
        echo "# nccl-tests version 2.20.0 (b4d5bee) nccl-headers=23102 nccl-library=23102"
        echo "# Collective test starting: all_reduce_perf"
        echo "# nThread 1 nGpus 1 minBytes 8192 maxBytes 65536 step: 2(factor) warmup iters: 10 iters: 100 agg iters: 1 validation: 1 graph: 0 unalign: 0"
        echo "#"
        echo "# Using devices"
        printf '%s' "$ranks"
        echo "#"
        echo "#                                                              out-of-place                       in-place"
        echo "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong"
        echo "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)"
        printf '%b' "$rows"
    } >"$out"
}
two="#  Rank  0 Group  0 Pid 1666603 on spark-d708 device  0 [000f:01:00] NVIDIA GB10
#  Rank  1 Group  0 Pid 1669515 on spark-dbf4 device  0 [000f:01:00] NVIDIA GB10
"
row8k="        8192          2048     float     sum      -1    35.15    0.23    0.23       0    30.33    0.27    0.27       0\n"
row16k="       16384          4096     float     sum      -1    31.67    0.52    0.52       0    30.75    0.53    0.53       0\n"
row32k="       32768          8192     float     sum      -1    39.56    0.83    0.83       0    37.44    0.88    0.88       0\n"

table "$tmp/good.txt" "$two" "$row8k$row16k$row32k"
expect "the table itself reads" 0 '^$|.' "$collviz" show "$tmp/good.txt"
grep -q "^ *16384 " "$tmp/out" || { echo "FAIL: the table's rows are not printed"; fails=$((fails + 1)); }

awk 'BEGIN { for (i = 0; i < 100000; i++)
    printf "#  Rank %5d Group  0 Pid %d on host%d device %d [0x5a] NVIDIA H100\n", i, 1000 + i, i / 8, i % 8 }' >"$tmp/ranks"
table "$tmp/ranks.txt" "$(cat "$tmp/ranks")
" "$row8k$row16k"
expect "Rank lines of 100,000 ranks" 2 \
    "^collviz: .*ranks\.txt:100005: a \"#  Rank\" line names rank 99999; collviz models at most 1024 ranks \(0 to 1023\)$" \
    "$collviz" show "$tmp/ranks.txt"

table "$tmp/huge.txt" "$two" "$row8k 4611686018427387904 1152921504606846976 float sum -1 35.15 0.23 0.23 0 30.33 0.27 0.27 0\n"
expect "a row of 2^62 bytes" 2 \
    "^collviz: .*huge\.txt:13: size 4611686018427387904 B is too large to model: at 2 ranks a size of at most [0-9]+ B" \
    "$collviz" show "$tmp/huge.txt"
grep -q -- "--count" "$tmp/err" && { echo "FAIL: the 2^62 row names --count"; fails=$((fails + 1)); }

table "$tmp/nul.txt" "$two" "$row8k       16384          4096     float     sum      -1    31.67    0.5\00002    0.52       0    30.75    0.53    0.53       0\n$row32k"
expect "a row holding a NUL byte" 0 \
    "^collviz: note: 1 line holding NUL bytes is skipped \(the first is line 13\)" \
    "$collviz" show "$tmp/nul.txt"
grep -q "^ *8192 " "$tmp/out" && grep -q "^ *32768 " "$tmp/out" && ! grep -q "^ *16384 " "$tmp/out" ||
    { echo "FAIL: the rows around the NUL one are not shown"; fails=$((fails + 1)); }

table "$tmp/e300.txt" "$two" "$row8k       16384          4096     float     sum      -1    1e300    0.52    0.52       0    30.75    0.53    0.53       0\n"
expect "a time of 1e300 us" 2 \
    "^collviz: .*e300\.txt:13: a time of 1e300 us; allowed: 0 to 1e15 us$" \
    "$collviz" show "$tmp/e300.txt"
table "$tmp/bw.txt" "$two" "$row8k       16384          4096     float     sum      -1    31.67    1e300    0.52       0    30.75    0.53    0.53       0\n"
expect "an algbw of 1e300 GB/s" 2 \
    "^collviz: .*bw\.txt:13: a bandwidth of 1e300 GB/s; allowed: 0 to 1e9 GB/s$" \
    "$collviz" show "$tmp/bw.txt"

[ "$fails" -eq 0 ] || exit 1
