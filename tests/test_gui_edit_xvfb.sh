#!/bin/sh
# test_gui_edit_xvfb.sh: editing an input in the real window on a real X
# server, as a learner does it. collviz opens a 4-rank ring AllReduce
# (int32, 8 elements) under Xvfb; Right twice plays two steps; S saves the
# window's frame; a mouse click lands on GPU 1's send[2] (the point
# test_gui_edit --where gives for the same stage and size); "300" and
# Return are typed. The window must say on stdout that it ran again at step
# 2 with 0 wrong results, and a frame saved afterwards must differ from the
# one before. Then, keys alone: E reopens the cell, a value int32 cannot
# hold and Return are refused (no second edit), Esc closes the field, and
# E (GPU 1's send[0]: the card clicked last), Down, "-4", Return edit
# GPU 2's send[0].
# Skipped (exit 77) where Xvfb or xdotool is missing.
#
#   test_gui_edit_xvfb.sh COLLVIZ TEST_GUI_EDIT OUT_DIR
bin=$1
where=$2
out=$3
for tool in Xvfb xdotool; do
  command -v "$tool" >/dev/null || { echo "SKIPPED: $tool is not installed"; exit 77; }
done
rm -rf "$out" && mkdir -p "$out/shots" "$out/data" || exit 1
export XDG_DATA_HOME="$out/data"
fail() { echo "FAIL: $*"; exit 1; }

# Where GPU 1's send[2] lies in a 1200x750 window (laid out headless).
point=$(SDL_VIDEODRIVER=dummy SDL_RENDER_DRIVER=software "$where" --where allreduce int32 4 8 1200 750 1 2) ||
  fail "test_gui_edit --where found no cell: $point"
x=${point% *}
y=${point#* }
unset SDL_VIDEODRIVER SDL_RENDER_DRIVER

Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$out/display" 2>"$out/xvfb.log" &
xvfb=$!
app=
cleanup() {
  [ -n "$app" ] && kill "$app" 2>/dev/null
  kill "$xvfb" 2>/dev/null
}
trap cleanup EXIT
for _ in $(seq 100); do [ -s "$out/display" ] && break; sleep 0.1; done
[ -s "$out/display" ] || fail "Xvfb did not start: $(cat "$out/xvfb.log")"
export DISPLAY=":$(cat "$out/display")"

"$bin" gui --op allreduce --algo ring --ranks 4 --count 8 --dtype int32 --size 1200x750 --shots "$out/shots" \
  >"$out/gui.log" 2>"$out/gui.err" &
app=$!
win=
for _ in $(seq 100); do
  win=$(xdotool search --name collviz 2>/dev/null | head -1)
  [ -n "$win" ] && break
  kill -0 "$app" 2>/dev/null || fail "collviz exited before its window appeared: $(cat "$out/gui.err")"
  sleep 0.1
done
[ -n "$win" ] || fail "no collviz window after 10 s"
sleep 1 # mapped is not yet taking keys on a loaded machine
geom=$(xdotool getwindowgeometry "$win" | awk '/Geometry/ {print $2}')
[ "$geom" = 1200x750 ] || fail "the window is $geom, not 1200x750: the cell's point would be wrong"

key() { xdotool key --window "$win" "$@" || fail "xdotool key $*"; }
shots() { ls "$out/shots"/*.png 2>/dev/null | wc -l; }
shoot() { # shoot N NAME: press s, wait for the Nth screenshot, whole, as NAME
  key s
  for _ in $(seq 50); do [ "$(shots)" -ge "$1" ] && break; sleep 0.1; done
  [ "$(shots)" -ge "$1" ] || fail "the s key wrote no screenshot $1"
  f=$(ls -t "$out/shots"/*.png | head -1)
  size=-1
  while [ "$size" != "$(wc -c <"$f")" ]; do size=$(wc -c <"$f"); sleep 0.3; done
  cp "$f" "$out/$2"
}
# edits N: waits up to 10 s for N edit lines on stdout
edits() {
  for _ in $(seq 100); do [ "$(grep -c '^collviz: edit:' "$out/gui.log")" -ge "$1" ] && return; sleep 0.1; done
}

key Right
sleep 3 # a step takes 2 s at 1x
key Right
sleep 3
shoot 1 before.png
xdotool mousemove --window "$win" "$x" "$y" click 1 || fail "xdotool click"
sleep 0.3
xdotool type --window "$win" --delay 80 300 || fail "xdotool type"
key Return
edits 1
grep -q '^collviz: edit: GPU 1 send\[2\] = 300 (int32): ran again at step 2 of 6, 0 wrong$' \
  "$out/gui.log" || fail "no edit of GPU 1's send[2] at step 2 with 0 wrong: $(cat "$out/gui.log")"
sleep 0.5
shoot 2 after.png
cmp -s "$out/before.png" "$out/after.png" && fail "the frame after the edit is the frame before it"

# Keys alone: a refused value, Esc, then an edit one rank down.
key e
xdotool type --window "$win" --delay 80 99999999999 || fail "xdotool type"
key Return Escape
sleep 0.3
key e Down
xdotool type --window "$win" --delay 80 -- -4 || fail "xdotool type"
key Return
edits 2
[ "$(grep -c '^collviz: edit:' "$out/gui.log")" = 2 ] ||
  fail "expected two edits (the refused value is not one): $(cat "$out/gui.log")"
grep -q '^collviz: edit: GPU 2 send\[0\] = -4 (int32): ran again at step 2 of 6, 0 wrong$' \
  "$out/gui.log" || fail "E, Down, -4, Return did not edit GPU 2's send[0]: $(cat "$out/gui.log")"
kill -0 "$app" 2>/dev/null || fail "the window closed: $(cat "$out/gui.err")"
xdotool key --window "$win" q 2>/dev/null # the window may be gone before the key-up
for _ in $(seq 100); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
kill -0 "$app" 2>/dev/null && fail "collviz still running 10 s after q"
wait "$app"
rc=$?
app=
[ "$rc" = 0 ] || fail "collviz exited $rc: $(cat "$out/gui.err")"
echo "ok: click on GPU 1's send[2] at ($x, $y), 300, Return: ran again at step 2, 0 wrong; keys alone: refused, Esc, then E Down -4 Return"
