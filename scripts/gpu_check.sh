#!/usr/bin/env bash
# gpu_check.sh: the CUDA backend's checks on a machine with a GPU, one phase
# per command, each phase made to end inside a 10-minute command limit:
#   --tests  the GPU tests only: the property suite (test_cuda, in 8 parts
#            run side by side), then test_cuda_limits (it fills the device's
#            memory, so alone) and the NCCL tests; no CPU-only test
#   --bench  ring allreduce, 8 ranks, 256 MiB float32 against the copy bound
#            (three runs), an AllReduce exported from the GPU as frames,
#            then every op from 32 B (64 B with --quick) to 1 GiB on
#            --backend cuda
#   --nccl   every op from 8 B to 1 GiB through NCCL, one rank per GPU
#   --build  only the build (runs without a GPU: checks the toolchain and
#            cJSON before device time is spent)
#   --all    the three phases in one command (where commands are not limited)
#   --quick  --tests then --bench in ONE command of at most 5 minutes, each
#            with 140 s (GPU_CHECK_BUDGET), the ops' sweeps every 4x
#            instead of 2x: for a lent machine whose whole loan is 15
#            minutes, starts included, so that a failed first try can be
#            fixed and run again
#   --prebuilt  use build-gpu/ as it is, built elsewhere by --build --bundle
#            (CUDA_ARCHS=90 for an H100 or H200): no compiler, cJSON or
#            CMake is needed where the GPU is, and no device time is spent
#            compiling. The tests run as programs, not through ctest, whose
#            files name the paths of the machine that built them.
#   --dry BUILD  a rehearsal without a GPU: the CUDA runtime and NCCL test
#            doubles stand in for the device (BUILD is a build that has
#            them: collviz-mockgpu, test_cuda_suite_mock, test_cuda_limits_mock,
#            test_cuda_nccl_mock), with a stand-in nvidia-smi; everything
#            else as on a GPU (implies --prebuilt), sizes capped at 4 MiB
#            since the doubles keep their GPUs' memory on the host. What a
#            GPU run would trip on in this script shows here first.
#   --bundle with --build: copies the shared libraries the programs need
#            beyond the C and C++ runtimes, the CUDA driver and NCCL into
#            build-gpu/lib/, so the folder runs on a machine without them;
#            also builds build-gpu-gui/ (the window and CUDA, for the
#            bench phase's export of an AllReduce taken on the GPU) and
#            bundles its libraries (SDL2, SDL2_ttf, fontconfig...) likewise
# Each phase builds what it needs in build-gpu/ (without the window, without
# -Werror): on a machine still warm from the previous phase nothing is
# rebuilt; on a fresh one build-gpu/ is configured and built again, in about
# a minute on 16 cores. Every command it runs has its own timeout, and the
# phase stops starting work when less than that is left of its budget
# (GPU_CHECK_BUDGET seconds, default 540).
# NCCL: NCCL_HOME, else NCCL's Python wheel (nvidia-nccl-cu*, which PyTorch
# brings) where python3 finds it; its lib/ is put on LD_LIBRARY_PATH.
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
phases=() deps=0 quick=0 prebuilt=0 bundle=0 dry= out=${OUT:-gpu-results}
while [ $# -gt 0 ]; do
  a=$1
  shift
  case "$a" in
    --dry)
      dry=${1:-}
      [ -n "$dry" ] && shift
      if [ ! -x "$dry/collviz-mockgpu" ]; then
        echo "gpu_check.sh: --dry wants a build with the CUDA test doubles (such as build/," \
             "after scripts/build.sh); '$dry' has no collviz-mockgpu" >&2
        exit 2
      fi
      dry=$(cd "$dry" && pwd) prebuilt=1 ;;
    --tests|--bench|--nccl|--build) phases+=("${a#--}") ;;
    --all) phases+=(tests bench nccl) ;;
    --quick) phases+=(tests bench); quick=1 ;;
    --deps) deps=1 ;;
    --prebuilt) prebuilt=1 ;;
    --bundle) bundle=1 ;;
    -h|--help) sed -n '2,54p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "gpu_check.sh: unknown flag '$a'; allowed: --tests, --bench, --nccl, --build," \
             "--all, --quick, --deps, --prebuilt, --bundle, --dry BUILD, OUTDIR" >&2; exit 2 ;;
    *) out="$a" ;;
  esac
done
if [ ${#phases[@]} -eq 0 ]; then
  echo "gpu_check.sh: name a phase: --tests, --bench or --nccl (one command each), --build," \
       "--all, or --quick (tests and bench in one command)" >&2
  exit 2
fi
budget=${GPU_CHECK_BUDGET:-$([ $quick = 1 ] && echo 140 || echo 540)}
# The sweeps run 8 ranks of float32, where scatter, gather, allgather,
# reducescatter and alltoall take whole elements per rank: a size must be a
# multiple of 8 x 4 = 32 bytes. 64 x 4^12 and 32 x 2^25 are both 1 GiB.
sweep_f=$([ $quick = 1 ] && echo 4 || echo 2)
sweep_b=$([ $quick = 1 ] && echo 64 || echo 32)
target=256M top=1G top_text="1 GiB"
[ -n "$dry" ] && target=4M top=4M top_text="4 MiB (dry)"
mkdir -p "$out" && out=$(cd "$out" && pwd)
build=build-gpu gui_build=build-gpu-gui
if [ -n "$dry" ]; then
  # The doubles behind the names the phases run, each with the setting of
  # the test that runs it on CI; a stand-in nvidia-smi first on PATH.
  stage=$(mktemp -d /tmp/collviz-dry.XXXXXX)
  trap 'rm -rf "$stage"' EXIT
  mkdir -p "$stage/bin" "$stage/build-gpu/lib" "$stage/build-gpu-gui/lib"
  printf '%s\n' '#!/bin/sh' 'case "$1" in' \
    '  -L) echo "GPU 0: collviz CUDA test double (UUID: GPU-dry)" ;;' \
    '  --query-gpu=*) echo "none (test double)" ;;' \
    '  *) echo "the nvidia-smi stand-in of gpu_check.sh --dry: no GPU here" ;;' \
    'esac' > "$stage/bin/nvidia-smi"
  chmod +x "$stage/bin/nvidia-smi"
  wrap() { # NAME PROGRAM SETTING
    printf '#!/bin/sh\nCOLLVIZ_MOCK_CUDA=%s exec "%s" "$@"\n' "$3" "$dry/$2" > "$stage/$1"
    chmod +x "$stage/$1"
  }
  wrap build-gpu/collviz collviz-mockgpu ""
  wrap build-gpu/test_cuda test_cuda_suite_mock ""
  wrap build-gpu/test_cuda_limits test_cuda_limits_mock mem=629145600
  wrap build-gpu/test_cuda_nccl test_cuda_nccl_mock ndev=4,peer=1
  # export needs the window: only where the doubles' collviz has it.
  "$dry/collviz-mockgpu" export --help >/dev/null 2>&1 &&
    wrap build-gpu-gui/collviz collviz-mockgpu ""
  export PATH="$stage/bin:$PATH"
  build=$stage/build-gpu gui_build=$stage/build-gpu-gui
fi
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

unpack_deb() { # DEB DIR: dpkg -x, or where there is no dpkg, ar and tar
  if command -v dpkg >/dev/null; then
    dpkg -x "$1" "$2"
    return
  fi
  local tmp deb
  deb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  tmp=$(mktemp -d) && mkdir -p "$2" && (cd "$tmp" && ar x "$deb") &&
    tar -xf "$tmp"/data.tar.* -C "$2"
  local rc=$?
  rm -rf "$tmp"
  return $rc
}

cjson_installed() {
  if command -v pkg-config >/dev/null && pkg-config --exists libcjson 2>/dev/null; then
    return 0
  fi
  [ -f /usr/include/cjson/cJSON.h ]
}

nccl_wheel() { # NCCL's Python wheel, where PyTorch brought it: include/nccl.h, lib/libnccl.so.2
  local d
  d=$(python3 -c 'import nvidia.nccl as n; print(list(n.__path__)[0])' 2>/dev/null) &&
    [ -f "$d/include/nccl.h" ] && echo "$d"
}

# The libraries a build needs at run time, found where it lies: its own
# bundle (lib/), then NCCL's (NCCL_HOME, else the wheel's).
use_build_libs() {
  local nccl=${NCCL_HOME:-$(nccl_wheel)} p
  case $build in /*) p=$build/lib ;; *) p=$PWD/$build/lib ;; esac
  p="$p${nccl:+:$nccl/lib}"
  case ":${LD_LIBRARY_PATH:-}:" in *":$p:"*) return 0 ;; esac
  export LD_LIBRARY_PATH="$p${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

# Copies into build-gpu/lib/ the shared libraries the programs load that a
# bare GPU machine may lack (cJSON, the CUDA runtime): not the C and C++
# runtimes, which every Linux has, not the driver, and not NCCL, which is
# too large to carry and is found on the GPU machine.
bundle_libs() { # DIR PROGRAM...
  local dir=$1 f
  shift
  mkdir -p "$dir/lib"
  for f in $(ldd "$@" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u); do
    case "${f##*/}" in
      libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|libstdc++.so*|libgcc_s.so*|\
      ld-linux*|libcuda.so*|libnccl.so*) ;;
      *) cp -L "$f" "$dir/lib/" ;;
    esac
  done
  say "- bundled in $dir/lib: $(ls "$dir/lib" | tr '\n' ' ')"
}

# build-gpu-gui/: collviz with the window and the CUDA backend, for the
# export of a frame whose values the GPU computed.
build_gui() {
  local t0=$SECONDS rc=0
  if [ ! -f $gui_build/CMakeCache.txt ]; then
    timed 120 "$logs/configure-gui.txt" cmake -S . -B $gui_build -DCOLLVIZ_GUI=ON \
      -DCOLLVIZ_CUDA=ON -DCOLLVIZ_NCCL=OFF -DCOLLVIZ_WERROR=OFF -DCMAKE_BUILD_TYPE=Release \
      ${CUDA_ARCHS:+-DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCHS"} || rc=$?
    [ $rc = 0 ] || { bad "configure of $gui_build: $(why $rc "$logs/configure-gui.txt")"; return 1; }
  fi
  timed 420 "$logs/build-gui.txt" cmake --build $gui_build -j"$(nproc)" --target collviz || rc=$?
  [ $rc = 0 ] || { bad "build of $gui_build: $(why $rc "$logs/build-gui.txt")"; return 1; }
  say "- built $gui_build/collviz (window and CUDA) in $((SECONDS - t0)) s"
}

# An AllReduce computed on the GPU, drawn as the window draws it: one PNG
# per step (export --stills) under LOGS/export/.
export_frames() {
  if [ ! -x $gui_build/collviz ]; then
    say "- export: no $gui_build/collviz (scripts/gpu_check.sh --build --bundle makes it)"
    return 0
  fi
  local rc=0 dir=$PWD
  # The build tree finds lessons/ and assets/ through links made where it was built.
  ln -sfn "$dir/assets" $gui_build/assets && ln -sfn "$dir/lessons" $gui_build/lessons
  (case $gui_build in /*) lib=$gui_build/lib ;; *) lib=$dir/$gui_build/lib ;; esac
   export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
   SDL_VIDEODRIVER=dummy timed 60 "$logs/export.txt" $gui_build/collviz export --backend cuda \
     --op allreduce --algo ring --ranks 4 --count 8 --init index --stills \
     --out "$logs/export" --size 1280x800) || rc=$?
  if [ $rc = 0 ] && ls "$logs/export/"*.png >/dev/null 2>&1; then
    say "- export --backend cuda: $(ls "$logs/export" | wc -l) frames in export/ of the tarball"
  else
    bad "export --backend cuda: $(why $rc "$logs/export.txt")"
  fi
}

# Configures build-gpu/ once (cached) and builds the named targets; with
# --prebuilt only checks that they are there.
build_targets() {
  if [ $prebuilt = 1 ]; then
    local t
    for t in "$@"; do
      [ -x "$build/$t" ] || { bad "--prebuilt: $build/$t is missing (build it with" \
                                  "scripts/gpu_check.sh --build --bundle and carry $build/)"; missing=1; return 2; }
    done
    use_build_libs
    say "- prebuilt: $* from $build/ (LD_LIBRARY_PATH=$LD_LIBRARY_PATH)"
    return 0
  fi
  local args=(-DCOLLVIZ_GUI=OFF -DCOLLVIZ_CUDA=ON -DCOLLVIZ_WERROR=OFF
              -DCMAKE_BUILD_TYPE=RelWithDebInfo)
  # The toolkit's usual home where nvcc is not on PATH; Ninja where make is not.
  if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH="$PATH:/usr/local/cuda/bin"
  fi
  for tool in cmake nvcc cc; do
    command -v $tool >/dev/null || { bad "no $tool on PATH"; missing=1; return 2; }
  done
  if ! command -v make >/dev/null; then
    command -v ninja >/dev/null || { bad "neither make nor ninja on PATH"; missing=1; return 2; }
    args+=(-G Ninja)
  fi
  if [ $deps = 1 ] || ! cjson_installed; then
    if ! ls .gpu-deps/*.deb >/dev/null 2>&1; then
      bad "cJSON is not installed and .gpu-deps/ holds no packages: run scripts/gpu_deps.sh" \
          "where apt works and bring .gpu-deps/ along"
      missing=1
      return 2
    fi
    if [ ! -f /tmp/collviz-deps/usr/include/cjson/cJSON.h ]; then
      rm -rf /tmp/collviz-deps
      for f in .gpu-deps/*.deb; do unpack_deb "$f" /tmp/collviz-deps || return 2; done
    fi
    # The unpacked libcjson.pc says prefix=/usr: pkg-config would send CMake
    # there, so it is not used, and the plain search finds the copy.
    args+=(-DCMAKE_PREFIX_PATH=/tmp/collviz-deps/usr -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON)
  fi
  if [ -z "${NCCL_HOME:-}" ]; then
    local d
    d=$(nccl_wheel) && args+=(-DNCCL_HOME="$d")
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
  use_build_libs
  say "- built $* in $((SECONDS - t0)) s ($(grep -c . "$logs/build.txt") lines of log);" \
      "cJSON: ${cj:-from pkg-config}; $(grep -ho 'collviz: \(CUDA\|NCCL\|MPI\)[^;]*' \
      $build/CMakeCache.txt "$logs/configure.txt" 2>/dev/null | sort -u | tr '\n' ';')"
}

# ------------------------------------------------------------------ phases
phase_build() {
  build_targets collviz test_cuda test_cuda_limits test_cuda_nccl || return
  [ $bundle = 1 ] || return 0
  bundle_libs $build $build/collviz $build/test_cuda $build/test_cuda_limits $build/test_cuda_nccl
  build_gui && bundle_libs $gui_build $gui_build/collviz
}

phase_tests() {
  build_targets test_cuda test_cuda_limits test_cuda_nccl || return
  # The property suite in 8 parts side by side: most of its time is the CPU
  # backend's reference runs and verification, which 16 cores share.
  local parts=8 k rc
  for k in $(seq 1 $parts); do
    (COLLVIZ_THREADS=$(( $(nproc) / parts > 1 ? $(nproc) / parts : 1 )) \
       timed 300 "$logs/test_cuda-$k.txt" $build/test_cuda --part "$k/$parts"
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
  # The others one at a time, as programs (their exit 77 is a skip);
  # test_cuda_limits fills the device's memory. The MPI test is left to
  # ctest where MPI is installed: as root it can take its whole timeout.
  for t in test_cuda_limits test_cuda_nccl; do
    rc=0
    timed 120 "$logs/$t.txt" $build/$t || rc=$?
    if [ $rc = 77 ]; then
      bad "$t skipped although a GPU is present: $(grep -h 'SKIPPED' "$logs/$t.txt" | head -1)"
    elif [ $rc = 0 ]; then
      say "- $t: passed; $(grep -h 'device-to-device copy\|checks, .* failures\|passed\|skip' \
          "$logs/$t.txt" | tail -4 | tr -s ' ' | tr '\n' ' ')"
    else
      bad "$t: $(why $rc "$logs/$t.txt")"
    fi
  done
}

phase_bench() {
  build_targets collviz || return
  say ""
  say "## Ring allreduce, 8 ranks on one GPU, $target float32 (target: >= 85% of the copy bound)"
  local i rc line
  for i in 1 2 3; do
    rc=0
    timed 90 "$logs/target-$i.json" $cv bench --backend cuda --op allreduce --algo ring \
      --ranks 8 -b $target -e $target -n 20 -w 5 -d float32 --json || rc=$?
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
  export_frames
  say ""
  say "## Every op, 8 ranks on --backend cuda, $sweep_b B .. $top_text, every ${sweep_f}x"
  for op in $ops; do
    rc=0
    timed 60 "$logs/cuda-$op.txt" $cv bench --backend cuda --op "$op" --ranks 8 -b "$sweep_b" \
      -e $top -f "$sweep_f" -n 20 -w 5 || rc=$?
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
    timed 60 "$logs/nccl-$op.txt" $cv bench --backend nccl --op "$op" -b 8 -e $top -f 2 -n 20 \
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
