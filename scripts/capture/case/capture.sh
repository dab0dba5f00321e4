#!/usr/bin/env bash
# One JVM, three views of the same PID: its GC log (file name %p = pid), NMT summary (with the "<pid>:" header), pmap -x.
set -euo pipefail
out=$1; n=$2
mkdir -p "$out/classes"
javac -d "$out/classes" "$(cd "$(dirname "$0")"/../jvm && pwd)/ThreadLeak.java"
: > "$out/ready.out"
java -XX:NativeMemoryTracking=summary -Xmx64m "-Xlog:gc*:file=$out/gc-%p.log:time,pid,level,tags" -cp "$out/classes" ThreadLeak "$n" > "$out/ready.out" 2>&1 &
pid=$!
until grep -q ready "$out/ready.out"; do sleep 0.2; done
jcmd "$pid" GC.run >/dev/null
jcmd "$pid" VM.native_memory summary > "$out/nmt.txt"
pmap -x "$pid" > "$out/pmap.txt"
kill "$pid"; wait "$pid" || true
echo "$pid" > "$out/pid.txt"
