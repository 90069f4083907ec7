#!/usr/bin/env bash
# xvfb_lesson.sh: run `collviz` (no arguments: the course) under Xvfb as a
# new learner would, drive it with xdotool and save a screenshot of each
# step, so the lesson window can be checked by eye: the first lesson, a
# quiz answered wrong then right, a typed number, the lesson menu, a
# parallelism lesson with its diagram, Chinese, the help, the projector
# theme, and resuming after a restart. Progress goes to a fresh
# XDG_DATA_HOME under OUT_DIR.
#
#   scripts/xvfb_lesson.sh [BUILD_DIR] [OUT_DIR]
#
# Needs: xvfb, xdotool, imagemagick (apt-get install -y xvfb xdotool imagemagick).
set -euo pipefail
build=${1:-build}
out=${2:-$build/xvfb-lesson}
display=:${XVFB_DISPLAY:-96}
mkdir -p "$out"
rm -f "$out"/*.png
for tool in Xvfb xdotool import; do
  command -v "$tool" >/dev/null || { echo "xvfb_lesson: $tool not found (apt-get install -y xvfb xdotool imagemagick)" >&2; exit 2; }
done
export XDG_DATA_HOME=$out/data
rm -rf "$XDG_DATA_HOME"

Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp -noreset >/dev/null 2>&1 &
xvfb=$!
app=
cleanup() {
  [ -n "$app" ] && kill "$app" 2>/dev/null || true
  kill "$xvfb" 2>/dev/null || true
}
trap cleanup EXIT
export DISPLAY=$display
for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done

start_app() { # start_app LOG: collviz with no arguments; waits for its window
  "$build/collviz" --shots "$out" >"$out/$1" 2>&1 &
  app=$!
  win=
  for _ in $(seq 100); do
    win=$(xdotool search --onlyvisible --name '^collviz$' 2>/dev/null | head -n1 || true)
    [ -n "$win" ] && break
    sleep 0.1
  done
  [ -n "$win" ] || { echo "xvfb_lesson: no collviz window appeared" >&2; cat "$out/$1" >&2; exit 1; }
  xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus "$win" || true
  xdotool mousemove 1275 5 # keep the pointer (and its tooltip) off the stage
}
quit_app() {
  xdotool key q
  for _ in $(seq 50); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$app" 2>/dev/null; then echo "xvfb_lesson: collviz did not quit on Q" >&2; exit 1; fi
  wait "$app" && rc=0 || rc=$?
  app=
  echo "collviz exited with $rc"
}

n=0
shot() { # shot NAME [SECONDS]: wait, then a screenshot of the whole X screen
  sleep "${2:-0.6}"
  n=$((n + 1))
  import -window root "$out/$(printf '%02d' $n)-$1.png"
}
keys() { xdotool key --delay 80 "$@"; }

start_app first.log
shot first-lesson 2.5
keys 1 Return;               shot quiz-wrong
keys 2 Return;               shot quiz-right
keys Next;                   shot cells-quiz 2.5
keys Next;                   shot choice-quiz 1.5
keys Next;                   shot number-quiz 1.5
xdotool type --delay 80 '12'; keys Return; shot number-wrong
keys Tab;                    shot menu
keys Right Right Right Down Down Return; shot parallelism-diagram 3
keys Next;                   shot parallelism-next 3
keys l;                      shot chinese
keys Tab;                    shot menu-chinese
keys Escape h;               shot help-chinese
keys h l t t;                shot projector
keys t;                      shot dark-again
quit_app
start_app second.log
shot resumed 2.5
keys bracketleft;            shot previous-beat 1
quit_app
echo "progress file:"
cat "$XDG_DATA_HOME/collviz/progress.json"
echo
cat "$out/first.log" "$out/second.log"
ls "$out"
