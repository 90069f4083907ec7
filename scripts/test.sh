#!/usr/bin/env bash
# test.sh: installs what is missing, builds collviz and runs its tests with
# ctest. Flags go to build.sh (--werror, --sanitize, --dir DIR, -- CMAKE
# ARGS), and the tests run in the directory it built; CI runs both a
# warnings-as-errors build and one under AddressSanitizer + UBSan.
# --slow runs the slow tier too (the ctest label "slow": the GPU machine's
# rehearsal, the scratch-copy builds of test_add_algorithm and
# test_add_key_lesson, the window's random soak, MPI at 1, 5 and 8
# processes and its dtype sweep); .ci/run gives it, docs/TESTING.md says why.
set -euo pipefail
cd "$(dirname "$0")/.."
slow=0 args=() cmake_args=0
for a in "$@"; do
  if [ $cmake_args = 0 ] && [ "$a" = --slow ]; then slow=1; continue; fi
  [ "$a" = -- ] && cmake_args=1
  args+=("$a")
done
set -- ${args[@]+"${args[@]}"}
scripts/deps.sh xvfb xdotool
scripts/build.sh "$@"
# The directory build.sh builds in: --dir DIR, else build-asan with
# --sanitize, else build (what comes after -- is CMake's).
dir=build; sanitize=0; prev=
for a in "$@"; do
  [ "$a" = -- ] && break
  [ "$prev" = --dir ] && dir=$a
  [ "$a" = --sanitize ] && sanitize=1
  prev=$a
done
[ $sanitize = 1 ] && [ "$dir" = build ] && dir=build-asan
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# The suppressed leaks (system libraries': tests/lsan.supp) are not reported at
# exit either: a test that counts the lines a command prints sees its own.
[ -f tests/lsan.supp ] && export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}
tier=(-LE slow)
[ $slow = 1 ] && tier=()
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)" ${tier[@]+"${tier[@]}"}
