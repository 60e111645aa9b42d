#!/bin/bash
# Countersign's launcher on Linux: the console without arguments, the command line with them. The package build
# puts it in the app image in place of the launcher jpackage writes, which asks rpm and dpkg which package owns
# it, twice, before it starts Java: 0.15–0.3 s of every start on a system with a few thousand packages. This one
# starts the image's runtime with what jpackage wrote into lib/app/Countersign.cfg (class path, main class, Java
# options; $APPDIR stands for lib/app), so the configuration stays jpackage's. The runtime's java is started
# through the link lib/runtime/bin/Countersign, so that process lists name the application.
set -euo pipefail

launcher=$(readlink -f "$0")
root=${launcher%/bin/*}
app=$root/lib/app
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

exec -a "$launcher" "$root/lib/runtime/bin/Countersign" "${options[@]}" -cp "$classpath" "$main" "$@"
