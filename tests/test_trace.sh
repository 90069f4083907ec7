#!/bin/sh
# test_trace.sh: a trace travels. `collviz run --trace-out FILE` writes the
# run whole, and `collviz export --trace FILE` replays it on another
# process (any machine) with the recorded times, backend and host: the
# replay's results are compared with the recorded ones bit for bit, and a
# recorded result that was changed is caught and counted. A trace is never
# trusted: a missing member, another version, a step count that is not the
# plan's, a negative time, a rank count the stage cannot show, a flag that
# would change the recorded run and a file that is not there are each one
# line naming the place, and exit 2.
#
#   sh tests/test_trace.sh COLLVIZ
set -u
collviz=${1:?usage: test_trace.sh COLLVIZ}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # what, condition status
    if [ "$2" -ne 0 ]; then
        echo "FAIL: $1"
        fail=1
    else
        echo "ok: $1"
    fi
}

"$collviz" run --op allreduce --algo tree --ranks 5 --count 7 --init random \
    --trace-out "$tmp/t.json" >/dev/null
check "run --trace-out writes the trace" $?
grep -q '"format":"collviz-run","version":1' "$tmp/t.json"
check "the trace says its format and version" $?

out=$("$collviz" export --trace "$tmp/t.json" --stills --out "$tmp/s" --size 640x400 2>&1)
rc=$?
check "export --trace replays it (rc $rc)" $rc
echo "$out" | grep -q "agree bit for bit"
check "the replay agrees with the recording: $out" $?
n=$(ls "$tmp/s" | wc -l)
[ "$n" -eq 7 ]
check "one still per step and the inputs (6 steps): $n" $?

# A recorded result changed by hand: caught, counted, still shown.
sed 's/"outputs":\[\[/"outputs":[[12345,/; s/"outputs":\[\[12345,[^],]*,/"outputs":[[12345,/' \
    "$tmp/t.json" >"$tmp/changed.json"
out=$("$collviz" export --trace "$tmp/changed.json" --stills --out "$tmp/c" --size 640x400 2>&1)
echo "$out" | grep -q "differ from the replay on the CPU in 1 element "
check "a changed result is counted: $out" $?

refused() { # what, file, expected text, extra flags...
    what=$1 file=$2 want=$3
    shift 3
    msg=$("$collviz" export --trace "$file" --stills --out "$tmp/x" "$@" 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" -eq 2 ] && echo "$msg" | grep -q -- "$want" && [ "$(echo "$msg" | wc -l)" -eq 1 ]; then
        echo "ok: $what: $msg"
    else
        echo "FAIL: $what: rc $rc, said: $msg (wanted: $want)"
        fail=1
    fi
}
sed 's/"steps":/"stepz":/' "$tmp/t.json" >"$tmp/nosteps.json"
refused "no steps" "$tmp/nosteps.json" 'nosteps.json:1:1: missing "steps"'
sed 's/"version":1/"version":2/' "$tmp/t.json" >"$tmp/v2.json"
refused "a newer version" "$tmp/v2.json" "v2.json:1:.*version 2: this collviz reads version 1"
sed 's/"steps":\[{[^{]*{[^]]*\]},/"steps":[/' "$tmp/t.json" >"$tmp/short.json"
refused "a step missing" "$tmp/short.json" "5 steps; collviz's plan for this spec has 6"
sed 's/"time_us":[0-9.e-]*/"time_us":-1/' "$tmp/t.json" >"$tmp/neg.json"
refused "a negative time" "$tmp/neg.json" "step 1's \"time_us\" must be a number"
sed 's/"ranks":5/"ranks":65/' "$tmp/t.json" >"$tmp/big.json"
refused "more ranks than the stage shows" "$tmp/big.json" '"ranks" must be a whole number from 1 to 64'
sed 's/"format":"collviz-run"/"format":"nccl"/' "$tmp/t.json" >"$tmp/fmt.json"
refused "another format" "$tmp/fmt.json" "a trace's is \"collviz-run\""
refused "a flag that changes the run" "$tmp/t.json" "--trace replays the recorded run" --ranks 4
refused "no such file" "$tmp/none.json" "cannot open"
printf '[1, 2]\n' >"$tmp/array.json"
refused "not an object" "$tmp/array.json" "array.json:1:1: expected '{' opening a trace"

"$collviz" run --op allreduce --ranks 2 --count 2 --trace-out "$tmp/no/such/dir/t.json" \
    >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "cannot write" "$tmp/err"
check "an unwritable --trace-out is exit 2 and one line (rc $rc)" $?

# The window draws an MPI run from its trace, and says how when asked for
# --backend mpi itself.
for cmd in export gui; do
    "$collviz" export --help >/dev/null 2>&1 || break # no window in this build
    "$collviz" $cmd --op allreduce --backend mpi --stills --out "$tmp/m" >/dev/null 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] &&
        grep -q "collviz $cmd --trace T.json" "$tmp/err"
    check "$cmd --backend mpi points at run --trace-out, exit 2 (rc $rc)" $?
done

exit "$fail"
