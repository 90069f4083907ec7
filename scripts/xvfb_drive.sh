#!/usr/bin/env bash
# xvfb_drive.sh: run the real collviz window under Xvfb, drive it with
# xdotool key presses and save screenshots of the X screen (ImageMagick's
# import) after each, so the window can be checked by eye without a desk.
#
#   scripts/xvfb_drive.sh [BUILD_DIR] [OUT_DIR]
#
# Needs: xvfb, xdotool, imagemagick (apt-get install -y xvfb xdotool imagemagick).
set -euo pipefail
build=${1:-build}
out=${2:-$build/xvfb-shots}
display=:${XVFB_DISPLAY:-97}
mkdir -p "$out"
for tool in Xvfb xdotool import; do
  command -v "$tool" >/dev/null || { echo "xvfb_drive: $tool not found (apt-get install -y xvfb xdotool imagemagick)" >&2; exit 2; }
done

Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
app=
cleanup() {
  [ -n "$app" ] && kill "$app" 2>/dev/null || true
  kill "$xvfb" 2>/dev/null || true
}
trap cleanup EXIT
export DISPLAY=$display
for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done

start=$(date +%s%N)
"$build/collviz" gui --op allreduce --algo ring --ranks 4 --count 8 --timing --shots "$out" \
  >"$out/app.log" 2>&1 &
app=$!
win=
for _ in $(seq 100); do
  win=$(xdotool search --onlyvisible --name '^collviz$' 2>/dev/null | head -n1 || true)
  [ -n "$win" ] && break
  sleep 0.1
done
[ -n "$win" ] || { echo "xvfb_drive: no collviz window appeared" >&2; cat "$out/app.log" >&2; exit 1; }
echo "window $win after $(( ($(date +%s%N) - start) / 1000000 )) ms"
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus "$win" || true

n=0
shot() { # shot NAME: a screenshot of the whole X screen
  sleep "${2:-0.4}"
  n=$((n + 1))
  import -window root "$out/$(printf '%02d' $n)-$1.png"
}
keys() { xdotool key --delay 60 "$@"; }

shot start
keys Right Right;            shot step2
keys Right;                  shot step3
keys Left;                   shot back-to-step2
keys space;                  shot playing 0.7
keys space End;              shot end
keys h;                      shot help
keys h t;                    shot light
keys t;                      shot projector
keys t l;                    shot chinese
keys l n n;                  shot ranks-6
keys a;                      shot next-algo
keys m;                      shot compare
keys m o;                    shot next-op
keys c c c c c c;            shot big-count
xdotool mousemove 400 300; shot hover
xdotool windowsize "$win" 320 240; shot tiny 0.8
xdotool windowsize "$win" 1280 800
keys s;                      shot after-s
keys q
for _ in $(seq 50); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$app" 2>/dev/null; then echo "xvfb_drive: collviz did not quit on Q" >&2; exit 1; fi
wait "$app" && rc=0 || rc=$?
app=
echo "collviz exited with $rc"
cat "$out/app.log"
ls "$out"
