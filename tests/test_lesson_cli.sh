#!/bin/sh
# test_lesson_cli.sh COLLVIZ SOURCE_DIR WORK_DIR
#
# The lesson commands through the real program: exit codes, the messages a
# user sees, and that progress lands under $XDG_DATA_HOME. Runs without a
# terminal (stdin is a pipe or /dev/null), as CI does.
set -u
collviz=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
export XDG_DATA_HOME="$work/data"
export COLLVIZ_LESSONS_DIR="$src/lessons"
fails=0

fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

# expect CODE PATTERN -- COMMAND...: runs it, checks the exit code and that
# stdout+stderr match the extended regular expression.
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

expect 0 "lessons valid" -- "$collviz" lessons --check
# README.md states the course's size: the numbers the validator counts.
counts=$("$collviz" lessons --check 2>/dev/null | sed -n 's/^\([0-9]*\) lessons valid (\([0-9]*\) quizzes).*/\1 lessons and \2 quizzes/p')
tr '\n' ' ' <"$src/README.md" | grep -q "$counts" ||
    fail "README.md does not say '$counts' (collviz lessons --check counts them)"
# Every NCCL log line a lesson quotes (in backticks, with NCCL's INFO or
# WARN tag) is a line of a log that tests/test_ncclog.c reads with collviz
# nccl-log: the real pastes of tests/ncclog/real or the logs beside them.
# A lesson may number its lines ("3  ..."), drop NCCL's host:pid:tid
# prefix down to "[dev] ", or end a line in " ..."; what remains must be
# there word for word, so a quote cannot drift from what the reader reads.
quotes=0
for id in $(ls "$src/lessons" | sed -n 's/\.json$//p'); do
    "$collviz" lesson "$id" --text --lang en </dev/null 2>/dev/null |
        grep -oE '`[^`]*NCCL (WARN|INFO)[^`]*`' | tr -d '`' |
        sed 's/^[0-9]*  //; s/^\[[0-9]*\] //; s/ \.\.\.$//' >"$work/quotes-$id"
    while IFS= read -r line; do
        quotes=$((quotes + 1))
        grep -rqF -- "$line" "$src/tests/ncclog" ||
            fail "$id quotes an NCCL log line no log of tests/ncclog holds: $line"
    done <"$work/quotes-$id"
done
[ "$quotes" -ge 10 ] || fail "only $quotes quoted NCCL log lines found in the lessons (expected 10 or more)"
expect 2 "lessons_bad/bad-step-range.json:25:15: step 12 is beyond the plan's step count 1" -- \
    "$collviz" lessons --check "$src/tests/lessons_bad"
expect 2 "bad-utf8.json:6:42: not JSON: invalid UTF-8" -- "$collviz" lessons --check "$src/tests/lessons_bad"
expect 2 "1 lesson valid, 1 file with problems" -- \
    "$collviz" lessons --check "$src/tests/lessons_bad/bad-cost.json" "$src/tests/lessons_bad/bad-order-a.json"
expect 2 "cannot open" -- "$collviz" lessons --check "$work/nonexistent.json"

expect 2 "no lesson 'prim-sendrcv'; did you mean: prim-sendrecv" -- "$collviz" lesson prim-sendrcv --text
expect 2 "--step: 99 is out of range; lesson prim-sendrecv has beats 1 to" -- \
    "$collviz" lesson prim-sendrecv --text --step 99
expect 2 "--step: '0' is not allowed; give a whole number from 1" -- "$collviz" lesson prim-sendrecv --text --step 0
expect 2 "--lang: unknown value 'fr'" -- "$collviz" lesson prim-sendrecv --text --lang fr
expect 2 "which lesson" -- "$collviz" lesson
expect 2 "--theme: unknown value 'neon'; allowed: dark, light, projector" -- \
    "$collviz" lesson prim-sendrecv --theme neon
expect 2 "--size: '10x' is not WxH" -- "$collviz" lesson prim-sendrecv --size 10x
expect 2 "--theme is for the window; --text plays the lesson in the terminal" -- \
    "$collviz" lesson prim-sendrecv --text --theme projector
expect 2 "unknown flag '--colour'; allowed: .*--theme" -- "$collviz" lesson prim-sendrecv --colour
expect 0 "usage: collviz lesson ID" -- "$collviz" lesson --help
expect 0 "答案" -- "$collviz" lesson prim-sendrecv --text --lang zh --step 2
expect 0 "Standard answer" -- "$collviz" lesson algo-ring-allreduce --text --lang en
# Ranges print half-open, as `collviz run` prints them, explained once.
expect 0 "r0.send\[0..4\) -> r1.recv\[0..4\)" -- "$collviz" lesson prim-sendrecv --text --lang en
expect 0 "half-open" -- "$collviz" lesson prim-sendrecv --text --lang en
expect 0 "Primitives" -- "$collviz" lessons --lang en
expect 0 "算法" -- "$collviz" lessons --lang zh

# A lesson directory with one broken file still lists the good ones.
mkdir -p "$work/mixed"
cp "$src/lessons/prim-sendrecv.json" "$src/tests/lessons_bad/bad-not-json.json" "$work/mixed/"
expect 0 "prim-sendrecv" -- "$collviz" lessons --dir "$work/mixed"
expect 0 "1 lesson file in .* has problems" -- "$collviz" lessons --dir "$work/mixed"

# The drill on a script: four answers, a score, progress saved.
out=$(printf '\n\n\n\n' | "$collviz" drill --seed 7 --count 4 --time 60 --lang en 2>&1)
rc=$?
[ $rc = 0 ] || fail "drill exit $rc"
printf '%s\n' "$out" | grep -q "Score: 0 of 4" || fail "drill score: $out"
printf '%s\n' "$out" | grep -q "Standard answer" || fail "drill shows cards"
printf '%s\n' "$out" | grep -q "half-open" || fail "the drill says how ranges read"
[ -f "$XDG_DATA_HOME/collviz/progress.json" ] || fail "drill saved no progress"
grep -q '"runs":[[:space:]]*1' "$XDG_DATA_HOME/collviz/progress.json" || fail "drill run recorded"

# The same seed gives the same questions.
a=$(printf '' | "$collviz" drill --seed 11 --count 3 --time 5 --lang en 2>&1 | grep '^== ')
b=$(printf '' | "$collviz" drill --seed 11 --count 3 --time 5 --lang en 2>&1 | grep '^== ')
[ "$a" = "$b" ] || fail "seeded drills differ"

# The clock: no answer within one second ends the drill. Its input is a FIFO
# this shell holds open, so it never ends by itself: only the clock can stop
# the drill, however long a loaded sanitizer build takes to ask the first
# question (an input closed first ends the drill without the clock). The
# timeout only keeps a broken clock from hanging the suite.
mkfifo "$work/drill-in"
exec 7<>"$work/drill-in"
out=$(timeout 120 "$collviz" drill --seed 1 --time 1 --lang en <"$work/drill-in" 2>&1)
exec 7>&-
printf '%s\n' "$out" | grep -q "Time is up" || fail "the clock did not stop the drill: $out"

# A corrupt progress file is set aside with a message, and listing still works.
echo '{"format": 1, "done": [' >"$XDG_DATA_HOME/collviz/progress.json"
expect 0 "was not valid JSON; it was moved to .*progress.json.corrupt-" -- "$collviz" lessons
ls "$XDG_DATA_HOME/collviz/" | grep -q "progress.json.corrupt-" || fail "no corrupt copy kept"

if [ $fails -ne 0 ]; then
    echo "test_lesson_cli: $fails failures" >&2
    exit 1
fi
echo "test_lesson_cli: ok"
