#!/bin/sh
# test_ncclog_bounds.sh COLLVIZ
#
# `collviz nccl-log -` on what never ends: input on a pipe is bounded as a
# file is (ncclog.h's NCCLOG_FOREIGN_MAX and NCCLOG_MAX_BYTES), and the
# bound on what is kept says what it counted.
#  - endless text with no line NCCL writes (`yes`) is refused after 64 MiB
#    as no NCCL log (it read for ever);
#  - endless NCCL INFO lines of no kind the reader keeps stop after 4 GiB,
#    with a note saying so, and what came before is read (it read for ever);
#  - one log repeated, as `cat job.log job.log ...` makes, stops at the
#    bound on ring and tree entries, which says they come from many
#    communicator set-ups, each counted (it said "distinct", which they
#    are not).
# Each under a generous outer `timeout`: a hang fails, no speed is timed.
set -u
collviz=${1:?usage: test_ncclog_bounds.sh COLLVIZ}
fails=0
unset DISPLAY WAYLAND_DISPLAY
export SDL_VIDEODRIVER=dummy

# expect NAME CODE PATTERN SHELL-PIPELINE: the exit code of the pipeline's
# last command, and its stdout+stderr matching the extended regular
# expression; "$collviz" in the pipeline is this collviz.
expect() {
    name=$1 code=$2 pattern=$3 pipeline=$4
    out=$(collviz=$collviz sh -c "$pipeline" 2>&1 </dev/null)
    rc=$?
    if [ "$rc" = "$code" ] && printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
        echo "ok: $name"
    else
        echo "FAIL: $name: exit $rc (wanted $code; 124: it did not end), said:"
        printf '%s\n' "$out" | head -5
        fails=$((fails + 1))
    fi
}

expect "endless text without an NCCL line: refused after 64 MiB" 2 \
    '^collviz: \(standard input\):[0-9]+: no NCCL line in the first 64 MiB \(no "NCCL INFO", no "NCCL WARN"\): this is not an NCCL log' \
    'yes | timeout 120 "$collviz" nccl-log -'

expect "endless NCCL INFO lines of no kind it keeps: stops after 4 GiB and says so" 0 \
    'note: \(standard input\): stopped reading at line [0-9]+: more than 4 GiB of input' \
    'x=$(head -c 60000 /dev/zero | tr "\0" x)
     yes "gpu-a:900:950 [0] NCCL INFO $x" | timeout 240 "$collviz" nccl-log -'

# A 2-rank communicator of 32 channels of trees, printed 40,000 times.
expect "one log repeated: the bound on entries counts set-ups, not distinct entries" 0 \
    'stopped reading at line [0-9]+: more than 2097152 ring and tree entries over 6553[0-9] communicator set-ups, each counted, repeated ones too' \
    't0="" t1="" c=0
     while [ $c -lt 32 ]; do
         t0="$t0 [$c] 1/-1/-1->0->-1"
         t1="$t1 [$c] -1/-1/-1->1->0"
         c=$((c + 1))
     done
     one="gpu-a:900:950 [0] NCCL INFO comm 0x1000 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0
gpu-a:901:951 [1] NCCL INFO comm 0x2000 rank 1 nRanks 2 nNodes 1 localRanks 2 localRank 1 MNNVL 0
gpu-a:900:950 [0] NCCL INFO Trees$t0
gpu-a:901:951 [1] NCCL INFO Trees$t1
gpu-a:900:950 [0] NCCL INFO ncclCommInitRank comm 0x1000 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x7d2c - Init COMPLETE
gpu-a:901:951 [1] NCCL INFO ncclCommInitRank comm 0x2000 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x7d2c - Init COMPLETE"
     yes "$one" | head -n 240000 | timeout 120 "$collviz" nccl-log -'

[ "$fails" -eq 0 ] || exit 1
