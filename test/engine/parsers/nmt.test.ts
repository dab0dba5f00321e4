import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nmtParser } from '../../../src/engine/parsers/nmt.ts';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';

const KiB = 1024;
const MiB = 1024 ** 2;
const read = (file: string) => readFileSync(join(import.meta.dirname, 'fixtures/nmt', file), 'utf8');
const parse = (text: string) => parseText('nmt', text);
const factsOf = (text: string, kind: string) => parse(text).facts.filter((f) => f.kind === kind);

describe('NMT summaries captured on JDK 17 and posted from JDK 8', () => {
  // 320 direct buffers of 1 MiB: Other 327680 KB; committed 660058 KB of 2036902 KB reserved, heap 262144 KB.
  // Outside the heap = 660058 - 262144 = 397914 KB (388.6 MiB); 660058 KB = 644.6 MiB; 2036902 KB = 1.94 GiB.
  it('reads the figures and flags Other above 256 MiB as native memory', () => {
    const out = parse(read('jdk17-summary-320-direct-mib.txt'));
    expect(out.values).toMatchObject({
      diff: false,
      totalReservedBytes: 2036902 * KiB,
      totalCommittedBytes: 660058 * KiB,
      heapCommittedBytes: 262144 * KiB,
      nonHeapCommittedBytes: 397914 * KiB,
      largestNonHeapCategory: 'Other',
      largestNonHeapCommittedBytes: 320 * MiB,
      'committedBytes.nativeMemoryTracking': 121 * KiB,
      'committedBytes.sharedClassSpace': 12060 * KiB,
      'committedBytes.stringDeduplication': KiB,
    });
    expect(out.summary).toBe(
      'NMT summary: 645 MB committed of 1.94 GB reserved; heap 256 MB, outside the heap 389 MB. 19 threads, 19 MB of stack reserved, 804 KB committed.',
    );
    expect(out.verdict).toBe('largest outside the heap: Other (320 MB committed)');
    expect(out.facts.filter((f) => f.kind === 'nmt.native-large').map((f) => f.values)).toEqual([
      { category: 'Other', committedBytes: 320 * MiB },
    ]);
    expect(out.facts.find((f) => f.kind === 'nmt.largest')?.values).toEqual({
      category: 'Other',
      committedBytes: 320 * MiB,
    });
    expect(out.facts.some((f) => f.kind === 'nmt.growing')).toBe(false);
  });

  // Near miss: 1219 threads commit 1163347 KB (1.11 GiB) of stacks, far above 256 MiB, but Thread is not
  // Internal/Other: it is the largest area outside the heap, not a native-memory finding.
  it('does not flag a large Thread area as native memory', () => {
    const text = read('jdk17-summary-1200-threads.txt');
    expect(factsOf(text, 'nmt.native-large')).toEqual([]);
    expect(parse(text).verdict).toBe(
      '1219 threads alive, reserving 9.46 GB of stack: more than a JVM at work needs, so threads leak',
    );
    // Near miss on JDK 8 too: Flink's 529 threads commit 2575 MB in Thread.
    expect(factsOf(read('flink-blog-529-threads-summary-mb.txt'), 'nmt.native-large')).toEqual([]);
  });

  // JDK 8 counts direct buffers under Internal: 506 MB there is flagged; 21018 KB (CMS post) is not.
  it('flags a large Internal area (JDK 8) and not a small one', () => {
    expect(factsOf(read('netty-quic-413-summary-mb.txt'), 'nmt.native-large').map((f) => f.values)).toEqual([
      { category: 'Internal', committedBytes: 506 * MiB },
    ]);
    expect(factsOf(read('hxf-jdk8-cms-summary-kb.txt'), 'nmt.native-large')).toEqual([]);
  });
});

/** The 320-direct capture with Other holding `committedKb` instead, and the total adjusted to match. */
function withOther(committedKb: number): string {
  const total = 660058 - 327680 + committedKb;
  return read('jdk17-summary-320-direct-mib.txt')
    .replace('committed=660058KB', `committed=${total}KB`)
    .replace(
      'Other (reserved=327680KB, committed=327680KB)',
      `Other (reserved=${committedKb}KB, committed=${committedKb}KB)`,
    );
}

describe('the native-memory threshold', () => {
  it('is above 256 MiB, not at it', () => {
    expect(factsOf(withOther(262144), 'nmt.native-large')).toEqual([]);
    expect(factsOf(withOther(262145), 'nmt.native-large').map((f) => f.values)).toEqual([
      { category: 'Other', committedBytes: 262145 * KiB },
    ]);
  });
});

describe('NMT summary.diff', () => {
  // DirectLeak 320 after the baseline: Other +327680 KB; Total committed +327698 KB; Arena Chunk -91 KB.
  it('names the fastest-growing area and the total growth', () => {
    const out = parse(read('jdk17-summary-diff-direct-growth.txt'));
    expect(out.values).toMatchObject({
      diff: true,
      totalCommittedBytes: 660054 * KiB,
      totalCommittedDeltaBytes: 327698 * KiB,
      fastestGrowingCategory: 'Other',
      fastestGrowthBytes: 320 * MiB,
    });
    expect(out.verdict).toBe('Other is growing fastest (+320 MB committed)');
    expect(out.summary).toMatch(/^NMT diff: /);
    expect(factsOf(read('jdk17-summary-diff-direct-growth.txt'), 'nmt.growing').map((f) => f.values)).toEqual(
      [{ category: 'Other', deltaBytes: 320 * MiB }],
    );
  });

  // Edge cases built from the real diff's line format: only the committed figure moved.
  const diffOf = (total: string, thread: string) =>
    [
      'Native Memory Tracking:',
      '',
      total,
      '-                 Java Heap (reserved=262144KB, committed=262144KB)',
      '-                     Class (reserved=1048659KB, committed=211KB)',
      thread,
      '-                      Code (reserved=247734KB, committed=7594KB)',
      '-                        GC (reserved=47389KB, committed=47389KB)',
    ].join('\n');

  it('is a diff when only a committed figure carries a change', () => {
    const totalOnly = diffOf(
      'Total: reserved=1626070KB, committed=317388KB +4KB',
      '-                    Thread (reserved=19506KB, committed=850KB)',
    );
    expect(parse(totalOnly).values).toMatchObject({ diff: true, totalCommittedBytes: 317388 * KiB });
    const categoryOnly = diffOf(
      'Total: reserved=1626070KB, committed=317388KB',
      '-                    Thread (reserved=19506KB, committed=850KB +4KB)',
    );
    const out = parse(categoryOnly);
    expect(out.values).toMatchObject({
      diff: true,
      fastestGrowingCategory: 'Thread',
      fastestGrowthBytes: 4 * KiB,
    });
    expect(out.verdict).toBe('Thread is growing fastest (+4 KB committed)');
  });

  // Reserved memory can move while committed stays (a thread stack reserved, not yet touched).
  it('is a diff when only a reserved figure carries a change', () => {
    const totalOnly = diffOf(
      'Total: reserved=1626070KB +8KB, committed=317388KB',
      '-                    Thread (reserved=19506KB, committed=850KB)',
    );
    expect(parse(totalOnly).values.diff).toBe(true);
    const categoryOnly = diffOf(
      'Total: reserved=1626070KB, committed=317388KB',
      '-                    Thread (reserved=19506KB +8KB, committed=850KB)',
    );
    expect(parse(categoryOnly).values.diff).toBe(true);
  });

  it('is a summary when nothing carries a change, and then names no growth', () => {
    const out = parse(
      diffOf(
        'Total: reserved=1626070KB, committed=317388KB',
        '-                    Thread (reserved=19506KB, committed=850KB)',
      ),
    );
    expect(out.values.diff).toBe(false);
    expect(out.values.fastestGrowingCategory).toBeUndefined();
    expect(out.verdict).toBe('largest outside the heap: GC (46.3 MB committed)');
  });

  it('does not name a growing area when every area shrank', () => {
    const out = parse(
      diffOf(
        'Total: reserved=1626070KB -8KB, committed=317388KB -8KB',
        '-                    Thread (reserved=19506KB -8KB, committed=850KB -8KB)',
      ),
    );
    expect(out.values).toMatchObject({ diff: true });
    expect(out.values.fastestGrowingCategory).toBeUndefined();
    expect(out.facts.some((f) => f.kind === 'nmt.growing')).toBe(false);
  });
});

/** An NMT summary in the real layout with the five areas every summary prints, and what follows them. */
function summaryOf(total: string, areas: Record<string, string>, scaleLine = true): string {
  return [
    'Native Memory Tracking:',
    '',
    ...(scaleLine ? ['(Omitting categories weighting less than 1KB)', ''] : []),
    total,
    ...Object.entries(areas).map(([name, figures]) => `-${name.padStart(26)} (${figures})`),
  ].join('\n');
}

const kb = (n: number) => `reserved=${n}KB, committed=${n}KB`;

describe('a summary cut short', () => {
  // Total 1000000 KB; slack = 5% of it + 1 KB per area shown = 51200000 + 5 x 1024 = 51205120 bytes,
  // so the areas must hold at least 1024000000 - 51205120 = 972794880 bytes = 949995 KB.
  const areas = (gcKb: number) => ({
    'Java Heap': kb(900000),
    Class: kb(10000),
    Thread: kb(20000),
    Code: kb(10000),
    GC: kb(gcKb),
  });
  const total = 'Total: reserved=1000000KB, committed=1000000KB';

  it('is accepted while the areas shown hold the total less NMT rounding slack', () => {
    expect(parse(summaryOf(total, areas(9995))).values.totalCommittedBytes).toBe(1000000 * KiB);
    expect(() => parse(summaryOf(total, areas(9994)))).toThrow(
      /stops after "GC" \(the areas shown hold 928 MB of the 977 MB committed\)\./,
    );
  });

  // In bytes and without the "Omitting" line, the slack per area is one byte: 5% of 1e9 + 5.
  it('allows one byte per area when the figures are bytes', () => {
    const bytes = (n: number) => `reserved=${n}, committed=${n}`;
    const exact = (gc: number) =>
      summaryOf(
        'Total: reserved=1000000000, committed=1000000000',
        {
          'Java Heap': bytes(900000000),
          Class: bytes(10000000),
          Thread: bytes(20000000),
          Code: bytes(10000000),
          GC: bytes(gc),
        },
        false,
      );
    expect(parse(exact(9999995)).values.heapCommittedBytes).toBe(900000000);
    expect(() => parse(exact(9999994))).toThrow(/the whole NMT output/);
  });

  it('names the areas every summary prints that are missing', () => {
    const { GC: _gc, Code: _code, ...rest } = areas(9995);
    expect(() => parse(summaryOf('Total: reserved=930000KB, committed=930000KB', rest))).toThrow(
      /stops after "Thread" \(.*; Code, GC are missing\)/,
    );
    const { GC: _only, ...four } = areas(9995);
    expect(() => parse(summaryOf('Total: reserved=940000KB, committed=940000KB', four))).toThrow(
      /; GC is missing\)/,
    );
  });

  it('refuses a Total line with no areas, saying what it expected', () => {
    expect(() => parse(summaryOf(total, {}))).toThrow(
      /expected "Total: reserved=\.\.\., committed=\.\.\." and category lines/,
    );
  });
});

describe('NMT detection', () => {
  it.each([
    ['Native Memory Tracking:', true],
    ['Total: reserved=1000KB, committed=500KB', true],
    ['   Total:   reserved=1000KB, committed=500KB', true],
    ['Baseline taken', true],
    ['  Baseline succeeded  ', true],
    ['Grand Total: reserved=1000KB', false],
    ['Total: reserved=lots', false],
    ['Baseline taken yesterday', false],
  ])('%j looks like NMT: %s', (line, nmt) => {
    expect(nmtParser.detect([line])).toBe(nmt);
  });

  it('says a baseline reply has no figures yet', () => {
    expect(() => parse('Baseline succeeded')).toThrow(/"Baseline taken" is only the reply/);
  });
});

/**
 * ThreadLeak (scripts/capture/jvm) on JDK 17: N idle threads at each -Xss. The JVM adds about twenty
 * threads of its own (1 MiB stacks at most, or -Xss when larger), so each figure is bounded by what the
 * program set up.
 */
describe('thread stacks of the captured thread leaks', () => {
  const matrix = [300, 1500, 3000].flatMap((threads) =>
    (
      [
        ['default', MiB],
        ['256k', 256 * KiB],
        ['2m', 2 * MiB],
      ] as const
    ).map(([xss, stack]) => ({ threads, xss, stack, file: `jdk17-thread-leak-${threads}-xss-${xss}.txt` })),
  );

  it.each(matrix)(
    '$file: the count, and the reserved stacks of about -Xss each',
    ({ threads, stack, file }) => {
      const v = parse(read(file)).values;
      const own = 30;
      expect(v.threadCount).toBeGreaterThanOrEqual(threads);
      expect(v.threadCount).toBeLessThan(threads + own);
      expect(v.threadStackReservedBytes).toBeGreaterThanOrEqual(threads * stack);
      expect(v.threadStackReservedBytes).toBeLessThanOrEqual(threads * stack + own * Math.max(stack, MiB));
      // JDK 11+ counts only touched pages: idle threads commit a small part of what they reserve.
      expect(v.threadStacksCountedWhole).toBe(false);
      expect(Number(v.threadStackCommittedBytes)).toBeLessThan(Number(v.threadStackReservedBytes) / 2);
      expect(Number(v['committedBytes.thread'])).toBeLessThan(1024 * MiB);
    },
  );

  it.each(matrix)('$file: a leak from 1,000 threads, whatever the stacks commit', ({ threads, file }) => {
    const verdict = parse(read(file)).verdict;
    if (threads >= 1000) expect(verdict).toMatch(/^\d+ threads alive, reserving .* so threads leak$/);
    else expect(verdict).toMatch(/^largest outside the heap: /);
  });

  it('reads -Xss back from the reserved stacks', () => {
    expect(parse(read('jdk17-thread-leak-1500-xss-default.txt')).values.threadStackBytesEach).toBe(MiB);
    expect(parse(read('jdk17-thread-leak-3000-xss-2m.txt')).verdict).toBe(
      '3019 threads alive, reserving 5.89 GB of stack: more than a JVM at work needs, so threads leak',
    );
  });

  // JDK 8 counts each reserved stack whole as committed: the Flink post's 529 threads of ~5 MiB.
  it('says when NMT counted the stacks whole, as JDK 8 does', () => {
    const v = parse(read('flink-blog-529-threads-summary-mb.txt')).values;
    expect(v).toMatchObject({
      threadCount: 529,
      threadStackReservedBytes: 2573 * MiB,
      threadStackCommittedBytes: 2573 * MiB,
      threadStacksCountedWhole: true,
    });
    expect(parse(read('hxf-jdk8-cms-summary-kb.txt')).values.threadStacksCountedWhole).toBe(true);
  });

  it('reads the count from a summary.diff, whose count line carries a change', () => {
    const diff = read('jdk17-summary-diff-direct-growth.txt').replace('(thread #19)', '(thread #1019 +1000)');
    expect(parse(diff).values.threadCount).toBe(1019);
  });

  it('is one short of a leak at 999 threads', () => {
    const text = read('jdk17-thread-leak-1500-xss-default.txt');
    expect(parse(text.replace('(thread #1519)', '(thread #999)')).verdict).toMatch(/^largest outside/);
    expect(parse(text.replace('(thread #1519)', '(thread #1000)')).verdict).toMatch(/threads leak$/);
  });
});
