#!/bin/sh
# test_add_algorithm.sh: docs/ARCHITECTURE.md says an algorithm is its
# CV_ALGO_* value, one row in collectives/cv_algos.c and its generator, and
# a link preset one row in collectives/cv_cost.c, with nothing else to edit.
# This test does exactly that in a scratch copy of the sources and checks
# that the program knows them:
#  - an allreduce "scratch-ring" (the ring's generator and formulas under a
#    new name, with its own narration) and a preset "scratch-link";
#  - only the engine and `collviz` are built, without the window and CUDA;
#  - `collviz list` shows both, `collviz run --op allreduce --algo
#    scratch-ring` verifies against the reference with its row's round
#    formula, `collviz cost` prices it on `--link scratch-link`, and both
#    its help and the error for an unknown preset list the new one (show,
#    the other help that lists them, needs the window; test_link_lists
#    checks it in the full build);
#  - the engine answers for the new row: its narration, stage shape and
#    textbook bytes (a small program linked against the scratch cvcore).
#
#   sh tests/test_add_algorithm.sh SOURCE_DIR C_COMPILER
set -u
src=${1:?usage: test_add_algorithm.sh SOURCE_DIR C_COMPILER}
cc=${2:?usage: test_add_algorithm.sh SOURCE_DIR C_COMPILER}
command -v cmake >/dev/null 2>&1 || { echo "test_add_algorithm: no cmake here; skipped"; exit 77; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test_add_algorithm: $*"; exit 1; }

# The scratch copy: what a configure of the program reads, no build trees.
s=$tmp/src
mkdir "$s" || exit 2
for d in CMakeLists.txt README.md collectives cuda_backend render app tests lessons assets docs; do
    cp -R "$src/$d" "$s/$d" || fail "cannot copy $d"
done

# Inserts text before the first line of file matching pattern (after it
# with after=1); fails when no line does.
insert() { # file pattern after text
    awk -v pat="$2" -v after="$3" -v text="$4" '
        !done && $0 ~ pat { if (after) print; print text; if (!after) print; done = 1; next }
        { print }
        END { exit done ? 0 : 1 }' "$1" >"$1.new" && mv "$1.new" "$1" ||
        fail "no line matching $2 in $1"
}

# 1. The algorithm: its value in cv.h, its row among allreduce's.
insert "$s/collectives/cv.h" '^ *CV_ALGO_COUNT *$' 0 \
    '    CV_ALGO_SCRATCH_RING, /* test_add_algorithm */'
row='    {.op = CV_OP_ALLREDUCE, .algo = CV_ALGO_SCRATCH_RING, .name = "scratch-ring",
     .generate = cv__plan_allreduce_ring, .rounds = rounds_2n1, .bytes = bytes_ring,
     .shape = CV_STAGE_RING, .flags = FOLLOWS_TOPO,
     .narration[CV_LANG_EN] = "Scratch ring: the ring allreduce under another name.",
     .narration[CV_LANG_ZH] = "草稿环：换了名字的环形 AllReduce。"},'
insert "$s/collectives/cv_algos.c" 'op = CV_OP_ALLTOALL,' 0 "$row"

# 2. The link preset: one more row at the end of the table.
awk 'BEGIN { text = "    {\"scratch-link\", 40e9, 4e-6, 0, \"a preset test_add_algorithm added\"}," }
     /^static const cv_link presets\[\]/ { table = 1 }
     table && /^};/ { print text; table = 0; added = 1 }
     { print }
     END { exit added ? 0 : 1 }' "$s/collectives/cv_cost.c" >"$s/cv_cost.c.new" &&
    mv "$s/cv_cost.c.new" "$s/collectives/cv_cost.c" || fail "no preset table in cv_cost.c"

# 3. Build the engine and the program only.
b=$tmp/build
cmake -S "$s" -B "$b" -DCOLLVIZ_GUI=OFF -DCOLLVIZ_CUDA=OFF -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$cc" >"$tmp/configure.log" 2>&1 ||
    { cat "$tmp/configure.log"; fail "the scratch copy does not configure"; }
jobs=$(nproc 2>/dev/null || echo 2)
cmake --build "$b" --target collviz -j"$jobs" >"$tmp/build.log" 2>&1 ||
    { tail -40 "$tmp/build.log"; fail "the scratch copy does not build"; }
cv=$b/collviz

# 4. The program knows them.
out=$("$cv" list) || fail "collviz list failed"
echo "$out" | grep -q '^  allreduce .*, scratch-ring$' ||
    { echo "$out"; fail "collviz list does not offer scratch-ring for allreduce"; }
echo "$out" | grep -q '^  scratch-link  *40.0 GB/s' ||
    { echo "$out"; fail "collviz list does not show scratch-link"; }
for shape in "--ranks 4 --count 8" "--ranks 6 --count 13 --dtype int32" \
             "--ranks 8 --count 64 --dtype float16 --redop max"; do
    # shellcheck disable=SC2086
    out=$("$cv" run --op allreduce --algo scratch-ring $shape) ||
        { echo "$out"; fail "run --algo scratch-ring $shape failed"; }
    echo "$out" | grep -q 'verified: 0 of the results differ' ||
        { echo "$out" | tail -3; fail "run --algo scratch-ring $shape does not verify"; }
    echo "$out" | grep -q 'steps = 2(N-1)' ||
        { echo "$out" | head -2; fail "run --algo scratch-ring $shape: not its row's round formula"; }
done
out=$("$cv" cost --op allreduce --algo scratch-ring --ranks 8 --bytes 1M --link scratch-link) ||
    { echo "$out"; fail "cost --algo scratch-ring --link scratch-link failed"; }
echo "$out" | grep -q '^link: scratch-link, 40.0 GB/s' ||
    { echo "$out" | head -3; fail "cost does not price on scratch-link"; }
"$cv" cost --help | grep -q -- '--link nvlink3|.*|scratch-link | --bw' ||
    fail "cost --help does not list scratch-link"
msg=$("$cv" cost --op allreduce --ranks 8 --bytes 1M --link nvlink9 2>&1)
echo "$msg" | grep -q 'allowed: .*scratch-link' || { echo "$msg"; fail "the error does not list scratch-link"; }

# 5. The engine answers for the row.
cat >"$tmp/row.c" <<'EOF'
#include <stdio.h>
#include <string.h>

#include "cv.h"

int main(void)
{
    int a = cv_algo_parse("scratch-ring");
    cv_spec s;
    cv_spec_init(&s);
    s.algo = (cv_algo)a;
    s.ranks = 8;
    s.count = 64;
    char f[64];
    long long bytes = (long long)cv_spec_textbook_bytes(&s, f, sizeof f);
    printf("%s|%s|%s|%lld %s\n", cv_algo_narration(CV_OP_ALLREDUCE, (cv_algo)a, CV_LANG_EN),
           cv_algo_narration(CV_OP_ALLREDUCE, (cv_algo)a, CV_LANG_ZH),
           cv_stage_shape_name(cv_algo_stage_shape(CV_OP_ALLREDUCE, (cv_algo)a)), bytes, f);
    return a < 0;
}
EOF
"$cc" -std=c11 -I"$s/collectives" "$tmp/row.c" "$b/collectives/libcvcore.a" -lpthread -lm \
    -o "$tmp/row" || fail "cannot build the row check"
got=$("$tmp/row") || fail "scratch-ring does not parse"
want='Scratch ring: the ring allreduce under another name.|草稿环：换了名字的环形 AllReduce。|ring|448 2(N-1)/N·D'
[ "$got" = "$want" ] || fail "the engine answers \"$got\", not \"$want\""

echo "test_add_algorithm: a row each made scratch-ring and scratch-link known to list, run, cost, the help and the engine"
