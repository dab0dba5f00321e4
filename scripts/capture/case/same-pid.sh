#!/usr/bin/env bash
# A JVM given the pid an earlier capture had (pids wrap at kernel.pid_max): the same key on another
# day, as a long-lived cluster sees it. The same views as capture.sh (GC log named by %p, NMT, pmap -x
# of ThreadLeak <n>), the JVM started once the kernel's last pid is <pid> - 1. Other processes may
# take the pid first: it says which pid it got, and the caller keeps the capture only when it matches.
# usage: same-pid.sh <out-dir> <pid> <n>
set -euo pipefail
out=$1; want=$2; n=$3
mkdir -p "$out/classes"
javac -d "$out/classes" "$(cd "$(dirname "$0")"/../jvm && pwd)/ThreadLeak.java"
# Start below the pid (the counter wraps at kernel.pid_max), then climb to it.
while [ "$(cut -d' ' -f5 /proc/loadavg)" -ge "$((want - 1))" ]; do /bin/true; done
: > "$out/ready.out"
# /proc/loadavg's fifth field is the last pid the kernel gave out.
while [ "$(cut -d' ' -f5 /proc/loadavg)" -lt "$((want - 1))" ]; do /bin/true; done
java -XX:NativeMemoryTracking=summary -Xmx64m "-Xlog:gc*:file=$out/gc-%p.log:time,pid,level,tags" -cp "$out/classes" ThreadLeak "$n" > "$out/ready.out" 2>&1 &
pid=$!
until grep -q ready "$out/ready.out"; do sleep 0.2; done
jcmd "$pid" GC.run >/dev/null
jcmd "$pid" VM.native_memory summary > "$out/nmt.txt"
pmap -x "$pid" > "$out/pmap.txt"
kill "$pid"; wait "$pid" || true
echo "$pid" > "$out/pid.txt"
echo "got pid $pid (wanted $want)"
