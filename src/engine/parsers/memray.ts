import type { Fact } from '../facts.ts';
import { formatSize } from '../units.ts';
import { fact, output, parseFailed, percent, sizeOf } from './common.ts';
import type { Parser, ParserRun } from './types.ts';

const SIZE = String.raw`(\d+(?:\.\d+)?\s?[KMGT]?i?B)`;
/** "- main.py:12 -> 1.2 GiB": the name starts and ends on a non-space, so no run of spaces is shared. */
const STATS_ENTRY = new RegExp(String.raw`^\s*-\s+(\S(?:.*?\S)?)\s+->\s+${SIZE}\s*$`);

/**
 * The summary table's header: "Location" then "Total" or "Own" after it, or "Total Memory". Searched
 * from the first "Location" only: as one regex every "Location" scanned the rest of the line again.
 */
function isSummaryHeader(line: string): boolean {
  const location = line.indexOf('Location');
  if (location >= 0 && /Total|Own/.test(line.slice(location + 'Location'.length))) return true;
  return /(?:Total|Own)\s+Memory/.test(line);
}

interface Location {
  name: string;
  bytes: number;
  line: number;
  text: string;
}

type Section = 'none' | 'allocations' | 'allocated' | 'by-size' | 'other';

class MemrayRun implements ParserRun {
  private section: Section = 'none';
  private mode?: 'stats' | 'summary';
  private totalAllocations?: number;
  private totalAllocated?: number;
  private readonly locations: Location[] = [];
  private firstLine = 0;

  push(line: string, lineNo: number): void {
    const heading = this.heading(line);
    if (heading) {
      this.section = heading;
      this.mode ??= 'stats';
      this.firstLine ||= lineNo;
      return;
    }
    if (isSummaryHeader(line) && /[┃│|]/.test(line)) {
      this.mode ??= 'summary';
      this.firstLine ||= lineNo;
      return;
    }
    if (this.mode === 'summary') this.summaryRow(line, lineNo);
    else this.statsLine(line.trim(), lineNo, line);
  }

  private heading(line: string): Section | undefined {
    if (/Total allocations:/.test(line)) return 'allocations';
    if (/Total memory allocated:/.test(line)) return 'allocated';
    if (/largest allocating locations \(by size\)/.test(line)) return 'by-size';
    if (
      /Histogram of allocation size:|Allocator type distribution:|largest allocating locations \(by number/.test(
        line,
      )
    )
      return 'other';
    return undefined;
  }

  private statsLine(trimmed: string, lineNo: number, text: string): void {
    if (this.section === 'allocations' && /^\d+$/.test(trimmed)) this.totalAllocations = Number(trimmed);
    else if (this.section === 'allocated' && sizeOf(trimmed) !== undefined)
      this.totalAllocated = sizeOf(trimmed);
    else if (this.section === 'by-size') {
      const m = STATS_ENTRY.exec(trimmed);
      const bytes = m ? sizeOf(m[2] ?? '') : undefined;
      if (m && bytes !== undefined) this.locations.push({ name: m[1] ?? '', bytes, line: lineNo, text });
    }
  }

  /** Rows of the rich table: "│ func at file.py:12 │ 10.000MB │ 95.21% │ ...". */
  private summaryRow(line: string, lineNo: number): void {
    if (!line.includes('│') && !line.includes('|')) return;
    const cells = line
      .split(/[│|]/)
      .map((c) => c.trim())
      .filter(Boolean);
    const name = cells[0];
    const size = cells
      .slice(1)
      .map((c) => sizeOf(c))
      .find((b) => b !== undefined);
    if (name && size !== undefined && this.locations.length < 500)
      this.locations.push({ name, bytes: size, line: lineNo, text: line });
  }

  finish() {
    if (!this.mode || (this.totalAllocated === undefined && this.locations.length === 0))
      throw parseFailed(
        'memray stats output ("Total memory allocated:" and the largest allocating locations) or the memray summary table.',
      );
    const top = [...this.locations].sort((a, b) => b.bytes - a.bytes)[0];
    const total = this.totalAllocated ?? this.locations.reduce((s, l) => s + l.bytes, 0);
    const share = top && total > 0 ? top.bytes / total : 0;
    const values = {
      mode: this.mode,
      ...(this.totalAllocations !== undefined ? { totalAllocations: this.totalAllocations } : {}),
      totalAllocatedBytes: total,
      locations: this.locations.length,
      topLocation: top?.name ?? '',
      topLocationBytes: top?.bytes ?? 0,
      topLocationShare: Number(share.toFixed(4)),
      nativeUnattributed: top?.name.includes('stack trace unavailable') ?? false,
    };
    const facts: Fact[] = top
      ? [fact('python.top-allocator', top.line, top.text, { location: top.name, bytes: top.bytes })]
      : [];
    const verdict = !top
      ? 'no allocation sites listed'
      : values.nativeUnattributed
        ? 'most memory comes from allocations without a Python stack: run memray with --native'
        : `largest allocator: ${top.name} (${percent(share)})`;
    const what = this.mode === 'stats' ? 'allocated over the run' : 'held at the peak';
    const summary = `${formatSize(total)} ${what}${top ? `; largest site ${top.name} with ${formatSize(top.bytes)}` : ''}.`;
    return output('memray', values, summary, facts, verdict, this.firstLine || 1);
  }
}

/** `memray stats` and `memray summary` text output. */
export const memrayParser: Parser = {
  id: 'memray',
  title: 'memray stats / summary',
  howToGet:
    '`memray stats <capture.bin>` or `memray summary <capture.bin>` in the container that ran the profile',
  detect: (head) =>
    head.some(
      (l) => /Total memory allocated:|Total allocations:/.test(l) || (isSummaryHeader(l) && /[┃│]/.test(l)),
    ),
  create: () => new MemrayRun(),
};
