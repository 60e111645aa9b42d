#!/usr/bin/env bash
# Builds the Linux package and checks it the way a person would meet it:
#   - dpkg-deb --info: the package's name, version, architecture and dependencies;
#   - dpkg-deb --contents: the launcher, countersign on the PATH, the desktop entry, the AppStream metadata,
#     the icons and the runtime (JVM, modules, class-data archive, JavaFX's and SQLite's native libraries);
#   - unpacked into a temporary root (dpkg-deb -x): the desktop entry and metadata validate (when
#     desktop-file-validate and appstreamcli are installed), the runtime holds every JDK module jdeps finds
#     in the jars, and the command line answers --version through a link like /usr/bin/countersign, with the
#     class-data archive in use and nothing on stderr;
#   - when Xvfb and xdotool are installed: the installed launcher opens the console's window, dumps the console's
#     class-data archive after that first start, and maps it at the next.
#
#   packaging/test-deb.sh [--no-build] [MAVEN ARGUMENTS...]
#
# --no-build checks the .deb already in target/jpackage/installer; other arguments go to Maven (e.g. -o).
set -euo pipefail
cd "$(dirname "$0")/.."

build=yes
if [ "${1:-}" = "--no-build" ]; then build=no; shift; fi

failures=0
pass() { echo "  ok    $*"; }
fail() { echo "  FAIL  $*"; failures=$((failures + 1)); }
check() { # check DESCRIPTION COMMAND...: passes when the command succeeds
  local what=$1; shift
  if "$@" >/dev/null 2>&1; then pass "$what"; else fail "$what"; fi
}

if [ "$build" = yes ]; then
  echo "building the package (mvn -Ppackage package)"
  start=$(date +%s)
  mvn -B -q -Ppackage -DskipTests "$@" package
  echo "  built in $(( $(date +%s) - start )) s"
fi

shopt -s nullglob
debs=(target/jpackage/installer/countersign_*.deb)
if [ ${#debs[@]} -ne 1 ]; then
  echo "expected one countersign_*.deb in target/jpackage/installer, found ${#debs[@]}" >&2
  exit 1
fi
deb=${debs[0]}
echo "checking $deb ($(du -h "$deb" | cut -f1))"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset JAVA_TOOL_OPTIONS JDK_JAVA_OPTIONS _JAVA_OPTIONS

echo "dpkg-deb --info"
dpkg-deb --info "$deb" >"$work/info"
field() { dpkg-deb --field "$deb" "$1"; }
check "the package is named countersign" test "$(field Package)" = countersign
check "its version is numeric with a package release ($(field Version))" \
  grep -Eq '^[0-9]+(\.[0-9]+)*-[0-9]+$' <<<"$(field Version)"
check "it is built for this machine ($(field Architecture))" test "$(field Architecture)" = "$(dpkg --print-architecture)"
check "it depends on GTK 3, which JavaFX draws with" grep -Eq '(^|, )libgtk-3-0($|,)' <<<"$(field Depends)"

echo "dpkg-deb --contents"
dpkg-deb --contents "$deb" | awk '{ path = $6; for (i = 7; i <= NF; i++) path = path " " $i; print substr($1, 1, 1), path }' \
  >"$work/contents"
has() { grep -Fxq -e "$1" "$work/contents"; }
check "the launcher /opt/countersign/bin/Countersign" has "- ./opt/countersign/bin/Countersign"
check "countersign on the PATH: /usr/bin/countersign -> the launcher" \
  has "l ./usr/bin/countersign -> /opt/countersign/bin/Countersign"
check "the desktop entry" has "- ./usr/share/applications/io.countersign.Countersign.desktop"
check "the AppStream metadata" has "- ./usr/share/metainfo/io.countersign.Countersign.metainfo.xml"
for icon in scalable/apps/io.countersign.Countersign.svg 256x256/apps/io.countersign.Countersign.png \
  512x512/apps/io.countersign.Countersign.png; do
  check "the icon $icon" has "- ./usr/share/icons/hicolor/$icon"
done
for file in lib/server/libjvm.so lib/modules lib/server/classes.jsa lib/libglass.so lib/libglassgtk3.so \
  lib/libprism_sw.so; do
  check "the runtime's $file" has "- ./opt/countersign/lib/runtime/$file"
done
check "the launcher's configuration" has "- ./opt/countersign/lib/app/Countersign.cfg"
check "SQLite's native library beside the jars" has "- ./opt/countersign/lib/app/libsqlitejdbc.so"
check "the application jar" grep -Eq '^- \./opt/countersign/lib/app/countersign-[0-9][^/]*\.jar$' "$work/contents"

echo "installed into a temporary root (dpkg-deb -x)"
root=$work/root
dpkg-deb -x "$deb" "$root"
app=$root/opt/countersign
desktop=$root/usr/share/applications/io.countersign.Countersign.desktop
exec_line=$(sed -n 's/^Exec=//p' "$desktop")
check "the desktop entry starts the installed launcher ($exec_line)" test -x "$root$exec_line"
check "the launcher is Countersign's own, which starts Java without asking rpm and dpkg first" \
  cmp -s packaging/linux/launcher.sh "$app/bin/Countersign"
if command -v desktop-file-validate >/dev/null; then
  check "the desktop entry validates" desktop-file-validate "$desktop"
else
  echo "  skip  desktop-file-validate is not installed (apt-get install desktop-file-utils)"
fi
if command -v appstreamcli >/dev/null; then
  check "the AppStream metadata validates" appstreamcli validate --no-net \
    "$root/usr/share/metainfo/io.countersign.Countersign.metainfo.xml"
else
  echo "  skip  appstreamcli is not installed (apt-get install appstream)"
fi

# jlink.options names the JDK modules; a new dependency may need one more
"$app/lib/runtime/bin/java" --list-modules | sed 's/@.*//' | sort >"$work/runtime-modules"
# CEL's artifacts share packages, which a module path refuses (the app runs them on the class path): jdeps reads
# them merged into one jar
mkdir "$work/jars" "$work/cel"
for jar in "$app"/lib/app/*.jar; do
  if unzip -Z1 "$jar" 'dev/cel/*' >/dev/null 2>&1; then
    unzip -qo "$jar" -x 'META-INF/*' -d "$work/cel"
  else
    ln -s "$jar" "$work/jars/"
  fi
done
jar --create --file "$work/jars/dev.cel.jar" -C "$work/cel" .
if ! jdeps --print-module-deps --ignore-missing-deps --multi-release 17 \
  --module-path "target/jpackage/javafx:$work/jars" "$work"/jars/*.jar >"$work/jdeps" 2>"$work/jdeps.err"; then
  cat "$work/jdeps.err" >&2
  exit 1
fi
tail -1 "$work/jdeps" | tr ',' '\n' | sort -u >"$work/needed-modules"
missing=$(comm -23 "$work/needed-modules" "$work/runtime-modules" | tr '\n' ' ')
if [ -z "$missing" ]; then
  pass "the runtime has every module jdeps finds in the jars ($(wc -l <"$work/needed-modules") modules)"
else
  fail "the runtime lacks modules the jars use: $missing(add them to packaging/jpackage/jlink.options)"
fi

version=$(basename "$app"/lib/app/countersign-*.jar .jar)
version=${version#countersign-}
mkdir "$work/bin"
ln -s "$app/bin/Countersign" "$work/bin/countersign"
# -Xshare:on makes the JVM refuse to start rather than run without the class-data archive
if JAVA_TOOL_OPTIONS=-Xshare:on "$work/bin/countersign" --version >"$work/out" 2>"$work/err"; then
  pass "countersign --version exits with 0"
else
  fail "countersign --version exits with $?"
fi
check "it prints the version ($(head -1 "$work/out"))" grep -Fq "$version" "$work/out"
grep -v '^Picked up JAVA_TOOL_OPTIONS' "$work/err" >"$work/err.rest" || true
if [ -s "$work/err.rest" ]; then
  fail "it writes nothing to stderr, but wrote:"
  sed 's/^/          /' "$work/err.rest"
else
  pass "it writes nothing to stderr, with the class-data archive mapped (-Xshare:on)"
fi

if command -v Xvfb >/dev/null && command -v xdotool >/dev/null; then
  # the second start waits for the console's class-data archive, which the launcher dumps after the first;
  # -Xshare:on makes a start whose archive does not map fail instead of running without it
  if JAVA_TOOL_OPTIONS="-Xshare:on -Xlog:class+load=info:file=$work/loaded-%p.log" \
    packaging/measure-startup.sh -n 2 "$app/bin/Countersign" >"$work/startup" 2>&1; then
    pass "the installed launcher opens the console's window: $(tail -1 "$work/startup")"
  else
    fail "the installed launcher opens no window:"
    sed 's/^/          /' "$work/startup"
  fi
  check "the later start maps the class path's classes from the console's class-data archive" \
    grep -q 'io.countersign.app.Main source: shared objects file' "$work"/loaded-*.log
else
  echo "  skip  Xvfb or xdotool is not installed: the console's window is not checked"
fi

du_image=$(du -sm "$app" | cut -f1)
echo "app image: $du_image MB installed, package $(du -m "$deb" | cut -f1) MB"
if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
