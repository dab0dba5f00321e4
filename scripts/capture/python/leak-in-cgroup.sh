#!/usr/bin/env bash
# One leaky_dofn.py process run under a memory limit, as a container runtime runs a worker: a cgroup
# (v1 here) with memory.limit_in_bytes, so the kernel's OOM killer ends it at the limit. While it
# runs, its memory is sampled the ways the beam-python-leak "samples" step tells a person to
# (top -b -p PID; `date +%T` + ps -o rss=; VmRSS from /proc/PID/status), and it writes its own
# tracemalloc comparison (tracemalloc-<pid>.txt). After the kill: its exit status and the kernel's
# OOM lines for it (dmesg).
# usage: leak-in-cgroup.sh OUTDIR LIMIT_MIB ELEMENTS_PER_S SNAPSHOT_AFTER_S
set -euo pipefail
out=$1 limit=$2 rate=$3 after=$4
here=$(cd "$(dirname "$0")" && pwd)
parent=/sys/fs/cgroup/memory$(grep -oP '^\d+:memory:\K.*' /proc/self/cgroup)
cg=$parent/leaky-dofn-$$
mkdir -p "$out" "$cg"
echo "${limit}M" > "$cg/memory.limit_in_bytes"
: > "$out/stdout.txt"
# The child joins the cgroup before exec, so python3 is limited from its first allocation.
bash -c "echo \$\$ > $cg/cgroup.procs; exec python3 $here/leaky_dofn.py $out $rate $after" > "$out/stdout.txt" 2>&1 &
pid=$!
until grep -q ready "$out/stdout.txt"; do sleep 0.05; done
top -b -d 1 -p "$pid" > "$out/top-$pid.txt" 2>/dev/null &
topper=$!
while kill -0 "$pid" 2>/dev/null; do
  rss=$(ps -o rss= -p "$pid" || true)
  status=$(grep VmRSS "/proc/$pid/status" 2>/dev/null || true)
  [ -n "$rss" ] && echo "$(date +%T) $rss" >> "$out/ps-$pid.txt"
  [ -n "$status" ] && echo "$(date +%T) $status" >> "$out/status-$pid.txt"
  sleep 1
done
set +e; wait "$pid"; echo "exit status $?" > "$out/exit.txt"; set -e
kill "$topper" 2>/dev/null || true
dmesg | grep -E "leaky-dofn-$$|Killed process $pid|oom-kill:.*task=python3,pid=$pid" > "$out/dmesg.txt" || true
rmdir "$cg"
echo "$pid" > "$out/pid.txt"
