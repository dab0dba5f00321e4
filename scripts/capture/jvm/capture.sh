#!/usr/bin/env bash
# Captures real JVM output for the gc-log and nmt parsers' tests (issue 21):
#   heap leak to OutOfMemoryError: collector x heap size x -Xlog selector x decorators -> gc logs
#   thread leak: thread count x -Xss -> `jcmd <pid> VM.native_memory summary`
# Usage: scripts/capture/jvm/capture.sh <out-dir> [heap|threads]
# Needs a JDK (java, javac, jcmd) on PATH; every command it runs is echoed to <out-dir>/commands.txt.
set -euo pipefail
out=${1:?usage: capture.sh <out-dir> [heap|threads]}
what=${2:-all}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/classes"
javac -d "$out/classes" "$here/HeapLeak.java" "$here/ThreadLeak.java"
java -version 2>"$out/java-version.txt"

run() { echo "$*" >>"$out/commands.txt"; "$@"; }

# A heap leak: 2 KiB kept for every 128 KiB thrown away, until the heap is full.
heap_matrix() {
  local gc heap sel deco name
  for gc in G1GC ParallelGC SerialGC ZGC ShenandoahGC; do
    java -XX:+Use$gc -version >/dev/null 2>&1 || continue # Shenandoah is not in every build
    for heap in 32m 128m; do
      for sel in 'gc' 'gc*'; do
        for deco in uptime,level,tags time none; do
          name="heap-leak-${gc}-${heap}-$([ "$sel" = gc ] && echo gc || echo gcstar)-${deco%%,*}"
          run java -XX:+Use$gc -Xmx$heap "-Xlog:$sel:file=$out/$name.log:$deco" \
            -cp "$out/classes" HeapLeak 2 128 >"$out/$name.out" 2>&1 || true
        done
      done
    done
  done
}

# Idle threads with shallow stacks: NMT's Thread area commits only the touched pages (JDK 11+).
thread_matrix() {
  local n xss name pid
  for n in 300 1500 3000; do
    for xss in default 256k 2m; do
      name="thread-leak-${n}-xss-${xss}"
      local opt=()
      [ "$xss" = default ] || opt=("-Xss$xss")
      echo "java -XX:NativeMemoryTracking=summary -Xmx64m ${opt[*]} ThreadLeak $n" >>"$out/commands.txt"
      : >"$out/$name.out" # exists before the JVM starts, for the wait below
      java -XX:NativeMemoryTracking=summary -Xmx64m "${opt[@]}" -cp "$out/classes" ThreadLeak "$n" >"$out/$name.out" 2>&1 &
      pid=$!
      until grep -q ready "$out/$name.out"; do sleep 0.2; done
      run jcmd "$pid" VM.native_memory summary | tail -n +2 >"$out/$name-nmt.txt" # line 1 is "<pid>:"
      ls "/proc/$pid/task" | wc -l >"$out/$name-tasks.txt"
      kill "$pid"
      wait "$pid" || true
    done
  done
}

[ "$what" = threads ] || heap_matrix
[ "$what" = heap ] || thread_matrix
