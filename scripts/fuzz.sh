#!/bin/sh
# fuzz.sh [SECONDS] [BUILD_DIR]
#
# Builds every libFuzzer target with clang (-DCOLLVIZ_FUZZ=ON) and runs
# each for a bounded time from its seed corpus: everything collviz reads
# from a file someone else may have written.
#
#   fuzz_lesson    the lesson loader and validator   tests/fuzz/corpus
#   fuzz_ncclog    the NCCL_DEBUG log reader          tests/ncclog
#   fuzz_progress  the progress file reader           tests/fuzz/progress
#   fuzz_show      show's reader of bench --json      tests/fuzz/show
#   fuzz_jsonread  the JSON reader under them all,    tests/fuzz/jsonread
#                  and run --input's reader on it
#   fuzz_size      the size parser (cost --bytes,     tests/fuzz/size
#                  bench -b/-e, COLLVIZ_MEMORY_LIMIT)
#
# New inputs a target finds go to a scratch corpus in the build directory,
# never into the repository. A crash, leak or timeout leaves its input as
# BUILD_DIR/fuzz-artifacts/TARGET/crash-* (or leak-*, timeout-*); the other
# targets still run, and the script exits non-zero, so CI fails and keeps
# the inputs.
#
#   SECONDS    how long to fuzz each target (default 30)
#   BUILD_DIR  where to configure and build (default build-fuzz)
#   JOBS       build parallelism (environment; default 2)
#   TARGETS    the targets to run (environment; default all six)
set -eu
seconds=${1:-30}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$root/build-fuzz}
jobs=${JOBS:-2}
targets=${TARGETS:-fuzz_lesson fuzz_ncclog fuzz_progress fuzz_show fuzz_jsonread fuzz_size}

if ! command -v clang >/dev/null 2>&1; then
    echo "fuzz.sh: clang is needed for libFuzzer" >&2
    exit 2
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
    CC=clang cmake -S "$root" -B "$build" -DCOLLVIZ_FUZZ=ON -DCOLLVIZ_CUDA=OFF \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
# shellcheck disable=SC2086
cmake --build "$build" -j"$jobs" --target $targets

seeds() {
    case $1 in
        fuzz_lesson) echo "$root/tests/fuzz/corpus" ;;
        fuzz_ncclog) echo "$root/tests/ncclog" ;;
        fuzz_progress) echo "$root/tests/fuzz/progress" ;;
        fuzz_show) echo "$root/tests/fuzz/show" ;;
        fuzz_jsonread) echo "$root/tests/fuzz/jsonread" ;;
        fuzz_size) echo "$root/tests/fuzz/size" ;;
        *) echo "fuzz.sh: no seed corpus for $1" >&2; exit 2 ;;
    esac
}

failed=
for t in $targets; do
    scratch="$build/fuzz-corpus/$t"
    artifacts="$build/fuzz-artifacts/$t"
    mkdir -p "$scratch" "$artifacts"
    echo "fuzz.sh: $t for ${seconds}s"
    # Seeds after the scratch corpus: libFuzzer adds new finds to the first
    # directory given.
    if ! "$build/$t" "$scratch" "$(seeds "$t")" \
        -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts/" -print_final_stats=1; then
        failed="$failed $t"
    fi
done
if [ -n "$failed" ]; then
    echo "fuzz.sh: failed:$failed (inputs in $build/fuzz-artifacts)" >&2
    exit 1
fi
echo "fuzz.sh: every target ran ${seconds}s without a crash, leak or timeout"
