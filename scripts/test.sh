#!/usr/bin/env bash
# test.sh: installs what is missing, builds collviz and runs its tests with
# ctest. Flags go to build.sh (--werror, --sanitize); CI runs both a
# warnings-as-errors build and one under AddressSanitizer + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh xvfb xdotool
scripts/build.sh "$@"
dir=build
for a in "$@"; do [ "$a" = --sanitize ] && dir=build-asan; done
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
[ -f tests/lsan.supp ] && export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp}
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)"
