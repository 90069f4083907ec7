#!/bin/sh
# test_ncclog_window.sh COLLVIZ LOG_DIR OUT_DIR
#
# An NCCL log in the real window under Xvfb: `collviz gui --nccl-log` opens
# the stage on the log's 16 ranks, K moves to the next channel and the
# picture changes with the ring; `collviz nccl-log` prints its summary and
# then opens the same window, which Q closes with exit 0. Skipped (77)
# where Xvfb or xdotool is missing.
bin=$1
logs=$2
out=$3
for tool in Xvfb xdotool; do
  command -v "$tool" >/dev/null || { echo "SKIPPED: $tool is not installed"; exit 77; }
done
rm -rf "$out" && mkdir -p "$out/shots" "$out/data" || exit 1
export XDG_DATA_HOME="$out/data"
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
[ -s "$out/display" ] || { echo "FAIL: Xvfb did not start: $(cat "$out/xvfb.log")"; exit 1; }
export DISPLAY=":$(cat "$out/display")"
fail() { echo "FAIL: $*"; exit 1; }

# wait_window LOG [retry]: the window's id in $win. With retry, a program
# that found no display although Xvfb runs (SDL's X11 connection refused
# on a heavily loaded machine) returns 1 once, so the caller starts it again.
wait_window() {
  win=
  for _ in $(seq 150); do
    win=$(xdotool search --name collviz 2>/dev/null | head -1)
    [ -n "$win" ] && return 0
    if ! kill -0 "$app" 2>/dev/null; then
      alive="Xvfb running"
      kill -0 "$xvfb" 2>/dev/null || alive="Xvfb has exited: $(cat "$out/xvfb.log")"
      if [ -n "${2:-}" ] && kill -0 "$xvfb" 2>/dev/null && grep -q "no display" "$1"; then
        echo "note: collviz found no display with $alive; starting it again"
        app=
        return 1
      fi
      fail "collviz exited before its window appeared ($alive): $(cat "$1")"
    fi
    sleep 0.1
  done
  fail "no collviz window after 15 s"
}
shots() { ls "$out/shots"/*.png 2>/dev/null | wc -l; }
shoot() { # shoot N: press s and wait for the Nth screenshot
  xdotool key --window "$win" s || fail "xdotool key s"
  for _ in $(seq 80); do [ "$(shots)" -ge "$1" ] && break; sleep 0.1; done
  [ "$(shots)" -ge "$1" ] || fail "the s key wrote no screenshot $1"
  sleep 0.3
  ls -t "$out/shots"/*.png | head -1
}
quit() {
  xdotool key --window "$win" q 2>/dev/null
  for _ in $(seq 100); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$app" 2>/dev/null && fail "collviz still running 10 s after q"
  wait "$app"
  rc=$?
  app=
  [ "$rc" = 0 ] || fail "collviz exited $rc: $(cat "$1")"
}

gui_log() {
  "$bin" gui --nccl-log "$logs/two-nodes-16.log" --op allreduce --shots "$out/shots" \
      >"$out/gui.log" 2>&1 &
  app=$!
}
gui_log
wait_window "$out/gui.log" retry || { gui_log; wait_window "$out/gui.log"; }
sleep 0.8
first=$(shoot 1)
xdotool key --window "$win" k || fail "xdotool key k"
sleep 0.8
second=$(shoot 2)
cmp -s "$first" "$second" && fail "K changed nothing on the stage ($first, $second)"
quit "$out/gui.log"

"$bin" nccl-log "$logs/two-nodes-16.log" >"$out/nccl-log.out" 2>&1 &
app=$!
if ! wait_window "$out/nccl-log.out" retry; then
  "$bin" nccl-log "$logs/two-nodes-16.log" >"$out/nccl-log.out" 2>&1 &
  app=$!
  wait_window "$out/nccl-log.out"
fi
sleep 0.5
quit "$out/nccl-log.out"
grep -q "16 ranks on 2 nodes, 4 channels" "$out/nccl-log.out" || fail "no summary: $(cat "$out/nccl-log.out")"
echo "test_ncclog_window: all passed"
