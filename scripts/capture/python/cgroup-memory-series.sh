#!/usr/bin/env bash
# The memory of one container as Cloud Monitoring's Dataflow worker metrics hold it: a leaky_dofn.py
# process alone in a memory cgroup (v1 here) with a limit, as a worker's container runs under one.
# Every INTERVAL_S seconds, until the kernel's OOM killer ends the process at the limit, one line:
#   <epoch seconds> <memory.usage_in_bytes> <memory.limit_in_bytes>
# the cgroup's charged memory (what worker/memory/bytes_used reports for a container) and its limit
# (worker/memory/container_limit). cgroup-to-timeseries.mjs turns the lines into a timeSeries.list answer.
# usage: cgroup-memory-series.sh OUTDIR LIMIT_MIB ELEMENTS_PER_S INTERVAL_S
set -euo pipefail
out=$1 limit=$2 rate=$3 interval=$4
here=$(cd "$(dirname "$0")" && pwd)
parent=/sys/fs/cgroup/memory$(grep -oP '^\d+:memory:\K.*' /proc/self/cgroup)
cg=$parent/dataflow-container-$$
mkdir -p "$out" "$cg"
echo "${limit}M" > "$cg/memory.limit_in_bytes"
: > "$out/stdout.txt"
# The child joins the cgroup before exec, so python3 is charged from its first allocation.
bash -c "echo \$\$ > $cg/cgroup.procs; exec python3 $here/leaky_dofn.py $out $rate 60" > "$out/stdout.txt" 2>&1 &
pid=$!
until grep -q ready "$out/stdout.txt"; do sleep 0.05; done
while kill -0 "$pid" 2>/dev/null; do
  echo "$(date +%s) $(cat "$cg/memory.usage_in_bytes") $(cat "$cg/memory.limit_in_bytes")" >> "$out/cgroup-memory.txt"
  sleep "$interval"
done
set +e; wait "$pid"; echo "exit status $?" > "$out/exit.txt"; set -e
dmesg | grep -E "dataflow-container-$$|Killed process $pid" > "$out/dmesg.txt" || true
rmdir "$cg"
