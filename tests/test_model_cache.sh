#!/bin/sh
# test_model_cache.sh COLLVIZ SOURCE_DIR WORK_DIR
#
# The cost model's remembered answers (app/lesson/lesson_model.c), as the
# browser's page uses them: `lessons --model-cache FILE` writes them, and
# with COLLVIZ_MODEL_CACHE=FILE every lesson reads exactly as when they are
# computed (each lesson's text player output compared whole); the file is
# really read (a changed answer shows in the text); a file that is not a
# cache is one line on stderr and the figures are computed as always.
set -u
collviz=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
export XDG_DATA_HOME="$work/data"
export COLLVIZ_LESSONS_DIR="$src/lessons"
unset COLLVIZ_MODEL_CACHE
fails=0
fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

cache=$work/model.json
out=$("$collviz" lessons --model-cache "$cache" 2>&1) || fail "--model-cache exited $?: $out"
echo "$out" | grep -Eq '^[0-9]+ answers of the cost model written to ' || fail "said: $out"

for f in "$src"/lessons/*.json; do
    id=$(basename "$f" .json)
    "$collviz" lesson "$id" --text </dev/null > "$work/plain.txt" 2>&1
    COLLVIZ_MODEL_CACHE=$cache "$collviz" lesson "$id" --text </dev/null > "$work/cached.txt" 2>&1
    cmp -s "$work/plain.txt" "$work/cached.txt" ||
        fail "$id reads differently with the cache: $(diff "$work/plain.txt" "$work/cached.txt" | head -4)"
done

# A crossover changed in the file shows in the lesson that states it.
sed 's/\["crossover \([^]]*\)",[0-9.e+]*/["crossover \1",1000000000/g' "$cache" > "$work/changed.json"
cmp -s "$cache" "$work/changed.json" && fail "no crossover in the cache to change"
"$collviz" lesson algo-multi-node --text </dev/null > "$work/plain.txt" 2>&1
COLLVIZ_MODEL_CACHE=$work/changed.json "$collviz" lesson algo-multi-node --text </dev/null \
    > "$work/changed.txt" 2>&1
cmp -s "$work/plain.txt" "$work/changed.txt" && fail "the cache's answers are not used"

# Not a cache: one line, then the same text as without one.
echo '{"format": 99}' > "$work/bad.json"
COLLVIZ_MODEL_CACHE=$work/bad.json "$collviz" lesson algo-multi-node --text </dev/null \
    > "$work/bad.txt" 2> "$work/bad.err"
[ "$(wc -l < "$work/bad.err")" = 1 ] && grep -q 'is not a model cache of format 1' "$work/bad.err" ||
    fail "a bad cache said: $(cat "$work/bad.err")"
cmp -s "$work/plain.txt" "$work/bad.txt" || fail "a bad cache changed the text"
COLLVIZ_MODEL_CACHE=$work/none.json "$collviz" lesson algo-multi-node --text </dev/null \
    > /dev/null 2> "$work/none.err"
grep -q 'cannot be read' "$work/none.err" || fail "a missing cache said: $(cat "$work/none.err")"

if [ $fails -eq 0 ]; then
    echo "test_model_cache: all passed"
    exit 0
fi
exit 1
