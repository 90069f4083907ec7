#!/usr/bin/env bash
# make_assets.sh: remakes the files of assets/ that come from elsewhere, and
# which are committed (a build never runs this):
#   fonts/DejaVuSans.ttf, DejaVuSansMono.ttf  copied from fonts-dejavu-core
#   fonts/WenQuanYiMicroHei-GB2312.ttf        WenQuanYi Micro Hei from
#       fonts-wqy-microhei, cut down to everything but its Han and Hangul
#       glyphs, plus GB2312's 6763 Han characters and every character the
#       lessons and the app's own strings use (1.5 MB instead of 5.2 MB)
#   icon/collviz-256.png, collviz-48.png      drawn from icon/collviz.svg
# Run it after adding Chinese text with a character outside GB2312 (the
# test test_assets names any such character), or to change the icon.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh fonts-dejavu-core fonts-wqy-microhei python3-fonttools librsvg2-bin
out=assets/fonts
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf "$out/"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# GB2312's rows 16-87 are its Han characters: every valid two-byte code,
# decoded by iconv (invalid codes are skipped with -c).
for hi in $(seq 176 247); do
  for lo in $(seq 161 254); do printf "\\x$(printf %x "$hi")\\x$(printf %x "$lo")"; done
done | iconv -c -f GB2312 -t UTF-8 > "$tmp/gb2312.txt"
cat lessons/*.json app/*/*.c render/*.c >> "$tmp/gb2312.txt"
# Everything that is not Han (3400-4DBF, 4E00-9FFF, F900-FAFF) or Hangul
# (1100-11FF, 3130-318F, AC00-D7AF) stays whole: Latin, Greek, punctuation,
# arrows, kana, full-width forms.
keep=U+0000-10FF,U+1200-312F,U+3190-33FF,U+4DC0-4DFF,U+A000-ABFF,U+D7B0-F8FF,U+FB00-10FFFF
/usr/bin/python3 -m fontTools.subset /usr/share/fonts/truetype/wqy/wqy-microhei.ttc \
  --font-number=0 --unicodes="$keep" --text-file="$tmp/gb2312.txt" \
  --layout-features='*' --name-IDs='*' --name-languages='*' --notdef-outline \
  --output-file="$out/WenQuanYiMicroHei-GB2312.ttf" 2> >(grep -v "FFTM NOT subset" >&2)
ls -l "$out"/*.ttf

for size in 256 48; do
  rsvg-convert -w $size -h $size assets/icon/collviz.svg -o assets/icon/collviz-$size.png
done
ls -l assets/icon
