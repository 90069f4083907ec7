#!/bin/sh
# test_private_clone.sh: the tests that cross users pass from a checkout in
# a folder only its owner can enter (mode 700: /root, what mktemp -d makes),
# where people clone. A copy of such a clone is laid out in a fresh mktemp -d
# folder as a build leaves it (lessons/, tests/, build/collviz, and
# build/lessons a link to the lessons, as CMakeLists.txt makes it), and
# the case that runs as another user (tests/test_progress_noread.sh: the
# drill as nobody) runs from there. It failed so: "no lessons directory
# found", nobody could not enter the clone.
#
#   test_private_clone.sh COLLVIZ SOURCE_DIR
bin=$1
src=$2
top=$(mktemp -d) || exit 1
trap 'rm -rf "$top"' EXIT
trap 'exit 1' INT TERM HUP
chmod 700 "$top"
clone=$top/collviz
mkdir -p "$clone/build" "$clone/tests" &&
  cp -R "$src/lessons" "$clone/lessons" &&
  cp "$src/tests/test_progress_noread.sh" "$clone/tests/" &&
  cp "$bin" "$clone/build/collviz" &&
  ln -s "$clone/lessons" "$clone/build/lessons" || {
  echo "FAIL: cannot lay out a clone in $top"
  exit 1
}
# A suppressions file of the checkout's, as scripts/test.sh sets it,
# moves into the clone too.
for var in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
  eval "val=\${$var:-}"
  supp=$(printf '%s' "$val" | sed -nE 's#^(.*:)?suppressions=([^:]*).*#\2#p')
  [ -n "$supp" ] && [ -f "$supp" ] || continue
  cp "$supp" "$clone/tests/$var.supp" || exit 1
  new=$(printf '%s' "$val" | sed -E "s#(^|:)suppressions=[^:]*#\\1suppressions=$clone/tests/$var.supp#")
  eval "$var=\$new"
  export "${var?}"
done
cd "$clone" || exit 1
TMPDIR=$top sh tests/test_progress_noread.sh "$clone/build/collviz" "$clone/lessons"
