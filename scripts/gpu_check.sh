#!/usr/bin/env bash
# gpu_check.sh: the CUDA backend's checks on a machine with a GPU, in as few
# commands as a short lease allows. Builds without the window (the CUDA
# toolkit, cJSON and, where found, NCCL are all it needs) into build-gpu/,
# then runs what is asked and writes each result to OUTDIR (default
# gpu-results/), with summary.md on top:
#   --tests  every ctest test; the GPU ones one at a time, since
#            test_cuda_limits fills the device's memory on purpose
#   --bench  ring allreduce, 8 ranks, 256 MiB float32 against the copy bound
#            (three runs), then every op from 8 B to 1 GiB on --backend cuda
#   --nccl   every op from 8 B to 1 GiB through NCCL, one rank per GPU
# With none of them named it does all three. Where cJSON is not installed,
# run scripts/gpu_deps.sh on a Debian machine and carry .gpu-deps/ along.
# Exit: 0 all passed, 1 something failed (summary.md says what), 2 bad
# usage or a missing dependency, 3 no GPU here.
set -uo pipefail
cd "$(dirname "$0")/.."
tests=0 bench=0 nccl=0 out=gpu-results
for a in "$@"; do
  case "$a" in
    --tests) tests=1 ;;
    --bench) bench=1 ;;
    --nccl) nccl=1 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "gpu_check.sh: unknown flag '$a'; allowed: --tests, --bench, --nccl, OUTDIR" >&2; exit 2 ;;
    *) out="$a" ;;
  esac
done
[ $tests$bench$nccl = 000 ] && tests=1 bench=1 nccl=1
mkdir -p "$out" && out=$(cd "$out" && pwd)
summary="$out/summary.md"
failed=0
say() { printf '%s\n' "$*" | tee -a "$summary"; }
bad() { say "- FAILED: $*"; failed=1; }

if ! command -v nvidia-smi >/dev/null; then
  echo "gpu_check.sh: no GPU here (no nvidia-smi on PATH); run it on a machine with one" >&2
  exit 3
elif ! nvidia-smi -L > "$out/gpus.txt" 2>&1; then
  echo "gpu_check.sh: no GPU here (nvidia-smi -L: $(head -1 "$out/gpus.txt")); run it on a machine with one" >&2
  exit 3
fi
nvidia-smi > "$out/nvidia-smi.txt" 2>&1
say "# collviz GPU check, $(date -u '+%Y-%m-%d %H:%M UTC')"
say ""
say "- GPUs: $(tr '\n' ';' < "$out/gpus.txt")"
say "- driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)," \
    "$(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo 'nvcc not on PATH')," \
    "$(nproc) CPU cores"

# ---- build (once; later calls reuse build-gpu/)
cmake_args=(-DCOLLVIZ_GUI=OFF -DCOLLVIZ_CUDA=ON -DCOLLVIZ_WERROR=ON)
if ! { pkg-config --exists libcjson 2>/dev/null || [ -f /usr/include/cjson/cJSON.h ]; }; then
  if ! ls .gpu-deps/*.deb >/dev/null 2>&1; then
    echo "gpu_check.sh: cJSON is not installed and .gpu-deps/ holds no packages; run" \
         "scripts/gpu_deps.sh where apt works and bring .gpu-deps/ along" >&2
    exit 2
  fi
  rm -rf /tmp/collviz-deps
  for f in .gpu-deps/*.deb; do dpkg -x "$f" /tmp/collviz-deps; done
  cmake_args+=(-DCMAKE_PREFIX_PATH=/tmp/collviz-deps/usr)
fi
if [ -z "${NCCL_HOME:-}" ]; then
  # NCCL's Python wheel, where PyTorch brought it: include/nccl.h, lib/libnccl.so.2.
  d=$(python3 -c 'import nvidia.nccl as n; print(list(n.__path__)[0])' 2>/dev/null) &&
    [ -f "$d/include/nccl.h" ] && cmake_args+=(-DNCCL_HOME="$d")
fi
# Build for the GPU in the machine where CMake knows how (3.24+), or for
# the architectures CUDA_ARCHS names (such as "90").
cmake_minor=$(cmake --version | awk 'NR==1{split($3,v,"."); print v[1]*100+v[2]}')
if [ -n "${CUDA_ARCHS:-}" ]; then
  cmake_args+=(-DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCHS")
elif [ "$cmake_minor" -ge 324 ]; then
  cmake_args+=(-DCMAKE_CUDA_ARCHITECTURES=native)
fi
echo "gpu_check.sh: building build-gpu/ (log: $out/build.txt)" >&2
if ! { cmake -S . -B build-gpu "${cmake_args[@]}" && cmake --build build-gpu -j"$(nproc)"; } \
      > "$out/build.txt" 2>&1; then
  bad "build (tail of $out/build.txt below)"
  tail -20 "$out/build.txt" | tee -a "$summary"
  exit 1
fi
say "- built: $(grep -o 'collviz: \(CUDA\|NCCL\|MPI\|window\).*' "$out/build.txt" | sort -u | tr '\n' ';')"
cv=build-gpu/collviz
$cv list > "$out/list.txt" 2>&1

# ---- tests
if [ $tests = 1 ]; then
  say ""
  say "## Tests"
  echo "gpu_check.sh: GPU tests, one at a time (log: $out/tests-gpu.txt)" >&2
  ctest --test-dir build-gpu -R cuda --output-on-failure > "$out/tests-gpu.txt" 2>&1 ||
    bad "GPU tests: $(grep 'tests passed' "$out/tests-gpu.txt")"
  say "- GPU tests: $(grep 'tests passed' "$out/tests-gpu.txt")"
  # A GPU test that skips on a machine with a GPU did not run: that is a failure here.
  skipped=$(grep -o 'test_cuda[a-z_]* (Skipped)' "$out/tests-gpu.txt" | grep -v nodevice | tr '\n' ' ')
  [ -n "$skipped" ] && bad "skipped although a GPU is present: $skipped"
  grep -h 'device-to-device copy\|^device:\|checks, .* failures' build-gpu/Testing/Temporary/LastTest.log \
    2>/dev/null | sed 's/^/  /' | tee -a "$summary" >/dev/null
  echo "gpu_check.sh: the other tests (log: $out/tests-core.txt)" >&2
  ctest --test-dir build-gpu -E cuda -j"$(nproc)" --output-on-failure > "$out/tests-core.txt" 2>&1 ||
    bad "other tests: $(grep 'tests passed' "$out/tests-core.txt")"
  say "- other tests: $(grep 'tests passed' "$out/tests-core.txt")"
fi

ops="broadcast scatter gather reduce allgather reducescatter allreduce alltoall sendrecv"

# ---- the CUDA backend's benchmarks
if [ $bench = 1 ]; then
  say ""
  say "## Ring allreduce, 8 ranks on one GPU, 256 MiB float32 (target: >= 85% of the copy bound)"
  for i in 1 2 3; do
    echo "gpu_check.sh: target, run $i of 3" >&2
    [ $i = 1 ] && $cv bench --backend cuda --op allreduce --algo ring --ranks 8 -b 256M -e 256M \
        -n 20 -w 5 -d float32 > "$out/target.txt" 2>&1
    if ! $cv bench --backend cuda --op allreduce --algo ring --ranks 8 -b 256M -e 256M -n 20 -w 5 \
         -d float32 --json > "$out/target-$i.json" 2>"$out/target-$i.err"; then
      bad "target run $i: $(tail -1 "$out/target-$i.err")"
      continue
    fi
    line=$(python3 - "$out/target-$i.json" <<'EOF'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
    r = j["results"][0]
    print("wall %.1f us (%.1f%% of the bound), steps on the GPU %.1f us (%.1f%%), bound %.1f us "
          "for %.0f MiB of traffic, #wrong %d"
          % (r["time_us"], r["bound_pct"], r["steps_us"], 100 * r["bound_us"] / r["steps_us"],
             r["bound_us"], r["memory_bytes"] / 2**20, r["wrong"]))
except Exception as e:
    print("no result (%s)" % e)
EOF
)
    say "- run $i: $line"
    case "$line" in "no result"*) bad "target run $i: see $out/target-$i.json" ;; esac
  done
  grep -h '^# memory bound' "$out/target.txt" | head -1 | sed 's/^# /  /' | tee -a "$summary" >/dev/null
  say ""
  say "## Every op, 8 ranks on --backend cuda, 8 B .. 1 GiB"
  for op in $ops; do
    echo "gpu_check.sh: cuda $op" >&2
    if $cv bench --backend cuda --op "$op" --ranks 8 -b 8 -e 1G -f 2 -n 20 -w 5 \
         > "$out/cuda-$op.txt" 2>"$out/cuda-$op.err"; then
      say "- $op: $(grep -h '# Out of bounds\|# Avg bus' "$out/cuda-$op.txt" | tr -s ' ' | tr '\n' ' ')"
    else
      bad "cuda $op: $(tail -1 "$out/cuda-$op.err")"
    fi
  done
fi

# ---- NCCL beside it
if [ $nccl = 1 ]; then
  say ""
  gpus=$(grep -c '^GPU' "$out/gpus.txt")
  say "## NCCL, one rank per GPU ($gpus GPU(s)$([ "$gpus" = 1 ] && echo ': one rank, so no comparison with 8 ranks'))"
  for op in $ops; do
    echo "gpu_check.sh: nccl $op" >&2
    if $cv bench --backend nccl --op "$op" -b 8 -e 1G -f 2 -n 20 -w 5 \
         > "$out/nccl-$op.txt" 2>"$out/nccl-$op.err"; then
      say "- $op: $(grep -h '# Out of bounds\|# Avg bus' "$out/nccl-$op.txt" | tr -s ' ' | tr '\n' ' ')"
    else
      bad "nccl $op: $(tail -1 "$out/nccl-$op.err")"
    fi
  done
fi

say ""
[ $failed = 0 ] && say "All checks passed." || say "Some checks failed; the files beside this one say why."
exit $failed
