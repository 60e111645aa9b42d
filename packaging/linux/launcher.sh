#!/bin/bash
# Countersign's launcher on Linux: the console without arguments (or with only --store), the command line with
# them. The package build puts it in the app image in place of the launcher jpackage writes, which asks rpm and
# dpkg which package owns it, twice, before it starts Java: 0.15–0.3 s of every start on a system with a few
# thousand packages. This one starts the image's runtime with what jpackage wrote into lib/app/Countersign.cfg
# (class path, main class, Java options; $APPDIR stands for lib/app), so the configuration stays jpackage's. The
# runtime's java is started through the link lib/runtime/bin/Countersign, so that process lists name the
# application.
#
# The console's class-data archive: the runtime's own archive holds the JDK's and JavaFX's classes up to the
# first window, which keeps the image small, and Java 17 maps classes of the class path only from an archive
# dumped where they are installed. So the first start of the console dumps, 20 s later and at the lowest
# priority, an archive of every class it loads up to the inbox (lib/app/console.classlist) into the person's
# cache folder, and later starts map it: about 0.2 s sooner to the inbox on two cores. Its name carries a
# checksum of the installation's path and files, so that an archive never meets jars or a runtime other than
# its own (Java would then start without any archive).
set -euo pipefail

launcher=$(readlink -f "$0")
root=${launcher%/bin/*}
app=$root/lib/app
runtime=$root/lib/runtime
config=$app/Countersign.cfg
if [ ! -r "$config" ]; then
  echo "Countersign: $config is missing; the installation is incomplete, install the package again" >&2
  exit 1
fi

main=
classpath=
options=()
while IFS= read -r line || [ -n "$line" ]; do
  value=${line#*=}
  value=${value//\$APPDIR/$app}
  case $line in
    app.mainclass=*) main=$value ;;
    app.classpath=*) classpath=${classpath:+$classpath:}$value ;;
    java-options=*) options+=("$value") ;;
    '' | '['*']') ;;
    *)
      echo "Countersign: $config has a setting this launcher does not know: $line" >&2
      exit 1
      ;;
  esac
done <"$config"
if [ -z "$main" ] || [ -z "$classpath" ]; then
  echo "Countersign: $config names no main class or no class path; install the package again" >&2
  exit 1
fi

# Dumps the console's archive unless the cache folder is gone by then (a temporary home that was removed).
write_archive() {
  sleep 20
  [ -d "$cache" ] || return 0
  # the archives of other installations or builds, and what writers that died left half written
  rm -f "$cache"/console-*.jsa "$cache"/console-*.jsa.part.*
  local part=$archive.part.$BASHPID
  if env -u JAVA_TOOL_OPTIONS -u JDK_JAVA_OPTIONS nice -n 19 "$runtime/bin/java" "${options[@]}" -XX:+UseG1GC \
    -Xshare:dump -XX:SharedClassListFile="$app/console.classlist" -XX:SharedArchiveFile="$part" \
    -cp "$classpath" >/dev/null 2>&1; then
    mv -f "$part" "$archive"
  fi
  rm -f "$part"
  rmdir "$archive.writing" 2>/dev/null || true
}

archive_options=()
cache=${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/countersign
if { [ $# -eq 0 ] || { [ $# -eq 2 ] && [ "$1" = --store ]; }; } &&
  key=$(stat -c '%n %s %Y' "$app"/*.jar "$app/console.classlist" "$runtime/lib/modules" \
    "$runtime/lib/server/libjvm.so" 2>/dev/null | cksum | cut -d ' ' -f 1); then
  archive=$cache/console-$key.jsa
  if [ -f "$archive" ]; then
    archive_options=(-XX:SharedArchiveFile="$archive")
  elif mkdir -p "$cache" 2>/dev/null; then
    # one writer at a time; a writer that died (power cut) left its lock, which counts as gone after 10 minutes
    find "$cache" -maxdepth 1 -name 'console-*.jsa.writing' -mmin +10 -exec rmdir {} + 2>/dev/null || true
    if mkdir "$archive.writing" 2>/dev/null; then
      (trap '' HUP; write_archive) </dev/null >/dev/null 2>&1 &
    fi
  fi
fi

exec -a "$launcher" "$runtime/bin/Countersign" "${options[@]}" "${archive_options[@]}" -cp "$classpath" "$main" "$@"
