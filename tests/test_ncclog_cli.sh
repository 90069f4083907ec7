#!/bin/sh
# test_ncclog_cli.sh COLLVIZ LOG_DIR
#
# `collviz nccl-log` through the real program: what a user reads, the exit
# codes, standard input, and one line for every kind of bad input.
set -u
collviz=$1
logs=$2
fails=0
# No window from this test, whatever the desk it runs on.
unset DISPLAY WAYLAND_DISPLAY
export SDL_VIDEODRIVER=dummy

fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

# expect CODE PATTERN -- COMMAND...: the exit code, and stdout+stderr
# matching the extended regular expression.
expect() {
    code=$1
    pattern=$2
    shift 3
    out=$("$@" 2>&1 </dev/null)
    rc=$?
    [ "$rc" = "$code" ] || fail "exit $rc, expected $code: $*"
    printf '%s\n' "$out" | grep -Eq -- "$pattern" || {
        fail "output of '$*' does not match /$pattern/:"
        printf '%s\n' "$out" | head -20 >&2
    }
}

expect 0 "16 ranks on 2 nodes, 4 channels" -- "$collviz" nccl-log --text "$logs/two-nodes-16.log"
# gui --nccl-log alone is the free stage on the log's ranks (not a lesson),
# with a count that gives every rank's chunk an element.
expect 0 "AllReduce ring: 16 ranks x 16 float32, sum, 2 nodes x 8" -- \
    env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=offscreen "$collviz" gui --nccl-log "$logs/two-nodes-16.log"
expect 0 "7 =NET=> 8 > 9" -- "$collviz" nccl-log --text "$logs/two-nodes-16.log"
expect 0 "node 1  node01-gpu +8 GPUs: ranks 8-15" -- "$collviz" nccl-log --text "$logs/two-nodes-16.log"
expect 0 "cut by NCCL after 20 of 32 ranks" -- "$collviz" nccl-log --text "$logs/cut-summary-32.log"
expect 0 '`- 2 - 3' -- "$collviz" nccl-log --text "$logs/dbtree-4.log"
expect 0 '"via":	"NET/Socket/0"' -- "$collviz" nccl-log --json "$logs/dbtree-4.log"
expect 0 "Usage|usage: collviz nccl-log" -- "$collviz" nccl-log --help
# standard input, and a communicator picked by a prefix of its address
out=$("$collviz" nccl-log - <"$logs/single-node-8.log" 2>&1) || fail "stdin: exit $?"
printf '%s\n' "$out" | grep -q "read once: save it to a file" || fail "stdin: no word about the window: $out"
printf '%s\n' "$out" | grep -q "8 ranks on 1 node" || fail "stdin: $out"
expect 0 "communicator 0xc4aaeac137dc76fb: 4 ranks" -- "$collviz" nccl-log --text --comm 0xc4aaeac1 "$logs/multi-comm.log"
expect 0 '"id":	"0xbd0561e6211c70cf"' -- "$collviz" nccl-log --json "$logs/multi-comm.log"
# older NCCL prints no commId: the ranks' own pointers are grouped, and any
# rank's pointer picks its communicator
expect 0 "communicator 0x561176c30ce0: 4 ranks" -- "$collviz" nccl-log --text --comm 0x56154a961890 "$logs/multi-comm-old.log"
expect 2 "--comm 0x56 is ambiguous: it begins 3 communicators" -- "$collviz" nccl-log --comm 0x56 "$logs/multi-comm-old.log"

# bad input: one line, exit 2
expect 2 "the log holds 3 communicators; pick one with --comm" -- "$collviz" nccl-log "$logs/multi-comm.log"
expect 2 "bad-disagree.log:2: the rings disagree" -- "$collviz" nccl-log "$logs/bad-disagree.log"
# a partial log: what it determines, marked partial, exit 0; --strict exits 2
expect 0 "6 ranks on 1 node, 1 channel \(partial\)" -- "$collviz" nccl-log --text "$logs/partial-missing-rank.log"
expect 0 "0 > 1 > 2 > 3 > 4 > 5 > 0" -- "$collviz" nccl-log --text "$logs/partial-missing-rank.log"
expect 0 "missing: tree 0 not whole; no line from rank 4" -- "$collviz" nccl-log --text "$logs/partial-missing-rank.log"
expect 2 "\(partial\)" -- "$collviz" nccl-log --text --strict "$logs/partial-missing-rank.log"
expect 0 '"partial":	true' -- "$collviz" nccl-log --json "$logs/partial-cut-summary.log"
expect 2 "no NCCL lines in 0 lines" -- "$collviz" nccl-log /dev/null
expect 2 "nope.log: cannot open" -- "$collviz" nccl-log "$logs/nope.log"
expect 2 "which log\\?" -- "$collviz" nccl-log
expect 2 "unknown flag '--channel'; allowed: --comm, --json, --text, --strict, --help" -- "$collviz" nccl-log --channel 3 "$logs/dbtree-4.log"
expect 2 "--comm needs a value|--comm: " -- "$collviz" nccl-log "$logs/dbtree-4.log" --comm
expect 2 "one log at a time" -- "$collviz" nccl-log "$logs/dbtree-4.log" "$logs/tree-lines.log"
expect 2 "is a directory" -- "$collviz" nccl-log "$logs"
expect 0 "no display here: .collviz gui --nccl-log" -- "$collviz" nccl-log "$logs/dbtree-4.log"
out=$("$collviz" nccl-log --text "$logs/dbtree-4.log" 2>&1)
printf '%s\n' "$out" | grep -q "display" && fail "--text still mentions the window: $out"

# --nccl-log: run, cost and export follow the log's ranks, nodes and channel
expect 0 "ring and trees: channel 1 of communicator 0x6f03675a1600a35a in .* \(16 ranks on 2 nodes, 4 channels\)" -- \
    "$collviz" run --op allreduce --nccl-log "$logs/two-nodes-16.log" --channel 1 --count 16
expect 0 "16 ranks x 16 float32, sum, 2 nodes x 8" -- \
    "$collviz" run --op allreduce --nccl-log "$logs/two-nodes-16.log" --count 16
expect 0 "= 2H, H = 8 deep \(the given trees\)" -- \
    "$collviz" run --op allreduce --algo double-tree --nccl-log "$logs/two-nodes-16.log" --count 16
expect 0 '"channel":	2' -- \
    "$collviz" run --op allgather --nccl-log "$logs/two-nodes-16.log" --channel 2 --count 2 --json
expect 0 "2 nodes x 8 ranks; between nodes: ib-ndr" -- \
    "$collviz" cost --op allreduce --nccl-log "$logs/two-nodes-16.log" --bytes 1G
expect 0 "builds its own pattern; only the log's ranks and nodes apply" -- \
    "$collviz" run --op allreduce --algo recursive-doubling --nccl-log "$logs/dbtree-4.log"
expect 2 "--ranks: 8, but the NCCL log's communicator has 16 ranks" -- \
    "$collviz" run --op allreduce --nccl-log "$logs/two-nodes-16.log" --ranks 8
expect 2 "--channel: 9 is out of range; this communicator has channels 0 to 3" -- \
    "$collviz" run --op allreduce --nccl-log "$logs/two-nodes-16.log" --channel 9
expect 2 "--comm picks from an NCCL log: give --nccl-log FILE too" -- \
    "$collviz" run --op allreduce --comm 0x12
expect 2 "the log holds 3 communicators; pick one with --comm" -- \
    "$collviz" cost --op allreduce --bytes 1M --nccl-log "$logs/multi-comm.log"

# /dev/zero: no line end and nothing but NUL bytes, refused after a bounded
# read (it once read forever, growing)
expect 2 "/dev/zero:1: more than 1048576 NUL bytes and no line end: this is not a text log" -- \
    timeout 20 "$collviz" nccl-log /dev/zero
# a line of 200 KiB is cut, and said so
long=${TMPDIR:-/tmp}/collviz-ncclog-long.$$.log
{ head -5 "$logs/dbtree-4.log"; head -c 204800 /dev/zero | tr '\0' x; echo; tail -n +6 "$logs/dbtree-4.log"; } >"$long"
expect 0 "note: .*: 1 line longer than 64 KiB was read only that far \(the first at line 6\)" -- \
    "$collviz" nccl-log --text "$long"
expect 0 '"lines_cut":	1' -- "$collviz" nccl-log --json "$long"
rm -f "$long"

# /dev/urandom: binary data with line ends in it is refused at its first
# block, within a second (it once read forever)
t0=$(date +%s%N)
expect 2 "/dev/urandom:1: binary data \(.* control characters\): this is not a text log" -- \
    timeout 20 "$collviz" nccl-log /dev/urandom
t1=$(date +%s%N)
[ $(((t1 - t0) / 1000000)) -lt 1000 ] || fail "/dev/urandom took $(((t1 - t0) / 1000000)) ms"

# a log dense in tree entries: what is kept is bounded (about 80 MB of
# entries), not the file; the reading stops there and says where
dense=${TMPDIR:-/tmp}/collviz-ncclog-dense.$$.log
awk 'BEGIN { for (i = 0; i < 16500; i++) { r = i % 4096; s = "";
    for (c = 0; c < 128; c++) s = s sprintf(" [%d] %d/-1/-1->%d->%d", c, (r + 1) % 4096, r, r ? r - 1 : -1);
    printf "host%d:%d:%d [%d] NCCL INFO Trees%s\n", int(i / 4096), 1000 + i, 1000 + i, r % 8, s } }' >"$dense"
# (its ranks print from thousands of hosts, which the reader then reports)
expect 2 "note: .*stopped reading at line 16385: more than 2097152 ring and tree entries over [0-9]+ communicator set-ups" -- \
    "$collviz" nccl-log --text "$dense"
if [ -z "${ASAN_OPTIONS:-}" ] && /usr/bin/time -f %M true 2>/dev/null; then
    /usr/bin/time -o "$dense.rss" -f %M "$collviz" nccl-log --text "$dense" >/dev/null 2>&1
    rss=$(tail -1 "$dense.rss")
    rm -f "$dense.rss"
    [ "$rss" -lt 300000 ] || fail "a $(($(wc -c <"$dense") / 1048576)) MB log took $rss KB"
fi
rm -f "$dense"

# --json carries text from the log escaped as the summary does, so the
# document is valid UTF-8 with no bidi or C1 control from the log: a
# version, a host and a transport with U+202E, U+2066, U+009B and bytes
# that are no UTF-8
evil=${TMPDIR:-/tmp}/collviz-ncclog-evil-json.$$.log
printf 'h:1:1 [0] NCCL INFO NCCL version 2.21.5\342\200\256\342\201\246\302\233\377\376\nh\342\200\256ost\377:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via NET/\342\201\246Lib fab\302\233\377\nh:1:1 [0] NCCL INFO Ring 00 : 1 -> 0 -> 1\n' >"$evil"
out=$("$collviz" nccl-log --json "$evil" 2>&1) || fail "--json of the evil log: exit $?"
printf '%s' "$out" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 || fail "--json is not valid UTF-8: $out"
printf '%s' "$out" | grep -q "$(printf '\342\200\256')" && fail "U+202E reached the JSON: $out"
printf '%s' "$out" | grep -q "$(printf '\342\201\246')" && fail "U+2066 reached the JSON: $out"
printf '%s' "$out" | grep -q "$(printf '\302\233')" && fail "U+009B reached the JSON: $out"
printf '%s\n' "$out" | grep -q '"via":	"NET/\\\\u2066Lib fab\\\\x9b\\\\xff"' || fail "transport not kept, spaces and all, escaped: $out"
rm -f "$evil"

# real pastes: partial readings exit 0 and say so; NCCL's WARN first; the
# window's stage falls back to the communicator's ranks where no channel is whole
expect 0 "NCCL WARN: 3 lines, the first at line 1" -- "$collviz" nccl-log "$logs/real/nccl-520-ring-warn-only.log"
expect 0 "NCCL said \(line 3\): Error : ring 0 does not loop back" -- \
    "$collviz" nccl-log --text "$logs/real/nccl-879-summary-repeats-ranks.log"
expect 2 "partial: no communicator" -- "$collviz" nccl-log --strict "$logs/real/nccl-1020-one-warn-line.log"
expect 0 '"warn_lines":	3' -- "$collviz" nccl-log --json "$logs/real/nccl-520-ring-warn-only.log"
expect 0 "channel 0 is whole and on the stage" -- \
    "$collviz" run --op allreduce --count 8 --nccl-log "$logs/real/nccl-1609-channels-12-15.log"
expect 0 "channel 0 is not whole: the stage has the communicator's ranks and nodes" -- \
    "$collviz" run --op allreduce --count 16 --nccl-log "$logs/real/nccl-tests-213-trees-only.log"
expect 2 "the log holds 2 communicators; pick one with --comm: run1 \(4 ranks, line 2, NCCL 2.18.5" -- \
    "$collviz" nccl-log "$logs/synth/two-runs-pasted.log"
expect 2 "rank-from-two-hosts.log:7: rank 3's lines come from two processes" -- \
    "$collviz" nccl-log "$logs/synth/rank-from-two-hosts.log"
expect 2 "rank-beyond-nranks.log:3: this line names rank 8, but communicator 0x7f0001 has 8 ranks" -- \
    "$collviz" nccl-log "$logs/synth/rank-beyond-nranks.log"
# NCCL's choice from its tuning table, beside collviz's model
expect 0 "NCCL's choice for AllReduce by size, from its tuning table \(line 4\)" -- \
    "$collviz" nccl-log --text "$logs/synth/tuning-2.18-blocks.log"
expect 0 "64 KiB  Tree/LL128 .*<- crossover" -- "$collviz" nccl-log --text "$logs/synth/tuning-2.18-blocks.log"
expect 0 "16 KiB  Ring/Simple .*<- crossover" -- "$collviz" nccl-log --text "$logs/real/nccl-754-tuning-table.log"
expect 0 '"collviz_ring_us":' -- "$collviz" nccl-log --json "$logs/synth/tuning-2.18-blocks.log"
expect 0 "line 16: 512 MiB -> Ring Simple, 5679.1 us by its model" -- \
    "$collviz" nccl-log --text "$logs/real/nccl-1453-cut-summaries-24-ranks.log"

# more ranks than the window draws: the summary, a note, exit 0
big=${TMPDIR:-/tmp}/collviz-ncclog-big.$$.log
r=0
while [ $r -lt 72 ]; do
    echo "h$((r / 8)):$((100 + r)):$((100 + r)) [$((r % 8))] NCCL INFO Ring 00 : $(((r + 71) % 72)) -> $r -> $(((r + 1) % 72))"
    r=$((r + 1))
done >"$big"
expect 0 "the window draws at most 64 ranks and this communicator has 72" -- "$collviz" nccl-log "$big"
expect 0 "72 ranks on 9 nodes, 1 channel" -- "$collviz" nccl-log "$big"
rm -f "$big"

# text from the log reaches the terminal escaped: a host name with a BEL, an
# ESC and a right-to-left override, a version with a BEL, and --comm as typed
evil=${TMPDIR:-/tmp}/collviz-ncclog-evil.$$.log
{
    printf 'gpu\a\033\342\200\256lave:1:1 [0] NCCL INFO NCCL version 2.21.5\a\n'
    printf 'gpu\a\033\342\200\256lave:1:1 [0] NCCL INFO Ring 00 : 1 -> 0 -> 1\n'
    printf 'gpu\a\033\342\200\256lave:2:2 [1] NCCL INFO Ring 00 : 0 -> 1 -> 0\n'
} >"$evil"
out=$("$collviz" nccl-log --text "$evil" 2>&1)
printf '%s\n' "$out" | grep -q 'node 0  gpu\\x07\\u202Elave' || fail "host name not escaped: $out"
printf '%s\n' "$out" | grep -q 'NCCL 2.21.5\\x07,' || fail "version not escaped: $out"
printf '%s' "$out" | LC_ALL=C grep -q "$(printf '[\a\033]')" && fail "a control byte reached the terminal: $out"
printf '%s' "$out" | grep -q "$(printf '\342\200\256')" && fail "U+202E reached the terminal: $out"
out=$("$collviz" nccl-log --comm "$(printf '0x\033]0;x\a')" "$evil" 2>&1)
printf '%s\n' "$out" | grep -q -- '--comm 0x\\x1b\]0;x\\x07 matches no communicator' || fail "--comm not escaped: $out"
rm -f "$evil"

for f in "$logs"/bad-*.log; do
    n=$("$collviz" nccl-log "$f" 2>&1 </dev/null | wc -l)
    [ "$n" = 1 ] || fail "$f: $n lines of error, expected one"
done

# cost --nccl: NCCL's tuner modelled for a preset; its table read back by
# nccl-log gives the same picks.
expect 0 'NVLS/Simple from 2 MiB' -- "$collviz" cost --nccl h100-8 --no-table
expect 0 'Ring/Simple +[0-9.]+ +35[0-9]\.[0-9]+' -- "$collviz" cost --nccl h100-8-nonvls -b 1G -e 1G
expect 0 'PAT/Simple' -- "$collviz" cost --nccl h100-8 --nodes 16 --gpus-per-node 1 --op allgather
expect 0 'NVLSTree' -- "$collviz" cost --nccl h100-8 --nodes 4 --no-table
expect 2 "unknown value 'foo'; allowed: a100-8, h100-8" -- "$collviz" cost --nccl foo
expect 2 'one rank in all' -- "$collviz" cost --nccl a100-8 --gpus-per-node 1
expect 2 'above -e' -- "$collviz" cost --nccl a100-8 -b 1G -e 1K
tab=$(mktemp)
"$collviz" cost --nccl a100-8 --nodes 4 > "$tab"
want=$(sed -n 's/^the pick changes: //p' "$tab")
got=$("$collviz" nccl-log "$tab" 2>&1 | grep -c 'Ring/Simple')
[ "$got" -gt 0 ] || fail "nccl-log did not read cost --nccl's table back: $want"
rm -f "$tab"
# each pick named as collviz's own plan, with a window that draws the last
out=$("$collviz" cost --nccl h100-8 --nodes 8 --no-table)
echo "$out" | grep -q '^as collviz plans: Tree = double-tree, NVLSTree = nvls-tree$' ||
    fail "cost --nccl h100-8 --nodes 8 did not name its picks' plans: $out"
echo "$out" | grep -q 'e.g. collviz gui --op allreduce --algo nvls-tree --ranks 64 --nodes 8' ||
    fail "cost --nccl h100-8 --nodes 8 gave no window to watch: $out"

# show --nccl: measured nccl-tests rows beside the tuner's pick (a build
# with the window has show).
m=$logs/../model/measured
if "$collviz" show --help >/dev/null 2>&1; then
    expect 0 "NVLSTree/Simple" -- "$collviz" show "$m/nccltests-309-h100-2x8-ib-ndr-allreduce.txt" --nccl h100-8 --table
    expect 0 "Ring/Simple" -- "$collviz" show "$m/nccltests-309-h100-2x8-ib-ndr-allreduce.txt" --nccl h100-8 --nccl-algo ring --table
    expect 2 "has 16 ranks, the system 8" -- "$collviz" show "$m/nccltests-309-h100-2x8-ib-ndr-allreduce.txt" --nccl h100-8 --nodes 1 --table
    expect 2 "go with --nccl PRESET" -- "$collviz" show "$m/nccltests-309-h100-2x8-ib-ndr-allreduce.txt" --nodes 2 --table
    # on a tuning table: the model's pick beside NCCL's, and how often they agree
    tab=$(mktemp)
    "$collviz" cost --nccl a100-8 --nodes 4 > "$tab"
    expect 0 "the model picks as this table does at 32 of the 32 sizes" -- "$collviz" show "$tab" --nccl a100-8 --ranks 32 --table
    rm -f "$tab"
    expect 0 "Ring/Simple +\(differs\)|\(differs\)" -- "$collviz" show "$logs/real/nccl-ebpf-2.29-tuning-blocks.log" --nccl h100-8 --gpus-per-node 1 --nodes 2 --table
    expect 2 "alltoall is not one of them" -- "$collviz" show "$m/autodl-blog-2080ti-1x2-pcie3-alltoall.txt" --nccl pcie-8 --gpus-per-node 2 --table
fi

[ $fails = 0 ] && echo "test_ncclog_cli: all passed"
exit $((fails > 0))
