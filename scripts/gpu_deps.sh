#!/usr/bin/env bash
# gpu_deps.sh: downloads, without installing, the Debian packages of cJSON
# (the one library a build without the window needs besides the CUDA
# toolkit) into .gpu-deps/. Carry that folder to a GPU machine that has no
# cJSON and no package archive to fetch it from; scripts/gpu_check.sh
# unpacks it under /tmp there and points CMake at it.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .gpu-deps
cd .gpu-deps
apt-get download libcjson1 libcjson-dev 2>&1 | grep -v "couldn't be accessed by user '_apt'" || true
ls -1 ./*.deb >/dev/null 2>&1 || { echo "gpu_deps.sh: apt-get download fetched nothing" >&2; exit 1; }
echo "gpu_deps.sh: $(ls -1 ./*.deb | wc -l) packages in .gpu-deps/"
