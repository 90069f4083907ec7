#!/bin/sh
# fuzz_lessons.sh [SECONDS] [BUILD_DIR]
#
# Builds the lesson loader's libFuzzer target with clang (-DCOLLVIZ_FUZZ=ON)
# and runs it for a bounded time, starting from the seed corpus in
# tests/fuzz/corpus. New inputs it finds go to a scratch corpus in the build
# directory, never into the repository. A crash, leak or timeout leaves its
# input as BUILD_DIR/fuzz-artifacts/crash-* (or leak-*, timeout-*) and makes
# the script exit non-zero, so CI fails and keeps the input.
#
#   SECONDS    how long to fuzz (default 60)
#   BUILD_DIR  where to configure and build (default build-fuzz)
#   JOBS       build parallelism (environment; default 2)
set -eu
seconds=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$root/build-fuzz}
jobs=${JOBS:-2}

if ! command -v clang >/dev/null 2>&1; then
    echo "fuzz_lessons.sh: clang is needed for libFuzzer" >&2
    exit 2
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
    CC=clang cmake -S "$root" -B "$build" -DCOLLVIZ_FUZZ=ON -DCOLLVIZ_CUDA=OFF \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" --target fuzz_lesson -j"$jobs"

scratch="$build/fuzz-corpus"
artifacts="$build/fuzz-artifacts"
mkdir -p "$scratch" "$artifacts"
# Seeds first, then the scratch corpus of earlier runs: libFuzzer adds new
# finds to the first directory given, which is the scratch one.
echo "fuzz_lessons.sh: fuzzing the lesson loader for ${seconds}s"
"$build/fuzz_lesson" "$scratch" "$root/tests/fuzz/corpus" \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts/" -print_final_stats=1
