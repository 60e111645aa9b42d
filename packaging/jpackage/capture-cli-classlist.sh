#!/usr/bin/env bash
# Refreshes packaging/jpackage/cli.classlist: every class the command line loads for `decide`, `inbox`, `show`
# and `--version` on a demo store, in the order `decide` loads them and then what the others add. ./countersign
# dumps a class-data archive of them beside the jar, which every later command maps (see docs/packaging.md).
#
#   packaging/jpackage/capture-cli-classlist.sh
#
# Run it after a change of what those commands load, from a source tree whose target/countersign.jar is built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
jar=$here/../../target/countersign.jar
[ -f "$jar" ] || { echo "$0: build target/countersign.jar first (mvn -B -q package -DskipTests)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cli() { # cli LIST ARGS...: one command on the demo store, its loaded classes written to LIST
  local list=$1
  shift
  java -XX:TieredStopAtLevel=1 -XX:DumpLoadedClassList="$work/$list" -cp "$jar" io.countersign.app.Main "$@"
}
store=$work/countersign.db
cli demo.list --store "$store" demo >/dev/null
run=$(cli run.list --store "$store" run --agent release-notes-bot --prompt "Tidy the release notes" |
  sed -n 's/.*"runId" : "\([^"]*\)".*/\1/p')
digest=$(cli show.list --store "$store" show "$run" | sed -n 's/.*"digest" : "\([^"]*\)".*/\1/p' | head -1)
cli inbox.list --store "$store" inbox >/dev/null
cli decide.list --store "$store" decide "$run" --digest "$digest" --approve-all >/dev/null
cli version.list --version >/dev/null
{
  echo "# Every class the command line loads for decide, inbox, show and --version, written by"
  echo "# packaging/jpackage/capture-cli-classlist.sh; ./countersign dumps them into a class-data archive."
  # dynamic proxies are generated anew at every start, under numbered names an archive cannot hold
  cat "$work/decide.list" "$work/inbox.list" "$work/show.list" "$work/version.list" |
    grep -v -e '^#' -e 'jdk/proxy' -e 'com/sun/proxy' | awk '!seen[$0]++'
} >"$here/cli.classlist"
echo "$(grep -vc '^#' "$here/cli.classlist") entries in $here/cli.classlist"
