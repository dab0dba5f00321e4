#!/usr/bin/env bash
# Captures real HPROF heap dumps from live JVMs for the heap dump reader's tests (issue 36):
#   static-cache-oom        CacheLeak fills a static HashMap, dumped by -XX:+HeapDumpOnOutOfMemoryError
#   local-variable-oom      LocalListLeak: a List local of thread "ingest-worker", dumped on its OOM
#   threadlocal-leak        ThreadLocalLeak: pooled threads' ThreadLocal lists, jcmd GC.heap_dump
#   classloader-leak        ClassLoaderLeak: 300 URLClassLoaders kept in a static list, jcmd GC.heap_dump
#   peak-no-leak-all        PeakNoLeak: 32 threads' short-lived batches, jcmd GC.heap_dump -all mid-run
#   object-arrays-jcmd-gz1  ObjectArrays: jcmd GC.heap_dump -gz=1, the JVM's own gzip output kept as is
#   truncated-*             static-cache-oom cut at a record boundary / mid-record; the -gz=1 file cut
#   static-cache-oom-id4    CacheLeak on a 32-bit JVM (4-byte ids); only when named, with JAVA32 set
# Usage: scripts/capture/heap/capture.sh <out-dir> [capture...]   (default: all of them, in this order)
# Needs a JDK 17 (java, javac, jcmd) and gzip on PATH. Every command it runs is appended to
# <out-dir>/commands.txt; `java -version` goes to <out-dir>/java-version.txt. The committed fixtures
# are <out-dir>/*.hprof.gz (gzip -9 -n of the JVM's file, except the -gz=1 one, which is the JVM's).
set -euo pipefail
out=${1:?usage: capture.sh <out-dir> [capture...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$out" && cd "$out" && pwd)
mkdir -p "$out/classes" "$out/plugin" "$out/raw"
javac -d "$out/classes" "$here/CacheLeak.java" "$here/LocalListLeak.java" "$here/ThreadLocalLeak.java" \
  "$here/ClassLoaderLeak.java" "$here/PeakNoLeak.java" "$here/ObjectArrays.java" "$here/HprofCut.java"
javac -d "$out/plugin" "$here/Plugin.java" # apart from classes/: only the leak's own loaders can find it
java -version 2>"$out/java-version.txt"

run() { echo "$*" >>"$out/commands.txt"; "$@"; }
pack() { run gzip -9 -n -c "$out/raw/$1.hprof" >"$out/$1.hprof.gz"; }

# A JVM that runs until its OutOfMemoryError writes the dump; its stdout/stderr kept beside it.
until_oom() {
  local name=$1 heap=$2
  shift 2
  rm -f "$out/raw/$name.hprof"
  run java "-Xmx$heap" -XX:+HeapDumpOnOutOfMemoryError "-XX:HeapDumpPath=$out/raw/$name.hprof" \
    -XX:+PrintCommandLineFlags -cp "$out/classes" "$@" >"$out/$name.out" 2>&1 || true
  pack "$name"
}

# A JVM dumped by `jcmd <pid> GC.heap_dump <options> <file>` once it prints "ready", then stopped.
by_jcmd() {
  local name=$1 heap=$2 file=$3 options=$4
  shift 4
  rm -f "$file"
  : >"$out/$name.out"
  echo "java -Xmx$heap -XX:+PrintCommandLineFlags -cp $out/classes $* &" >>"$out/commands.txt"
  java "-Xmx$heap" -XX:+PrintCommandLineFlags -cp "$out/classes" "$@" >"$out/$name.out" 2>&1 &
  local pid=$!
  until grep -q ready "$out/$name.out"; do sleep 0.2; done
  # shellcheck disable=SC2086 # options is a list of jcmd words
  run jcmd "$pid" GC.heap_dump $options "$file" | tail -n +2 >>"$out/$name.out"
  kill "$pid"
  wait "$pid" || true
}

capture() {
  case $1 in
  static-cache-oom) until_oom static-cache-oom 64m CacheLeak 4096 ;;
  local-variable-oom) until_oom local-variable-oom 32m LocalListLeak 4096 ;;
  threadlocal-leak)
    by_jcmd threadlocal-leak 32m "$out/raw/threadlocal-leak.hprof" "" ThreadLocalLeak 4 1200 4096
    pack threadlocal-leak
    ;;
  classloader-leak)
    by_jcmd classloader-leak 64m "$out/raw/classloader-leak.hprof" "" ClassLoaderLeak "$out/plugin" 300
    pack classloader-leak
    ;;
  peak-no-leak-all)
    by_jcmd peak-no-leak-all 64m "$out/raw/peak-no-leak-all.hprof" "-all" PeakNoLeak 32 128 4096
    pack peak-no-leak-all
    ;;
  static-cache-oom-id4) # a 32-bit JVM: JAVA32=<dir>/java32 from fetch-java32.sh
    local java32=${JAVA32:?set JAVA32 to a 32-bit java (scripts/capture/heap/fetch-java32.sh)}
    "$java32" -version 2>"$out/java32-version.txt"
    rm -f "$out/raw/static-cache-oom-id4.hprof"
    run "$java32" -Xmx32m -XX:+HeapDumpOnOutOfMemoryError "-XX:HeapDumpPath=$out/raw/static-cache-oom-id4.hprof" \
      -XX:+PrintCommandLineFlags -cp "$out/classes" CacheLeak 4096 >"$out/static-cache-oom-id4.out" 2>&1 || true
    pack static-cache-oom-id4
    ;;
  object-arrays-jcmd-gz1)
    by_jcmd object-arrays-jcmd-gz1 32m "$out/object-arrays-jcmd-gz1.hprof.gz" "-gz=1" ObjectArrays 5000
    ;;
  truncated) # needs static-cache-oom's raw/ dump and object-arrays-jcmd-gz1 in <out-dir>
    for where in boundary mid; do
      run java -cp "$out/classes" HprofCut "$out/raw/static-cache-oom.hprof" "$where" \
        "$out/raw/truncated-$where.hprof" | tee -a "$out/cuts.txt"
      pack "truncated-$where"
    done
    # A -gz dump cut short: the JVM's gzip stream stops halfway (no gzip trailer on the last member).
    local size
    size=$(stat -c %s "$out/object-arrays-jcmd-gz1.hprof.gz")
    run head -c $((size / 2)) "$out/object-arrays-jcmd-gz1.hprof.gz" >"$out/truncated-jcmd-gz1.hprof.gz"
    echo "truncated-jcmd-gz1.hprof.gz: first $((size / 2)) of $size bytes of object-arrays-jcmd-gz1.hprof.gz" \
      | tee -a "$out/cuts.txt"
    ;;
  *) echo "unknown capture: $1" >&2 && return 2 ;;
  esac
}

[ $# -gt 0 ] || set -- static-cache-oom local-variable-oom threadlocal-leak classloader-leak peak-no-leak-all \
  object-arrays-jcmd-gz1 truncated
for name in "$@"; do capture "$name"; done
