#!/bin/sh
# test_cuda_mock_cli.sh: `--backend cuda`, `auto` and `nccl` through the
# command line, on collviz-mockgpu (collviz built on the CUDA runtime and
# NCCL test doubles of tests/cuda_mock/; COLLVIZ_MOCK_CUDA sets its GPUs):
# run and bench verify their results, bench prints the bound column and
# --json the step times, NCCL gives its table over 4 GPUs and its one-rank
# note on one, and no device, too little device memory and NCCL without a
# GPU give their one-line messages and exit codes. The double's timings are made up:
# only the plumbing is checked here, never a figure.
#
#   test_cuda_mock_cli.sh COLLVIZ_MOCKGPU
bin=$1
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
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
check "too little device memory" 2 "out of device memory: 4 ranks on GPU 0 need 128.0 KiB" \
  "COLLVIZ_MOCK_CUDA=mem=4096" -- run --backend cuda --op allreduce --ranks 4 --count 4096
check "NCCL without a GPU" 3 "no CUDA device" "COLLVIZ_MOCK_CUDA=ndev=0" -- \
  bench --backend nccl --op allreduce -b 1k -e 1k
check "NCCL on 4 GPUs" 0 "Out of bounds values : 0 OK" "COLLVIZ_MOCK_CUDA=ndev=4" -- \
  bench --backend nccl --op reducescatter -b 1k -e 64k -f 8 -n 2
check "NCCL --ranks picks fewer GPUs" 0 '"ranks":	3' "COLLVIZ_MOCK_CUDA=ndev=4" -- \
  bench --backend nccl --op alltoall --ranks 3 -b 3k -e 3k --json
check "NCCL on one GPU says it is one rank" 0 "NCCL runs one rank" "COLLVIZ_MOCK_CUDA=ndev=1" -- \
  bench --backend nccl --op allreduce -b 1k -e 1k
[ "$fails" = 0 ] && echo "all passed" || echo "$fails failed"
[ "$fails" = 0 ]
