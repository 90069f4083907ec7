#!/usr/bin/env bash
# build.sh: configures and builds collviz into a build directory.
#   scripts/build.sh [--werror] [--sanitize] [--dir DIR] [-- extra cmake args]
# --sanitize builds with AddressSanitizer and UndefinedBehaviorSanitizer
# (default directory build-asan instead of build).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build; args=(); sanitize=0
while [ $# -gt 0 ]; do
  case "$1" in
    --werror) args+=(-DCOLLVIZ_WERROR=ON) ;;
    --sanitize) sanitize=1 ;;
    --dir) dir="$2"; shift ;;
    --) shift; args+=("$@"); break ;;
    *) echo "build.sh: unknown flag '$1'; allowed: --werror, --sanitize, --dir DIR, -- CMAKE_ARGS" >&2; exit 2 ;;
  esac
  shift
done
if [ $sanitize = 1 ]; then
  [ "$dir" = build ] && dir=build-asan
  args+=(-DCOLLVIZ_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=Debug)
fi
cmake -S . -B "$dir" "${args[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
