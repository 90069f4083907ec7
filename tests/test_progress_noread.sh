#!/bin/sh
# test_progress_noread.sh: a progress file its user cannot read is not
# written over by a drill, and the drill says why ("Permission denied;
# progress is not saved"), wherever the checkout lies.
#
#   test_progress_noread.sh COLLVIZ LESSONS_DIR
#
# Root reads a file whatever its mode (and CI runs as root), so as root the
# drill runs as nobody (65534, setpriv), on a file only root could read, in
# a directory nobody owns. Nobody may not be able to enter the checkout (a
# clone in a mode-700 folder: /root, what mktemp -d makes), so the case
# lives in a folder of its own under /tmp that anyone can enter, with a copy
# of the lessons (COLLVIZ_LESSONS_DIR), of the program when nobody cannot
# reach it, and of a sanitizer's suppressions file. Skipped (exit 77), with
# the reason, as root without setpriv or where no such folder can be made.
# tests/test_private_clone.sh runs this from a mode-700 folder.
bin=$1
lessons=$2
skip() {
  echo "test_progress_noread: skipped: $*"
  exit 77
}
as_user=
if [ "$(id -u)" = 0 ]; then
  setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null ||
    skip "running as root without setpriv, which the case needs to drop root's read-anything"
  as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
# can_enter DIR: the user the drill runs as can enter DIR.
can_enter() { $as_user sh -c 'test -x "$1"' sh "$1" 2>/dev/null; }
# The work folder: under $TMPDIR, or /tmp if nobody cannot enter that.
dir=
for parent in "${TMPDIR:-/tmp}" /tmp; do
  d=$(mktemp -d "$parent/collviz-noread.XXXXXX" 2>/dev/null) || continue
  chmod 755 "$d"
  if can_enter "$d"; then dir=$d; break; fi
  rm -rf "$d"
done
[ -n "$dir" ] || skip "no folder under ${TMPDIR:-/tmp} or /tmp that user 65534 can enter"
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP

mkdir -p "$dir/lessons" "$dir/data/collviz"
cp "$lessons"/*.json "$dir/lessons/" || { echo "FAIL: cannot copy the lessons of $lessons"; exit 1; }
chmod -R a+rX "$dir/lessons"
run=$bin
if ! $as_user sh -c 'test -x "$1"' sh "$bin" 2>/dev/null; then
  cp "$bin" "$dir/collviz" && chmod 755 "$dir/collviz" || { echo "FAIL: cannot copy $bin"; exit 1; }
  run=$dir/collviz
fi
$as_user "$run" --help >/dev/null 2>&1 || "$run" --help >/dev/null 2>&1 ||
  { echo "FAIL: $run --help fails"; exit 1; }
$as_user "$run" --help >/dev/null 2>&1 ||
  skip "user 65534 cannot run $run (a library it loads is out of its reach?)"
# A sanitizer's suppressions file in the checkout: a copy nobody can read.
for var in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
  eval "val=\${$var:-}"
  supp=$(printf '%s' "$val" | sed -nE 's#^(.*:)?suppressions=([^:]*).*#\2#p')
  [ -n "$supp" ] && [ -f "$supp" ] || continue
  cp "$supp" "$dir/$var.supp" && chmod 644 "$dir/$var.supp"
  new=$(printf '%s' "$val" | sed -E "s#(^|:)suppressions=[^:]*#\\1suppressions=$dir/$var.supp#")
  eval "$var=\$new"
  export "${var?}"
done

echo '{"format":1,"done":["kept"]}' >"$dir/data/collviz/progress.json"
chmod 000 "$dir/data/collviz/progress.json"
[ -z "$as_user" ] || chown 65534:65534 "$dir/data/collviz"
out=$(echo 1 | HOME="$dir" XDG_DATA_HOME="$dir/data" COLLVIZ_LESSONS_DIR="$dir/lessons" \
  timeout 60 $as_user "$run" drill --count 1 2>&1 >/dev/null)
chmod 644 "$dir/data/collviz/progress.json"
fails=0
grep -q kept "$dir/data/collviz/progress.json" || { echo "FAIL: an unreadable progress file was replaced"; fails=1; }
printf '%s' "$out" | grep -q "Permission denied; progress is not saved" || { echo "FAIL: unreadable: $out"; fails=1; }
[ "$fails" = 0 ] && echo "test_progress_noread: passed${as_user:+ (as user 65534)}"
[ "$fails" = 0 ]
