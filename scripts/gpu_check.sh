#!/usr/bin/env bash
# gpu_check.sh: the CUDA backend's checks on a machine with a GPU, one phase
# per command, each phase made to end inside a 10-minute command limit:
#   --tests  the GPU tests only: the property suite (test_cuda, in 8 parts
#            run side by side), then test_cuda_limits (it fills the device's
#            memory, so alone) and the NCCL tests; no CPU-only test
#   --bench  ring allreduce, 8 ranks, 256 MiB float32 against the copy bound
#            (three runs), then every op from 8 B to 1 GiB on --backend cuda
#   --nccl   every op from 8 B to 1 GiB through NCCL, one rank per GPU
#   --build  only the build (runs without a GPU: checks the toolchain and
#            cJSON before device time is spent)
#   --all    the three phases in one command (where commands are not limited)
#   --quick  --tests then --bench in ONE command of at most 9.5 minutes, each
#            with half of that (GPU_CHECK_BUDGET=280 s), the ops' sweeps
#            every 4x instead of 2x: for a lent machine whose whole loan is
#            15 minutes, starts included, where three calls do not fit
# Each phase builds what it needs in build-gpu/ (without the window, without
# -Werror): on a machine still warm from the previous phase nothing is
# rebuilt; on a fresh one build-gpu/ is configured and built again, in about
# a minute on 16 cores. Every command it runs has its own timeout, and the
# phase stops starting work when less than that is left of its budget
# (GPU_CHECK_BUDGET seconds, default 540).
# Results go to $OUT where that is set (the lent machine brings back only
# what is there), else to OUTDIR (default gpu-results/): summary-PHASE.md,
# and PHASE.tar.gz holding every log of the phase.
# cJSON: the installed one, or, where none is (or with --deps), the Debian
# packages in .gpu-deps/ that scripts/gpu_deps.sh fetches, unpacked under
# /tmp; pkg-config is then kept out of CMake's search, since the packages'
# libcjson.pc points at /usr.
# Exit: 0 all passed, 1 something failed (the summary says what), 2 bad
# usage or a missing tool or dependency, 3 no GPU here.
set -uo pipefail
cd "$(dirname "$0")/.."
phases=() deps=0 quick=0 out=${OUT:-gpu-results}
for a in "$@"; do
  case "$a" in
    --tests|--bench|--nccl|--build) phases+=("${a#--}") ;;
    --all) phases+=(tests bench nccl) ;;
    --quick) phases+=(tests bench); quick=1 ;;
    --deps) deps=1 ;;
    -h|--help) sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "gpu_check.sh: unknown flag '$a'; allowed: --tests, --bench, --nccl, --build," \
             "--all, --quick, --deps, OUTDIR" >&2; exit 2 ;;
    *) out="$a" ;;
  esac
done
if [ ${#phases[@]} -eq 0 ]; then
  echo "gpu_check.sh: name a phase: --tests, --bench or --nccl (one command each), --build," \
       "--all, or --quick (tests and bench in one command)" >&2
  exit 2
fi
budget=${GPU_CHECK_BUDGET:-$([ $quick = 1 ] && echo 280 || echo 540)}
sweep_f=$([ $quick = 1 ] && echo 4 || echo 2)
mkdir -p "$out" && out=$(cd "$out" && pwd)
build=build-gpu
cv=$build/collviz
ops="broadcast scatter gather reduce allgather reducescatter allreduce alltoall sendrecv"

# ------------------------------------------------------------------ helpers
summary=/dev/null logs=/tmp failed=0 missing=0 start=$SECONDS
say() { printf '%s\n' "$*" | tee -a "$summary"; }
bad() { say "- FAILED: $*"; failed=1; }
left() { echo $((budget - (SECONDS - start))); }
# timed LIMIT LOG CMD...: CMD with at most LIMIT seconds (less if the phase's
# budget has less left), its output in LOG; 124 when stopped for time.
timed() {
  local limit=$1 log=$2 have
  shift 2
  have=$(($(left) - 5))
  [ "$have" -lt "$limit" ] && limit=$have
  if [ "$limit" -lt 10 ]; then
    echo "not started: the phase's time budget is spent" > "$log"
    return 124
  fi
  timeout --kill-after=10 "$limit" "$@" > "$log" 2>&1
}
why() { # the reason a timed command failed, for the summary
  if grep -q '^not started: ' "$2"; then
    head -1 "$2"
  elif [ "$1" = 124 ] || [ "$1" = 137 ]; then
    echo "stopped after its time limit"
  else
    tail -1 "$2"
  fi
}
# Packs the phase's logs into OUT/PHASE.tar.gz (few files come back from a
# lent machine); under $OUT the loose logs go.
pack() {
  tar -C "$out" -czf "$out/$1.tar.gz" "$1" 2>/dev/null && [ -n "${OUT:-}" ] && rm -rf "${out:?}/$1"
}

gpu_here() { # prints why not, returns 1, where there is no usable GPU
  if ! command -v nvidia-smi >/dev/null; then
    echo "no nvidia-smi on PATH"; return 1
  fi
  if ! nvidia-smi -L > "$logs/gpus.txt" 2>&1 || ! grep -q '^GPU' "$logs/gpus.txt"; then
    echo "nvidia-smi -L: $(head -1 "$logs/gpus.txt")"; return 1
  fi
}

cjson_installed() {
  if command -v pkg-config >/dev/null && pkg-config --exists libcjson 2>/dev/null; then
    return 0
  fi
  [ -f /usr/include/cjson/cJSON.h ]
}

# Configures build-gpu/ once (cached) and builds the named targets.
build_targets() {
  local args=(-DCOLLVIZ_GUI=OFF -DCOLLVIZ_CUDA=ON -DCOLLVIZ_WERROR=OFF
              -DCMAKE_BUILD_TYPE=RelWithDebInfo)
  for tool in cmake nvcc cc; do
    command -v $tool >/dev/null || { bad "no $tool on PATH"; missing=1; return 2; }
  done
  if [ $deps = 1 ] || ! cjson_installed; then
    if ! ls .gpu-deps/*.deb >/dev/null 2>&1; then
      bad "cJSON is not installed and .gpu-deps/ holds no packages: run scripts/gpu_deps.sh" \
          "where apt works and bring .gpu-deps/ along"
      missing=1
      return 2
    fi
    if [ ! -f /tmp/collviz-deps/usr/include/cjson/cJSON.h ]; then
      rm -rf /tmp/collviz-deps
      for f in .gpu-deps/*.deb; do dpkg -x "$f" /tmp/collviz-deps || return 2; done
    fi
    # The unpacked libcjson.pc says prefix=/usr: pkg-config would send CMake
    # there, so it is not used, and the plain search finds the copy.
    args+=(-DCMAKE_PREFIX_PATH=/tmp/collviz-deps/usr -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON)
  fi
  if [ -z "${NCCL_HOME:-}" ]; then
    # NCCL's Python wheel, where PyTorch brought it: include/nccl.h, lib/libnccl.so.2.
    local d
    d=$(python3 -c 'import nvidia.nccl as n; print(list(n.__path__)[0])' 2>/dev/null) &&
      [ -f "$d/include/nccl.h" ] && args+=(-DNCCL_HOME="$d")
  fi
  # The GPU in the machine where CMake knows how (3.24+), else CUDA_ARCHS (such as "90").
  local minor
  minor=$(cmake --version | awk 'NR==1{split($3,v,"."); print v[1]*100+v[2]}')
  if [ -n "${CUDA_ARCHS:-}" ]; then
    args+=(-DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCHS")
  elif [ "$minor" -ge 324 ] && nvidia-smi -L >/dev/null 2>&1; then
    args+=(-DCMAKE_CUDA_ARCHITECTURES=native)
  fi
  local t0=$SECONDS rc=0
  if [ ! -f $build/CMakeCache.txt ]; then
    timed 120 "$logs/configure.txt" cmake -S . -B $build "${args[@]}" || rc=$?
    if [ $rc != 0 ]; then
      bad "configure: $(why $rc "$logs/configure.txt")"
      rm -f $build/CMakeCache.txt
      return 1
    fi
  fi
  timed 420 "$logs/build.txt" cmake --build $build -j"$(nproc)" --target "$@" || rc=$?
  if [ $rc != 0 ]; then
    bad "build of $*: $(why $rc "$logs/build.txt") (the log is in the tarball)"
    return 1
  fi
  local cj
  cj=$(grep -h '^COLLVIZ_CJSON_INCLUDE_DIR:\|^CJSON_INCLUDEDIR:' $build/CMakeCache.txt | head -1)
  say "- built $* in $((SECONDS - t0)) s ($(grep -c . "$logs/build.txt") lines of log);" \
      "cJSON: ${cj:-from pkg-config}; $(grep -ho 'collviz: \(CUDA\|NCCL\|MPI\)[^;]*' \
      $build/CMakeCache.txt "$logs/configure.txt" 2>/dev/null | sort -u | tr '\n' ';')"
}

# ------------------------------------------------------------------ phases
phase_build() {
  build_targets collviz test_cuda test_cuda_limits test_cuda_nccl
}

phase_tests() {
  build_targets test_cuda test_cuda_limits test_cuda_nccl || return
  # The property suite in 8 parts side by side: most of its time is the CPU
  # backend's reference runs and verification, which 16 cores share.
  local parts=8 k rc
  for k in $(seq 1 $parts); do
    (timed 300 "$logs/test_cuda-$k.txt" $build/test_cuda --part "$k/$parts"
     echo $? > "$logs/test_cuda-$k.rc") &
  done
  wait
  for k in $(seq 1 $parts); do
    rc=$(cat "$logs/test_cuda-$k.rc")
    case $rc in
      0) say "- test_cuda part $k/$parts: $(grep -h 'checks,' "$logs/test_cuda-$k.txt")" ;;
      77) bad "test_cuda part $k/$parts skipped although a GPU is present:" \
              "$(head -1 "$logs/test_cuda-$k.txt")" ;;
      *) bad "test_cuda part $k/$parts: $(why "$rc" "$logs/test_cuda-$k.txt")" ;;
    esac
  done
  grep -h '^device:' "$logs/test_cuda-1.txt" | head -1 | sed 's/^/  /' | tee -a "$summary"
  # The others one at a time; test_cuda_limits fills the device's memory.
  for t in test_cuda_limits test_cuda_nccl test_cuda_nccl_mpi; do
    ctest --test-dir $build -N -R "^$t\$" | grep -q "Total Tests: 1" || continue
    rc=0
    timed 150 "$logs/$t.txt" ctest --test-dir $build -R "^$t\$" --timeout 140 \
      --output-on-failure || rc=$?
    cp $build/Testing/Temporary/LastTest.log "$logs/$t.log" 2>/dev/null
    if grep -q '(Skipped)\|Not Run' "$logs/$t.txt"; then
      bad "$t skipped although a GPU is present: $(grep -h 'SKIPPED' "$logs/$t.log" | head -1)"
    elif [ $rc = 0 ]; then
      say "- $t: passed; $(grep -h 'device-to-device copy\|checks, .* failures' \
          "$logs/$t.log" | tr -s ' ' | tr '\n' ' ')"
    else
      bad "$t: $(why $rc "$logs/$t.txt")"
    fi
  done
}

phase_bench() {
  build_targets collviz || return
  say ""
  say "## Ring allreduce, 8 ranks on one GPU, 256 MiB float32 (target: >= 85% of the copy bound)"
  local i rc line
  for i in 1 2 3; do
    rc=0
    timed 90 "$logs/target-$i.json" $cv bench --backend cuda --op allreduce --algo ring \
      --ranks 8 -b 256M -e 256M -n 20 -w 5 -d float32 --json || rc=$?
    if [ $rc != 0 ]; then
      bad "target run $i: $(why $rc "$logs/target-$i.json")"
      continue
    fi
    line=$(python3 - "$logs/target-$i.json" <<'EOF'
import json, sys
try:
    text = open(sys.argv[1]).read()
    j = json.loads(text[text.index("{"):])
    r = j["results"][0]
    print("wall %.1f us (%.1f%% of the bound), steps on the GPU %.1f us (%.1f%%), bound %.1f us "
          "for %.0f MiB of traffic at %.0f GB/s, #wrong %d"
          % (r["time_us"], r["bound_pct"], r["steps_us"], 100 * r["bound_us"] / r["steps_us"],
             r["bound_us"], r["memory_bytes"] / 2**20, j.get("copy_bandwidth_GBps", 0), r["wrong"]))
except Exception as e:
    print("no result (%s)" % e)
EOF
)
    say "- run $i: $line"
    case "$line" in "no result"*) bad "target run $i: see target-$i.json" ;; esac
  done
  say ""
  say "## Every op, 8 ranks on --backend cuda, 8 B .. 1 GiB"
  for op in $ops; do
    rc=0
    timed 60 "$logs/cuda-$op.txt" $cv bench --backend cuda --op "$op" --ranks 8 -b 8 -e 1G \
      -f "$sweep_f" -n 20 -w 5 || rc=$?
    if [ $rc = 0 ]; then
      say "- $op: $(grep -h '# Out of bounds\|# Avg bus' "$logs/cuda-$op.txt" | tr -s ' ' | tr '\n' ' ')"
    else
      bad "cuda $op: $(why $rc "$logs/cuda-$op.txt")"
    fi
  done
}

phase_nccl() {
  build_targets collviz || return
  local gpus rc
  gpus=$(grep -c '^GPU' "$logs/gpus.txt")
  say ""
  say "## NCCL, one rank per GPU ($gpus GPU(s)$([ "$gpus" = 1 ] &&
      echo ': one rank, so no comparison with 8 ranks'))"
  for op in $ops; do
    rc=0
    timed 60 "$logs/nccl-$op.txt" $cv bench --backend nccl --op "$op" -b 8 -e 1G -f 2 -n 20 \
      -w 5 || rc=$?
    if [ $rc = 0 ]; then
      say "- $op: $(grep -h '# Out of bounds\|# Avg bus' "$logs/nccl-$op.txt" | tr -s ' ' | tr '\n' ' ')"
    else
      bad "nccl $op: $(why $rc "$logs/nccl-$op.txt")"
    fi
  done
}

# -------------------------------------------------------------------- main
worst=0
for phase in "${phases[@]}"; do
  start=$SECONDS failed=0
  logs="$out/$phase"
  rm -rf "$logs" && mkdir -p "$logs"
  summary="$out/summary-$phase.md"
  : > "$summary"
  say "# collviz GPU check: $phase, $(date -u '+%Y-%m-%d %H:%M UTC')"
  say ""
  if ! reason=$(gpu_here); then
    if [ "$phase" != build ]; then
      say "- no GPU here ($reason): nothing run; run this phase on a machine with one"
      pack "$phase"
      echo "gpu_check.sh: no GPU here ($reason); results in $out" >&2
      worst=3
      continue
    fi
    say "- no GPU here ($reason): building only"
  else
    nvidia-smi > "$logs/nvidia-smi.txt" 2>&1
    say "- GPUs: $(tr '\n' ';' < "$logs/gpus.txt")"
    say "- driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)," \
        "$(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo 'nvcc not on PATH')," \
        "$(nproc) CPU cores"
  fi
  echo "gpu_check.sh: $phase (budget ${budget} s; logs in $logs)" >&2
  "phase_$phase"
  say ""
  say "Phase $phase $([ $failed = 0 ] && echo passed || echo "failed (see above; $phase.tar.gz holds the logs)"), $((SECONDS - start)) s."
  pack "$phase"
  [ $missing = 1 ] && worst=2
  [ $failed = 1 ] && [ $worst = 0 ] && worst=1
done
exit $worst
