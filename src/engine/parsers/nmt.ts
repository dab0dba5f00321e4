import type { ChartData } from '../charts/types.ts';
import type { Fact } from '../facts.ts';
import { formatSize } from '../units.ts';
import { fact, output, parseFailed } from './common.ts';
import type { Parser, ParserRun } from './types.ts';

const UNIT: Readonly<Record<string, number>> = { '': 1, B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };
const AMOUNT = String.raw`(\d+)(KB|MB|GB|B)?(?:\s+([+-]\d+)(KB|MB|GB|B)?)?`;
const TOTAL = new RegExp(String.raw`^\s*Total:\s+reserved=${AMOUNT},\s+committed=${AMOUNT}`);
/**
 * "-   Java Heap (reserved=...": the name ends on a letter or dot, so neither the leading `\s*` nor the
 * `\s+` after the name can share a run of spaces with it (shared, a line of spaces cost cubic time).
 */
const CATEGORY = new RegExp(
  String.raw`^\s*(?:-\s*)?([A-Za-z](?:[A-Za-z .]*[A-Za-z.])?)\s+\(reserved=${AMOUNT},\s+committed=${AMOUNT}\)`,
);
/** Internal/Other above this hints at direct/Unsafe buffers or a JVM native leak (JDK 8 MemberNameTable). */
const NATIVE_ALERT = 256 * 1024 ** 2;
/**
 * Areas every HotSpot NMT summary prints, JDK 8 to 23, in this order and each far above the 1 KB/1 MB
 * below which NMT omits an area: a paste without one of them was cut off.
 */
const ALWAYS_PRINTED = ['Java Heap', 'Class', 'Thread', 'Code', 'GC'] as const;
/** Share of the committed total the printed areas may miss through NMT's rounding and omitted areas. */
const ROUNDING_SHARE = 0.05;
/** JDK 17+ `summary.diff` marks metaspace sub-blocks this way even when nothing changed. */
/** What `VM.native_memory baseline` answers (JDK 9+ / JDK 8): no figures yet. */
const BASELINE = /^\s*Baseline (taken|succeeded)\s*$/;
const DIFF_MARKER = /^\s*:\s*\(\s*(Metadata|Class space)\)/;
/** Under Thread, JDK 8 to 23: "(thread #3019)", in a diff "(thread #3019 +2980)". */
const THREAD_COUNT = /^\s*\(thread #(\d+)(?:\s+[+-]\d+)?\)\s*$/;
/** Under Thread: "(stack: reserved=3091456KB, committed=133796KB)", a diff's deltas after each figure. */
const STACK = new RegExp(String.raw`^\s*\(stack: reserved=${AMOUNT}, committed=${AMOUNT}\)`);

/**
 * Over a thousand live threads is a leak, however little their stacks commit. Each thread reserves
 * its whole stack (-Xss: 1 MiB by default on 64-bit Linux) as address space when it starts, but the
 * kernel backs only the pages it touches: 3,019 idle threads captured on JDK 17 reserved 2.9 GiB and
 * committed 131 MiB. JDK 11+ NMT records a stack as reserved only and reads the committed part from
 * the kernel when asked (`MemTracker::record_thread_stack` and `snapshot_thread_stacks`, JDK-8191369,
 * tested by hotspot's gtest test_committed_virtualmemory.cpp); the JDK 8 summaries we have (fixtures
 * flink-blog-529-threads, hxf-jdk8-cms) show stack committed equal to reserved, the whole -Xss. Either
 * way the committed figure cannot stand for the count.
 * A busy JVM, Flink TaskManagers with many slots included, runs a few hundred threads.
 */
export const THREAD_LEAK_COUNT = 1000;

interface ThreadStacks {
  count?: number;
  /** The `(thread #N)` line, which a thread-leak fact cites. */
  line?: { line: number; text: string };
  reserved?: number;
  committed?: number;
}

function bytes(value?: string, unit?: string): number {
  return Number(value ?? 0) * (UNIT[unit ?? ''] ?? 1);
}

/** `Java Heap` -> `javaHeap`, `Native Memory Tracking` -> `nativeMemoryTracking`: stable value keys. */
function keyOf(category: string): string {
  const words = category
    .replace(/[^A-Za-z ]/g, ' ')
    .trim()
    .split(/\s+/);
  return words
    .map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()))
    .join('');
}

interface Category {
  name: string;
  reserved: number;
  committed: number;
  committedDelta: number;
  line: number;
  text: string;
}

class NmtRun implements ParserRun {
  private readonly categories: Category[] = [];
  private total?: { reserved: number; committed: number; committedDelta: number; line: number; text: string };
  private diff = false;
  private scale = '';
  private baselineReply = false;
  private readonly threads: ThreadStacks = {};

  push(line: string, lineNo: number): void {
    if (this.categories[this.categories.length - 1]?.name === 'Thread' && this.readThreadLine(line, lineNo))
      return;
    if (BASELINE.test(line)) this.baselineReply = true;
    if (DIFF_MARKER.test(line)) this.diff = true;
    const scale = /Omitting categories weighting less than 1(KB|MB|GB)/.exec(line);
    if (scale) this.scale = scale[1] ?? '';
    const t = TOTAL.exec(line);
    if (t) {
      this.diff ||= t[3] !== undefined || t[7] !== undefined;
      this.total = {
        reserved: bytes(t[1], t[2]),
        committed: bytes(t[5], t[6]),
        committedDelta: bytes(t[7], t[8]),
        line: lineNo,
        text: line,
      };
      return;
    }
    const c = CATEGORY.exec(line);
    if (!c || /^(mmap|malloc|stack|arena)$/i.test(c[1] ?? '')) return;
    this.diff ||= c[4] !== undefined || c[8] !== undefined;
    this.categories.push({
      name: (c[1] ?? '').trim(),
      reserved: bytes(c[2], c[3]),
      committed: bytes(c[6], c[7]),
      committedDelta: bytes(c[8], c[9]),
      line: lineNo,
      text: line,
    });
  }

  finish() {
    const total = this.usableTotal();
    this.checkComplete(total.committed);
    const heapCommitted = this.categories.find((c) => c.name === 'Java Heap')?.committed ?? 0;
    const byCommitted = [...this.categories].sort((a, b) => b.committed - a.committed);
    const largest = byCommitted.find((c) => c.name !== 'Java Heap') ?? byCommitted[0];
    const values: Record<string, number | string | boolean> = {
      diff: this.diff,
      totalReservedBytes: total.reserved,
      totalCommittedBytes: total.committed,
      heapCommittedBytes: heapCommitted,
      // NMT's own total less the heap: areas it omits (below 1 KB/MB) and rounding stay counted.
      nonHeapCommittedBytes: Math.max(0, total.committed - heapCommitted),
      largestNonHeapCategory: largest?.name ?? '',
      largestNonHeapCommittedBytes: largest?.committed ?? 0,
      ...this.threadValues(),
    };
    for (const c of this.categories) values[`committedBytes.${keyOf(c.name)}`] = c.committed;
    const facts: Fact[] = [];
    if (largest)
      facts.push(
        fact('nmt.largest', largest.line, largest.text, {
          category: largest.name,
          committedBytes: largest.committed,
        }),
      );
    const verdict =
      this.growthVerdict(total, values, facts) ??
      this.threadLeakVerdict() ??
      `largest outside the heap: ${largest?.name} (${formatSize(largest?.committed ?? 0)} committed)`;
    facts.push(...this.threadLeakFacts());
    for (const c of this.categories.filter(
      (c) => /^(Internal|Other)$/.test(c.name) && c.committed > NATIVE_ALERT,
    ))
      facts.push(fact('nmt.native-large', c.line, c.text, { category: c.name, committedBytes: c.committed }));
    const summary = `NMT ${this.diff ? 'diff' : 'summary'}: ${formatSize(total.committed)} committed of ${formatSize(total.reserved)} reserved; heap ${formatSize(heapCommitted)}, outside the heap ${formatSize(Number(values.nonHeapCommittedBytes))}.${this.threadSummary()}`;
    const out = output('nmt', values, summary, facts, verdict, total.line);
    return { ...out, chart: this.chart(verdict, largest?.name) };
  }

  /** Committed memory per area (or its growth, in a diff), the area the verdict names emphasised. */
  private chart(verdict: string, largest?: string): ChartData {
    const growing = this.diff && this.categories.some((c) => c.committedDelta > 0);
    const named = growing
      ? [...this.categories].sort((a, b) => b.committedDelta - a.committedDelta)[0]?.name
      : largest;
    return {
      kind: 'bars',
      id: 'nmt',
      title: growing ? 'Native memory growth per JVM area (NMT diff)' : 'Committed memory per JVM area (NMT)',
      valueLabel: growing ? 'committed since the baseline' : 'committed',
      bars: this.categories
        .map((c) => ({
          label: c.name,
          bytes: growing ? c.committedDelta : c.committed,
          emphasis: c.name === named,
        }))
        .filter((b) => b.bytes > 0),
      verdict,
    };
  }

  /** The Total line, or why the paste cannot be read. */
  private usableTotal(): NonNullable<NmtRun['total']> {
    if (!this.total && this.baselineReply)
      throw parseFailed(
        'the figures: "Baseline taken" is only the reply to `VM.native_memory baseline`. Let the job run for a while, then run `jcmd <pid> VM.native_memory summary.diff` and paste what it prints.',
      );
    if (!this.total || this.categories.length === 0)
      throw parseFailed(
        '"Total: reserved=..., committed=..." and category lines (run jcmd <pid> VM.native_memory summary).',
      );
    if (this.scale === 'GB')
      throw parseFailed(
        'figures finer than whole GB: with scale=GB NMT rounds every area to 0 or 1 GB. Run `jcmd <pid> VM.native_memory summary` again without scale= (or with scale=MB).',
      );
    return this.total;
  }

  /** In a diff, the area that grew most: its values, its fact and the verdict. */
  private growthVerdict(
    total: NonNullable<NmtRun['total']>,
    values: Record<string, number | string | boolean>,
    facts: Fact[],
  ): string | undefined {
    const growing = [...this.categories].sort((a, b) => b.committedDelta - a.committedDelta)[0];
    if (!this.diff || !growing || growing.committedDelta <= 0) return undefined;
    values.totalCommittedDeltaBytes = total.committedDelta;
    values.fastestGrowingCategory = growing.name;
    values.fastestGrowthBytes = growing.committedDelta;
    facts.push(
      fact('nmt.growing', growing.line, growing.text, {
        category: growing.name,
        deltaBytes: growing.committedDelta,
      }),
    );
    return `${growing.name} is growing fastest (+${formatSize(growing.committedDelta)} committed)`;
  }

  /** The count and stack lines printed under Thread; true when the line was one of them. */
  private readThreadLine(line: string, lineNo: number): boolean {
    const count = THREAD_COUNT.exec(line);
    if (count) {
      this.threads.count = Number(count[1]);
      this.threads.line = { line: lineNo, text: line.trim() };
    }
    const stack = count ? null : STACK.exec(line);
    if (stack) {
      this.threads.reserved = bytes(stack[1], stack[2]);
      this.threads.committed = bytes(stack[5], stack[6]);
    }
    return count !== null || stack !== null;
  }

  /**
   * Thread count and stack figures; `threadStackBytesEach` is about -Xss. `threadStacksCountedWhole`
   * says NMT counted every reserved stack byte as committed, as JDK 8 does (JDK 11+ counts touched pages).
   */
  private threadValues(): Record<string, number | boolean> {
    const { count, reserved, committed } = this.threads;
    const values: Record<string, number | boolean> = {};
    if (count !== undefined) values.threadCount = count;
    if (reserved === undefined || committed === undefined) return values;
    values.threadStackReservedBytes = reserved;
    values.threadStackCommittedBytes = committed;
    values.threadStacksCountedWhole = reserved > 0 && committed === reserved;
    if (count) values.threadStackBytesEach = Math.round(reserved / count);
    return values;
  }

  /** " 3019 threads, 2.95 GB of stack reserved, 131 MB committed.": the figures the thread rule reads. */
  private threadSummary(): string {
    const { count, reserved, committed } = this.threads;
    if (count === undefined) return '';
    const stacks =
      reserved === undefined
        ? ''
        : `, ${formatSize(reserved)} of stack reserved, ${formatSize(committed ?? 0)} committed`;
    return ` ${count} threads${stacks}.`;
  }

  /** A thread leak as a fact on the `(thread #N)` line, which a case pairs with another input's kill. */
  private threadLeakFacts(): Fact[] {
    const { count, line } = this.threads;
    if (count === undefined || count < THREAD_LEAK_COUNT || !line) return [];
    return [fact('nmt.threads', line.line, line.text, { count })];
  }

  private threadLeakVerdict(): string | undefined {
    const { count, reserved } = this.threads;
    if (count === undefined || count < THREAD_LEAK_COUNT) return undefined;
    const stacks = reserved ? `, reserving ${formatSize(reserved)} of stack` : '';
    return `${count} threads alive${stacks}: more than a JVM at work needs, so threads leak`;
  }

  /**
   * A summary cut short (a chat paste that stopped at a blank line, a post trimmed by hand) would be
   * read as "nothing outside the heap": refuse it and say where it stops.
   */
  private checkComplete(totalCommitted: number): void {
    const names = new Set(this.categories.map((c) => c.name));
    const missing = ALWAYS_PRINTED.filter((n) => !names.has(n));
    const shown = this.categories.reduce((s, c) => s + c.committed, 0);
    const unit = UNIT[this.scale] ?? 1024;
    const slack = totalCommitted * ROUNDING_SHARE + this.categories.length * unit;
    if (missing.length === 0 && shown + slack >= totalCommitted) return;
    const last = this.categories[this.categories.length - 1]?.name ?? '';
    const lacking =
      missing.length > 0 ? `; ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing` : '';
    throw parseFailed(
      `the whole NMT output: this one stops after "${last}" (the areas shown hold ${formatSize(shown)} of the ${formatSize(totalCommitted)} committed${lacking}). Paste everything from "Native Memory Tracking:" to the last area; in the console, end the paste with a line holding only "." so blank lines stay in.`,
    );
  }
}

/** `jcmd <pid> VM.native_memory summary` and `summary.diff`: committed memory per JVM area. */
export const nmtParser: Parser = {
  id: 'nmt',
  title: 'jcmd VM.native_memory summary',
  howToGet:
    '`jcmd <pid> VM.native_memory summary` (or `summary.diff` after `VM.native_memory baseline`) on a JVM started with -XX:NativeMemoryTracking=summary',
  detect: (head) =>
    head.some((l) => /Native Memory Tracking:|^\s*Total:\s+reserved=\d+/.test(l) || BASELINE.test(l)),
  create: () => new NmtRun(),
};
