#!/bin/sh
# test_reliability_cli.sh: the command line never crashes, hangs, is killed
# for memory or prints a file's bytes raw; each case below once did.
#
#   test_reliability_cli.sh COLLVIZ SOURCE_DIR WORK_DIR [SANITIZE]
#
# - A run that would not fit in memory ends with exit 2 and one line giving
#   what it needs and what there is ($COLLVIZ_MEMORY_LIMIT stands for a
#   small machine), before allocating; an allocation that fails anyway
#   (ulimit -v; not under AddressSanitizer, which reserves terabytes of
#   address space) is one line and exit 2 too, not a crash.
# - Verifying a 1024-rank direct allreduce is linear in the data (it was
#   ranks^2 x count: minutes), and a run longer than a second shows its
#   step on a terminal.
# - A FIFO in a lessons directory is refused, not waited on; a directory
#   with no lesson is not "0 lessons valid".
# - show --out /dev/full fails; show escapes what the file says.
# - ESC, BEL and U+202E in lesson text are refused at file:line:col.
# - Messages that misled: "format": "1", gui --count 1e9 without a display
#   (three lines, one of them SDL's), a 2^62-byte size in a show file.
# - Progress: concurrent drills both count; an unreadable file (a
#   directory; no permission is test_progress_noread.sh's) is not
#   written over; a FIFO does not hang; a file near the size limit is not
#   rewritten past it.
# - Standard output into /dev/full is exit 2 and one line, every
#   subcommand; gui and show without a display say one line, not SDL's
#   too; bench refuses a sweep that will not fit before its first row.
bin=$1
src=$2
work=$3
sanitize=${4:-}
rm -rf "$work" && mkdir -p "$work/data" || exit 1
export XDG_DATA_HOME="$work/data" HOME="$work"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# run_cli LIMIT ARGS...: collviz with a time limit; output in $out, exit in $rc.
run_cli() {
  t=$1; shift
  out=$(timeout "$t" "$bin" "$@" 2>&1 </dev/null)
  rc=$?
}
lines() { printf '%s\n' "$out" | grep -c .; }
# bad LIMIT WORDS ARGS...: exit 2, one line, containing WORDS (a grep -E).
bad() {
  t=$1; want=$2; shift 2
  run_cli "$t" "$@"
  [ "$rc" = 2 ] || fail "collviz $*: exit $rc, want 2: $out"
  [ "$(lines)" = 1 ] || fail "collviz $*: want one line, got: $out"
  printf '%s' "$out" | grep -Eq "$want" || fail "collviz $*: message lacks /$want/: $out"
}

# 1. Memory: the whole footprint (buffers, inputs, results), estimated first.
export COLLVIZ_MEMORY_LIMIT=8G
bad 60 "would need 29\.8 GiB .*COLLVIZ_MEMORY_LIMIT is 8\.0 GiB" run --op allreduce --ranks 4 --count 500000000
# A bench row fills and checks in the CPU backend's own buffers: those alone.
out=$(timeout 60 "$bin" bench --ranks 4 -b 2G -e 2G 2>&1 >/dev/null) # the header is stdout's
rc=$?
[ "$rc" = 2 ] && [ "$(lines)" = 1 ] &&
  printf '%s' "$out" | grep -Eq "would need 16\.0 GiB of memory \(buffers 16\.0, inputs and results 0\.0.*is 8\.0 GiB; lower -e or --ranks" ||
  fail "bench -b 2G -e 2G: exit $rc: $out"
bad 60 "would need 23\.4 GiB of memory \(buffers 15\.6, inputs and results 7\.8" run --op alltoall --algo bruck --ranks 1024 --count 1000
# buffers alone (1.2 GiB) fit in 2G, buffers + inputs + results do not
COLLVIZ_MEMORY_LIMIT=2G bad 60 "would need 2\.4 GiB .*is 2\.0 GiB" run --op allreduce --ranks 4 --count 40000000
unset COLLVIZ_MEMORY_LIMIT
if [ -z "$sanitize" ]; then
  out=$( (ulimit -v 1500000; "$bin" run --op allreduce --ranks 4 --count 50000000) 2>&1 >/dev/null)
  rc=$?
  [ "$rc" = 2 ] || fail "run under ulimit -v 1.5 GB: exit $rc, want 2: $out"
  [ "$(lines)" = 1 ] && printf '%s' "$out" | grep -q "out of memory" ||
    fail "run under ulimit -v 1.5 GB: want one 'out of memory' line: $out"
fi

# 2. Verification linear in the data: seconds, where it took minutes.
run_cli 240 run --op allreduce --algo direct --ranks 1024 --count 100000
[ "$rc" = 0 ] || fail "1024-rank direct allreduce: exit $rc (124: still verifying after 240 s)"
printf '%s' "$out" | grep -q "verified: 0 of the results differ" || fail "1024-rank run: $out"
if command -v script >/dev/null; then
  script -qec "$bin run --op allreduce --algo direct --ranks 1024 --count 300000 >/dev/null" \
    "$work/tty.log" >/dev/null 2>&1 </dev/null
  grep -Eq "collviz: (step [0-9]+ of 1024|verifying the results)" "$work/tty.log" ||
    fail "a long run showed no progress on a terminal: $(cat -v "$work/tty.log")"
fi
out=$("$bin" run --op allreduce --algo direct --ranks 1024 --count 300000 2>&1 >/dev/null)
[ -z "$out" ] || fail "progress written to a stderr that is not a terminal: $out"

# 3. Lessons directories: a FIFO is refused at once; an empty one fails.
mkdir -p "$work/L" "$work/empty"
cp "$src/lessons/"*.json "$work/L/"
mkfifo "$work/L/zz-pipe.json"
bad_fifo=$(timeout 30 "$bin" lessons --check "$work/L" 2>&1 </dev/null)
rc=$?
[ "$rc" = 2 ] || fail "lessons --check with a FIFO: exit $rc (124: hung), want 2"
printf '%s' "$bad_fifo" | grep -q "zz-pipe.json: cannot read: it is a FIFO" ||
  fail "lessons --check: the FIFO not named: $bad_fifo"
COLLVIZ_LESSONS_DIR="$work/L" run_cli 30 lessons
[ "$rc" != 124 ] || fail "collviz lessons hung on a FIFO in the lessons directory"
rm -f "$work/L/zz-pipe.json"
bad 30 "no lesson files \(\*\.json\) in .*empty" lessons --check "$work/empty"

# 4. show: a full disk is an error; the file's text is escaped.
"$bin" bench --ranks 2 -b 1K -e 4K --json >"$work/r.json" || fail "bench --json"
bad 60 "cannot write /dev/full" show "$work/r.json" --out /dev/full
sed 's/"op":[[:space:]]*"allreduce"/"op":"\\u001b]0;title\\u0007\\u202e"/' "$work/r.json" >"$work/esc.json"
run_cli 30 show "$work/esc.json" --out "$work/x.png"
[ "$rc" = 2 ] || fail "show with an ESC op: exit $rc: $out"
printf '%s' "$out" | grep -q '\\x1b]0;title\\x07\\u202E' || fail "show did not escape the op: $out"
printf '%s' "$out" | LC_ALL=C grep -q "$(printf '\033')" && fail "show printed a raw ESC: $out"

# 5. Lesson text: control and bidi characters refused where they are.
for ch in 'u001b[2J' 'u0007' 'u202e' 'r'; do
  mkdir -p "$work/ctl"
  sed "s/\"en\": \"Bruck/\"en\": \"\\\\${ch}Bruck/" "$src/lessons/algo-bruck.json" >"$work/ctl/algo-bruck.json"
  run_cli 30 lessons --check "$work/ctl"
  [ "$rc" = 2 ] || fail "lessons --check with $ch in a title: exit $rc: $out"
  printf '%s' "$out" | grep -Eq "algo-bruck.json:[0-9]+:[0-9]+: U\+[0-9A-F]{4} in a string" ||
    fail "lessons --check with $ch: no file:line:col: $out"
done

# A file's name is escaped too.
mkdir -p "$work/name"
cp "$src/lessons/algo-bruck.json" "$work/name/x$(printf '\033')[2J.json"
run_cli 30 lessons --check "$work/name"
printf '%s' "$out" | grep -q 'x\\x1b\[2J.json:3:' || fail "a file name with ESC: $out"
printf '%s' "$out" | LC_ALL=C grep -q "$(printf '\033')" && fail "a file name's ESC printed raw: $out"

# 6. Progress: two drills saving at once both count (a snapshot saved at the
# end lost about one run in ten); a directory in the file's place is not
# written over, and the drill says why; a FIFO in its place does not hang.
export XDG_DATA_HOME="$work/race"
(for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do echo 1 | "$bin" drill --count 2 --seed $i >/dev/null 2>&1; done) &
racer=$!
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do echo 2 | "$bin" drill --count 2 --seed $i >/dev/null 2>&1; done
wait $racer
grep -Eq '"runs":[[:space:]]*30,' "$work/race/collviz/progress.json" ||
  fail "2 x 15 drills at once: $(grep -A1 '"drill"' "$work/race/collviz/progress.json" | tr -d '\n')"
export XDG_DATA_HOME="$work/isdir"
mkdir -p "$work/isdir/collviz/progress.json/keep"
out=$(echo 1 | timeout 30 "$bin" drill --count 1 2>&1 >/dev/null)
printf '%s' "$out" | grep -q "progress.json: it is a directory, not a file; progress is not saved" ||
  fail "drill with a directory for progress.json: $out"
[ -d "$work/isdir/collviz/progress.json/keep" ] || fail "the directory in place of progress.json was touched"
export XDG_DATA_HOME="$work/fifo"
mkdir -p "$work/fifo/collviz" && mkfifo "$work/fifo/collviz/progress.json"
run_cli 30 lessons
[ "$rc" != 124 ] || fail "collviz lessons hung on a FIFO in place of progress.json"
printf '%s' "$out" | grep -q "not a regular file" || fail "lessons with a FIFO for progress.json: $out"
# An unreadable progress file (no permission) is tests/test_progress_noread.sh's,
# which runs as nobody when root.

# A file just under the size limit that loads is never rewritten past it
# (saved indented, 531k ids grew 3.72 -> 4.25 MB and the next load set the
# file aside): a drill that would grow it keeps the file and says so once.
export XDG_DATA_HOME="$work/near"
mkdir -p "$work/near/collviz"
awk 'BEGIN { s = "{\"format\":1,\"done\":["; printf "%s", s; n = length(s)
  for (i = 0; n < 4194304 - 40; i++) { id = sprintf("%s\"%x\"", i ? "," : "", i); printf "%s", id; n += length(id) }
  printf "]}" }' >"$work/near/collviz/progress.json"
cp "$work/near/collviz/progress.json" "$work/near.json"
out=$(printf '1\n1\n1\n' | timeout 60 "$bin" drill --count 3 2>&1 >/dev/null)
cmp -s "$work/near/collviz/progress.json" "$work/near.json" ||
  fail "a near-limit progress file was rewritten ($(wc -c <"$work/near/collviz/progress.json") bytes)"
[ "$(printf '%s\n' "$out" | grep -c "progress is not saved")" = 1 ] &&
  printf '%s' "$out" | grep -q "over the limit of 4194304 bytes; the file is left as it was" ||
  fail "drill on a near-limit progress file: want one 'not saved' line: $out"
for f in "$work/near/collviz/progress.json.corrupt"*; do
  [ -e "$f" ] && fail "a near-limit progress file was set aside: $f"
done

# 7. Messages that misled.
mkdir -p "$work/fmt"
sed 's/"format": 1/"format": "1"/' "$src/lessons/algo-bruck.json" >"$work/fmt/algo-bruck.json"
run_cli 30 lessons --check "$work/fmt"
printf '%s' "$out" | grep -q "algo-bruck.json:2:13: format must be 1, not a string" ||
  fail "format \"1\": $out"
(fails=0; unset DISPLAY WAYLAND_DISPLAY; export SDL_VIDEODRIVER=dummy
 bad 30 "lower --count or --ranks" gui --count 1e9; [ "$fails" = 0 ]) ||
  fails=$((fails + 1))
sed 's/"size":[[:space:]]*1024,/"size": 4611686018427387904,/' "$work/r.json" >"$work/huge.json"
# the size as the file writes it, at its line and column
want="huge.json:[0-9]+:[0-9]+: results\[0\]\.size is 4611686018427387904, "
bad 30 "${want}expected a whole number of bytes from 1 to 9e15" show "$work/huge.json"
mkfifo "$work/fifo.json"
bad 30 "fifo.json: cannot read: it is a FIFO \(named pipe\), not a regular file" \
  show "$work/fifo.json"

# 8. Standard output that cannot be written is an error for every
# subcommand (they all exited 0 into /dev/full), and only it is said.
export XDG_DATA_HOME="$work/data"
if [ -w /dev/full ]; then
  for cmd in "run --op allreduce --ranks 4 --count 8 --json" "run --op allreduce --ranks 4 --count 8" \
    "bench --ranks 2 -b 1K -e 4K --json" "cost --op allreduce --ranks 8 --bytes 1M" \
    "nccl-log --json $src/tests/ncclog/dbtree-4.log" "list" "--help" "lessons"; do
    # shellcheck disable=SC2086 # cmd is words
    out=$(timeout 60 "$bin" $cmd 2>&1 >/dev/full)
    rc=$?
    [ "$rc" = 2 ] && [ "$(lines)" = 1 ] &&
      printf '%s' "$out" | grep -Eq "^collviz: cannot write standard output: (No space left on device|an earlier write to it failed)$" ||
      fail "collviz $cmd >/dev/full: exit $rc: $out"
  done
  # a command that failed keeps its exit code and its own messages
  out=$(timeout 30 "$bin" lessons --check "$src/tests/lessons_bad" 2>&1 >/dev/full)
  rc=$?
  [ "$rc" = 2 ] && ! printf '%s' "$out" | grep -q "standard output" ||
    fail "a failing command into /dev/full: exit $rc: $(printf '%s' "$out" | tail -1)"
fi

# 9. No display: one line of collviz's own (libwayland printed its
# "XDG_RUNTIME_DIR is invalid" first), then the terminal steps, exit 0.
for cmd in gui "gui --op allreduce --ranks 4 --count 8"; do
  # shellcheck disable=SC2086 # cmd is words
  out=$(env -u DISPLAY -u WAYLAND_DISPLAY -u XDG_RUNTIME_DIR -u SDL_VIDEODRIVER \
    timeout 60 "$bin" $cmd 2>&1 >"$work/steps.txt" </dev/null)
  rc=$?
  [ "$rc" = 0 ] && [ "$(lines)" = 1 ] &&
    printf '%s' "$out" | grep -q "^collviz: no display (neither DISPLAY nor WAYLAND_DISPLAY is set): showing the steps in the terminal instead$" ||
    fail "collviz $cmd without a display: exit $rc: $out"
  grep -q "verified" "$work/steps.txt" || fail "collviz $cmd without a display printed no steps"
done
# A DISPLAY no X server answers: one line that names it (not libwayland's,
# not SDL's window-less "offscreen" driver), after a short retry.
out=$(env -u WAYLAND_DISPLAY -u XDG_RUNTIME_DIR -u SDL_VIDEODRIVER DISPLAY=:987 \
  timeout 60 "$bin" gui --op allreduce --ranks 4 --count 8 2>&1 >"$work/steps.txt" </dev/null)
rc=$?
[ "$rc" = 0 ] && [ "$(lines)" = 1 ] &&
  printf '%s' "$out" | grep -q "^collviz: no display (no X server takes a connection on DISPLAY=:987): showing the steps in the terminal instead$" ||
  fail "collviz gui with an unanswered DISPLAY: exit $rc: $out"
out=$(env -u DISPLAY -u WAYLAND_DISPLAY -u XDG_RUNTIME_DIR -u SDL_VIDEODRIVER \
  timeout 60 "$bin" show "$work/r.json" 2>&1 >"$work/table.txt" </dev/null)
rc=$?
[ "$rc" = 0 ] && [ "$(lines)" = 1 ] &&
  printf '%s' "$out" | grep -q "^collviz: no display (neither DISPLAY nor WAYLAND_DISPLAY is set): printing the table" ||
  fail "show without a display: exit $rc: $out"
[ -s "$work/table.txt" ] || fail "show without a display printed no table"

# 10. bench refuses a sweep whose largest size will not fit before its
# first row (it ran 1M to 512M for minutes first), and -b alone names
# only -b.
export COLLVIZ_MEMORY_LIMIT=8G
out=$(timeout 20 "$bin" bench -b 1M -e 2G 2>"$work/bench.err")
rc=$?
[ "$rc" = 2 ] || fail "bench -b 1M -e 2G: exit $rc (124: it ran the small sizes first), want 2"
printf '%s\n' "$out" | grep -v '^#' | grep -q . && fail "bench -b 1M -e 2G ran rows first: $out"
grep -Eq "^collviz: bench: 2147483648 B: .*would need .*lower -e or --ranks$" "$work/bench.err" ||
  fail "bench -b 1M -e 2G: $(cat "$work/bench.err")"
out=$(timeout 20 "$bin" bench -b 32G 2>&1 >/dev/null)
rc=$?
[ "$rc" = 2 ] && [ "$(lines)" = 1 ] &&
  printf '%s' "$out" | grep -Eq "^collviz: bench: 34359738368 B: .*would need .*lower -b or --ranks$" ||
  fail "bench -b 32G: exit $rc: $out"
bad 20 "e: 1048576 is smaller than -b 2097152" bench -b 2M -e 1M
unset COLLVIZ_MEMORY_LIMIT
out=$(timeout 60 "$bin" bench --ranks 2 -e 4K 2>&1)
printf '%s\n' "$out" | grep -Eq "^ +4096 " || fail "bench -e 4K alone: $out"

# 11. The third round. A limit that cannot be read is refused, whatever the
# command (it was ignored, so no limit applied); a need and a limit under
# a GiB read in MiB, with the decimals that tell them apart.
for v in garbage "512 MB" "100 M" -5G 1Mi 1_000 nan 0; do
  COLLVIZ_MEMORY_LIMIT=$v bad 10 "^collviz: COLLVIZ_MEMORY_LIMIT=$v is not a size above 0: give bytes such as 8G" list
done
esc=$(printf '\033[31mred')
COLLVIZ_MEMORY_LIMIT=$esc bad 10 'LIMIT=\\x1b\[31mred is not' run --op allreduce --ranks 2 --count 2
COLLVIZ_MEMORY_LIMIT=100M bad 20 "would need 488\.3 MiB .*COLLVIZ_MEMORY_LIMIT is 100\.0 MiB" \
  run --op allreduce --ranks 8 --count 4000000

# A course that does not load is exit 2 and one line, for every command that
# needs it (lessons exited 0 after "cannot open"; drill printed a line per
# bad file and one more, lesson two), with the path escaped.
mkdir -p "$work/nolessons" "$work/badlessons"
for i in 1 2 3 4 5 6; do echo '{' > "$work/badlessons/b$i.json"; done
for cmd in lessons drill "lesson algo-ring-allreduce"; do
  # shellcheck disable=SC2086
  bad 20 "^collviz: /nonexistent: cannot open: No such file or directory$" $cmd --dir /nonexistent
  # shellcheck disable=SC2086
  bad 20 "nolessons holds no lesson files" $cmd --dir "$work/nolessons"
  # shellcheck disable=SC2086
  bad 20 "no lesson in .*badlessons loads: 6 files with problems, the first .*b1\.json:2:1: " \
    $cmd --dir "$work/badlessons"
done
bad 20 '^collviz: /tmp/\\x1b\[31mnone: cannot open' lessons --dir "$(printf '/tmp/\033[31mnone')"

# A short and a long form are one flag, checked once (bench -r 3 ran where
# --root 3 was refused); a bench size of 0 is no size (it wrote a row of 0
# bytes, skipped -e, and show refused the result); --nodes against an NCCL
# log's own count is refused as --ranks is (both were printed).
bad 20 "^collviz: -r: allreduce ring has no root" bench -r 3 --op allreduce -b 8 -e 8
bad 20 "^collviz: -o: allgather does not reduce" bench -o max --op allgather -b 64 -e 64
bad 20 "^collviz: -b: '0' is out of range; give 1 to" bench -b 0 -e 64 --json
bad 20 "^collviz: --nodes: 4, but the NCCL log's communicator is on 2 nodes" \
  cost --op allreduce --nccl-log "$src/assets/ncclog/two-nodes-16.log" --nodes 4 --bytes 1M

# A GIF that cannot be finished leaves no torn file (written under a
# temporary name, renamed when whole), and its success line comes only once
# it is; paths from the command line are printed escaped.
rm -f "$work/t.gif"*
out=$( (trap '' XFSZ; ulimit -f 40; SDL_VIDEODRIVER=dummy timeout 60 "$bin" export --op allreduce \
  --ranks 4 --gif "$work/t.gif") 2>&1)
rc=$?
[ "$rc" = 2 ] && [ "$(lines)" = 1 ] || fail "export --gif past the file size limit: exit $rc: $out"
ls "$work/t.gif"* >/dev/null 2>&1 && fail "export --gif past the file size limit left $(ls "$work"/t.gif*)"
out=$(SDL_VIDEODRIVER=dummy timeout 60 "$bin" export --op allreduce --ranks 2 --gif /dev/full 2>&1)
printf '%s' "$out" | grep -q "frames" && fail "export --gif /dev/full said it made frames: $out"
escdir="$work/$(printf 'e\033[31mx')"
mkdir -p "$escdir"
out=$(SDL_VIDEODRIVER=dummy timeout 60 "$bin" export --op allreduce --ranks 2 --gif "$escdir/a.gif" \
  2>&1)
printf '%s' "$out" | grep -q "$(printf '\033')" && fail "export --gif printed a path raw: $out"
printf '%s' "$out" | grep -q 'e\\x1b\[31mx/a\.gif' || fail "export --gif: $out"
out=$(SDL_VIDEODRIVER=dummy timeout 60 "$bin" export --op allreduce --ranks 2 --stills --out "$escdir" \
  2>&1)
printf '%s' "$out" | grep -q "$(printf '\033')" && fail "export --out printed a path raw: $out"
SDL_VIDEODRIVER=dummy timeout 60 "$bin" bench --op allreduce --ranks 2 -b 8 -e 8 --json \
  >"$work/r8.json" 2>/dev/null
out=$(timeout 60 "$bin" show "$work/r8.json" --out "$escdir/c.png" 2>&1)
printf '%s' "$out" | grep -q "$(printf '\033')" && fail "show --out printed a path raw: $out"
bad 20 "cannot write .*e\\\\x1b\\[31mx/none/c\\.png" show "$work/r8.json" --out "$escdir/none/c.png"

# One truth a message: --step -1 and 0 give the same range (it said "0 to
# 1000000", then 0 was out of range); three algorithms to compare are "more
# than two" (it looked for an algorithm 'tree,direct').
bad 20 "^collviz: --step: '-1' is not allowed; give a whole number from 1 to" \
  lesson algo-ring-allreduce --step -1 --text
bad 20 "^collviz: --step: '0' is not allowed; give a whole number from 1 to" \
  lesson algo-ring-allreduce --step 0 --text
bad 20 "^collviz: --compare: 'ring,tree,direct' names more than two algorithms" \
  export --op allreduce --compare ring,tree,direct --gif "$work/c.gif"

# A drill answer longer than the line reader's buffer is one answer, not
# two: its tail (here "a", a valid choice) was scored as the next answer.
long=$(printf '%01024d' 0 | tr 0 x)a
out=$(printf '%s\nq\n' "$long" | timeout 30 "$bin" drill --seed 7 --count 1 --time 0 --lang en 2>&1)
printf '%s' "$out" | grep -q "Score: 0 of 0" || fail "drill with a 1025-character line: $out"

# show prices the model within a few seconds whatever the file: 4096 rows of
# a 1024-rank pairwise alltoall took fourteen minutes; now a sample of the
# sizes is priced, and a note says so.
awk 'BEGIN { printf "{\"op\":\"alltoall\",\"algo\":\"pairwise\",\"ranks\":1024,"
             printf "\"backend\":\"nccl\",\"dtype\":\"float32\",\"results\":["
             for (i = 1; i <= 4096; i++)
               printf "%s{\"size\":%d,\"time_us\":%d,\"algbw_GBps\":1,\"busbw_GBps\":1}",
                      (i > 1 ? "," : ""), 262144 * i, 100 + i
             printf "]}\n" }' >"$work/big-show.json"
start=$(date +%s)
out=$(timeout 120 "$bin" show "$work/big-show.json" --out "$work/big-show.png" 2>&1)
rc=$?
took=$(( $(date +%s) - start ))
[ "$rc" = 0 ] || fail "show of 4096 rows at 1024 ranks: exit $rc (124: still pricing): $out"
[ "$took" -lt 60 ] || fail "show of 4096 rows at 1024 ranks took $took s"
printf '%s' "$out" | grep -Eq "note: the model is priced at [0-9]+ of the 4096 sizes" ||
  fail "show of 4096 rows: no note on the sizes priced: $out"

# The stage's memory is bounded whatever the count: the trace and the three
# states a side are counted before anything runs (a large count held 844 MB,
# a compare of 524,288 elements a gigabyte).
SDL_VIDEODRIVER=dummy bad 60 "would hold 508 MiB \(the stage's limit is 384 MiB\)" \
  render --bench --ranks 8 --count 524288 --frames 2
SDL_VIDEODRIVER=dummy bad 60 "allreduce ring against tree with 8 ranks x 262144 elements .*limit is 384" \
  export --op allreduce --ranks 8 --count 262144 --compare ring,tree --gif "$work/big.gif"

[ "$fails" = 0 ] && echo "test_reliability_cli: all passed" && rm -rf "$work"
[ "$fails" = 0 ]
