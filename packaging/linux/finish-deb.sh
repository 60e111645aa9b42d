#!/usr/bin/env bash
# Completes the .deb that jpackage built, which installs /opt/countersign only, with what the shell and the
# desktop look for under /usr:
#   /usr/bin/countersign -> /opt/countersign/bin/Countersign    the command line (any argument) or the console
#   /usr/share/applications/io.countersign.Countersign.desktop  the menu entry
#   /usr/share/metainfo/io.countersign.Countersign.metainfo.xml software centres
#   /usr/share/icons/hicolor/*/apps/io.countersign.Countersign.*
# Being files of the package, dpkg removes them with it; the triggers of desktop-file-utils and
# hicolor-icon-theme refresh the menus and icon caches.
#
#   packaging/linux/finish-deb.sh DIR        DIR holds the one countersign_*.deb jpackage wrote
set -euo pipefail
umask 022

if [ $# -ne 1 ]; then
  echo "usage: $0 DIR (the folder with jpackage's countersign_*.deb)" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
shopt -s nullglob
debs=("$1"/countersign_*.deb)
if [ ${#debs[@]} -ne 1 ]; then
  echo "$0: expected one countersign_*.deb in $1, found ${#debs[@]}" >&2
  exit 1
fi
deb=${debs[0]}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
dpkg-deb --raw-extract "$deb" "$root"
if [ -e "$root/usr/bin/countersign" ]; then
  echo "$0: $deb already has /usr/bin/countersign; build it anew from the app image" >&2
  exit 1
fi

install -D -m 644 "$here/io.countersign.Countersign.desktop" "$root/usr/share/applications/io.countersign.Countersign.desktop"
install -D -m 644 "$here/io.countersign.Countersign.metainfo.xml" \
  "$root/usr/share/metainfo/io.countersign.Countersign.metainfo.xml"
(cd "$here/icons" && find hicolor -type f -name 'io.countersign.Countersign.*') | while read -r icon; do
  install -D -m 644 "$here/icons/$icon" "$root/usr/share/icons/$icon"
done
mkdir -p "$root/usr/bin"
ln -s /opt/countersign/bin/Countersign "$root/usr/bin/countersign"

installed_kib=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -i "s/^Installed-Size: .*/Installed-Size: $installed_kib/" "$root/DEBIAN/control"
dpkg-deb --root-owner-group --build "$root" "$deb" >/dev/null
echo "finished $deb"
