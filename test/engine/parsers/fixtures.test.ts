import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, parseText } from '../../../src/engine/parsers/parse-text.ts';
import { PARSERS } from '../../../src/engine/parsers/registry.ts';
import { ParseFailedError } from '../../../src/errors.ts';

const DIR = join(import.meta.dirname, 'fixtures');
const read = (parser: string, file: string) => readFileSync(join(DIR, parser, file), 'utf8');
const head = (text: string) => text.split('\n').slice(0, 50);
const KiB = 1024;
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

/** Real samples (see fixtures/SOURCES.md) and the figures each must yield. */
const CASES: [parser: string, file: string, expected: Record<string, unknown>][] = [
  [
    'cloudwatch-metrics',
    'assembled-glue-heap-driver-oom.json',
    {
      series: 4,
      points: 82,
      // 131092288 / 134217728 B at the last point before OutOfMemoryError, -Xmx128m.
      driverHeapUsagePeak: 0.9767,
      driverHeapUsedPeakBytes: 131092288,
      driverHeapUsedShape: 'climbing',
      executorsHeapUsagePeak: 0.5561,
      heapUsagePeak: 0.9767,
      verdict: 'heap nearly full: peaked at 98%',
    },
  ],
  [
    'pmap',
    'tencent-arena-pairs.txt',
    {
      arenaCount: 3,
      arenaRssBytes: (24 + 12 + 92) * KiB,
      anonMappings: 7,
      verdict: 'no sign of arena growth',
    },
  ],
  [
    'pmap',
    'csdn-small-process.txt',
    { arenaCount: 0, totalKbytes: 11972, totalRssBytes: 444 * KiB, extended: true },
  ],
  ['pmap', 'procps-plain-bash.txt', { extended: false, anonMappings: 3, totalKbytes: 4448, arenaCount: 0 }],

  [
    'nmt',
    'netty-quic-413-summary-mb.txt',
    {
      diff: false,
      totalCommittedBytes: 839 * MiB,
      largestNonHeapCategory: 'Internal',
      'committedBytes.internal': 506 * MiB,
      'committedBytes.javaHeap': 112 * MiB,
    },
  ],
  [
    'class-histogram',
    'guanpengchn-61-jdk7.txt',
    {
      classes: 21,
      topClass: 'char[]',
      topClassBytes: 98883072,
      complete: false,
      mostInstancesClass: 'char[]',
    },
  ],
  [
    'class-histogram',
    'garbagecat-50-with-total.txt',
    { totalBytes: 1476369432, totalInstances: 21233102, complete: true, topClass: 'char[]' },
  ],
  [
    'class-histogram',
    'heapspank-13-large-byte-arrays.txt',
    { topClass: 'byte[]', topClassBytes: 5834904800, verdict: 'one class dominates: byte[] holds 95%' },
  ],
  [
    'gc-log',
    'gcviewer-161-parallel-full-gcs.txt',
    {
      format: 'jdk8',
      fullGcCount: 4,
      heapCapacityBytes: 989184 * KiB,
      lastHeapAfterFullGcBytes: 706558 * KiB,
      heapFloorRising: false,
      verdict: 'live data fills the heap: collections of the whole heap free almost nothing',
    },
  ],
  [
    'gc-log',
    'bingoogolapple-184-parallel-multiline.txt',
    { gcEvents: 3, fullGcCount: 1, lastHeapAfterFullGcBytes: 1019806 * KiB, totalPauseSeconds: 1.13 },
  ],
  [
    'gc-log',
    'jifa-202-unified-g1.txt',
    { format: 'unified', gcEvents: 1, fullGcCount: 0, heapCapacityBytes: 12288 * MiB, verdict: 'GC healthy' },
  ],
  [
    'java-version',
    'codebrag-58-openjdk-8u66.txt',
    { major: 8, update: 66, vendor: 'OpenJDK', jdk8Before152: true },
  ],
  [
    'java-version',
    'openj9-51-8u162.txt',
    { major: 8, update: 162, vendor: 'Eclipse OpenJ9', jdk8Before152: false },
  ],
  ['java-version', 'openj9-27-internal-based-on-8u152.txt', { major: 8, update: 152, jdk8Before152: false }],
  ['java-version', 'quarkus-36204-oracle-17.txt', { major: 17, update: 7, vendor: 'Oracle' }],
  [
    'flink-rest',
    'flink-13547-taskmanager-detail.json',
    {
      endpoint: 'taskmanager',
      resourcesReported: false,
      slotsTotal: 1,
      slotsFree: 0,
      'memory.taskHeap': 402653174,
      'memory.managedMemory': 536870920,
      verdict: 'no free slots',
    },
  ],
  [
    'flink-tm-metrics',
    'assembled-direct-200m.json',
    {
      // Bytes, sent as strings: 84856832 B is 80.9 MiB of a 512 MiB heap.
      heapUsedBytes: 84856832,
      heapMaxBytes: 536870912,
      heapUsedRatio: 0.1581,
      metaspaceUsedBytes: 634640,
      directUsedBytes: 209723392,
      directBuffers: 201,
      verdict: 'heap far below its max (16%)',
    },
  ],
  [
    'flink-resource-profile',
    'fine-grained-missing-resources.txt',
    { profiles: 2, unknownProfiles: 1, maxTaskHeapMemory: 256 * MiB, maxNetworkMemory: 64 * MiB },
  ],
  [
    'flink-resource-profile',
    'minimum-resources-acquired.txt',
    { profiles: 1, cpuCores: 1, taskHeapMemoryBytes: 3462817321, managedMemoryBytes: 2985002310 },
  ],
  [
    'flink-resource-profile',
    'default-slot-allocated.txt',
    { taskHeapMemoryBytes: 402653174, managedMemoryBytes: 536870920, networkMemoryBytes: 134217730 },
  ],
  ['flink-resource-profile', 'bitnami-22225-unknown.txt', { profiles: 0, unknownProfiles: 1 }],
  [
    'spark-eventlog',
    'assembled-yarn-kill-skew-spill.jsonl',
    {
      tasks: 7,
      failedTasks: 1,
      executorsRemoved: 2,
      executorsLostToMemory: 2,
      diskSpilledBytes: 256 * MiB,
      maxPeakExecutionMemoryBytes: 512 * MiB,
      'config.spark.executor.memory': '5g',
      verdict: 'executors lost to memory limits',
    },
  ],
  [
    'memray',
    'aces-9-stats.txt',
    { mode: 'stats', totalAllocations: 41426, locations: 5, nativeUnattributed: true },
  ],
  [
    'memray',
    'memray-135-stats-no-locations.txt',
    { totalAllocations: 2468520, locations: 0, verdict: 'no allocation sites listed' },
  ],
  [
    'tracemalloc',
    'python-docs-top10.txt',
    { entries: 10, topLocation: '<frozen importlib._bootstrap>:716', topBytes: 4855 * KiB, diff: false },
  ],
  [
    'tracemalloc',
    'python-docs-top-differences.txt',
    { diff: true, topGrowthLocation: '<frozen importlib._bootstrap>:716', topGrowthBytes: 4428 * KiB },
  ],
  [
    'dataflow-messages',
    'assembled-runner-log-workers-lost.txt',
    {
      messages: 3,
      errors: 3,
      workerLost: 2,
      harnessLost: 1,
      oomKilled: 0,
      workItemAttempts: 4,
      verdict: 'workers lost, most often to memory',
    },
  ],
  [
    'dataflow-messages',
    'assembled-describe-and-runner-log-beam-2.50.txt',
    {
      state: 'JOB_STATE_FAILED',
      sdk: 'Apache Beam Python 3.10 SDK',
      sdkVersion: '2.50.0',
      python: true,
      errors: 3,
      workerLost: 2,
      verdict: 'known SDK leak (apache/beam#28246)',
    },
  ],
  [
    'dataflow-messages',
    't5-986-runner-log-stuck.txt',
    { messages: 5, errors: 0, memoryMessages: 0, verdict: 'no error messages' },
  ],
  [
    'dataflow-messages',
    'gcpdiag-job-java-wordcount.json',
    {
      messages: 0,
      state: 'JOB_STATE_DONE',
      sdk: 'Apache Beam SDK for Java',
      sdkVersion: '2.72.0',
      python: false,
    },
  ],
  [
    'k8s-pod',
    'argo-main-container-oomkilled-yaml.txt',
    { container: 'main', oomKilled: true, exitCode: 137, restartCount: 0 },
  ],
  [
    'flink-rest',
    'walkthrough-flink-1.11.2-taskmanagers-zero-resources.json',
    { endpoint: 'taskmanagers', resourcesReported: false, slotsTotal: 1, slotsFree: 0 },
  ],
  [
    'spark-executors',
    'history-server-all-zero-peaks-exclude-on-failure.json',
    { executors: 4, hasPeakMetrics: true, peakMetricsMeasured: false },
  ],
  [
    'k8s-pod',
    'ibm-cloud-metrics-server-oomkilled.txt',
    {
      container: 'metrics-server',
      oomKilled: true,
      exitCode: 137,
      restartCount: 36,
      verdict: 'OOMKilled at the container memory limit',
    },
  ],
  [
    'k8s-pod',
    'kubernetes-10861-describe-restarts.txt',
    { pod: 'simmemleak-hra99', memoryLimitBytes: 50 * MiB, restartCount: 5, oomKilled: false },
  ],
  [
    'k8s-pod',
    'eks-payment-exit-143-cpu-limits.txt',
    { exitCode: 143, memoryLimitBytes: 0, verdict: 'no memory kill recorded' },
  ],
  [
    'yarn-container',
    'easyrec-21-beyond-physical.txt',
    {
      resource: 'physical',
      exitStatus: -104,
      largestProcess: 'java',
      largestProcessRssBytes: 64952 * 4096,
      largestProcessXmxBytes: 256 * MiB,
    },
  ],
  [
    'yarn-container',
    'hadoop-3.1-am-beyond-virtual-103.txt',
    {
      resource: 'virtual',
      virtualUsedBytes: Math.round(2.2 * GiB),
      virtualLimitBytes: Math.round(2.1 * GiB),
      exitStatus: -103,
      largestProcessXmxBytes: 512 * MiB,
    },
  ],
  [
    'yarn-container',
    'pai-1151-beyond-virtual.txt',
    {
      resource: 'virtual',
      usedBytes: Math.round(264.3 * MiB),
      virtualUsedBytes: Math.round(2.8 * GiB),
      largestProcessXmxBytes: 4 * GiB,
    },
  ],
  [
    'yarn-container',
    'glue-samples-28-killed-by-yarn.txt',
    { resource: 'physical', usedBytes: Math.round(5.5 * GiB), limitBytes: Math.round(5.5 * GiB) },
  ],
  [
    'memory-samples',
    'synthetic-steady-growth.txt',
    { samples: 9, plateau: false, verdict: 'leak likely: memory keeps growing without levelling off' },
  ],
  [
    'memory-samples',
    'synthetic-spike.txt',
    { peakBytes: 6 * GiB, verdict: 'high peak, not a leak: memory came back down' },
  ],
  [
    'memory-samples',
    'synthetic-plateau.txt',
    { plateau: true, verdict: 'grew then levelled off: a high steady state, not a leak' },
  ],
  [
    'spark-executors',
    'spark-executor-memory-usage.json',
    { executors: 4, activeExecutors: 4, removedForMemory: 0, failedTasks: 8, hasPeakMetrics: false },
  ],
  [
    'spark-executors',
    'spark-executor-metrics-trimmed.json',
    { executors: 3, peakJvmHeapBytes: 726805712, peakProcessRssBytes: 200000000, hasPeakMetrics: true },
  ],
  [
    'spark-executors',
    'assembled-removed-for-memory.json',
    { removedExecutors: 1, removedForMemory: 1, verdict: '1 executor(s) removed for memory' },
  ],
  [
    'spark-environment',
    'converted-environment-yarn-24630151.json',
    {
      properties: 74,
      executorCores: 1,
      // "2G": JavaUtils.byteStringAs, binary units.
      executorMemoryBytes: 2 * GiB,
      driverMemoryBytes: 2 * GiB,
      offHeapEnabled: false,
      verdict: '1 core(s) per executor',
    },
  ],
  [
    'spark-environment',
    'spark-app-environment-trimmed.json',
    { properties: 26, offHeapEnabled: false, verdict: 'spark.executor.cores not set' },
  ],
];

/**
 * The sentence a person reads for each real sample, with the figures it must state (checked against
 * the sample and the values above). A regex where part of the sentence is not worth pinning.
 */
const SUMMARIES: Record<string, string | RegExp> = {
  'converted-environment-yarn-24630151.json':
    'Spark settings (74 properties): spark.executor.cores 1, spark.executor.memory 2 GB, spark.executor.memoryOverhead not set, spark.executor.pyspark.memory not set, off-heap off.',
  'spark-app-environment-trimmed.json':
    'Spark settings (26 properties): spark.executor.cores not set, spark.executor.memory not set, spark.executor.memoryOverhead not set, spark.executor.pyspark.memory not set, off-heap off.',
  'assembled-direct-200m.json':
    'TaskManager JVM memory: heap 80.9 MB used of 512 MB max (16%), metaspace 620 KB, direct buffers 200 MB.',
  'assembled-runner-log-workers-lost.txt':
    'Dataflow job messages; 3 message(s), 3 error(s): 2 lost worker(s), 0 OOM kill(s), 1 SDK harness(es) lost, a work item tried 4 times.',
  'assembled-describe-and-runner-log-beam-2.50.txt':
    'Dataflow job wordcount (JOB_TYPE_BATCH, JOB_STATE_FAILED) on Apache Beam Python 3.10 SDK 2.50.0; 3 message(s), 3 error(s): 2 lost worker(s), 0 OOM kill(s), 1 SDK harness(es) lost, a work item tried 4 times.',
  't5-986-runner-log-stuck.txt':
    'Dataflow job messages; 5 message(s), 0 error(s): 0 lost worker(s), 0 OOM kill(s), 0 SDK harness(es) lost.',
  'gcpdiag-job-java-wordcount.json':
    'Dataflow job wordcount (JOB_TYPE_BATCH, JOB_STATE_DONE) on Apache Beam SDK for Java 2.72.0; 0 message(s), 0 error(s): 0 lost worker(s), 0 OOM kill(s), 0 SDK harness(es) lost.',
  // 131092288 B = 125 MiB; 74632544 B = 71.2 MiB.
  'assembled-glue-heap-driver-oom.json':
    "driver's heap peaked at 98% (glue.driver.jvm.heap.usage 0.977 at 2020-10-16T19:11:00Z, 26 points); driver's heap used peaked at 125 MB (26 points, climbing); executors' heap peaked at 56% (glue.ALL.jvm.heap.usage 0.556 at 2020-10-16T18:59:00Z, 15 points); executors' heap used peaked at 71.2 MB (15 points, shape unknown (short-span)).",
  'tencent-arena-pairs.txt':
    '3 glibc-arena-shaped regions of 64 MiB (192 MB reserved, 128 KB of them resident (3.1% of the process)); anonymous memory holds 4.04 MB resident in 7 mappings.',
  'csdn-small-process.txt':
    '0 glibc-arena-shaped regions of 64 MiB (0 B reserved, 0 B of them resident (0.0% of the process)); anonymous memory holds 36 KB resident in 5 mappings.',
  'procps-plain-bash.txt':
    '0 glibc-arena-shaped regions of 64 MiB (0 B reserved; plain pmap shows no resident sizes, run `pmap -x <pid>` to see them); anonymous memory holds 0 B resident in 3 mappings.',

  'guanpengchn-61-jdk7.txt':
    '122 MB in 196643 objects of 21 classes (no Total line: list cut short); largest: char[] 94.3 MB, byte[] 9.02 MB, <constMethodKlass> 4.06 MB.',
  // 1476369432 B = 1.37 GiB.
  'garbagecat-50-with-total.txt':
    '1.37 GB in 21233102 objects of 3 classes; largest: char[] 836 MB, java.lang.String 254 MB, <constMethodKlass> 229 MB.',
  'heapspank-13-large-byte-arrays.txt':
    '5.69 GB in 4535643 objects of 4 classes (no Total line: list cut short); largest: byte[] 5.43 GB, java.lang.Object[] 137 MB, char[] 106 MB.',
  // The share is of the old generation (ParOldGen 699370K of 699392K), so it is not pinned here.
  'gcviewer-161-parallel-full-gcs.txt':
    /^4 GC collections \(4 full\) took 58% of 46\.687s; the most left after a whole-heap collection was 690 MB \(\d+% of the .*\); heap 966 MB\.$/,
  'bingoogolapple-184-parallel-multiline.txt':
    /^3 GC collections \(1 full\) took 41% of 2\.747s; the most left after a whole-heap collection was 996 MB \(\d+% of the .*\); heap 1\.92 GB\.$/,
  'jifa-202-unified-g1.txt':
    '1 GC collection (0 full) took 0.0% of 488134.852s; no collection of the whole heap, so the live data is not known; heap 12 GB.',
  'codebrag-58-openjdk-8u66.txt':
    'Java 8u66 from OpenJDK (OpenJDK 64-Bit Server VM (build 25.66-b17, mixed mode)).',
  'openj9-51-8u162.txt': /^Java 8u162 from Eclipse OpenJ9 \(Eclipse OpenJ9 VM \(build openj9-0\.8\.0-rc1, /,
  'openj9-27-internal-based-on-8u152.txt':
    /^Java 8u152 from Eclipse OpenJ9 \(Eclipse OpenJ9 VM \(build 2\.9, /,
  'quarkus-36204-oracle-17.txt':
    'Java 17.0.7 from Oracle (Java HotSpot(TM) 64-Bit Server VM (build 17.0.7+8-LTS-224, mixed mode, sharing)).',
  'fine-grained-missing-resources.txt':
    '2 resource profile(s); the first asks for 0 cores, 0 B task heap, 0 B task off-heap, 0 B managed, 0 B network.',
  // 3462817321 B = 3.22 GiB, 2985002310 B = 2.78 GiB.
  'minimum-resources-acquired.txt':
    '1 resource profile(s); the first asks for 1 cores, 3.22 GB task heap, 0 B task off-heap, 2.78 GB managed, 712 MB network.',
  // 402653174 B = 384 MiB, 536870920 B = 512 MiB, 134217730 B = 128 MiB.
  'default-slot-allocated.txt':
    '1 resource profile(s); the first asks for 1 cores, 384 MB task heap, 0 B task off-heap, 512 MB managed, 128 MB network.',
  'bitnami-22225-unknown.txt':
    '1 resource profile(s), all UNKNOWN: the job sets no fine-grained resources, so slots are counted, not sized.',
  'assembled-yarn-kill-skew-spill.jsonl':
    '7 tasks in 1 stages; peak execution memory 512 MB, spilled 256 MB to disk, GC 12% of task time, 2 executor(s) removed, worst skew 9.52x in stage 0.',
  'aces-9-stats.txt': '40.9 GB allocated over the run; largest site <stack trace unavailable> with 40.4 GB.',
  'memray-135-stats-no-locations.txt': '257 MB allocated over the run.',
  // 4855 KiB = 4.74 MiB.
  'python-docs-top10.txt':
    '6.12 MB traced in 10 locations; largest <frozen importlib._bootstrap>:716 with 4.74 MB.',
  'python-docs-top-differences.txt':
    '10.5 MB traced in 8 locations; largest <frozen importlib._bootstrap>:716 with 7.98 MB.',
  'argo-main-container-oomkilled-yaml.txt':
    'Container main of a pod pasted without its name: OOMKilled, exit code 137, no memory limit, 0 restarts.',
  'walkthrough-flink-1.11.2-taskmanagers-zero-resources.json':
    "1 TaskManager(s), 0 of 1 slots free; these TaskManagers report every resource as 0, figures Flink did not measure (Flink 1.11-1.12 do not know a standalone TaskManager's size), so only the slots can be compared.",
  'history-server-all-zero-peaks-exclude-on-failure.json':
    '4 executor(s), 4 active, 0 removed; peak memory metrics all 0: sent without being measured, so the peaks are unknown.',
  'ibm-cloud-metrics-server-oomkilled.txt':
    'Container metrics-server of a pod pasted without its name: OOMKilled, exit code 137, no memory limit, 36 restarts.',
  'kubernetes-10861-describe-restarts.txt':
    'Container simmemleak of pod simmemleak-hra99: no termination reason, memory limit 50 MB, 5 restarts.',
  'eks-payment-exit-143-cpu-limits.txt':
    'Container payment of pod pay-65dd7b9cb4-xxxxx: Error, exit code 143, no memory limit, 4 restarts.',
  // 64952 pages x 4 KiB = 254 MiB resident.
  'spark-executor-memory-usage.json':
    '4 executor(s), 4 active, 0 removed; no peak memory metrics (Spark before 3.0, or executors that never reported).',
  'spark-executor-metrics-trimmed.json':
    '3 executor(s), 3 active, 0 removed; peak JVM heap 693 MB, off-heap 91.2 MB, process RSS 191 MB.',
  'assembled-removed-for-memory.json':
    /^4 executor\(s\), 3 active, 1 removed; 1 removed for memory \("Container killed by YARN/,
  'easyrec-21-beyond-physical.txt':
    'YARN killed container_1598507699008_0094_01_000010 for physical memory: 9.8 GB used of 9.8 GB; exit status -104; largest process java with 254 MB resident.',
  // A virtual-memory kill is told by the virtual figures it was decided by (issue 35, finding 14).
  'pai-1151-beyond-virtual.txt':
    'YARN killed container_e04_1548839040935_6713_01_000002 for virtual memory: 2.8 GB virtual used of 2.1 GB (physical 264 MB used of 1 GB); exit status absent; largest process java with 255 MB resident.',
  // Hadoop 3.1's wording ("running 71436800B beyond the 'VIRTUAL' memory limit"), with the AM's -103.
  'hadoop-3.1-am-beyond-virtual-103.txt':
    'YARN killed container_e08_1586040841405_0002_02_000001 for virtual memory: 2.2 GB virtual used of 2.1 GB (physical 261 MB used of 1 GB); exit status -103; largest process java with 258 MB resident.',
  'glue-samples-28-killed-by-yarn.txt':
    // The Spark message carries no exit status: said absent, not 0.
    'YARN killed the container for physical memory: 5.5 GB used of 5.5 GB; exit status absent.',
  // 839 MB committed = 112 MB heap + 727 MB outside it.
  'netty-quic-413-summary-mb.txt':
    'NMT summary: 839 MB committed of 2.18 GB reserved; heap 112 MB, outside the heap 727 MB. 144 threads, 41 MB of stack reserved, 41 MB committed.',
  // Every slot taken; totalResource and freeResource all 0 (a Flink 1.12 build): not measured, not free.
  'flink-13547-taskmanager-detail.json':
    "1 TaskManager(s), 0 of 1 slots free; these TaskManagers report every resource as 0, figures Flink did not measure (Flink 1.11-1.12 do not know a standalone TaskManager's size), so only the slots can be compared.",
  // (3.1 - 1.1) / 1.1 = +182%; (2.1 - 2) / 2 = +5.0%; (4 - 1) / 1 = +300%.
  // 2 GiB in 80 min: 2 x 1024^3 / 4800 s = 447392 B/s = 437 KiB/s.
  'synthetic-steady-growth.txt':
    '9 samples over 80 min: 1.1 GB -> 3.1 GB (+182%), peak 3.1 GB. Climbing 437 KB/s.',
  'synthetic-spike.txt':
    '8 samples: 2 GB -> 2.1 GB (+5.0%), peak 6 GB. It came back down: memory was given back, which a leak never does.',
  'synthetic-plateau.txt':
    '9 samples: 1 GB -> 4 GB (+300%), peak 4.01 GB. 3 steps up (samples 2, 3, 4), then flat at 4 GB for the last 6 samples: memory taken in steps and held, not growing.',
};

/** Cut-off or broken inputs and the start of the message each must give. */
const BROKEN: [parser: string, file: string, message: RegExp][] = [
  [
    'cloudwatch-metrics',
    'truncated-mid-series.json',
    /^could not parse: expected the complete JSON that `aws cloudwatch get-metric-data` prints/,
  ],
  ['pmap', 'truncated-header-only.txt', /^could not parse: expected pmap rows/],
  ['pmap', 'malformed-permission-denied.txt', /^could not parse: expected pmap rows/],
  ['nmt', 'truncated-header-only.txt', /^could not parse: expected "Total: reserved/],
  ['nmt', 'malformed-not-enabled.txt', /does not look like jcmd VM.native_memory summary/],
  // Cut by a poster or trimmed by hand: a cut summary would read as "nothing outside the heap".
  ['nmt', 'truncated-graal-2224-after-thread.txt', /stops after "Thread".*Code, GC are missing/],
  ['nmt', 'truncated-neo4j-12637-diff-after-class.txt', /stops after "Class"/],
  ['nmt', 'truncated-openjdk-19455-bytes-after-class.txt', /stops after "Class"/],
  [
    'nmt',
    'truncated-jdk17-after-java-heap.txt',
    /stops after "Java Heap" \(the areas shown hold 512 MB of the 659 MB committed/,
  ],
  ['nmt', 'malformed-jdk17-scale-gb.txt', /with scale=GB NMT rounds every area/],
  ['nmt', 'malformed-jdk17-baseline-reply.txt', /only the reply to `VM.native_memory baseline`/],
  ['class-histogram', 'truncated-header-only.txt', /^could not parse: expected histogram rows/],
  ['class-histogram', 'malformed-attach-error.txt', /does not look like/],
  ['gc-log', 'truncated-event-without-summary.txt', /^could not parse: expected GC events/],
  ['gc-log', 'malformed-jvm-start-error.txt', /does not look like GC log/],
  ['java-version', 'malformed-version.txt', /^could not parse: expected a Java version number/],
  ['java-version', 'malformed-not-found.txt', /does not look like java -version/],
  ['flink-rest', 'truncated-taskmanager-detail.json', /^could not parse: expected complete JSON/],
  ['flink-tm-metrics', 'truncated-after-heap.json', /^could not parse: expected the JSON list/],
  ['flink-resource-profile', 'malformed-fields.txt', /^could not parse: expected ResourceProfile/],
  [
    'spark-eventlog',
    'truncated-mid-line.jsonl',
    /^could not parse: expected Spark event log lines.*1 broken lines/,
  ],
  ['spark-eventlog', 'malformed-broken-json.jsonl', /^could not parse: expected Spark event log/],
  ['memray', 'truncated-after-heading.txt', /^could not parse: expected memray stats/],
  ['tracemalloc', 'truncated-mid-line.txt', /does not look like tracemalloc/],
  [
    'dataflow-messages',
    'truncated-job-json.txt',
    /^this does not look like Dataflow job messages output: run curl/,
  ],
  ['k8s-pod', 'truncated-before-containers.txt', /^could not parse: expected `kubectl describe pod`/],
  ['yarn-container', 'truncated-mid-usage.txt', /does not look like YARN/],
  [
    'spark-executors',
    'truncated-mid-executor.json',
    /^could not parse: expected the complete JSON of \/api\/v1\/applications\/<app>\/allexecutors/,
  ],
  [
    'spark-environment',
    'truncated-mid-properties.json',
    /^could not parse: expected the complete JSON of \/api\/v1\/applications\/<app>\/environment/,
  ],
  ['memory-samples', 'truncated-two-samples.txt', /does not look like memory samples/],
  [
    'memory-samples',
    'spanish-top-single-snapshot.txt',
    /^could not parse: expected at least 3 memory samples/,
  ],
  ['lines', 'truncated-one-name.txt', /^could not parse: expected at least two names/],
  ['lines', 'malformed-stack-trace.txt', /does not look like a list of names/],
  [
    'flink-slot-fit',
    'truncated-json.txt',
    /^could not parse: expected the complete JSON of GET \/taskmanagers/,
  ],
];

describe('parsers on real samples', () => {
  it.each(CASES)('%s reads %s', (parser, file, expected) => {
    const text = read(parser, file);
    expect(detectFormat(head(text))).toBe(parser);
    const out = parseText(parser, text);
    expect(out.format).toBe(parser);
    expect(out.values).toMatchObject(expected);
    const summary = SUMMARIES[file];
    if (summary === undefined) throw new Error(`give ${file} its expected summary in SUMMARIES`);
    if (typeof summary === 'string') expect(out.summary).toBe(summary);
    else expect(out.summary).toMatch(summary);
    const summaryFact = out.facts.find((f) => f.kind === `parsed.${parser}`);
    expect(summaryFact?.values).toEqual(out.values);
    for (const f of out.facts) expect(f.line).toBeGreaterThan(0);
  });

  it.each(BROKEN)('%s refuses %s with a clear message', (parser, file, message) => {
    const text = read(parser, file);
    let error: unknown;
    try {
      parseText(parser, text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ParseFailedError);
    expect((error as Error).message).toMatch(message);
  });

  it('has an expected summary for every sample and none for a sample that is gone', () => {
    expect(Object.keys(SUMMARIES).sort()).toEqual(CASES.map(([, file]) => file).sort());
  });

  it('has fixtures for every parser', () => {
    const folders = readdirSync(DIR).filter((f) => !f.includes('.'));
    expect(folders.sort()).toEqual(Object.keys(PARSERS).sort());
  });
});
