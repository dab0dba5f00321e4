#!/usr/bin/env bash
# Captures the heap gauges AWS Glue reports to CloudWatch (glue.<driver|ALL>.jvm.heap.used and
# .usage, Spark's JvmSource through Dropwizard's MemoryUsageGaugeSet) from a real JVM, for the Glue
# connector's GetMetricData fixtures (issue 23): a leak that ends in OutOfMemoryError (the driver) and
# a steady allocator (the executors). Usage: scripts/capture/jvm/heap-gauges.sh <out-dir>
# Needs a JDK (java, javac) on PATH; every command it runs is echoed to <out-dir>/commands.txt.
set -euo pipefail
out=${1:?usage: heap-gauges.sh <out-dir>}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/classes"
javac -d "$out/classes" "$here/HeapGauges.java"
java -version 2>"$out/java-version.txt"
run() { echo "$*" >>"$out/commands.txt"; "$@"; }
# Sampled every 30 s, as Glue reports its metrics: the leak keeps 100 KiB/s and fills 128 MiB in
# about 20 minutes; the steady allocator throws away 1.6 MB/s for 15 minutes. Both run at once.
run java -Xmx128m -XX:+UseG1GC -cp "$out/classes" HeapGauges leak 1 30000 120 >"$out/heap-gauges-leak.txt" &
run java -Xmx128m -XX:+UseG1GC -cp "$out/classes" HeapGauges steady 16 30000 30 >"$out/heap-gauges-steady.txt" &
wait
