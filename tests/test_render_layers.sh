#!/bin/sh
# test_render_layers.sh: the renderer's layers (docs/ARCHITECTURE.md,
# render/rd_internal.h), checked on what the compiler made of render/ and
# on its sources:
#  - which render/ file uses a function (or table) defined in which other
#    one, read off the object files in libcvrender.a with nm;
#  - no two files use each other, directly or round a longer loop;
#  - every file has its place in ORDER below, bottom layer first, and uses
#    only files before it (a lower layer, or earlier in its own layer);
#  - no function in render/ is longer than MAX_LINES lines (signature to
#    closing brace).
#
#   sh tests/test_render_layers.sh SOURCE_DIR LIBCVRENDER [NM]
set -u
src=${1:?usage: test_render_layers.sh SOURCE_DIR LIBCVRENDER [NM]}
lib=${2:?usage: test_render_layers.sh SOURCE_DIR LIBCVRENDER [NM]}
nm=${3:-nm}
MAX_LINES=80

# The layers, bottom first; within a layer, a file may use those before it.
ORDER='
primitives: rd_font.c rd_text.c rd_theme.c rd_theme_load.c rd_strings.c rd_keys.c
            rd_prims.c rd_image.c
plan:       rd_plan.c rd_chunks.c rd_words.c rd_verdict.c
layout:     rd_cells.c rd_fit.c rd_stage.c rd_timeline_layout.c rd_narration_layout.c rd_layout.c
            rd_hit.c
drawing:    rd_links.c rd_card.c rd_flight.c rd_chrome.c rd_diagram.c rd_timeline.c rd_narration.c
            rd_overlay.c rd_table.c rd_draw.c rd_chart_axes.c rd_chart.c
'
fail=0
tmp=${TMPDIR:-/tmp}/render_layers.$$
mkdir -p "$tmp" || exit 2
trap 'rm -rf "$tmp"' EXIT

# "position layer file", one line a file, in ORDER.
echo "$ORDER" | awk '/:/ { layer = $1; sub(/:$/, "", layer); $1 = "" }
                     { for (i = 1; i <= NF; i++) print ++n, layer, $i }' > "$tmp/order"

(cd "$src/render" && ls *.c) | sort > "$tmp/files"
awk '{ print $3 }' "$tmp/order" | sort > "$tmp/placed"
unplaced=$(comm -23 "$tmp/files" "$tmp/placed")
gone=$(comm -13 "$tmp/files" "$tmp/placed")
if [ -n "$unplaced" ]; then
  echo "test_render_layers: files with no place in ORDER (give each its layer):" $unplaced
  fail=1
fi
if [ -n "$gone" ]; then
  echo "test_render_layers: ORDER names files render/ does not have:" $gone
  fail=1
fi

# "user definer symbol" for each use of one render/ file's symbol by another.
member() { awk '{ n = split($1, a, ":"); f = a[n - 1]; sub(/\.o$/, "", f);
                  if (f !~ /\.c$/) f = f ".c"; print f, $NF }'; }
if ! "$nm" -A -g --defined-only "$lib" > "$tmp/nm_def" || ! "$nm" -A -u "$lib" > "$tmp/nm_undef"
then
  echo "test_render_layers: $nm $lib failed"
  exit 2
fi
member < "$tmp/nm_def" > "$tmp/defs"
member < "$tmp/nm_undef" > "$tmp/uses"
if [ ! -s "$tmp/defs" ]; then
  echo "test_render_layers: no symbols in $lib"
  exit 2
fi
awk 'NR == FNR { def[$2] = $1; next }
     ($2 in def) && def[$2] != $1 { print $1, def[$2], $2 }' "$tmp/defs" "$tmp/uses" |
  sort -u > "$tmp/edges"

# Loops, whatever the order says.
awk '{ print $1, $2 }' "$tmp/edges" | sort -u > "$tmp/pairs"
if ! tsort "$tmp/pairs" > /dev/null 2> "$tmp/loops"; then
  echo "test_render_layers: render/ files that use each other in a loop:"
  awk '/input contains a loop/ { if (loop != "") print "  a loop through " loop; loop = ""; next }
       { sub(/^tsort: */, ""); loop = loop == "" ? $0 : loop ", " $0 }
       END { if (loop != "") print "  a loop through " loop }' "$tmp/loops"
  fail=1
fi

# Uses of a file that is not below the user in ORDER.
up=$(awk 'NR == FNR { pos[$3] = $1; layer[$3] = $2; next }
          ($1 in pos) && ($2 in pos) && pos[$2] >= pos[$1] {
              printf "  %s (%s) uses %s of %s (%s)\n", $1, layer[$1], $3, $2, layer[$2] }' \
         "$tmp/order" "$tmp/edges")
if [ -n "$up" ]; then
  echo "test_render_layers: uses of a file that is not below the user in ORDER:"
  echo "$up"
  fail=1
fi

# Function lengths: from a definition's first line at column 0 to its
# closing brace at column 0.
long=$(cd "$src" && awk -v max=$MAX_LINES '
    FNR == 1 { sig = 0; start = 0 }
    /^[A-Za-z_]/ && /\(/ && !/;[ \t]*$/ { sig = FNR; s = $0; sub(/\(.*/, "", s);
                                          n = split(s, w, /[ *]+/); name = w[n] }
    /^\{/ && sig { start = sig }
    /^\}/ && start { if (FNR - start + 1 > max)
                         printf "  %s:%d: %s, %d lines\n", FILENAME, start, name, FNR - start + 1
                     start = 0; sig = 0 }' render/*.c render/*.h)
if [ -n "$long" ]; then
  echo "test_render_layers: functions over $MAX_LINES lines (split them):"
  echo "$long"
  fail=1
fi

if [ $fail = 0 ]; then
  echo "test_render_layers: $(wc -l < "$tmp/files") files in 4 layers," \
       "$(wc -l < "$tmp/pairs") uses between files, all downward, no loop;" \
       "no function over $MAX_LINES lines"
fi
exit $fail
