#!/usr/bin/env bash
# web_deps.sh: builds the third-party libraries of collviz's browser (Emscripten) build, as
# static WebAssembly libraries with headers in one prefix: SDL2, FreeType, SDL2_ttf, SDL2_image,
# giflib and cJSON. Debian 12's emcc cannot fetch its ports offline, so every library is compiled
# from Debian's own source packages, fetched with `apt-get source` through a private apt
# configuration under the cache folder (its deb-src entries are derived from the machine's own
# apt sources; the machine's apt configuration is not changed). Installs emscripten and the
# tools it needs with apt-get when missing (as root, or through sudo). Each library is built once:
# a stamp per library under PREFIX/share/web_deps records its Debian source version, and later
# runs skip it.
#
# Usage: scripts/web_deps.sh [PREFIX]  (default ~/.cache/collviz-web/deps, under $XDG_CACHE_HOME
# where that is set: outside the tree, so a clean build keeps it; scripts/web.sh uses it)
# The sources and build trees go to PREFIX-src (or $WEB_DEPS_CACHE). Delete both to rebuild.
# Link the app with:
#   -I PREFIX/include -I PREFIX/include/SDL2 -L PREFIX/lib
#   -lSDL2_ttf -lSDL2_image -lfreetype -lgif -lcjson -lSDL2
# (with Debian's emcc, an .html output also needs -sMINIFY_HTML=0, and NODE_PATH as set below).
set -euo pipefail
cd "$(dirname "$0")/.."

RECIPE=2   # bump when a build recipe below changes, so existing prefixes rebuild
LIBS=(sdl2 freetype sdl2_ttf sdl2_image giflib cjson)
declare -A SRCPKG=([sdl2]=libsdl2 [freetype]=freetype [sdl2_ttf]=libsdl2-ttf
                   [sdl2_image]=libsdl2-image [giflib]=giflib [cjson]=cjson)
declare -A NEEDS=([sdl2_ttf]="sdl2 freetype" [sdl2_image]="sdl2")

say() { echo "web_deps: $*" >&2; }
die() { echo "web_deps: error: $*" >&2; exit 1; }

PREFIX=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/collviz-web/deps}
mkdir -p "$PREFIX" || die "cannot create prefix $PREFIX"
PREFIX=$(cd "$PREFIX" && pwd)
CACHE=${WEB_DEPS_CACHE:-$PREFIX-src}
mkdir -p "$CACHE" || die "cannot create cache folder $CACHE"
CACHE=$(cd "$CACHE" && pwd)
STAMPS=$PREFIX/share/web_deps
JOBS=$(nproc 2>/dev/null || echo 2)

# --- host tools ---------------------------------------------------------------------------
packages=(emscripten cmake make dpkg-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    die "missing packages ${missing[*]}; run this script as root or install sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq || die "apt-get update failed"
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    || die "apt-get install ${missing[*]} failed"
fi
for t in emcc emar emcmake cmake make dpkg-source dpkg-parsechangelog; do
  command -v "$t" >/dev/null || die "$t not found on PATH after installing ${packages[*]}"
done
# Debian's emcc runs its JS tools with the system node and needs Debian's node modules (acorn)
# even when another node comes first on PATH.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
EMVER=$(dpkg-query -W -f='${Version}' emscripten)

# --- what to build ------------------------------------------------------------------------
stamp_ok() {   # the stamp of $1 exists and was made by this recipe and this emscripten
  [ -f "$STAMPS/$1.stamp" ] &&
    grep -qx "recipe=$RECIPE emscripten=$EMVER" <(sed -n 2p "$STAMPS/$1.stamp")
}
todo=()
declare -A REBUILD=()
for lib in "${LIBS[@]}"; do
  rebuild=0
  stamp_ok "$lib" || rebuild=1
  for dep in ${NEEDS[$lib]:-}; do [ -n "${REBUILD[$dep]:-}" ] && rebuild=1; done
  if [ $rebuild -eq 1 ]; then
    REBUILD[$lib]=1
    todo+=("$lib")
  else
    say "$lib up to date ($(head -n1 "$STAMPS/$lib.stamp"))"
  fi
done
[ ${#todo[@]} -eq 0 ] && { say "all libraries up to date in $PREFIX"; exit 0; }

# --- Debian sources through a private apt configuration -----------------------------------
APT=$CACHE/apt
src_dir() {    # prints the unpacked source tree of Debian source package $1, if fetched
  local d
  for d in "$CACHE/src/$1"/*/; do
    [ -f "$d/debian/changelog" ] && { echo "${d%/}"; return 0; }
  done
  return 1
}

SL=/etc/apt/sources.list SP=/etc/apt/sources.list.d/   # what apt-config says, normally
eval "$(apt-config shell SL Dir::Etc::SourceList/f SP Dir::Etc::SourceParts/d)"
setup_private_apt() {  # writes $APT/apt.conf with deb-src twins of the machine's sources
  local f n=0
  rm -rf "$APT/sources.list.d"
  mkdir -p "$APT/sources.list.d" "$APT/lists/partial" "$APT/cache/archives/partial"
  : >"$APT/sources.list"
  # One-line style: every "deb" line becomes "deb-src"; existing deb-src lines are dropped
  # because they would come back from their deb twin.
  for f in "$SL" "$SP"*.list; do
    [ -f "$f" ] || continue
    awk '$1 == "deb" { sub(/^[ \t]*deb/, "deb-src"); print }' "$f" >>"$APT/sources.list"
  done
  sort -u -o "$APT/sources.list" "$APT/sources.list"
  n=$(grep -c . "$APT/sources.list" || true)
  # deb822 style: the same stanzas with Types: deb-src (stanzas with Enabled: no stay off).
  for f in "$SP"*.sources; do
    [ -f "$f" ] || continue
    awk 'tolower($1) == "types:" { print "Types: deb-src"; next } { print }' "$f" \
      >"$APT/sources.list.d/${f##*/}"
    n=$((n + $(grep -ci '^types:' "$f" || true)))
  done
  [ "$n" -gt 0 ] || die "no apt sources found in $SL or ${SP}*.{list,sources}"
  # Only directories under $APT are written. The machine's update hooks (appstream, packagekit,
  # docker-clean) are cleared so they do not touch global caches. Downloads land in $CACHE,
  # which the _apt sandbox user may not be able to write, hence no sandbox.
  cat >"$APT/apt.conf" <<EOF
Dir::Etc::SourceList "$APT/sources.list";
Dir::Etc::SourceParts "$APT/sources.list.d";
Dir::State::Lists "$APT/lists";
Dir::Cache "$APT/cache";
Acquire::Languages "none";
APT::Sandbox::User "$(id -un)";
#clear APT::Update::Pre-Invoke;
#clear APT::Update::Post-Invoke;
#clear APT::Update::Post-Invoke-Success;
EOF
}

fetch_sources() {   # fetches and unpacks the Debian source packages named, unless cached
  local p need=() t0=$EPOCHREALTIME log=$CACHE/logs/apt.log
  for p; do src_dir "$p" >/dev/null || need+=("$p"); done
  [ ${#need[@]} -eq 0 ] && return 0
  mkdir -p "$CACHE/logs" "$CACHE/src"
  setup_private_apt
  if ! apt-get -c "$APT/apt.conf" -q update >"$log" 2>&1; then
    say "warning: apt-get update (private, deb-src) reported errors; see $log:"
    grep -E '^(E|W):' "$log" | head -n 5 >&2 || true
  fi
  for p in "${need[@]}"; do
    rm -rf "$CACHE/src/$p" "$CACHE/src/$p.tmp"
    mkdir -p "$CACHE/src/$p.tmp"
    if ! (cd "$CACHE/src/$p.tmp" && apt-get -c "$APT/apt.conf" -q source "$p") >>"$log" 2>&1
    then
      die "apt-get source $p failed: $(grep '^E:' "$log" | tail -n1 | cut -c4-)" \
          "(its deb-src entries are derived from this machine's own apt sources, $SL and" \
          "${SP}*; full log: $log)"
    fi
    mv "$CACHE/src/$p.tmp" "$CACHE/src/$p"
    src_dir "$p" >/dev/null || die "apt-get source $p left no unpacked source tree; see $log"
  done
  say "fetched Debian sources ${need[*]} in $(elapsed "$t0") s"
}

elapsed() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

# --- build helpers -------------------------------------------------------------------------
CFLAGS_WEB=(-O2)

compile() {   # compile OBJDIR FLAG... -- SOURCE...: emcc -c in parallel, objects in OBJDIR
  local objdir=$1 flags=() dup
  shift
  while [ "$1" != -- ]; do flags+=("$1"); shift; done
  shift
  # emcc writes NAME.o for NAME.c into the current folder, so names must be unique
  dup=$(printf '%s\n' "${@##*/}" | sort | uniq -d)
  [ -z "$dup" ] || { echo "duplicate source names: $dup"; return 1; }
  rm -rf "$objdir" && mkdir -p "$objdir"
  (cd "$objdir" && printf '%s\0' "$@" |
     xargs -0 -n 12 -P "$JOBS" emcc "${CFLAGS_WEB[@]}" "${flags[@]}" -c)
}

write_pc() {  # write_pc FILE NAME VERSION LIBS [REQUIRES]: a pkg-config file for the prefix
  mkdir -p "$PREFIX/lib/pkgconfig"
  cat >"$PREFIX/lib/pkgconfig/$1" <<EOF
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: $2
Description: $2 for Emscripten, built by collviz scripts/web_deps.sh
Version: $3
Requires: ${5:-}
Libs: -L\${libdir} $4
Cflags: -I\${includedir} -I\${includedir}/SDL2
EOF
}

upstream() { local v=${1#*:}; v=${v%-*}; echo "${v%%+*}"; }   # 2.26.5+dfsg-1 -> 2.26.5

# Each build_* runs in the unpacked Debian source tree ($S) with its log as output.

build_sdl2() {
  local src=() d
  src+=(src/*.c src/atomic/*.c src/audio/*.c src/cpuinfo/*.c src/dynapi/*.c src/events/*.c
        src/file/*.c src/joystick/*.c src/haptic/*.c src/hidapi/*.c src/libm/*.c
        src/locale/*.c src/misc/*.c src/power/*.c src/render/*.c src/sensor/*.c src/stdlib/*.c
        src/thread/*.c src/timer/*.c src/video/*.c src/video/yuv2rgb/*.c)
  # the backends SDL_config_emscripten.h selects; no pthreads, so the generic thread code
  for d in misc audio filesystem joystick power locale video; do src+=("src/$d/emscripten/"*.c); done
  src+=(src/audio/disk/*.c src/audio/dummy/*.c src/timer/unix/*.c src/thread/generic/*.c
        src/haptic/dummy/*.c src/sensor/dummy/*.c src/loadso/dlopen/*.c
        src/render/software/*.c src/render/opengles2/*.c)
  compile "$B/obj" -I"$S/include" -Wno-warn-absolute-paths -- "${src[@]/#/$S/}"
  rm -f "$B/libSDL2.a"
  emar rcs "$B/libSDL2.a" "$B"/obj/*.o
  rm -rf "$PREFIX/include/SDL2"
  mkdir -p "$PREFIX/include/SDL2" "$PREFIX/lib"
  cp include/*.h "$PREFIX/include/SDL2/"
  cp "$B/libSDL2.a" "$PREFIX/lib/"
  write_pc sdl2.pc sdl2 "$(upstream "$VER")" -lSDL2
}

build_freetype() {
  emcmake cmake -S "$S" -B "$B" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$PREFIX" \
    -DCMAKE_C_FLAGS_RELEASE="${CFLAGS_WEB[*]} -DNDEBUG" -DBUILD_SHARED_LIBS=OFF \
    -DFT_DISABLE_ZLIB=ON -DFT_DISABLE_BZIP2=ON -DFT_DISABLE_PNG=ON -DFT_DISABLE_HARFBUZZ=ON \
    -DFT_DISABLE_BROTLI=ON
  cmake --build "$B" -j "$JOBS"
  rm -rf "$PREFIX/include/freetype2"
  cmake --install "$B"
}

build_sdl2_ttf() {   # SDL2_ttf is one file; no harfbuzz
  compile "$B/obj" -I"$PREFIX/include/SDL2" -I"$PREFIX/include/freetype2" -DBUILD_SDL \
    -DTTF_USE_HARFBUZZ=0 -- "$S/SDL_ttf.c"
  rm -f "$B/libSDL2_ttf.a"
  emar rcs "$B/libSDL2_ttf.a" "$B"/obj/*.o
  cp SDL_ttf.h "$PREFIX/include/SDL2/"
  cp "$B/libSDL2_ttf.a" "$PREFIX/lib/"
  write_pc SDL2_ttf.pc SDL2_ttf "$(upstream "$VER")" "-lSDL2_ttf -lfreetype" sdl2
}

build_sdl2_image() {
  # PNG alone, all collviz reads (its icon) and writes (screenshots): loaded through the
  # bundled stb_image and saved through the bundled miniz, so no libpng or zlib, and none of
  # the other loaders IMG_Load would otherwise pull into the page.
  local defs=(-DUSE_STBIMAGE -DSDL_IMAGE_SAVE_PNG=1 -DLOAD_PNG) f
  local src=()
  for f in "$S"/IMG*.c; do [ "${f##*/}" = IMG_WIC.c ] || src+=("$f"); done
  compile "$B/obj" -I"$PREFIX/include/SDL2" -DBUILD_SDL "${defs[@]}" -- "${src[@]}"
  rm -f "$B/libSDL2_image.a"
  emar rcs "$B/libSDL2_image.a" "$B"/obj/*.o
  cp SDL_image.h "$PREFIX/include/SDL2/"
  cp "$B/libSDL2_image.a" "$PREFIX/lib/"
  write_pc SDL2_image.pc SDL2_image "$(upstream "$VER")" -lSDL2_image sdl2
}

build_giflib() {   # the library part of giflib's Makefile (SOURCES)
  local src=(dgif_lib.c egif_lib.c gifalloc.c gif_err.c gif_font.c gif_hash.c
             openbsd-reallocarray.c quantize.c)
  compile "$B/obj" -std=gnu99 -- "${src[@]/#/$S/}"
  rm -f "$B/libgif.a"
  emar rcs "$B/libgif.a" "$B"/obj/*.o
  mkdir -p "$PREFIX/include" "$PREFIX/lib"
  cp gif_lib.h "$PREFIX/include/"
  cp "$B/libgif.a" "$PREFIX/lib/"
}

build_cjson() {   # libcjson.a and libcjson_utils.a, headers in include/cjson as Debian has them
  compile "$B/obj" -std=c89 -- "$S/cJSON.c" "$S/cJSON_Utils.c"
  rm -f "$B/libcjson.a" "$B/libcjson_utils.a"
  emar rcs "$B/libcjson.a" "$B/obj/cJSON.o"
  emar rcs "$B/libcjson_utils.a" "$B/obj/cJSON_Utils.o"
  mkdir -p "$PREFIX/include/cjson" "$PREFIX/lib"
  cp cJSON.h cJSON_Utils.h "$PREFIX/include/cjson/"
  cp "$B/libcjson.a" "$B/libcjson_utils.a" "$PREFIX/lib/"
  write_pc libcjson.pc libcjson "$(upstream "$VER")" -lcjson
}

# --- build ---------------------------------------------------------------------------------
pkgs=()
for lib in "${todo[@]}"; do pkgs+=("${SRCPKG[$lib]}"); done
fetch_sources "${pkgs[@]}"

mkdir -p "$STAMPS" "$CACHE/logs" "$CACHE/build"
for lib in "${todo[@]}"; do
  p=${SRCPKG[$lib]}
  S=$(src_dir "$p")
  VER=$(dpkg-parsechangelog -l "$S/debian/changelog" -S Version)
  B=$CACHE/build/$lib
  log=$CACHE/logs/$lib.log
  t0=$EPOCHREALTIME
  rm -f "$STAMPS/$lib.stamp"
  rm -rf "$B"
  mkdir -p "$B"
  # a background subshell keeps set -e working inside the build function
  (cd "$S" && set -x && "build_$lib") >"$log" 2>&1 &
  if ! wait $!; then
    tail -n 15 "$log" >&2
    die "building $lib from Debian source $p $VER failed; full log in $log"
  fi
  printf '%s %s\nrecipe=%s emscripten=%s\n' "$p" "$VER" "$RECIPE" "$EMVER" >"$STAMPS/$lib.stamp"
  say "$lib built from $p $VER in $(elapsed "$t0") s"
done
say "done: $PREFIX (libraries in lib/, headers in include/ and include/SDL2/)"
