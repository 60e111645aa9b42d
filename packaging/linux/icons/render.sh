#!/usr/bin/env bash
# Renders the icon's SVG into the PNGs the Linux package installs and the icon files jpackage embeds on
# Windows (.ico) and macOS (.icns). The outputs are committed: run this only after changing the SVG.
# Needs rsvg-convert, icotool and png2icns (Debian: apt-get install -y librsvg2-bin icoutils icnsutils).
set -euo pipefail
cd "$(dirname "$0")"

svg=hicolor/scalable/apps/io.countersign.Countersign.svg
for size in 256 512; do
  rsvg-convert -w "$size" -h "$size" "$svg" -o "hicolor/${size}x${size}/apps/io.countersign.Countersign.png"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for size in 16 32 48 128 256; do
  rsvg-convert -w "$size" -h "$size" "$svg" -o "$work/$size.png"
done
icotool --create --output=../../jpackage/windows/Countersign.ico \
  "$work/16.png" "$work/32.png" "$work/48.png" --raw="$work/256.png"
png2icns ../../jpackage/macos/Countersign.icns \
  "$work/16.png" "$work/32.png" "$work/128.png" "$work/256.png" hicolor/512x512/apps/io.countersign.Countersign.png >/dev/null
