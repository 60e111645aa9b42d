#!/usr/bin/env bash
# Refreshes the two class lists of the Linux package, from starts of the console on the demo store:
#   countersign.classlist  the classes of the runtime image (JDK and JavaFX) that the console loads up to its
#                          first window. The package build dumps them into the runtime's class-data archive, so
#                          that they are mapped ready-made at every start instead of being read, parsed and
#                          checked one by one. Classes from the class path stay out: Java 17 accepts an archive
#                          of those only at the very paths it was dumped from.
#   console.classlist      every class the console loads up to its inbox, the class path's too. The package puts
#                          it beside the jars; the launcher (packaging/linux/launcher.sh) dumps an archive of them
#                          where the application is installed, after the first start, and maps it from then on.
#
#   packaging/jpackage/capture-classlist.sh LAUNCHER
#
# LAUNCHER is the Linux app image's, e.g. target/jpackage/image/Countersign/bin/Countersign. Run this after
# a change of the JDK, of JavaFX or of what the console shows first, then build the package again. Needs
# what packaging/measure-startup.sh needs, and jimage (from the JDK).
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 LAUNCHER (the app image's bin/Countersign)" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
launcher=$(readlink -f "$1")
modules=$(dirname "$launcher")/../lib/runtime/lib/modules
[ -f "$modules" ] || { echo "$0: no runtime image beside $launcher ($modules is missing)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Two starts each, as measure-startup.sh makes them; the second overwrites the list of the first, and like most
# starts it opens an existing store.
capture() {
  JAVA_TOOL_OPTIONS="-XX:DumpLoadedClassList=$1" "$here/../measure-startup.sh" -n 2 -t "$2" "$launcher" >/dev/null
}
capture "$work/to-window" Countersign
capture "$work/to-inbox" "[0-9] waiting"

jimage list "$modules" | awk '/\.class$/ { sub(/^[ \t]+/, ""); sub(/\.class$/, ""); print }' >"$work/in-runtime"
{
  echo "# The classes of the runtime image the console loads up to its first window, written by"
  echo "# packaging/jpackage/capture-classlist.sh; the package build dumps them into the class-data archive."
  awk 'NR == FNR { in_runtime[$1] = 1; next }
       /^#/ { next }
       /^@lambda-form-invoker/ { print; next }
       /^@lambda-proxy/ { if ($2 in in_runtime) print; next }
       $1 in in_runtime { print }' "$work/in-runtime" "$work/to-window"
} >"$here/countersign.classlist"
echo "$(grep -vc '^#' "$here/countersign.classlist") entries in $here/countersign.classlist"
{
  echo "# Every class the console loads up to its inbox, written by packaging/jpackage/capture-classlist.sh; the"
  echo "# launcher dumps them into a class-data archive where the application is installed."
  # dynamic proxies are generated anew at every start, under numbered names an archive cannot hold
  grep -v -e '^#' -e 'jdk/proxy' -e 'com/sun/proxy' "$work/to-inbox"
} >"$here/console.classlist"
echo "$(grep -vc '^#' "$here/console.classlist") entries in $here/console.classlist"
