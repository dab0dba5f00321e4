#!/usr/bin/env bash
# One JVM that leaks its heap to java.lang.OutOfMemoryError, five views of the same PID (issue 37):
#   its console (stdout+stderr: the OutOfMemoryError and "Dumping heap to .../java_pid<pid>.hprof"),
#   its GC log (file name %p = pid, time+pid decorators), `jcmd <pid> VM.native_memory summary`,
#   `pmap -x <pid>` (both taken while it runs), and the heap dump HotSpot writes at the error.
# usage: heap-oom.sh <out-dir>   (needs java, javac, jcmd, pmap; each command is echoed to commands.txt)
set -euo pipefail
out=${1:?usage: heap-oom.sh <out-dir>}
here=$(cd "$(dirname "$0")"/../jvm && pwd)
mkdir -p "$out/classes"
javac -d "$out/classes" "$here/HeapLeak.java"
cmd=(java -XX:NativeMemoryTracking=summary -Xmx32m -XX:+HeapDumpOnOutOfMemoryError "-XX:HeapDumpPath=$out"
  "-Xlog:gc*:file=$out/gc-%p.log:time,pid,level,tags" -cp "$out/classes" HeapLeak 1 8192)
echo "${cmd[*]} > $out/console.txt 2>&1" >>"$out/commands.txt"
"${cmd[@]}" >"$out/console.txt" 2>&1 &
pid=$!
echo "jcmd $pid VM.native_memory summary (once the JVM answers attach); pmap -x $pid" >>"$out/commands.txt"
until jcmd "$pid" VM.native_memory summary >"$out/nmt.txt" 2>/dev/null; do sleep 0.2; done
pmap -x "$pid" >"$out/pmap.txt" || true
wait "$pid" || true
gzip -9 "$out/java_pid$pid.hprof"
echo "gzip -9 $out/java_pid$pid.hprof" >>"$out/commands.txt"
echo "$pid" >"$out/pid.txt"
