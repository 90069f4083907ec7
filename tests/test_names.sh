#!/bin/sh
# test_names.sh: a name says where it lives, and one pair of verbs makes and
# ends things (docs/ARCHITECTURE.md, the opening paragraphs). Two checks:
#  - each room of app/ that builds a library is one name: app/NAME/ builds
#    cvNAME (given here as NAME=LIBRARY), holds NAME.h, and every symbol the
#    library exports starts with NAME_ (read off the built library with nm,
#    so it cannot drift from the code);
#  - no header of app/, collectives/, render/ or cuda_backend/ declares a
#    function ending in _free, _close or _open: what X_create or X_init
#    starts, X_destroy ends.
#
#   sh tests/test_names.sh SOURCE_DIR NAME=LIBRARY...
set -u
src=${1:?usage: test_names.sh SOURCE_DIR NAME=LIBRARY...}
shift
command -v nm >/dev/null 2>&1 || { echo "test_names: no nm here; skipped"; exit 77; }
fail=0
[ $# -ge 1 ] || { echo "test_names: no libraries given"; exit 2; }
for pair in "$@"; do
    name=${pair%%=*}
    lib=${pair#*=}
    [ -f "$lib" ] || { echo "test_names: no library $lib"; exit 2; }
    base=$(basename "$lib")
    if [ "$base" != "libcv$name.a" ]; then
        echo "test_names: app/$name/ builds $base, not libcv$name.a"
        fail=1
    fi
    if [ ! -f "$src/app/$name/$name.h" ]; then
        echo "test_names: app/$name/ has no $name.h"
        fail=1
    fi
    # Names that start with two underscores are the implementation's (the
    # sanitizers add __odr_asan.NAME beside each global), not collviz's.
    exported=$(nm -g --defined-only "$lib" 2>/dev/null |
               awk 'NF == 3 && $2 ~ /^[TDBRCVW]$/ && $3 !~ /^__/ { print $3 }')
    [ -n "$exported" ] || { echo "test_names: $base exports nothing"; exit 2; }
    bad=$(printf '%s\n' "$exported" | grep -v "^${name}_" | sort -u)
    if [ -n "$bad" ]; then
        echo "test_names: $base exports names without the prefix ${name}_:" $bad
        fail=1
    fi
done
hdrs=$(find "$src/app" "$src/collectives" "$src/render" "$src/cuda_backend" -name '*.h')
verbs=$(grep -nE '\b[a-z][a-z0-9_]*_(free|close|open)\(' $hdrs | grep -vE '^[^:]+:[0-9]+:\s*(\*|/\*)')
if [ -n "$verbs" ]; then
    echo "test_names: a header declares a _free, _close or _open (use X_destroy, X_create):"
    printf '%s\n' "$verbs"
    fail=1
fi
[ "$fail" -eq 0 ] && echo "test_names: every room of app/ is one name; one pair of verbs"
exit "$fail"
