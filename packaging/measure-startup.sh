#!/usr/bin/env bash
# Time from process start to the console's first shown window, under a virtual X display.
#
#   packaging/measure-startup.sh [-n RUNS] [-t TITLE] [-g] LAUNCHER [ARGS...]
#
# Starts Xvfb on a display it picks itself, then RUNS times (default 5): starts LAUNCHER and polls the display every
# 10 ms with xdotool for a visible window whose title matches TITLE (default "Countersign": the first window,
# which shows while the store opens; "waiting" waits for the inbox, whose count the title carries); the time
# from start to that window is one sample. The first run starts on an empty home folder (first start: the store is created and
# the demo workspace is written; COUNTERSIGN_STORE is unset), the others reuse it. Prints each sample with the
# CPU time the process had used by then (less sensitive to a busy machine than the wall time), and the median
# of the later runs. When the first start has begun to write the console's class-data archive into the home's
# cache folder (the Linux app image's launcher does that 20 s after a first start, see
# packaging/linux/launcher.sh), the later runs wait for it, up to 120 s, as every start after a person's first
# one finds it.
# -g starts each run in a process group of its own and stops the whole group after it, for a launcher whose
# child outlives it (the Java that mvn javafx:run forks); without it only the launcher's process is stopped, so
# that the archive writer the app image's first start leaves behind keeps running. The CPU time is always the
# launcher's own process's.
# Needs Xvfb and xdotool (apt-get install -y xvfb xdotool libgtk-3-0).
set -euo pipefail

runs=5
title=Countersign
group=
while [ $# -gt 1 ]; do
  case $1 in
    -n) runs=$2; shift 2 ;;
    -t) title=$2; shift 2 ;;
    -g) group=1; shift ;;
    *) break ;;
  esac
done
if [ $# -lt 1 ]; then
  echo "usage: $0 [-n RUNS] [-t TITLE] [-g] LAUNCHER [ARGS...]" >&2
  exit 2
fi
for tool in Xvfb xdotool; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is missing (apt-get install -y xvfb xdotool)" >&2; exit 2; }
done

work=$(mktemp -d)
xvfb_pid=
app_pid=
cleanup() {
  [ -n "$app_pid" ] && kill ${group:+--} "${group:+-}$app_pid" 2>/dev/null || true
  if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Xvfb picks a free display itself and writes its number once it accepts clients (-displayfd), so no other
# X server's leftovers can make it fail and the first client never races its start
Xvfb -displayfd 3 -screen 0 1440x900x24 -nolisten tcp 3>"$work/display" >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
display=
for _ in $(seq 600); do
  [ -s "$work/display" ] && display=":$(tr -d '[:space:]' <"$work/display")" && break
  kill -0 "$xvfb_pid" 2>/dev/null || break
  sleep 0.05
done
if [ -z "$display" ]; then
  kill -0 "$xvfb_pid" 2>/dev/null && echo "$0: Xvfb did not open a display within 30 s; it said:" >&2 \
    || echo "$0: Xvfb stopped before it opened a display; it said:" >&2
  cat "$work/xvfb.log" >&2
  exit 1
fi

mkdir -p "$work/home"
samples=()
for run in $(seq "$runs"); do
  start=$(date +%s%N)
  ${group:+setsid} env -u COUNTERSIGN_STORE HOME="$work/home" XDG_DATA_HOME="$work/home/.local/share" XDG_CONFIG_HOME="$work/home/.config" XDG_CACHE_HOME="$work/home/.cache" DISPLAY=$display "$@" >"$work/app-$run.log" 2>&1 &
  app_pid=$!
  shown=
  while kill -0 "$app_pid" 2>/dev/null; do
    if DISPLAY=$display xdotool search --onlyvisible --name "$title" >/dev/null 2>&1; then
      shown=$(date +%s%N)
      cpu_ticks=$(awk '{ print $14 + $15 }' "/proc/$app_pid/stat" 2>/dev/null || echo 0)
      break
    fi
    sleep 0.01
    [ $(( ($(date +%s%N) - start) / 1000000 )) -gt 60000 ] && break
  done
  kill ${group:+--} "${group:+-}$app_pid" 2>/dev/null || true
  wait "$app_pid" 2>/dev/null || true
  app_pid=
  if [ -z "$shown" ]; then
    echo "run $run: no window within 60 s; the launcher said:" >&2
    cat "$work/app-$run.log" >&2
    if ! kill -0 "$xvfb_pid" 2>/dev/null; then
      echo "Xvfb (display $display) had stopped; it said:" >&2
      cat "$work/xvfb.log" >&2
    fi
    exit 1
  fi
  ms=$(( (shown - start) / 1000000 ))
  label=$([ "$run" = 1 ] && echo "first start" || echo "later start")
  echo "run $run ($label): ${ms} ms, $(( cpu_ticks * 1000 / $(getconf CLK_TCK) )) ms of CPU"
  [ "$run" -gt 1 ] && samples+=("$ms")
  if [ "$run" = 1 ] && compgen -G "$work/home/.cache/countersign/console-*.jsa.writing" >/dev/null; then
    for _ in $(seq 1200); do
      compgen -G "$work/home/.cache/countersign/console-*.jsa.writing" >/dev/null || break
      sleep 0.1
    done
    if ! compgen -G "$work/home/.cache/countersign/console-*.jsa" >/dev/null; then
      echo "$0: the first start wrote no class-data archive into $work/home/.cache/countersign within 120 s" >&2
      exit 1
    fi
    echo "the first start wrote the console's class-data archive; the later starts map it"
  fi
done
if [ ${#samples[@]} -gt 0 ]; then
  median=$(printf '%s\n' "${samples[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  echo "median of later starts: ${median} ms"
fi
