// @ts-nocheck
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
    'pmap',
    'synthetic-ten-arenas.txt',
    { arenaCount: 10, arenaReservedBytes: 10 * 64 * MiB, verdict: 'arena growth likely' },
  ],
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
    'nmt',
    'graal-2224-summary-kb.txt',
    {
      totalReservedBytes: 1495376 * KiB,
      largestNonHeapCategory: 'Class',
      'committedBytes.thread': 1542 * KiB,
    },
  ],
  [
    'nmt',
    'neo4j-12637-diff.txt',
    {
      diff: true,
      fastestGrowingCategory: 'Class',
      fastestGrowthBytes: 6684 * KiB,
      totalCommittedDeltaBytes: 950536 * KiB,
    },
  ],
  [
    'nmt',
    'openjdk-19455-summary-bytes.txt',
    { totalCommittedBytes: 237654986, heapCommittedBytes: 134217728, 'committedBytes.class': 644561 },
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
      verdict: 'live data fills the heap: full GCs free almost nothing',
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
      slotsTotal: 1,
      slotsFree: 0,
      'memory.taskHeap': 402653174,
      'memory.managedMemory': 536870920,
      verdict: 'no free slots',
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
];

/** Cut-off or broken inputs and the start of the message each must give. */
const BROKEN: [parser: string, file: string, message: RegExp][] = [
  ['pmap', 'truncated-header-only.txt', /^could not parse: expected pmap rows/],
  ['pmap', 'malformed-permission-denied.txt', /^could not parse: expected pmap rows/],
  ['nmt', 'truncated-header-only.txt', /^could not parse: expected "Total: reserved/],
  ['nmt', 'malformed-not-enabled.txt', /does not look like jcmd VM.native_memory summary/],
  ['class-histogram', 'truncated-header-only.txt', /^could not parse: expected histogram rows/],
  ['class-histogram', 'malformed-attach-error.txt', /does not look like/],
  ['gc-log', 'truncated-event-without-summary.txt', /^could not parse: expected GC events/],
  ['gc-log', 'malformed-jvm-start-error.txt', /does not look like GC log/],
  ['java-version', 'malformed-version.txt', /^could not parse: expected a Java version number/],
  ['java-version', 'malformed-not-found.txt', /does not look like java -version/],
  ['flink-rest', 'truncated-taskmanager-detail.json', /^could not parse: expected complete JSON/],
  ['flink-resource-profile', 'malformed-fields.txt', /^could not parse: expected ResourceProfile/],
  [
    'spark-eventlog',
    'truncated-mid-line.jsonl',
    /^could not parse: expected Spark event log lines.*1 broken lines/,
  ],
  ['spark-eventlog', 'malformed-broken-json.jsonl', /^could not parse: expected Spark event log/],
  ['memray', 'truncated-after-heading.txt', /^could not parse: expected memray stats/],
  ['tracemalloc', 'truncated-mid-line.txt', /does not look like tracemalloc/],
  ['k8s-pod', 'truncated-before-containers.txt', /^could not parse: expected `kubectl describe pod`/],
  ['yarn-container', 'truncated-mid-usage.txt', /does not look like YARN/],
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
    expect(out.summary.length).toBeGreaterThan(20);
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

  it('has fixtures for every parser', () => {
    const folders = readdirSync(DIR).filter((f) => !f.includes('.'));
    expect(folders.sort()).toEqual(Object.keys(PARSERS).sort());
  });
});
