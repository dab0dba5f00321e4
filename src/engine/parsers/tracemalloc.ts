import type { Fact } from '../facts.ts';
import { formatSize } from '../units.ts';
import { fact, output, parseFailed, percent, sizeOf } from './common.ts';
import type { Parser, ParserRun } from './types.ts';

const SIZE = String.raw`(\d+(?:\.\d+)?\s?[KMGT]?i?B)`;
/*
 * The location starts on a non-space (`\S`): as `.+?` it could also take the leading spaces, and a
 * line of spaces cost quadratic time (15 s for 100k characters).
 */
/** `print(stat)` / `print(diff)`: "file.py:716: size=4855 KiB (+12 KiB), count=39328 (+5), average=126 B". */
const STAT = new RegExp(String.raw`^\s*(\S.*?:\d+): size=${SIZE}(?: \(([+-])${SIZE}\))?, count=(\d+)`);
/** The docs' display_top(): "#1: collections/__init__.py:368: 291.9 KiB". */
const TOP = new RegExp(String.raw`^\s*#\d+:\s+(\S.*?:\d+):\s+${SIZE}\s*$`);
const TOTAL = new RegExp(String.raw`Total allocated size:\s+${SIZE}`);
/** tracemalloc's own bookkeeping (taking a snapshot allocates in tracemalloc.py): not the program's. */
const OWN_FRAME = /(?:^|[\\/])tracemalloc\.py:\d+$/;
/**
 * Growth between two snapshots below this is noise (a steady process still shows tracemalloc.py at
 * +320 B and interpreter caches): a leak worth chasing grows by megabytes in minutes.
 */
const MIN_GROWTH = 1024 ** 2;

interface Entry {
  location: string;
  bytes: number;
  growth: number;
  line: number;
  text: string;
}

class TracemallocRun implements ParserRun {
  private readonly entries: Entry[] = [];
  private total?: number;
  private diff = false;

  push(line: string, lineNo: number): void {
    const s = STAT.exec(line);
    if (s) {
      const growth = s[3] ? (sizeOf(s[4] ?? '') ?? 0) * (s[3] === '-' ? -1 : 1) : 0;
      this.diff ||= s[3] !== undefined;
      this.add(s[1] ?? '', sizeOf(s[2] ?? '') ?? 0, growth, lineNo, line);
      return;
    }
    const t = TOP.exec(line);
    if (t) {
      this.add(t[1] ?? '', sizeOf(t[2] ?? '') ?? 0, 0, lineNo, line);
      return;
    }
    const total = TOTAL.exec(line);
    if (total) this.total = sizeOf(total[1] ?? '');
  }

  private add(location: string, bytes: number, growth: number, line: number, text: string): void {
    if (this.entries.length < 10_000) this.entries.push({ location, bytes, growth, line, text });
  }

  finish() {
    const ranked = [...this.entries].sort((a, b) => b.bytes - a.bytes);
    const top = ranked.find((e) => !OWN_FRAME.test(e.location)) ?? ranked[0];
    if (!top)
      throw parseFailed(
        'tracemalloc statistics like "file.py:12: size=4855 KiB, count=39328, average=126 B" (print the stats of snapshot.statistics("lineno")).',
      );
    const total = this.total ?? this.entries.reduce((s, e) => s + e.bytes, 0);
    const program = this.entries.filter((e) => !OWN_FRAME.test(e.location));
    const grower = [...program].sort((a, b) => b.growth - a.growth)[0];
    const values: Record<string, number | string | boolean> = {
      entries: this.entries.length,
      diff: this.diff,
      totalBytes: total,
      topLocation: top.location,
      topBytes: top.bytes,
      topShare: total > 0 ? Number((top.bytes / total).toFixed(4)) : 0,
    };
    const facts: Fact[] = [
      fact('python.top-allocator', top.line, top.text, { location: top.location, bytes: top.bytes }),
    ];
    let verdict = `largest allocator: ${top.location} (${percent(Number(values.topShare))})`;
    if (this.diff) {
      values.totalGrowthBytes = program.reduce((s, e) => s + e.growth, 0);
      values.topGrowthLocation = grower?.location ?? '';
      values.topGrowthBytes = Math.max(0, grower?.growth ?? 0);
      verdict = `nothing grew by ${formatSize(MIN_GROWTH)} or more between the snapshots`;
    }
    if (this.diff && grower && grower.growth >= MIN_GROWTH) {
      facts.push(
        fact('python.growing-allocator', grower.line, grower.text, {
          location: grower.location,
          bytes: grower.growth,
        }),
      );
      verdict = `growing between snapshots: ${grower.location} (+${formatSize(grower.growth)})`;
    }
    const summary = `${formatSize(total)} traced in ${this.entries.length} locations; largest ${top.location} with ${formatSize(top.bytes)}.`;
    return output('tracemalloc', values, summary, facts, verdict, top.line);
  }
}

/** tracemalloc snapshot statistics and snapshot diffs printed as text. */
export const tracemallocParser: Parser = {
  id: 'tracemalloc',
  title: 'tracemalloc statistics',
  howToGet: 'print the entries of `snapshot.statistics("lineno")` (or `snapshot.compare_to(old, "lineno")`)',
  detect: (head) => head.filter((l) => STAT.test(l) || TOP.test(l)).length >= 2,
  create: () => new TracemallocRun(),
};
