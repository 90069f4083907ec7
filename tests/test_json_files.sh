#!/bin/sh
# test_json_files.sh: every JSON file collviz reads goes through one reader
# (collectives/json/jr.h), so every command refuses the same bad files the same
# way: one line naming the file and its line and column (or what the file
# is), exit 2 where the file was asked for, never a hang. Each case below
# was read before the shared reader, and how is said beside it.
#
#   test_json_files.sh COLLVIZ SOURCE_DIR WORK_DIR [GUI]
#
# GUI (ON or OFF): whether the build has the window (show, gui, export).
bin=$1
src=$2
work=$3
gui=${4:-ON}
rm -rf "$work" && mkdir -p "$work/data" || exit 1
export XDG_DATA_HOME="$work/data" HOME="$work"
unset DISPLAY WAYLAND_DISPLAY COLLVIZ_MODEL_CACHE
export SDL_VIDEODRIVER=dummy
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# run_cli ARGS...: collviz with a time limit; output in $out, exit in $rc.
run_cli() {
  out=$(timeout 30 "$bin" "$@" 2>&1 </dev/null)
  rc=$?
}
lines() { printf '%s\n' "$out" | grep -c .; }
# bad WORDS ARGS...: exit 2, one line, matching WORDS (grep -E).
bad() {
  want=$1; shift
  run_cli "$@"
  [ "$rc" = 2 ] || fail "collviz $*: exit $rc (124: it hung), want 2: $out"
  [ "$(lines)" = 1 ] || fail "collviz $*: want one line, got: $out"
  printf '%s' "$out" | grep -Eq -- "$want" || fail "collviz $*: message lacks /$want/: $out"
}

cd "$work" || exit 1
mkfifo fifo.json
mkdir dir.json
printf '[[1\0002],[1]]' >nul.json          # read as [[1]]: the NUL ended the text
printf '[[1],[{"a": 1, "a": 2}]]' >dup.json # "expected a number" at the second '{'
printf '[[1], [3]]\n' >good.json
run="run --op allreduce --ranks 2 --count 1"

# 1. run --input, and gui and export, which read it the same way.
# plain fopen: a FIFO blocked forever, /dev/zero was "expected '['"
bad "^collviz: --input: fifo.json: cannot read: it is a FIFO \(named pipe\), not a regular file$" \
  $run --input fifo.json
bad "^collviz: --input: /dev/zero: cannot read: it is a device, not a regular file$" \
  $run --input /dev/zero
bad "^collviz: --input: dir.json: cannot read: it is a directory, not a file$" \
  $run --input dir.json
bad "^collviz: nul.json:1:4: a NUL byte: a JSON file is text and has none$" $run --input nul.json
bad "^collviz: dup.json:1:16: duplicate key \"a\" in \[1\]\[0\]$" $run --input dup.json
printf '[[1], [2]]\n\n  ]' >trail.json
bad "^collviz: trail.json:3:3: not JSON: unexpected text after the end of the JSON value$" \
  $run --input trail.json
# a path is escaped: it was printed raw
bad '^collviz: --input: x\\x1b\[2J.json: cannot open: No such file or directory$' \
  $run --input "x$(printf '\033')[2J.json"
# far more values than the op takes: refused as they are met
awk 'BEGIN { printf "[["; for (i = 0; i < 5000; i++) printf "%s1", i ? "," : ""; print "]]" }' \
  >many.json
want="^collviz: many.json:1:2059: more than 1030 values; "
bad "${want}the op's send buffers take 1 in all \(--ranks 1\)$" \
  run --op allreduce --ranks 1 --count 1 --input many.json
# cJSON's tree of a big file is asked of the memory first
awk 'BEGIN { printf "[["; for (i = 0; i < 800000; i++) printf "%s0", i ? "," : ""; print "]]" }' \
  >big.json
want="^collviz: big.json:1:1: its [0-9]+ values would take [0-9.]+ MiB of memory to read; "
COLLVIZ_MEMORY_LIMIT=1M bad "${want}COLLVIZ_MEMORY_LIMIT is 1\.0 MiB$" \
  run --op allreduce --ranks 1 --count 800000 --input big.json
run_cli $run --input good.json --json
[ "$rc" = 0 ] || fail "a good --input: exit $rc: $out"
if [ "$gui" = ON ]; then
  bad "^collviz: --input: fifo.json: cannot read: it is a FIFO" gui --op allreduce --ranks 2 \
    --count 1 --input fifo.json
  bad "^collviz: nul.json:1:4: a NUL byte" export --op allreduce --ranks 2 --count 1 \
    --input nul.json --stills --out "$work/never"
fi

# 2. show's bench results: cJSON alone took the first of two keys, text
# after the object, and a NUL byte as white space.
if [ "$gui" = ON ]; then
  "$bin" bench --ranks 2 -b 1K -e 4K --json >r.json 2>/dev/null || fail "bench --json"
  sed '0,/"ranks":/s/"ranks":/"ranks": 4, "ranks":/' r.json >twice.json
  bad "^collviz: twice.json:[0-9]+:[0-9]+: duplicate key \"ranks\" in the top level$" \
    show twice.json --out x.png
  { cat r.json; echo '{}'; } >after.json
  want="^collviz: after.json:[0-9]+:1: not JSON: unexpected text after the end of the JSON "
  bad "${want}value; expected the output of collviz bench --json$" show after.json --out x.png
  { printf '\0'; cat r.json; } >nulr.json
  bad "^collviz: nulr.json:1:1: a NUL byte" show nulr.json --out x.png
  bad "^collviz: dir.json: cannot read: it is a directory, not a file$" show dir.json --out x.png
fi

# 3. Lessons: a number as written (it was "not 2e+01", "not -7e+01"), a
# key given twice where the walker never looked, a NUL byte.
mkdir -p L
sed -e 's/"order": [0-9]*/"order": -70/' -e '0,/"ranks": [0-9]*/s//"ranks": 20/' \
  "$src/lessons/algo-bruck.json" >L/algo-bruck.json
run_cli lessons --check L
[ "$rc" = 2 ] || fail "lessons --check with order -70: exit $rc"
want="algo-bruck.json:[0-9]*:[0-9]*: order must be an integer from 1 to 100000, not -70$"
printf '%s' "$out" | grep -q "$want" || fail "order -70 not quoted as written: $out"
printf '%s' "$out" | grep -q "setup.ranks must be an integer from 1 to 16, not 20$" ||
  fail "ranks 20 not quoted as written: $out"
printf '%s' "$out" | grep -q "e+0" && fail "a number rewritten: $out"
sed 's/"format": 1,/"format": 1, "figures-draft": {"a": 1, "a": 2},/' \
  "$src/lessons/algo-bruck.json" >L/algo-bruck.json
run_cli lessons --check L
printf '%s' "$out" | grep -q 'algo-bruck.json:2:42: duplicate key "a" in figures-draft$' ||
  fail "a key twice inside an unknown member: $out"
printf '{"format": 1,\0 "id": "x"}' >L/algo-bruck.json
run_cli lessons --check L
printf '%s' "$out" | grep -q "algo-bruck.json:1:14: a NUL byte" || fail "a NUL in a lesson: $out"

# 4. Progress: a NUL byte was white space to cJSON, text after the object
# was ignored; now the file is set aside and the message says where.
mkdir -p "$work/data/collviz"
printf '{"format": 1,\0 "done": ["algo-bruck"]}' >"$work/data/collviz/progress.json"
run_cli lessons
want="was not valid JSON; it was moved to .*progress.json.corrupt-.* and progress starts afresh"
printf '%s' "$out" | grep -q "$want (.*progress.json:1:14: a NUL byte" ||
  fail "a NUL in progress.json: $out"
printf '{"format": 1} {"format": 1}' >"$work/data/collviz/progress.json"
run_cli lessons
want="(.*progress.json:1:15: not JSON: unexpected text after the end of the JSON value)"
printf '%s' "$out" | grep -q "$want" || fail "text after progress.json's object: $out"
rm -f "$work/data/collviz/progress.json"*

# 5. The model cache: plain fopen waited on a FIFO for ever.
COLLVIZ_MODEL_CACHE="$work/fifo.json" run_cli lesson algo-bruck --text
[ "$rc" = 0 ] || fail "a FIFO for the model cache: exit $rc (124: it hung): $out"
printf '%s' "$out" | grep -q "COLLVIZ_MODEL_CACHE=.*fifo.json cannot be read (it is a FIFO" ||
  fail "a FIFO for the model cache: $out"

# 6. A float64 written with more digits than cJSON reads (63) is still the
# number written, at the place written (it was refused as "too long").
long="1.5$(printf '%070d' 0)"
printf '[[%s],[2]]' "$long" >"$work/long.json"
run_cli run --op allreduce --ranks 2 --count 1 --dtype float64 --input "$work/long.json" --json
[ "$rc" = 0 ] || fail "a 73-digit float64: exit $rc: $out"
printf '%s' "$out" | tr -d ' \t\n' | grep -q '"outputs":\[\[3\.5\],\[3\.5\]\]' ||
  fail "a 73-digit float64 is not read as 1.5: $out"
printf '[[%s, 1],[2]]' "$long" >"$work/long2.json"
run_cli run --op allreduce --ranks 2 --count 1 --dtype float64 --input "$work/long2.json"
printf '%s' "$out" | grep -q "long2.json:1:78: rank 0 has more than 1 values" ||
  fail "a position after a long number: $out"

[ "$fails" = 0 ] && echo "test_json_files: all passed" && rm -rf "$work"
[ "$fails" = 0 ]
