#!/usr/bin/env bash
# deps.sh: installs the Debian 12 packages collviz needs to build, run and
# test, skipping those already installed. Runs apt-get as root, or through
# sudo for another user. Extra package names on the command line are added.
set -euo pipefail

packages=(build-essential cmake pkg-config
          libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev libcjson-dev libfontconfig-dev libgif-dev
          fonts-dejavu-core fonts-wqy-microhei
          tesseract-ocr tesseract-ocr-eng
          openmpi-bin libopenmpi-dev
          "$@")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "collviz: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "collviz: missing packages ${missing[*]}; run this script as root or install sudo" >&2
  exit 2
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
