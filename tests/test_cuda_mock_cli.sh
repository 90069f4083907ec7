#!/bin/sh
# test_cuda_mock_cli.sh: `--backend cuda`, `auto` and `nccl` through the
# command line, on collviz-mockgpu (collviz built on the CUDA runtime and
# NCCL test doubles of tests/cuda_mock/; COLLVIZ_MOCK_CUDA sets its GPUs):
# run and bench verify their results (one-shot and two-shot among them),
# bench prints the bound column and --json the step times, NCCL gives its
# table over 4 GPUs and its one-rank note on one and refuses --algo, and
# no device, too little device memory and NCCL without a
# GPU give their one-line messages and exit codes. Where it has the window:
# export writes frames from the GPU's trace, and the GUI runs a collective
# on the GPU, or, when the device cannot hold it, on the CPU with a notice.
# The double's timings are made up: only the plumbing is checked here,
# never a figure.
#
#   test_cuda_mock_cli.sh COLLVIZ_MOCKGPU WORK_DIR
bin=$1
work=${2:-$(mktemp -d)}
rm -rf "$work" && mkdir -p "$work" || exit 1
out=$work/out.txt
fails=0
check() { # check WHAT WANT_RC GREP_PATTERN [ENV] -- ARGS...
  what=$1 want=$2 pat=$3 envs=$4
  shift 5
  env $envs "$bin" "$@" >"$out" 2>&1
  rc=$?
  if [ "$rc" != "$want" ] || ! grep -q -- "$pat" "$out"; then
    echo "FAIL $what: exit $rc (want $want), output lacks '$pat':"
    sed 's/^/    /' "$out" | head -12
    fails=$((fails + 1))
  else
    echo "ok   $what"
  fi
}

check "run on 1 GPU" 0 "verified: 0 of the results differ" "" -- \
  run --backend cuda --op allreduce --algo ring --ranks 5 --count 23 --dtype int32
check "run on 3 GPUs without peer access" 0 "verified: 0 of the results differ" \
  "COLLVIZ_MOCK_CUDA=ndev=3,peer=0" -- \
  run --backend cuda --op reducescatter --algo ring --ranks 7 --count 9 --redop max
check "run one-shot on 2 GPUs without peer access" 0 "verified: 0 of the results differ" \
  "COLLVIZ_MOCK_CUDA=ndev=2,peer=0" -- \
  run --backend cuda --op allreduce --algo one-shot --ranks 5 --count 11 --dtype float32
check "run two-shot on 3 GPUs" 0 "verified: 0 of the results differ" "COLLVIZ_MOCK_CUDA=ndev=3" -- \
  run --backend cuda --op allreduce --algo two-shot --ranks 6 --count 13 --redop max
check "auto picks the GPU" 0 "backend cuda" "" -- \
  run --backend auto --op broadcast --ranks 4 --count 8
check "bench: the bound column" 0 "device-to-device copy bandwidth" "" -- \
  bench --backend cuda --op allreduce --ranks 8 -b 8M -e 8M -n 2 -w 1
# (100 MB GPUs from here: too small for the 2 x 256 MiB copy-bandwidth
# measurement, which then leaves the bound out, and quicker.)
check "bench: nothing wrong" 0 "Out of bounds values : 0 OK" "COLLVIZ_MOCK_CUDA=ndev=2,peer=1,mem=100000000" -- \
  bench --backend cuda --op alltoall --algo bruck --ranks 6 -b 6k -e 600k -f 10 -n 3
check "bench --json: step times" 0 '"steps_us"' "COLLVIZ_MOCK_CUDA=mem=100000000" -- \
  bench --backend cuda --op gather --ranks 4 -b 1k -e 4k --json
check "no device: cuda exits 3" 3 "no CUDA device" "COLLVIZ_MOCK_CUDA=ndev=0" -- \
  run --backend cuda --op allreduce --ranks 4 --count 8
check "no device: auto falls back" 0 "using the CPU backend" "COLLVIZ_MOCK_CUDA=ndev=0" -- \
  run --backend auto --op allreduce --ranks 4 --count 8
check "no kernels for this GPU: cuda exits 3" 3 "CMAKE_CUDA_ARCHITECTURES=75" \
  "COLLVIZ_MOCK_CUDA=nokernels=1" -- run --backend cuda --op allreduce --ranks 4 --count 8
check "no kernels for this GPU: auto falls back" 0 "using the CPU backend" \
  "COLLVIZ_MOCK_CUDA=nokernels=1" -- run --backend auto --op allreduce --ranks 4 --count 8
check "too little device memory" 3 "out of device memory: 4 ranks on GPU 0 need 128.0 KiB" \
  "COLLVIZ_MOCK_CUDA=mem=4096" -- run --backend cuda --op allreduce --ranks 4 --count 4096
check "too little device memory: auto runs on the CPU" 0 "using the CPU backend" \
  "COLLVIZ_MOCK_CUDA=mem=4096" -- run --backend auto --op allreduce --ranks 4 --count 4096
check "too little device memory: bench exits 3" 3 "(--backend cpu runs it on the CPU)" \
  "COLLVIZ_MOCK_CUDA=mem=4096" -- bench --backend cuda --op allreduce --ranks 4 -b 64k -e 64k
check "NCCL older than 2.10: no avg" 2 "NCCL 2.8.3 has no avg" \
  "COLLVIZ_MOCK_CUDA=ndev=2,ncclversion=2803" -- bench --backend nccl --op allreduce --redop avg \
  -b 1k -e 1k
check "NCCL: a peer gone ends the wait, exit 3" 3 "remote process exited" \
  "COLLVIZ_MOCK_CUDA=ndev=2,ncclerror=1" -- bench --backend nccl --op allreduce -b 1k -e 4k
check "NCCL: --algo is refused, NCCL picks its own" 2 "runs the algorithm NCCL picks" \
  "COLLVIZ_MOCK_CUDA=ndev=2" -- bench --backend nccl --op allreduce --algo one-shot -b 1k -e 1k
check "NCCL without a GPU" 3 "no CUDA device" "COLLVIZ_MOCK_CUDA=ndev=0" -- \
  bench --backend nccl --op allreduce -b 1k -e 1k
check "NCCL on 4 GPUs" 0 "Out of bounds values : 0 OK" "COLLVIZ_MOCK_CUDA=ndev=4" -- \
  bench --backend nccl --op reducescatter -b 1k -e 64k -f 8 -n 2
check "NCCL --ranks picks fewer GPUs" 0 '"ranks":	3' "COLLVIZ_MOCK_CUDA=ndev=4" -- \
  bench --backend nccl --op alltoall --ranks 3 -b 3k -e 3k --json
check "NCCL: more ranks than GPUs exits 3" 3 "NCCL runs one rank per GPU: 8 ranks asked, 1 GPU" \
  "COLLVIZ_MOCK_CUDA=ndev=1" -- bench --backend nccl --ranks 8 --op allreduce -b 1k -e 1k
check "NCCL on one GPU says it is one rank" 0 "NCCL runs one rank" "COLLVIZ_MOCK_CUDA=ndev=1" -- \
  bench --backend nccl --op allreduce -b 1k -e 1k
if "$bin" export --help >/dev/null 2>&1; then
  export SDL_VIDEODRIVER=dummy XDG_DATA_HOME="$work/data"
  check "export: frames from 2 GPUs" 0 "3 frames (2 steps, 1 fps)" "COLLVIZ_MOCK_CUDA=ndev=2,peer=0" -- \
    export --backend cuda --op reduce --algo tree --ranks 4 --count 6 --dtype int32 \
    --out "$work/frames" --fps 1 --step-seconds 1 --size 640x400
  n=$(ls "$work/frames" 2>/dev/null | grep -c '\.png$')
  [ "$n" = 3 ] || { echo "FAIL export wrote $n PNG files, not 3"; fails=$((fails + 1)); }
  check "export: no device exits 3" 3 "no CUDA device" "COLLVIZ_MOCK_CUDA=ndev=0" -- \
    export --backend cuda --op allreduce --ranks 4 --out "$work/none"
  check "export: too little device memory exits 3" 3 "lower --count or --ranks" \
    "COLLVIZ_MOCK_CUDA=mem=4096" -- \
    export --backend cuda --op allreduce --ranks 4 --count 4096 --out "$work/small"
  check "export: too little device memory, auto says so" 0 "Running on the CPU backend" \
    "COLLVIZ_MOCK_CUDA=mem=4096" -- \
    export --backend auto --op allreduce --ranks 4 --count 4096 --out "$work/small-auto" \
    --fps 1 --step-seconds 1 --size 320x240
  # The window itself needs an X server (the dummy driver counts as no
  # display and gives the terminal step-through instead).
  if command -v Xvfb >/dev/null; then
    Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3>"$work/display" 2>/dev/null &
    xvfb=$!
    trap 'kill $xvfb 2>/dev/null' EXIT
    for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
    unset SDL_VIDEODRIVER
    check "gui on 2 GPUs" 0 "peak resident memory" \
      "DISPLAY=:$(cat "$work/display") COLLVIZ_MOCK_CUDA=ndev=2" -- \
      gui --backend cuda --op allgather --algo ring --ranks 4 --count 4 --frames 30 --timing
    if grep -q "no display" "$out"; then
      echo "FAIL gui ran in the terminal, not in a window"
      fails=$((fails + 1))
    fi
    check "gui: too little device memory, the CPU instead" 0 "peak resident memory" \
      "DISPLAY=:$(cat "$work/display") COLLVIZ_MOCK_CUDA=mem=4096" -- \
      gui --backend cuda --op allreduce --ranks 4 --count 4096 --frames 30 --timing
    if grep -q "no display" "$out"; then
      echo "FAIL gui ran in the terminal, not in a window"
      fails=$((fails + 1))
    fi
    kill $xvfb 2>/dev/null
  else
    echo "skip gui: Xvfb is not installed"
  fi
fi

[ "$fails" = 0 ] && echo "all passed" || echo "$fails failed"
[ "$fails" = 0 ]
