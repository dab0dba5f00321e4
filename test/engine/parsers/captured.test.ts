import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, parseText } from '../../../src/engine/parsers/parse-text.ts';

const DIR = join(import.meta.dirname, 'fixtures');
const read = (parser: string, file: string) => readFileSync(join(DIR, parser, file), 'utf8');
const KiB = 1024;
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

/**
 * Outputs captured on this machine from live JDK 17 and Python 3.11 processes whose memory is known
 * (the programs are in capture/, the commands in fixtures/SOURCES.md), and complete real outputs from
 * posts. Each expectation is a figure the program set up, not one copied from the parser.
 */
const CASES: [parser: string, file: string, expected: Record<string, unknown>][] = [
  // Hold 100000 100 40 64 with -Xms512m -Xmx512m: 512 MiB heap, 64 direct buffers of 1 MiB (Other).
  [
    'nmt',
    'jdk17-summary-kb.txt',
    {
      diff: false,
      heapCommittedBytes: 512 * MiB,
      'committedBytes.other': 64 * MiB,
      largestNonHeapCategory: 'Other',
      totalCommittedBytes: 675321 * KiB,
      nonHeapCommittedBytes: (675321 - 524288) * KiB,
    },
  ],
  ['nmt', 'jdk17-summary-mb.txt', { heapCommittedBytes: 512 * MiB, 'committedBytes.other': 64 * MiB }],
  // Hold with -Xms256m -Xmx256m, 8 direct MiB, under NativeMemoryTracking=detail.
  ['nmt', 'jdk17-detail.txt', { heapCommittedBytes: 256 * MiB, 'committedBytes.other': 8 * MiB }],
  ['nmt', 'jdk17-detail-diff.txt', { diff: true, heapCommittedBytes: 256 * MiB }],
  // A summary.diff with no area changed prints no "+" anywhere; it is still a diff.
  ['nmt', 'jdk17-summary-diff-unchanged-mb.txt', { diff: true, heapCommittedBytes: 512 * MiB }],
  // DirectLeak 320: 320 direct buffers of 1 MiB after the baseline.
  [
    'nmt',
    'jdk17-summary-diff-direct-growth.txt',
    { diff: true, fastestGrowingCategory: 'Other', fastestGrowthBytes: 320 * MiB },
  ],
  // Threads 1200 55000 with -Xss8m: 1219 threads whose stacks were touched past 1 GiB in total.
  ['nmt', 'jdk17-summary-1200-threads.txt', { 'committedBytes.thread': 1163347 * KiB }],
  // Arenas 32 100: zlib's memory is outside NMT, so Other and Internal stay small.
  ['nmt', 'jdk17-summary-zlib-in-32-threads.txt', { heapCommittedBytes: 256 * MiB }],
  ['nmt', 'hxf-jdk8-cms-summary-kb.txt', { 'committedBytes.internal': 21018 * KiB, heapCommittedBytes: GiB }],
  ['nmt', 'flink-blog-529-threads-summary-mb.txt', { 'committedBytes.thread': 2575 * MiB }],
  // 60 threads on 2 cores: 15 arenas (glibc's cap of 8 per core) holding almost nothing.
  ['pmap', 'jdk17-60-threads-x.txt', { arenaCount: 15, verdict: 'no sign of arena growth' }],
  ['pmap', 'jdk17-1200-threads-x.txt', { arenaCount: 15, verdict: 'no sign of arena growth' }],
  // 3200 zlib Deflaters in 32 threads: their buffers are resident in the threads' arenas.
  ['pmap', 'jdk17-zlib-in-32-threads-x.txt', { arenaCount: 15, verdict: 'arena growth likely' }],
  // Hold 123456 20 4 0: 123456 Marker objects of 24 bytes each (12-byte header, one long, padding).
  [
    'class-histogram',
    'jdk17-gc-class-histogram.txt',
    { complete: true, mostInstancesClass: 'Hold$Marker', mostInstances: 123456, topClass: 'byte[]' },
  ],
  ['class-histogram', 'jdk17-gc-class-histogram-head-40.txt', { complete: false, mostInstances: 123456 }],
  ['class-histogram', 'jdk17-jmap-histo-live.txt', { complete: true, mostInstancesClass: 'Hold$Marker' }],
  // Mixed: 100000 each of six small kinds, so the largest (HashMap$Node, 32 bytes) holds 16%.
  [
    'class-histogram',
    'jdk17-mixed-objects-head-40.txt',
    { topClass: 'java.util.HashMap$Node', topClassBytes: 3231840, verdict: 'no single class dominates' },
  ],
  [
    'nmt',
    'jdk17-summary-320-direct-mib.txt',
    { 'committedBytes.other': 320 * MiB, largestNonHeapCategory: 'Other' },
  ],
  [
    'gc-log',
    'jdk17-g1-healthy-xlog-gc-star.log',
    { format: 'unified', fullGcCount: 0, verdict: 'GC healthy' },
  ],
  ['gc-log', 'jdk17-g1-healthy-xlog-gc.log', { fullGcCount: 0, heapCapacityBytes: 128 * MiB }],
  // Churn 64 60 with -Xmx128m: keeps 64 KiB of every MiB until the heap is full of live data.
  [
    'gc-log',
    'jdk17-g1-leak-oom-xlog-gc.log',
    {
      verdict: 'live data fills the heap: collections of the whole heap free almost nothing',
      peakHeapAfterFullGcBytes: 118 * MiB,
    },
  ],
  [
    'gc-log',
    'jdk17-parallel-leak-oom-xlog-gc.log',
    {
      heapFloorRising: true,
      verdict: 'leak likely: the heap left after each whole-heap collection keeps rising',
    },
  ],
  ['gc-log', 'jdk17-g1-heap-oom-xlog-gc-star.log', { heapFloorRising: true, heapCapacityBytes: 64 * MiB }],
  [
    'java-version',
    'jdk17-debian-17.0.15.txt',
    { major: 17, update: 15, vendor: 'OpenJDK', jdk8Before152: false },
  ],
  // grow.py keeps 8 MiB more each second: ps -o rss= prints KiB, 8196 KiB apart.
  [
    'memory-samples',
    'python-ps-rss-growing.txt',
    {
      samples: 10,
      firstBytes: 21744 * KiB,
      bareSamplesAsKiB: 10,
      verdict: expect.stringMatching(/^leak likely/),
    },
  ],
  [
    'memory-samples',
    'python-ps-rss-timed-growing.txt',
    { samples: 10, verdict: expect.stringMatching(/^leak/) },
  ],
  ['memory-samples', 'python-ps-pid-rss-cmd-growing.txt', { source: 'ps', pid: '15328', samples: 10 }],
  ['memory-samples', 'python-top-b-p-growing.txt', { source: 'top', lastBytes: 95508 * KiB }],
  // shape.py spike: three 64 MiB blocks, freed at once; plateau: four 48 MiB blocks, kept.
  [
    'memory-samples',
    'python-ps-rss-timed-spike.txt',
    { verdict: 'high peak, not a leak: memory came back down' },
  ],
  ['memory-samples', 'python-ps-rss-timed-plateau.txt', { plateau: true }],
  [
    'tracemalloc',
    'python311-compare-to-cache-leak.txt',
    { diff: true, topGrowthBytes: 9057 * KiB, topGrowthLocation: expect.stringMatching(/tm_compare\.py:9$/) },
  ],
  // Nothing kept: only tracemalloc's own +320 B lines, which are not the program's.
  ['tracemalloc', 'python311-compare-to-steady.txt', { diff: true, topGrowthBytes: 0 }],
  ['tracemalloc', 'python311-statistics-lineno.txt', { diff: false, topBytes: Math.round(19.9 * MiB) }],
  [
    'k8s-pod',
    'aiops-memhog-get-pod-yaml.txt',
    { oomKilled: true, exitCode: 137, memoryLimitBytes: 40 * MiB, restartCount: 203 },
  ],
  [
    'flink-rest',
    'superzhc-yarn-taskmanagers.json',
    { slotsFree: 8, freeTaskHeapBytes: 358 * MiB, 'memory.taskHeap': 563714445 },
  ],
];

describe('parsers on output captured from live processes and complete real posts', () => {
  it.each(CASES)('%s reads %s', (parser, file, expected) => {
    const text = read(parser, file);
    expect(detectFormat(text.split('\n').slice(0, 50))).toBe(parser);
    const out = parseText(parser, text);
    expect(out.values).toMatchObject(expected);
    for (const f of out.facts) expect(f.line).toBeGreaterThan(0);
  });

  it('reads a class histogram the way the JVM counted it', () => {
    const out = parseText('class-histogram', read('class-histogram', 'jdk17-gc-class-histogram.txt'));
    const marker = read('class-histogram', 'jdk17-gc-class-histogram.txt')
      .split('\n')
      .find((l) => l.includes('Hold$Marker'));
    expect(marker).toMatch(/\s123456\s+2962944\s+Hold\$Marker$/);
    expect(out.summary).toMatch(/Hold\$Marker 2\.83 MB/);
  });

  it('never reads "outside the heap 0 B" from a complete summary', () => {
    for (const file of ['jdk17-summary-kb.txt', 'jdk17-summary-mb.txt', 'jdk17-detail.txt'])
      expect(parseText('nmt', read('nmt', file)).summary).not.toMatch(/outside the heap 0 B/);
  });

  it('refuses a GC log that has only start-up lines, saying why', () => {
    expect(() => parseText('gc-log', read('gc-log', 'malformed-jdk17-no-pause-yet.log'))).toThrow(
      /no collection has run yet/,
    );
  });
});
