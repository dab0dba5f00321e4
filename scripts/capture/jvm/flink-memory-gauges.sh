#!/usr/bin/env bash
# Captures the memory gauges a Flink TaskManager reports (Status.JVM.Memory.*, apache/flink MetricUtils)
# from a real JVM started with the flags Flink gives a TaskManager of taskmanager.memory.process.size
# 1728m (the memoryConfiguration of test/connectors/fixtures/flink/taskmanager-detail-flink-13547.json:
# -Xmx = -Xms = frameworkHeap + taskHeap, -XX:MaxDirectMemorySize = frameworkOffHeap + taskOffHeap +
# networkMemory, -XX:MaxMetaspaceSize = jvmMetaspace), for the Flink connector's
# GET /taskmanagers/<id>/metrics fixture (issue 23): 200 MiB of direct buffers held, 40 MiB of heap.
# Usage: scripts/capture/jvm/flink-memory-gauges.sh <out-dir>
# Needs a JDK (java, javac) on PATH; every command it runs is echoed to <out-dir>/commands.txt.
set -euo pipefail
out=${1:?usage: flink-memory-gauges.sh <out-dir>}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/classes"
javac -d "$out/classes" "$here/FlinkMemoryGauges.java"
java -version 2>"$out/java-version.txt"
run() { echo "$*" >>"$out/commands.txt"; "$@"; }
run java -Xmx536870902 -Xms536870902 -XX:MaxDirectMemorySize=268435458 -XX:MaxMetaspaceSize=268435456 \
  -cp "$out/classes" FlinkMemoryGauges 200 40 >"$out/flink-memory-gauges.txt"
