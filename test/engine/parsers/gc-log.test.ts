import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gcLogParser } from '../../../src/engine/parsers/gc-log.ts';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';

const MiB = 1024 ** 2;
const read = (file: string) => readFileSync(join(import.meta.dirname, 'fixtures/gc-log', file), 'utf8');
const parse = (file: string) => parseText('gc-log', read(file));
const kinds = (file: string) => parse(file).facts.map((f) => f.kind);

/**
 * HeapLeak (scripts/capture/jvm) on JDK 17 until OutOfMemoryError: every collector, -Xmx32m and
 * -Xmx128m, -Xlog:gc and -Xlog:gc*, decorators uptime/level/tags, time, none. Each figure asserted
 * is one the command line set: the collector, the heap size, whether lines carry a time.
 */
const COLLECTOR = {
  g1: 'G1',
  parallel: 'Parallel',
  serial: 'Serial',
  zgc: 'The Z Garbage Collector',
  shenandoah: 'Shenandoah',
} as const;
type Collector = keyof typeof COLLECTOR;

const matrix: { file: string; collector: Collector; heap: number; decorators: string }[] = [
  ...(['g1', 'parallel', 'serial', 'zgc'] as const).flatMap((collector) => [
    ...['uptime', 'time', 'none'].map((decorators) => ({
      file: `jdk17-${collector}-leak-oom-32m-xlog-gc-${decorators}.log`,
      collector,
      heap: 32 * MiB,
      decorators,
    })),
    {
      file: `jdk17-${collector}-leak-oom-128m-xlog-gc-uptime.log`,
      collector,
      heap: 128 * MiB,
      decorators: 'uptime',
    },
  ]),
  {
    file: 'jdk17-shenandoah-leak-oom-128m-xlog-gc-none.log',
    collector: 'shenandoah',
    heap: 128 * MiB,
    decorators: 'none',
  },
  {
    file: 'jdk17-shenandoah-leak-oom-128m-xlog-gc-uptime.log',
    collector: 'shenandoah',
    heap: 128 * MiB,
    decorators: 'uptime',
  },
  {
    file: 'jdk17-zgc-leak-oom-128m-xlog-gcstar-uptime.log',
    collector: 'zgc',
    heap: 128 * MiB,
    decorators: 'uptime',
  },
  {
    file: 'jdk17-serial-leak-oom-32m-xlog-gcstar-none.log',
    collector: 'serial',
    heap: 32 * MiB,
    decorators: 'none',
  },
  {
    file: 'jdk17-parallel-leak-oom-128m-xlog-gcstar-time.log',
    collector: 'parallel',
    heap: 128 * MiB,
    decorators: 'time',
  },
];

describe('unified GC logs of a heap leak, every collector and decorator', () => {
  it.each(matrix)('$file: the collector, the heap, and a heap left full', ({ file, collector, heap }) => {
    const v = parse(file).values;
    expect(v.format).toBe('unified');
    expect(v.collector).toBe(COLLECTOR[collector]);
    // Parallel and Serial leave one survivor space out of the capacity they print.
    expect(v.heapCapacityBytes).toBeLessThanOrEqual(heap);
    expect(v.heapCapacityBytes).toBeGreaterThan(heap * 0.9);
    expect(Number(v.wholeHeapCollections)).toBeGreaterThanOrEqual(3);
    // What jvm-oom's gc-log step needs for its histogram branch: a rising floor or a heap over 70% live.
    expect(v.heapFloorRising === true || Number(v.heapAfterFullGcShare) >= 0.7).toBe(true);
  });

  it.each(matrix)('$file: the time share only where lines carry a time', ({ file, decorators }) => {
    const v = parse(file).values;
    if (decorators === 'none') {
      expect(v.gcTimeShare).toBeUndefined();
      expect(parse(file).summary).toContain('the log cannot tell (its lines carry no time)');
    } else {
      // Each leak ran for under 3 s and spent much of it collecting.
      expect(Number(v.elapsedSeconds)).toBeGreaterThan(0);
      expect(Number(v.elapsedSeconds)).toBeLessThan(3);
      expect(Number(v.gcTimeShare)).toBeGreaterThan(0.05);
    }
  });

  // ZGC and Shenandoah never run a full GC in these logs' sense, yet each of their cycles marks the whole heap.
  it('reads ZGC cycles as whole-heap collections (issue 21: the log was refused)', () => {
    const v = parse('jdk17-zgc-leak-oom-32m-xlog-gc-uptime.log').values;
    expect(v).toMatchObject({ fullGcCount: 0, heapCapacityBytes: 32 * MiB, heapAfterFullGcShare: 1 });
    expect(Number(v.wholeHeapCollections)).toBe(Number(v.gcEvents));
  });

  it('keeps a Shenandoah cycle to what its last cleanup left, not the immediate-garbage one before', () => {
    // GC(0) of the uptime capture: "Concurrent cleanup 44M->44M(128M)", then "51M->18M(128M)".
    const text = read('jdk17-shenandoah-leak-oom-128m-xlog-gc-uptime.log');
    const first = text.split('\n').filter((l) => l.includes('GC(0) Concurrent cleanup'));
    expect(first).toHaveLength(2);
    expect(parseText('gc-log', first.join('\n')).values.firstHeapAfterFullGcBytes).toBe(18 * MiB);
  });

  // Issue 21 item 5: "16 MB (38% of the heap); heap 64 MB" divided by the 42 MB committed at that
  // collection. The share is of the most the heap may grow to, the figure the summary then names.
  it.each(matrix)('$file: the share left is of the maximum heap the summary names', ({ file }) => {
    const { values: v, summary } = parse(file);
    if (/of the old generation/.test(summary)) return;
    const limit = Number(v.maxHeapBytes ?? v.heapCapacityBytes);
    expect(Number(v.heapAfterFullGcShare)).toBeCloseTo(Number(v.peakHeapAfterFullGcBytes) / limit, 3);
  });

  it('names the stated -Xmx ("Heap Max Capacity") as the maximum heap', () => {
    const { values: v, summary } = parse('jdk17-g1-heap-oom-xlog-gc-star.log');
    expect(v.maxHeapBytes).toBe(64 * MiB);
    expect(summary).toMatch(/\(77% of the maximum heap\); maximum heap 64 MB\.$/);
  });

  it('reads the old generation of -Xlog:gc* rather than the heap total (Parallel, 128 MiB)', () => {
    // -Xlog:gc alone: the total counts the young generation, so a full old generation shows 80% of 123 MB.
    expect(parse('jdk17-parallel-leak-oom-128m-xlog-gc-uptime.log').values.heapAfterFullGcShare).toBeLessThan(
      0.95,
    );
    expect(parse('jdk17-parallel-leak-oom-128m-xlog-gcstar-time.log').summary).toMatch(
      /\(100% of the old generation\)/,
    );
  });
});

describe('a heap exhausted, from the GC log alone', () => {
  // Parallel's -Xlog:gc heap total counts young survivors (86-94% left); its gc* capture shows the old generation full.
  const parallelHeapTotalOnly = (file: string) => /^jdk17-parallel-.*-xlog-gc-/.test(file);
  const exhausted = matrix.filter((m) => !parallelHeapTotalOnly(m.file));
  it.each(exhausted)('$file ends in whole-heap collections that leave it nearly full', ({ file }) => {
    const fact = parse(file).facts.find((f) => f.kind === 'oom.heap-exhausted');
    expect(fact?.values?.source).toBe('gc-log');
    expect(Number(fact?.values?.share)).toBeGreaterThanOrEqual(0.9);
  });

  it.each(matrix.filter((m) => parallelHeapTotalOnly(m.file)))(
    '$file: not claimed where the log cannot see the old generation (Parallel, -Xlog:gc)',
    ({ file }) => {
      expect(kinds(file)).not.toContain('oom.heap-exhausted');
    },
  );

  it('is claimed from a JDK 8 log whose last full GCs leave the old generation full (GCViewer #161)', () => {
    expect(kinds('gcviewer-161-parallel-full-gcs.txt')).toContain('oom.heap-exhausted');
  });

  it.each([
    'jdk17-g1-healthy-xlog-gc-star.log',
    'jdk17-g1-healthy-xlog-gc.log',
    'bingoogolapple-184-parallel-multiline.txt',
    'jifa-202-unified-g1.txt',
  ])('is not claimed for %s (healthy, or one full GC at 73%)', (file) => {
    expect(kinds(file)).not.toContain('oom.heap-exhausted');
  });

  it('needs three whole-heap collections in a row: two full ones at the end are not enough', () => {
    const lines = read('jdk17-serial-leak-oom-32m-xlog-gc-uptime.log').split('\n');
    const fulls = lines.filter((l) => l.includes('Pause Full'));
    expect(parseText('gc-log', fulls.slice(-2).join('\n')).facts.map((f) => f.kind)).not.toContain(
      'oom.heap-exhausted',
    );
    expect(parseText('gc-log', fulls.slice(-3).join('\n')).facts.map((f) => f.kind)).toContain(
      'oom.heap-exhausted',
    );
  });
});

describe("generational ZGC (JDK 21+), from GCToolKit's own test", () => {
  it('reads a Major Collection as a whole-heap collection, with its capacity and pauses', () => {
    const v = parse('gctoolkit-generational-zgc-major-cycle.log').values;
    expect(v).toMatchObject({
      format: 'unified',
      gcEvents: 1,
      wholeHeapCollections: 1,
      heapCapacityBytes: 3000 * MiB,
      firstHeapAfterFullGcBytes: 74 * MiB,
      heapAfterFullGcShare: 0.02,
    });
    // Five pauses of 0.066 + 0.016 + 0.014 + 0.014 + 0.013 ms.
    expect(v.totalPauseSeconds).toBe(0);
  });

  it('does not take a Minor Collection for a whole-heap one', () => {
    const minor = read('gctoolkit-generational-zgc-major-cycle.log').replaceAll(
      'Major Collection',
      'Minor Collection',
    );
    expect(parseText('gc-log', minor).values.wholeHeapCollections).toBe(0);
  });
});

describe('GC log detection', () => {
  it.each([
    ['[0.017s][info][gc     ] Using The Z Garbage Collector', true],
    ['Using Shenandoah', true],
    ['GC(3) Garbage Collection (Allocation Stall) 64M(100%)->60M(94%)', true],
    [
      '[4.220s][info][gc          ] GC(0) Major Collection (Metadata GC Threshold) 130M(4%)->74M(2%) 0.100s',
      true,
    ],
    ['Using the new build cache', false],
    ['GC(3) is a function name', false],
  ])('%j is a GC log line: %s', (line, yes) => {
    expect(gcLogParser.detect([line])).toBe(yes);
  });
});

describe('unified logs without whole-heap collections', () => {
  it('leaves the live share out rather than saying 0', () => {
    const young = read('jdk17-g1-leak-oom-32m-xlog-gc-uptime.log')
      .split('\n')
      .filter((l) => !l.includes('Pause Full'))
      .join('\n');
    const v = parseText('gc-log', young).values;
    expect(v.heapAfterFullGcShare).toBeUndefined();
    expect(v.wholeHeapCollections).toBe(0);
    expect(Number(v.heapCapacityBytes)).toBe(32 * MiB);
  });
});

/** JDK 8 and earlier, from posts on GitHub (test/engine/parsers/fixtures/SOURCES.md): no JDK 8 here to capture. */
describe('JDK 8 -XX:+PrintGCDetails beyond Parallel: CMS, date stamps, no stamps, PrintHeapAtGC', () => {
  it('counts a CMS collection inside a "[GC" event, and a concurrent mode failure, as whole-heap', () => {
    const v = parse('github-jdk8-cms-datestamps.txt').values;
    // [CMS: 328412K->312126K(349568K)] and two "(concurrent mode failure)" fallbacks; ParNew, marks and remarks besides.
    expect(v).toMatchObject({ format: 'jdk8', gcEvents: 15, fullGcCount: 3, wholeHeapCollections: 3 });
    // The old generation, not the heap total: 323317K of 349568K at the last one.
    expect(v.lastHeapAfterFullGcBytes).toBe(323317 * 1024);
    expect(v.heapAfterFullGcShare).toBeCloseTo(323317 / 349568, 4);
    expect(v.heapFloorRising).toBe(true);
  });

  it('times a log stamped with dates only (-XX:+PrintGCDateStamps): 0.234 s to 0.656 s plus the last pause', () => {
    const v = parse('github-jdk8-cms-datestamps.txt').values;
    expect(v.elapsedSeconds).toBe(0.492);
  });

  it('ends the date-stamped program (it finished) without claiming exhaustion: 83%, 89%, 92% of the old generation', () => {
    expect(kinds('github-jdk8-cms-datestamps.txt')).not.toContain('oom.heap-exhausted');
  });

  it('reads a log without stamps (PrintGCDetails alone) and gives no time share', () => {
    const out = parse('github-cms-concurrent-mode-failure-oom-unstamped.txt');
    expect(out.values).toMatchObject({
      format: 'jdk8',
      gcEvents: 5,
      fullGcCount: 3,
      heapAfterFullGcShare: 0.8,
    });
    expect(out.values.gcTimeShare).toBeUndefined();
    expect(
      gcLogParser.detect([
        '[GC [ParNew: 31539K->496K(46080K), 0.0137601 secs] 31539K->31218K(97280K), 0.0152885 secs] ',
      ]),
    ).toBe(true);
  });

  it('skips the PrintHeapAtGC blocks around each event', () => {
    const v = parse('github-jdk8-cms-print-heap-at-gc.txt').values;
    // Three ParNew events and the initial mark; the concurrent mode failure left 1110K of 10240K.
    expect(v).toMatchObject({ gcEvents: 4, fullGcCount: 1, firstHeapAfterFullGcBytes: 1110 * 1024 });
    expect(v.heapCapacityBytes).toBe(19456 * 1024);
  });
});
