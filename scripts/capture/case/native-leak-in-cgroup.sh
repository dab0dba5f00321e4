#!/usr/bin/env bash
# One JVM leaking native memory (NativeLeak: Unsafe.allocateMemory, never freed) under a memory
# cgroup (v1: memory.limit_in_bytes), as a container runtime runs a TaskManager or an executor, until
# the kernel's OOM killer ends it (issue 37: ps samples that name their pid join the JVM's views).
# While it runs, its memory is sampled every second the ways people sample a process with ps:
#   ps-o.txt      `ps -o pid,etimes,rss,vsz,cmd -p PID` (its header each time; ELAPSED = etimes)
#   ps-u.txt      `ps u -p PID` (the `ps aux` columns: USER PID %CPU %MEM VSZ RSS ... COMMAND)
#   ps-PID.txt    `echo "$(date +%T) $(ps -o rss= -p PID)"` (no pid in the text; the file is named for it)
#   ps-bare.txt   the same loop, under a name without the pid
# and, once, `jcmd PID VM.native_memory baseline`, then after SNAP_AFTER_S seconds
# `jcmd PID VM.native_memory summary.diff` (nmt-diff.txt), `pmap -x PID` (pmap.txt) and
# `cat /proc/PID/status` (status.txt). After the kill: its exit status and the kernel's OOM report for
# it (dmesg.txt: from the "invoked oom-killer" line to "Killed process PID", as dmesg printed them).
# usage: native-leak-in-cgroup.sh OUTDIR LIMIT_MIB MIB_PER_S SNAP_AFTER_S
set -euo pipefail
out=$1 limit=$2 rate=$3 after=$4
here=$(cd "$(dirname "$0")"/../jvm && pwd)
parent=/sys/fs/cgroup/memory$(grep -oP '^\d+:memory:\K.*' /proc/self/cgroup)
cg=$parent/native-leak-$$
mkdir -p "$out/classes" "$cg"
javac -d "$out/classes" "$here/NativeLeak.java" 2>/dev/null
echo "${limit}M" > "$cg/memory.limit_in_bytes"
: > "$out/console.txt"
cmd="java -XX:NativeMemoryTracking=summary -Xmx32m -cp $out/classes NativeLeak $rate"
echo "mkdir $cg; echo ${limit}M > $cg/memory.limit_in_bytes" > "$out/commands.txt"
echo "bash -c 'echo \$\$ > $cg/cgroup.procs; exec $cmd' > $out/console.txt 2>&1" >> "$out/commands.txt"
# The child joins the cgroup before exec, so the JVM is limited from its first allocation.
bash -c "echo \$\$ > $cg/cgroup.procs; exec $cmd" > "$out/console.txt" 2>&1 &
pid=$!
until grep -q ready "$out/console.txt"; do sleep 0.05; done
until jcmd "$pid" VM.native_memory baseline > "$out/nmt-baseline.txt" 2>&1; do sleep 0.2; done
start=$SECONDS snapped=
while kill -0 "$pid" 2>/dev/null; do
  ps -o pid,etimes,rss,vsz,cmd -p "$pid" >> "$out/ps-o.txt" || true
  ps u -p "$pid" >> "$out/ps-u.txt" || true
  rss=$(ps -o rss= -p "$pid" || true)
  [ -n "$rss" ] && echo "$(date +%T) $rss" | tee -a "$out/ps-bare.txt" >> "$out/ps-$pid.txt"
  if [ -z "$snapped" ] && (( SECONDS - start >= after )); then
    jcmd "$pid" VM.native_memory summary.diff > "$out/nmt-diff.txt" || true
    pmap -x "$pid" > "$out/pmap.txt" || true
    cat "/proc/$pid/status" > "$out/status.txt" || true
    snapped=1
  fi
  sleep 1
done
set +e; wait "$pid"; echo "exit status $?" > "$out/exit.txt"; set -e
dmesg | awk -v pid="$pid" '/invoked oom-killer/ { block = "" } { block = block $0 "\n" }
  $0 ~ "Killed process " pid " " { printf "%s", block; exit }' > "$out/dmesg.txt"
rmdir "$cg"
echo "$pid" > "$out/pid.txt"
cat >> "$out/commands.txt" <<CMDS
every second: ps -o pid,etimes,rss,vsz,cmd -p $pid >> ps-o.txt; ps u -p $pid >> ps-u.txt; echo "\$(date +%T) \$(ps -o rss= -p $pid)" >> ps-$pid.txt (and ps-bare.txt)
jcmd $pid VM.native_memory baseline; after ${after} s: jcmd $pid VM.native_memory summary.diff > nmt-diff.txt; pmap -x $pid > pmap.txt; cat /proc/$pid/status > status.txt
wait $pid; dmesg, from the last "invoked oom-killer" line to "Killed process $pid"
CMDS
