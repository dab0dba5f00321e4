#!/bin/sh
# Samples one leak.py process the ways the beam-python-leak "samples" step tells a person to, all at once:
#   ps -o rss=  with a date +%T stamp, top -b -d INTERVAL -p PID, and VmRSS from /proc/PID/status.
# usage: capture.sh OUTDIR NAME INTERVAL_S COUNT -- leak.py arguments...
# Writes OUTDIR/NAME-ps.txt, NAME-top.txt, NAME-status.txt.
set -eu
out=$1 name=$2 interval=$3 count=$4
shift 5
here=$(dirname "$0")
python3 "$here/leak.py" "$@" > "$out/.ready-$name" &
pid=$!
# Start sampling once the starting memory is held (leak.py prints "ready").
while ! grep -q ready "$out/.ready-$name" 2>/dev/null; do sleep 0.05; done
rm -f "$out/.ready-$name"
top -b -d "$interval" -n "$count" -p "$pid" > "$out/$name-top.txt" &
topper=$!
i=0
while [ "$i" -lt "$count" ]; do
  echo "$(date +%T) $(ps -o rss= -p "$pid")" >> "$out/$name-ps.txt"
  echo "$(date +%T) $(grep VmRSS "/proc/$pid/status")" >> "$out/$name-status.txt"
  i=$((i + 1))
  sleep "$interval"
done
wait "$topper"
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
