#!/usr/bin/env bash
# run.sh: installs what is missing, builds collviz and launches it on the
# CPU-emulated devices with the first lesson (or the last one in progress).
# Arguments are passed to collviz. Without a display, collviz says so and
# prints the terminal step-through of a 4-rank ring AllReduce instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
echo "collviz: building (the first build takes a few minutes)" >&2
scripts/build.sh
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ $# -eq 0 ]; then
  echo "collviz: no display (DISPLAY is not set); showing the terminal step-through of a 4-rank ring AllReduce instead" >&2
  exec build/collviz run --op allreduce --algo ring --ranks 4 --count 8 --init index
fi
exec build/collviz "$@"
