#!/usr/bin/env bash
# soak.sh: the real window under Xvfb, driven at random for a bounded time
# the way an impatient person (or a cat on the keyboard) would: every key of
# the keymap, clicks and drags anywhere (the timeline, the buttons, the
# cards), the mouse wheel, window resizes, and fast bursts of several of
# these with no delay between them (a key that rebuilds the setup followed
# by a click before the next frame is drawn is how the window once read a
# freed trace). It alternates between the stage (`collviz gui`) and the
# course window (`collviz`, with lessons, menu and quizzes).
#
# It fails (exit 1) if the window dies, stops answering, or exits with
# anything but 0 when asked to quit; under AddressSanitizer a report ends
# the process, so it fails too. Resident memory (VmRSS) is sampled every
# SAMPLE seconds into OUT/rss.csv (seconds, kB, window) so growth over a
# long run can be seen; OUT/actions.log holds every action sent, with the
# random seed, to replay a failure.
#
#   scripts/soak.sh COLLVIZ SECONDS OUT_DIR [SEED]
#
# Environment: SOAK_SAMPLE (seconds between memory samples, default 5),
# SOAK_SWITCH (seconds in one window before the other starts, default
# SECONDS/2), SOAK_LESSONS (the course, default the repository's lessons).
# A click on the Quit button ends the window with 0, as it should: the
# script then opens it again. Needs Xvfb and xdotool; exits 77 (skipped) without them.
set -u
bin=$1
seconds=$2
out=$3
seed=${4:-$(( $(date +%s) % 32768 ))}
sample=${SOAK_SAMPLE:-5}
switch=${SOAK_SWITCH:-$(( seconds / 2 > 10 ? seconds / 2 : 10 ))}
for tool in Xvfb xdotool; do
  command -v "$tool" >/dev/null || { echo "SKIPPED: $tool is not installed"; exit 77; }
done
rm -rf "$out" && mkdir -p "$out/shots" "$out/data" || exit 1
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
lessons=${SOAK_LESSONS:-$(cd "$(dirname "$0")/../lessons" 2>/dev/null && pwd)}
export XDG_DATA_HOME="$out/data"
unset SDL_VIDEODRIVER SDL_RENDER_DRIVER
RANDOM=$seed
echo "soak: seed $seed, ${seconds}s, memory every ${sample}s, windows switch every ${switch}s" |
  tee "$out/actions.log"

Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp 3>"$out/display" 2>"$out/xvfb.log" &
xvfb=$!
app=
# Wait for the server to be gone: one still shutting down removes its
# socket and lock by name, which may by then be another server's.
cleanup() {
  [ -n "$app" ] && kill "$app" 2>/dev/null
  kill "$xvfb" 2>/dev/null
  wait "$xvfb" 2>/dev/null
}
trap cleanup EXIT
for _ in $(seq 100); do [ -s "$out/display" ] && break; sleep 0.1; done
[ -s "$out/display" ] || { echo "FAIL: Xvfb did not start: $(cat "$out/xvfb.log")"; exit 1; }
export DISPLAY=":$(cat "$out/display")"
for _ in $(seq 50); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done
xdotool getdisplaygeometry >/dev/null 2>&1 || { echo "FAIL: Xvfb on $DISPLAY takes no connection"; exit 1; }

fail() {
  echo "FAIL: $*"
  echo "last actions:"
  tail -n 15 "$out/actions.log"
  [ -f "$out/app.log" ] && { echo "collviz said:"; tail -n 40 "$out/app.log"; }
  exit 1
}

# The keys a person can press (F11 and Esc toggle full screen; q and Esc
# in the course window are left out: they end the run, which the script
# asks for itself at the end). s writes screenshots into OUT/shots.
stage_keys=(Right Left space Home End minus plus equal o shift+o a shift+a n shift+n
            c shift+c d shift+d r shift+r b m t l h F1 k shift+k p Up Down F11 Escape
            s Tab F2 Page_Up Page_Down bracketleft bracketright Return 1 2 3 4 x z)
course_keys=(Right Left space Home End Page_Up Page_Down bracketleft bracketright Tab F2
             Return Up Down 1 2 3 4 a b c d n shift+n o m t l h F1 p Escape KP_Enter
             BackSpace x s)
keys=("${stage_keys[@]}")
win=
W=1280
H=800

# wait_window: sets win to the collviz window once it is mapped.
wait_window() {
  win=
  for _ in $(seq 200); do
    win=$(xdotool search --name collviz 2>/dev/null | head -1)
    [ -n "$win" ] && return
    kill -0 "$app" 2>/dev/null || fail "collviz exited before its window appeared"
    sleep 0.1
  done
  fail "no collviz window after 20 s"
}

# One random action as xdotool command words (chained into one xdotool
# call per burst, so events arrive faster than frames are drawn).
action() {
  local x=$((RANDOM % W)) y=$((RANDOM % H)) k=${keys[RANDOM % ${#keys[@]}]}
  # The timeline and the button bar are along the bottom: aim there often,
  # but not at the far right, where Quit is (it works; a window that lives
  # the whole time shows whether memory grows).
  ((RANDOM % 3 == 0)) && y=$((H - 1 - RANDOM % 110))
  ((y > H - 110 && x > W * 4 / 5)) && x=$((RANDOM % (W * 4 / 5)))
  case $((RANDOM % 10)) in
    0|1|2|3) act="key --delay 0 $k" ;;
    4|5) act="mousemove --window $win $x $y click 1" ;;
    6) act="mousemove --window $win $x $y click $((4 + RANDOM % 2))" ;;
    7) act="mousemove --window $win $x $y mousedown 1 mousemove --window $win $((RANDOM % W)) $y mouseup 1" ;;
    8) act="mousemove --window $win $x $y" ;;
    9) W=$((480 + RANDOM % 1400)); H=$((360 + RANDOM % 700))
       act="windowsize $win $W $H" ;;
  esac
}

start_app() { # start_app NAME ARGS...: the window, and its memory column
  name=$1; shift
  "$bin" "$@" >>"$out/app.log" 2>&1 &
  app=$!
  echo "== $name (pid $app): $bin $*" >>"$out/actions.log"
  wait_window
  W=1280; H=800
  sleep 0.5
}

# stop_app: q must end the window with 0 (Esc first: leave a menu, help or
# full screen; the course window quits with q as well).
stop_app() {
  kill -0 "$app" 2>/dev/null || { wait "$app"; fail "collviz died (exit $?) in $name"; }
  for _ in 1 2 3; do
    xdotool key --window "$win" Escape 2>/dev/null
    sleep 0.2
    xdotool key --window "$win" q 2>/dev/null
    for _ in $(seq 30); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$app" 2>/dev/null || break
  done
  kill -0 "$app" 2>/dev/null && fail "collviz did not quit after q in $name"
  wait "$app"
  rc=$?
  app=
  [ "$rc" = 0 ] || fail "collviz exited $rc after q in $name"
}

echo "seconds,rss_kb,window" >"$out/rss.csv"
t0=$(date +%s)
next_sample=0
next_switch=$switch
actions=0
bursts=0
quits=0
lap=0
start_app stage gui --op allreduce --ranks 8 --shots "$out/shots"
while :; do
  now=$(( $(date +%s) - t0 ))
  [ "$now" -ge "$seconds" ] && break
  if [ "$now" -ge "$next_sample" ]; then
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/$app/status" 2>/dev/null)
    echo "$now,${rss:-0},$name" >>"$out/rss.csv"
    next_sample=$((now + sample))
    rm -f "$out/shots"/*.png # s keeps writing them; the disk must not fill
  fi
  if [ "$now" -ge "$next_switch" ]; then
    stop_app
    lap=$((lap + 1))
    if [ "$name" = stage ]; then
      keys=("${course_keys[@]}")
      COLLVIZ_LESSONS_DIR=$lessons start_app course gui --shots "$out/shots"
    else
      keys=("${stage_keys[@]}")
      start_app stage gui --op allreduce --ranks $((2 + RANDOM % 15)) --shots "$out/shots"
    fi
    next_switch=$((now + switch))
  fi
  # One action at a human pace, or a burst of 2 to 12 with no delay.
  n=1
  ((RANDOM % 4 == 0)) && { n=$((2 + RANDOM % 11)); bursts=$((bursts + 1)); }
  cmd=()
  for _ in $(seq $n); do action; cmd+=($act); done
  echo "${cmd[*]}" >>"$out/actions.log"
  xdotool "${cmd[@]}" 2>/dev/null
  actions=$((actions + n))
  if ! kill -0 "$app" 2>/dev/null; then
    wait "$app"
    rc=$?
    [ "$rc" = 0 ] || fail "collviz died (exit $rc) in $name after $actions actions"
    # The Quit button (or q): a clean exit. Open the same window again.
    quits=$((quits + 1))
    echo "== quit with 0 after $actions actions" >>"$out/actions.log"
    app=
    if [ "$name" = stage ]; then
      start_app stage gui --op allreduce --ranks 8 --shots "$out/shots"
    else
      COLLVIZ_LESSONS_DIR=$lessons start_app course gui --shots "$out/shots"
    fi
  fi
  ((n == 1)) && sleep 0.0$((RANDOM % 10))
done
stop_app
echo "soak: $actions actions ($bursts bursts) in ${seconds}s, $((lap + 1)) windows, $quits quits by the Quit button, 0 crashes"
echo "soak: resident memory (kB) per window in $out/rss.csv"
exit 0
