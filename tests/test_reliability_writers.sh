#!/bin/sh
# test_reliability_writers.sh: no writer of collviz writes over what is not
# its own. Every command that writes a file the user names (run
# --trace-out, export --gif, export --stills --out DIR, show --out,
# lessons --model-cache) is pointed at each place it must refuse, and at
# the names a temporary file once took:
#  - a device, a FIFO, a directory, a symbolic link: exit 2, one line
#    naming the place, and the place is as it was (a device still a device,
#    a link still a link, its target untouched); a FIFO never hangs;
#  - PATH.tmp and PATH.tmp-<pid> taken beforehand, by a user's file or by a
#    link to someone else's: the write succeeds and neither is touched;
#  - an existing regular file is replaced whole and keeps its mode.
# (The progress file's own cases are in test_progress: written through a
# link, never over a newer format, copies set aside without limit.)
#
#   sh tests/test_reliability_writers.sh COLLVIZ WORKDIR
set -u
bin=${1:?usage: test_reliability_writers.sh COLLVIZ WORKDIR}
work=${2:?usage: test_reliability_writers.sh COLLVIZ WORKDIR}
rm -rf "$work" && mkdir -p "$work/data" || exit 1
export XDG_DATA_HOME="$work/data" HOME="$work" SDL_VIDEODRIVER=dummy
cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$bin" bench --ranks 2 -b 1K -e 4K --json >r.json 2>/dev/null || fail "bench --json"
has_window=1
"$bin" export --help >/dev/null 2>&1 || has_window=0

# write NAME PLACE: the writer NAME, writing PLACE; its output in $out,
# its exit in $rc.
write() {
  case $1 in
  trace) out=$(timeout 60 "$bin" run --op allreduce --ranks 2 --count 4 --trace-out "$2" 2>&1 >/dev/null </dev/null) ;;
  gif) out=$(timeout 60 "$bin" export --op allgather --ranks 2 --count 2 --size 320x200 --fps 2 --hold 0 --gif "$2" 2>&1 >/dev/null </dev/null) ;;
  stills) out=$(timeout 60 "$bin" export --op allgather --ranks 2 --count 2 --size 320x200 --stills --out "$2" 2>&1 >/dev/null </dev/null) ;;
  show) out=$(timeout 60 "$bin" show "$work/r.json" --size 320x200 --out "$2" 2>&1 >/dev/null </dev/null) ;;
  cache) out=$(timeout 120 "$bin" lessons --model-cache "$2" 2>&1 >/dev/null </dev/null) ;;
  esac
  rc=$?
}

# refused NAME PLACE WHAT: exit 2, one line, naming the place and saying WHAT.
refused() {
  write "$1" "$2"
  [ "$rc" = 2 ] || fail "$1 into $3 $2: exit $rc, want 2: $out"
  [ "$(printf '%s\n' "$out" | grep -c .)" = 1 ] || fail "$1 into $3: want one line: $out"
  case $out in
  *"cannot write $2: "*"$3"*) ;;
  *) fail "$1 into $3: the message lacks 'cannot write $2: ... $3': $out" ;;
  esac
}

writers="trace cache"
[ $has_window = 1 ] && writers="trace gif show cache"
device=0
mknod "$work/full" c 1 7 2>/dev/null && device=1 # /dev/full's own numbers, in the work folder
for w in $writers; do
  mkdir -p "$w" && cd "$w" || exit 1
  # A device: refused, and still a device (it once became a regular file).
  if [ $device = 1 ]; then
    refused "$w" "$work/full" "device"
    [ -c "$work/full" ] || { fail "$w: the device was replaced"; rm -f "$work/full"; mknod "$work/full" c 1 7; }
  fi
  # A FIFO: refused at once, never opened (no reader would come).
  mkfifo fifo
  refused "$w" fifo "FIFO"
  [ -p fifo ] || fail "$w: the FIFO was replaced"
  # A directory.
  mkdir dir.out
  refused "$w" dir.out "directory"
  # A link to someone's file: refused; the link and the file as they were.
  printf 'precious\n' >victim
  ln -s victim link.out
  refused "$w" link.out "symbolic link"
  [ -L link.out ] || fail "$w: the link was replaced"
  [ "$(cat victim)" = precious ] || fail "$w: the link's target was written over"
  # The names a temporary once took: a user's file and a link.
  printf 'mine\n' >out.file.tmp
  ln -s victim "out.file.tmp-$$"
  write "$w" out.file
  [ "$rc" = 0 ] || fail "$w into a new file: exit $rc: $out"
  [ -s out.file ] || fail "$w: nothing written"
  [ "$(cat out.file.tmp)" = mine ] || fail "$w: PATH.tmp was written over"
  [ "$(cat victim)" = precious ] || fail "$w: a link at a temporary's name was followed"
  # An existing file: replaced whole, its mode kept, no temporary left.
  chmod 640 out.file
  write "$w" out.file
  [ "$rc" = 0 ] || fail "$w over its own file: exit $rc: $out"
  [ "$(stat -c %a out.file)" = 640 ] || fail "$w: mode $(stat -c %a out.file), want 640 kept"
  left=$(ls | grep -c '^out\.file\.tmp-.*-')
  [ "$left" = 0 ] || fail "$w: $left temporary files left"
  cd "$work" || exit 1
done

# Frames into a folder: a frame's name taken by a link is refused, and the
# link's target untouched.
if [ $has_window = 1 ]; then
  mkdir frames && printf 'precious\n' >victim && ln -s ../victim frames/step-00.png
  out=$(timeout 60 "$bin" export --op allgather --ranks 2 --count 2 --size 320x200 --stills --out frames 2>&1 >/dev/null </dev/null)
  rc=$?
  [ "$rc" = 2 ] || fail "stills over a link: exit $rc, want 2: $out"
  [ "$(cat victim)" = precious ] || fail "stills: the link's target was written over"
  case $out in *"symbolic link"*) ;; *) fail "stills over a link: $out" ;; esac
fi

if [ "$fails" -gt 0 ]; then
  echo "test_reliability_writers: $fails failures"
  exit 1
fi
echo "test_reliability_writers: every writer refused what is not its own ($writers)"
