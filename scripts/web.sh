#!/usr/bin/env bash
# web.sh: builds collviz for the browser from the same C sources, into
# build-web/: index.html, index.js, index.wasm and index.data, a static
# folder that any web server can serve (copy it to a static host as it
# is). The first run installs Emscripten and builds the libraries the page
# links from Debian's sources into a cache that later runs reuse
# (scripts/web_deps.sh, ~/.cache/collviz-web); the Chinese face is cut
# down to the characters collviz and its lessons use.
#   scripts/web.sh                build (incremental)
#   scripts/web.sh --serve [PORT] build, then serve build-web/ on 127.0.0.1
#                                 (default port 8080) and print the address
#   scripts/web.sh --test         build, then run the page's tests in
#                                 headless Chromium (tests/web/test_web.py)
#   scripts/web.sh --bench        build, then measure the page (sizes, first
#                                 frame, frame times) beside the desktop
# Exit: 0 done, 1 a test or benchmark failed, 2 bad usage or a build error.
set -euo pipefail
cd "$(dirname "$0")/.."
serve=0 port=8080 test=0 bench=0
while [ $# -gt 0 ]; do
  case "$1" in
    --serve)
      serve=1
      if [ $# -gt 1 ] && [[ $2 =~ ^[0-9]+$ ]]; then port=$2; shift; fi ;;
    --test) test=1 ;;
    --bench) bench=1 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "web.sh: unknown flag '$1'; allowed: --serve [PORT], --test, --bench, --help" >&2
       exit 2 ;;
  esac
  shift
done
if [ "$port" -lt 1 ] || [ "$port" -gt 65535 ]; then
  echo "web.sh: --serve: port $port is not between 1 and 65535" >&2
  exit 2
fi

cache=${COLLVIZ_WEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/collviz-web}
out=build-web cmake_dir=build-web-cmake
# Debian's Python has Debian's fonttools and selenium, whatever else is on PATH.
py=/usr/bin/python3
[ -x $py ] || py=python3
pkgs=(fonttools python3-fonttools)
[ $test = 1 ] || [ $bench = 1 ] &&
  pkgs+=(chromium chromium-driver python3-selenium python3-pil tesseract-ocr tesseract-ocr-eng)
scripts/deps.sh "${pkgs[@]}" >&2
scripts/web_deps.sh "$cache/deps" >&2
# Debian's emcc runs on Debian's node; another node first on PATH needs this.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

# The assets, with the Chinese face cut down to what is drawn: every
# character of the lessons, the program's own strings and the themes.
assets=$cmake_dir/assets
t0=$SECONDS
mkdir -p "$assets"
for d in assets/*/; do
  name=$(basename "$d")
  [ "$name" = fonts ] && continue
  mkdir -p "$assets/$name"
  cp -u "$d"* "$assets/$name/"
done
mkdir -p "$assets/fonts"
cp -u assets/fonts/DejaVuSans.ttf assets/fonts/DejaVuSansMono.ttf assets/fonts/*.txt \
      "$assets/fonts/"
cjk=$assets/fonts/WenQuanYiMicroHei-GB2312.ttf
if [ ! -f "$cjk" ] || [ -n "$(find lessons app render collectives assets/themes -newer "$cjk" \
                              \( -name '*.json' -o -name '*.c' \) -print -quit)" ]; then
  $py - "$cjk.txt" lessons app render collectives assets/themes <<'EOF'
import os, sys
chars = set(chr(c) for c in range(0x20, 0x7f))
for root in sys.argv[2:]:
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith((".json", ".c", ".h")):
                chars.update(open(os.path.join(d, f), encoding="utf-8").read())
# Besides: every symbol the face has (arrows, Greek, punctuation, full-width
# forms; the C sources write some as escapes), only its ideographs are cut.
from fontTools.ttLib import TTFont
for cp in TTFont("assets/fonts/WenQuanYiMicroHei-GB2312.ttf").getBestCmap():
    if cp < 0x2E80 or 0xFF00 <= cp <= 0xFFEF:
        chars.add(chr(cp))
open(sys.argv[1], "w", encoding="utf-8").write("".join(sorted(c for c in chars if c >= " ")))
EOF
  pyftsubset assets/fonts/WenQuanYiMicroHei-GB2312.ttf --text-file="$cjk.txt" \
    --output-file="$cjk" --layout-features='*' --no-hinting
  echo "web.sh: Chinese face cut to $(wc -m < "$cjk.txt") characters," \
       "$(( $(stat -c %s "$cjk") / 1024 )) KiB ($((SECONDS - t0)) s)" >&2
fi

# The page.
t0=$SECONDS
log=$cmake_dir/web-build.log
if [ ! -f $cmake_dir/CMakeCache.txt ]; then
  emcmake cmake -S . -B $cmake_dir -DCMAKE_BUILD_TYPE=Release -DCOLLVIZ_WERROR=ON \
    -DCOLLVIZ_WEB_DEPS="$cache/deps" \
    -DCOLLVIZ_WEB_ASSETS="$PWD/$assets" > $log 2>&1 ||
    { cat $log >&2; echo "web.sh: configuring the browser build failed" >&2; exit 2; }
fi
cmake --build $cmake_dir -j"$(nproc)" --target collviz > $log 2>&1 ||
  { grep -v '^    "' $log | tail -30 >&2
    echo "web.sh: the browser build failed (log: $log)" >&2; exit 2; }
mkdir -p $out
for f in index.html index.js index.wasm index.data; do
  cp -u $cmake_dir/$f $out/
done
cp -u assets/icon/collviz-48.png $out/favicon.png
echo "web.sh: built $out/ in $((SECONDS - t0)) s: $(du -ch $out/* | tail -1 | cut -f1)," \
     "$(cat $out/* | gzip -9 | wc -c | awk '{printf "%.2f MB", $1 / 1e6}') gzipped" >&2

rc=0
if [ $test = 1 ]; then
  $py tests/web/test_web.py "$out" || rc=1
fi
if [ $bench = 1 ]; then
  $py bench/web_bench.py "$out" || rc=1
fi
if [ $serve = 1 ]; then
  echo "web.sh: collviz is at http://127.0.0.1:$port/ (Ctrl-C stops the server)"
  exec $py -m http.server "$port" --bind 127.0.0.1 --directory "$out"
fi
exit $rc
