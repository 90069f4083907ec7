#!/bin/sh
# test_add_key_lesson.sh: docs/ARCHITECTURE.md says a lesson is one file in
# lessons/ and a key one row in the keymap (render/rd_keys.c), with nothing
# else to edit. This test does exactly that and checks that they work:
#  - a lesson: one new JSON file in a copy of lessons/ is listed by
#    `collviz lessons`, passes `collviz lessons --check` (the directory and
#    the file alone) and is read by `collviz lesson ID --text`; the built
#    program is used as it is, the file is the only change;
#  - a key: one row binding F7 to the help, added to the keymap of a
#    scratch copy of the sources; a small program built against that copy
#    finds the row, presses F7 in a headless window and sees the help open
#    with the row's line in it (the help overlay reads the table).
# A theme (one file in assets/themes/) is test_theme_files'.
#
# PART is lesson or key for one of the two (tests/add_rows.cmake makes each
# a ctest: the key's scratch build is in the slow tier), all or none for both.
#
#   sh tests/test_add_key_lesson.sh SOURCE_DIR C_COMPILER COLLVIZ [PART]
set -u
src=${1:?usage: test_add_key_lesson.sh SOURCE_DIR C_COMPILER COLLVIZ [PART]}
cc=${2:?usage: test_add_key_lesson.sh SOURCE_DIR C_COMPILER COLLVIZ [PART]}
cv=${3:?usage: test_add_key_lesson.sh SOURCE_DIR C_COMPILER COLLVIZ [PART]}
part=${4:-all}
case $part in all | lesson | key) ;; *) echo "test_add_key_lesson.sh: unknown part '$part'" >&2; exit 2 ;; esac
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test_add_key_lesson: $*"; exit 1; }
# Progress and caches under the scratch folder, not the user's.
export XDG_DATA_HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache"

# 1. The lesson: one file in a copy of lessons/.
if [ "$part" != key ]; then
cp -R "$src/lessons" "$tmp/lessons" || fail "cannot copy lessons/"
cat >"$tmp/lessons/prim-scratch.json" <<'EOF'
{
  "format": 1,
  "id": "prim-scratch",
  "track": "primitives",
  "order": 990,
  "title": {"en": "Scratch: a lesson added as one file", "zh": "草稿：只加一个文件的课程"},
  "setup": {"op": "allreduce", "algo": "ring", "ranks": 4, "count": 4, "dtype": "int32", "init": "index"},
  "beats": [
    {"step": "start",
     "text": {"en": "Four ranks, each with four numbers of its own.",
              "zh": "四个 rank，每个都有自己的四个数。"},
     "quiz": {"id": "who", "kind": "choice",
              "prompt": {"en": "After an all-reduce, which ranks hold the sums?",
                         "zh": "AllReduce 之后，哪些 rank 持有这些和？"},
              "choices": [{"text": {"en": "Every rank", "zh": "每个 rank"}},
                          {"text": {"en": "Only rank 0", "zh": "只有 rank 0"},
                           "why": {"en": "That is a reduce to rank 0.", "zh": "那是规约到 rank 0 的 Reduce。"}}],
              "answer": 0,
              "card": {"en": "An all-reduce leaves the same reduced buffer on every rank.",
                       "zh": "AllReduce 让每个 rank 都得到同样的规约结果。"}}},
    {"step": "end",
     "text": {"en": "Every rank now holds the same sums.",
              "zh": "现在每个 rank 都持有同样的和。"},
     "quiz": {"id": "what", "kind": "choice",
              "prompt": {"en": "Which operation combined the numbers?",
                         "zh": "这些数是用哪种运算合并的？"},
              "choices": [{"text": {"en": "Sum", "zh": "求和"}},
                          {"text": {"en": "Maximum", "zh": "最大值"},
                           "why": {"en": "The lesson names no operation, so it is the sum.", "zh": "课程没有指定运算，所以是求和。"}}],
              "answer": 0,
              "card": {"en": "The default reduction is a sum.",
                       "zh": "默认的规约运算是求和。"}}}
  ]
}
EOF
out=$(COLLVIZ_LESSONS_DIR="$tmp/lessons" "$cv" lessons 2>&1) || { echo "$out"; fail "collviz lessons failed"; }
echo "$out" | grep -q 'prim-scratch .*Scratch: a lesson added as one file' ||
    { echo "$out"; fail "collviz lessons does not list prim-scratch"; }
out=$("$cv" lessons --check "$tmp/lessons" 2>&1) || { echo "$out"; fail "lessons --check of the course with it failed"; }
out=$("$cv" lessons --check "$tmp/lessons/prim-scratch.json" 2>&1) ||
    { echo "$out"; fail "lessons --check prim-scratch.json failed"; }
out=$("$cv" lesson prim-scratch --text --dir "$tmp/lessons" </dev/null 2>&1) ||
    { echo "$out"; fail "collviz lesson prim-scratch --text failed"; }
echo "$out" | grep -q 'Every rank now holds the same sums.' ||
    { echo "$out"; fail "the text player does not read prim-scratch's beats"; }
fi
[ "$part" != lesson ] || { echo "test_add_key_lesson: one file made prim-scratch a lesson (listed, checked, read)"; exit 0; }

# 2. The key: one row in a scratch copy's keymap.
command -v cmake >/dev/null 2>&1 || { echo "test_add_key_lesson: no cmake here; the key is skipped"; exit 77; }
s=$tmp/src
mkdir "$s" || exit 2
for d in CMakeLists.txt README.md collectives cuda_backend render app tests lessons assets docs; do
    cp -R "$src/$d" "$s/$d" || fail "cannot copy $d"
done
row='    {SDLK_F7, NOMOD, RD_ACT_HELP, 0, "F7", NO_LABEL, {"scratch: the help, from F7", "草稿：F7 打开帮助"}, STAGE, 0},'
awk -v text="$row" '
    !done && /^static const rd_key keymap\[\] = \{/ { print; print text; done = 1; next }
    { print }
    END { exit done ? 0 : 1 }' "$s/render/rd_keys.c" >"$s/rd_keys.c.new" &&
    mv "$s/rd_keys.c.new" "$s/render/rd_keys.c" || fail "no keymap table in rd_keys.c"
# The check, built as one of the scratch copy's tests.
cat >"$s/tests/test_scratch_key.c" <<'EOF'
/*
 * test_scratch_key.c: built only in test_add_key_lesson.sh's scratch copy,
 * whose keymap has one more row (F7: the help). The row is found, F7 opens
 * the help in a headless window, and the help lists the row's line.
 */
#include <string.h>

#include "test_render_util.h"

static void row(void)
{
    const rd_key *k = rd_key_find(SDLK_F7, 0, false);
    EXPECT(k && k->action == RD_ACT_HELP && k->name && !strcmp(k->name, "F7"),
           "F7 is not the new row");
}

static void help(void)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    gui *g = tr_gui(&spec, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    tr_key(g, SDLK_F7, 0);
    EXPECT(g->help, "F7 did not open the help");
    rd_debug_boxes(gui_rd(g), true);
    gui_render(g);
    const rd_box *bx;
    int nb = rd_boxes(gui_rd(g), &bx), found = 0;
    for (int i = 0; i < nb; i++)
        found += !strcmp(bx[i].text, "scratch: the help, from F7");
    EXPECT(found == 1, "the help shows the row's line %d times", found);
    gui_destroy(g);
}

static const test_case cases[] = {
    CASE("row", row),
    CASE("help", help),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    tr_require_fonts();
    cases_run();
    SDL_Quit();
    return cases_end();
}
EOF
echo 'collviz_test(test_scratch_key SOURCES test_scratch_key.c test_render_util.c LIBS cvgui)' \
    >"$s/tests/scratch_key.cmake"
b=$tmp/build
cmake -S "$s" -B "$b" -DCOLLVIZ_CUDA=OFF -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$cc" >"$tmp/configure.log" 2>&1 ||
    { cat "$tmp/configure.log"; fail "the scratch copy does not configure"; }
grep -q 'COLLVIZ_GUI:BOOL=ON' "$b/CMakeCache.txt" ||
    { echo "test_add_key_lesson: the lesson works; the key needs the window (SDL2), not built here; skipped"; exit 77; }
jobs=$(nproc 2>/dev/null || echo 2)
cmake --build "$b" --target test_scratch_key -j"$jobs" >"$tmp/build.log" 2>&1 ||
    { tail -40 "$tmp/build.log"; fail "the scratch copy does not build"; }
out=$(SDL_VIDEODRIVER=dummy SDL_RENDER_DRIVER=software "$b/test_scratch_key" 2>&1)
rc=$?
[ $rc = 77 ] && { echo "$out"; echo "test_add_key_lesson: the lesson works; no font for the key's window; skipped"; exit 77; }
[ $rc = 0 ] || { echo "$out"; fail "the new key row does not work"; }

echo "test_add_key_lesson: one file made prim-scratch a lesson (listed, checked, read), one row made F7 a key (found, pressed, in the help)"
