#!/bin/sh
# The capture matrix recorded in playbooks/beam-python-leak/fixtures/SOURCES.md:
# leak rate x sampling interval x tool, plus a step then flat, an idle process over a short span, and a
# process past 1 GiB, where top scales RES ("4.4g").
set -eu
out=${1:-/tmp/memdoctor-series}
mkdir -p "$out"
here=$(dirname "$0")
cap() { "$here/capture.sh" "$out" "$@"; }
# Leak rate (MiB/s) x interval (s): 12 samples each, the process starting at 20 MiB.
for rate in 14 2 0.25; do
  for interval in 1 2; do
    cap "climb-${rate}mibs-${interval}s" "$interval" 12 -- climb "$rate" $((12 * interval + 3)) 20
  done
done
# Flat for 3 s, 100 MiB at once, then ten more samples of the same level.
cap step-100mib-1s 1 14 -- step 0 17 20 3 100
# An idle process for 8 s: too short a span to rule out a slow leak.
cap idle-8s 1 8 -- idle 0 11 30
# 4400 MiB held, climbing 14 MiB/s: top prints RES as "4.3g".
cap climb-14mibs-big-1s 1 10 -- climb 14 13 4400
