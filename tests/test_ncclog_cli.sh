#!/bin/sh
# test_ncclog_cli.sh COLLVIZ LOG_DIR
#
# `collviz nccl-log` through the real program: what a user reads, the exit
# codes, standard input, and one line for every kind of bad input.
set -u
collviz=$1
logs=$2
fails=0

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

expect 0 "16 ranks on 2 nodes, 4 channels" -- "$collviz" nccl-log "$logs/two-nodes-16.log"
expect 0 "7 =NET=> 8 > 9" -- "$collviz" nccl-log "$logs/two-nodes-16.log"
expect 0 "node 1  node01-gpu +8 GPUs: ranks 8-15" -- "$collviz" nccl-log "$logs/two-nodes-16.log"
expect 0 "cut by NCCL after 20 of 32 ranks" -- "$collviz" nccl-log "$logs/cut-summary-32.log"
expect 0 '`- 2 - 3' -- "$collviz" nccl-log "$logs/dbtree-4.log"
expect 0 '"via":	"NET/Socket/0"' -- "$collviz" nccl-log --json "$logs/dbtree-4.log"
expect 0 "Usage|usage: collviz nccl-log" -- "$collviz" nccl-log --help
# standard input, and a communicator picked by a prefix of its address
out=$("$collviz" nccl-log - <"$logs/single-node-8.log" 2>&1) || fail "stdin: exit $?"
printf '%s\n' "$out" | grep -q "8 ranks on 1 node" || fail "stdin: $out"
expect 0 "communicator 0x5600000001b0: 4 ranks" -- "$collviz" nccl-log --comm 0x5600000001 "$logs/multi-comm.log"
expect 0 '"id":	"0x5600000002c0"' -- "$collviz" nccl-log --json "$logs/multi-comm.log"

# bad input: one line, exit 2
expect 2 "the log holds 3 communicators; pick one with --comm" -- "$collviz" nccl-log "$logs/multi-comm.log"
expect 2 "bad-disagree.log:2: the rings disagree" -- "$collviz" nccl-log "$logs/bad-disagree.log"
expect 2 "rank 3 is missing from channel 0" -- "$collviz" nccl-log "$logs/bad-missing-rank.log"
expect 2 "no NCCL rings, trees or communicators in 0 lines" -- "$collviz" nccl-log /dev/null
expect 2 "nope.log: cannot open" -- "$collviz" nccl-log "$logs/nope.log"
expect 2 "cannot open|read error" -- "$collviz" nccl-log "$logs"
expect 2 "which log\\?" -- "$collviz" nccl-log
expect 2 "unknown flag '--channel'; allowed" -- "$collviz" nccl-log --channel 3 "$logs/dbtree-4.log"
expect 2 "--comm needs a value|--comm: " -- "$collviz" nccl-log "$logs/dbtree-4.log" --comm
expect 2 "one log at a time" -- "$collviz" nccl-log "$logs/dbtree-4.log" "$logs/tree-lines.log"
for f in "$logs"/bad-*.log; do
    n=$("$collviz" nccl-log "$f" 2>&1 </dev/null | wc -l)
    [ "$n" = 1 ] || fail "$f: $n lines of error, expected one"
done

[ $fails = 0 ] && echo "test_ncclog_cli: all passed"
exit $((fails > 0))
