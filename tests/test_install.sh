#!/bin/sh
# test_install.sh BUILD_DIR WORK_DIR GUI(ON|OFF) [PNG_SAME]
#
# `cmake --install` as a user runs it: into a fresh prefix, which is then
# moved, and the installed program run from an unrelated directory with no
# COLLVIZ_* variable set. It must find its lessons and (with the window) its
# assets from its own place, and export with the shipped fonts while
# fontconfig knows no font at all: the frames must equal the build tree's.
set -u
build=$1
work=$2
gui=$3
png_same=${4:-}
rm -rf "$work"
mkdir -p "$work/elsewhere" "$work/data"
unset COLLVIZ_LESSONS_DIR COLLVIZ_LESSONS COLLVIZ_ASSETS_DIR COLLVIZ_FONT COLLVIZ_FONT_CJK
export XDG_DATA_HOME="$work/data"
fails=0
fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

if ! cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1; then
    cat "$work/install.log" >&2
    echo "FAIL: cmake --install" >&2
    exit 1
fi
p="$work/prefix"
[ -x "$p/bin/collviz" ] || fail "no bin/collviz"
n=$(ls "$p/share/collviz/lessons/"*.json 2>/dev/null | wc -l)
want=$(ls "$build/lessons/"*.json | wc -l)
[ "$n" = "$want" ] || fail "share/collviz/lessons holds $n lessons, the source $want"
[ -f "$p/share/doc/collviz/README.md" ] || fail "no share/doc/collviz/README.md"
# nccl-log works without the window, and a lesson names this log by path.
[ -f "$p/share/collviz/assets/ncclog/two-nodes-16.log" ] ||
    fail "no share/collviz/assets/ncclog/two-nodes-16.log"
if [ "$gui" = ON ]; then
    for f in share/collviz/assets/fonts/DejaVuSans.ttf share/collviz/assets/fonts/DejaVuSansMono.ttf \
             share/collviz/assets/fonts/WenQuanYiMicroHei-GB2312.ttf \
             share/collviz/assets/fonts/LICENSE-DejaVu.txt share/collviz/assets/fonts/LICENSE-WenQuanYi.txt \
             share/collviz/assets/themes/dark.json share/collviz/assets/icon/collviz-256.png \
             share/applications/collviz.desktop share/icons/hicolor/scalable/apps/collviz.svg \
             share/icons/hicolor/48x48/apps/collviz.png share/icons/hicolor/256x256/apps/collviz.png; do
        [ -f "$p/$f" ] || fail "no $f"
    done
    if command -v desktop-file-validate >/dev/null; then
        desktop-file-validate "$p/share/applications/collviz.desktop" || fail "desktop file"
    fi
fi

# A prefix can be moved: nothing in it may point at where it was installed.
mv "$p" "$work/moved"
p="$work/moved"
cd "$work/elsewhere" || exit 1
"$p/bin/collviz" lessons >lessons.txt 2>lessons.err
rc=$?
[ "$rc" = 0 ] || fail "collviz lessons: exit $rc: $(cat lessons.err)"
grep -q "prim-broadcast" lessons.txt || fail "collviz lessons does not list prim-broadcast"
[ "$(grep -c '^  \[' lessons.txt)" = "$want" ] || fail "collviz lessons lists $(grep -c '^  \[' lessons.txt) lessons, not $want"
[ ! -s lessons.err ] || fail "collviz lessons said: $(cat lessons.err)"
COLLVIZ_LESSONS_DIR="$work/no-such-dir" "$p/bin/collviz" lessons >/dev/null 2>lessons.err
rc=$?
[ "$rc" = 2 ] && grep -q "COLLVIZ_LESSONS_DIR=$work/no-such-dir is not a directory" lessons.err ||
    fail "a bad COLLVIZ_LESSONS_DIR: exit $rc: $(cat lessons.err)"

if [ "$gui" = ON ]; then
    cat >"$work/no-fonts.conf" <<EOF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><cachedir>$work/fc-cache</cachedir></fontconfig>
EOF
    args="export --op allreduce --ranks 4 --count 8 --size 480x300 --fps 1 --lang zh"
    # shellcheck disable=SC2086
    FONTCONFIG_FILE="$work/no-fonts.conf" SDL_VIDEODRIVER=dummy "$p/bin/collviz" $args \
        --out installed >export.out 2>export.err
    rc=$?
    [ "$rc" = 0 ] || fail "installed export: exit $rc: $(cat export.err)"
    [ ! -s export.err ] || fail "installed export said: $(cat export.err)"
    # shellcheck disable=SC2086
    SDL_VIDEODRIVER=dummy "$build/collviz" $args --out built >/dev/null 2>&1 ||
        fail "the build tree's export"
    frames=$(ls installed/*.png 2>/dev/null | wc -l)
    [ "$frames" -ge 6 ] || fail "installed export wrote $frames frames"
    # The same pixels but for the header's measured times (its top 48 rows).
    for f in built/*.png; do
        "$png_same" "$f" "installed/${f#built/}" 48 || fail "installed/${f#built/} is not the build tree's"
    done
    SDL_VIDEODRIVER=dummy COLLVIZ_ASSETS_DIR="$work/no-such-dir" "$p/bin/collviz" $args \
        --out bad >/dev/null 2>export.err
    rc=$?
    [ "$rc" = 2 ] && grep -q "COLLVIZ_ASSETS_DIR=$work/no-such-dir is not a directory" export.err ||
        fail "a bad COLLVIZ_ASSETS_DIR: exit $rc: $(cat export.err)"
    echo "installed export: $frames frames, the same as the build tree's, with no system font"
fi
[ "$fails" = 0 ] || exit 1
echo "installed to a prefix, moved it, ran it from $work/elsewhere: ok"
