import type { Fact } from '../facts.ts';
import { formatSize, parseSize } from '../units.ts';
import { fact, maxOf, median, output, parseFailed, percent, slope } from './common.ts';
import type { Parser, ParserRun } from './types.ts';

const TOP_HEADER = /^top - \d{1,2}:\d{2}:\d{2}/;
// `(?=\S)`: the columns after USER start on a non-space, so `\s+` and `.*` never split one run of spaces.
const TOP_COLUMNS = /^\s*PID\s+USER\s+(?=\S).*\bRES\b/;
const PS_COLUMNS = /^\s*(?:USER\s+)?PID\b.*\bRSS\b/;
/** A plain sample: optional timestamp/label, a number, a unit ("10:00 1.2 GB", "1536MiB", "2.1g"). */
const PLAIN = /^\s*(?:(\S+)\s+)?(\d+(?:\.\d+)?)\s*([KMGT]i?B?|[kmgt]|B)\s*$/;
/**
 * A bare whole number, optionally after a timestamp ("21744", "20:04:23 21744"): what
 * `ps -o rss= -p <pid>` prints, in KiB (procps ps(1): "RSS ... in kilobytes"), as top's RES is.
 */
const BARE = /^\s*(?:(\S+)\s+)?(\d+)\s*$/;
const BARE_UNIT = 'k';
const MAX_SAMPLES = 100_000;

type Source = 'top' | 'ps' | 'list';

/** top's RES: KiB by default, or with a unit suffix (`512m`, `1.2g`). */
function topRes(text: string): number | undefined {
  // Some locales print top's scaled RES with a comma: "2,1g".
  const m = /^(\d+(?:[.,]\d+)?)([kmgt]?)$/i.exec(text);
  if (!m) return undefined;
  return parseSize(`${(m[1] ?? '').replace(',', '.')}${m[2] || 'k'}`);
}

class SamplesRun implements ParserRun {
  private source?: Source;
  private resColumn = -1;
  private pidColumn = 0;
  private readonly byPid = new Map<string, { bytes: number[]; line: number; text: string }>();
  private readonly plain: number[] = [];
  private firstLine = 0;
  private bare = 0;

  push(line: string, lineNo: number): void {
    if (TOP_HEADER.test(line)) this.source = 'top';
    if (TOP_COLUMNS.test(line) || PS_COLUMNS.test(line)) {
      const cols = line.trim().split(/\s+/);
      this.source ??= 'ps';
      this.resColumn = cols.indexOf(this.source === 'top' ? 'RES' : 'RSS');
      this.pidColumn = cols.indexOf('PID');
      return;
    }
    if (this.resColumn >= 0 && /^\s*\S+\s+\S+/.test(line)) {
      this.row(line, lineNo);
      return;
    }
    if (this.resColumn >= 0 || this.plain.length >= MAX_SAMPLES) return;
    const p = PLAIN.exec(line);
    const bare = p ? null : BARE.exec(line);
    const bytes = p ? parseSize(`${p[2]}${p[3]}`) : bare ? parseSize(bare[2] ?? '', BARE_UNIT) : undefined;
    if (bytes === undefined) return;
    if (bare) this.bare++;
    this.source ??= 'list';
    this.firstLine ||= lineNo;
    this.plain.push(bytes);
  }

  private row(line: string, lineNo: number): void {
    const cols = line.trim().split(/\s+/);
    const pid = cols[this.pidColumn] ?? '';
    const raw = cols[this.resColumn] ?? '';
    const bytes = this.source === 'top' ? topRes(raw) : parseSize(raw, 'k');
    if (!/^\d+$/.test(pid) || bytes === undefined) return;
    let series = this.byPid.get(pid);
    if (!series) {
      series = { bytes: [], line: lineNo, text: line };
      this.byPid.set(pid, series);
    }
    this.firstLine ||= lineNo;
    if (series.bytes.length < MAX_SAMPLES) series.bytes.push(bytes);
  }

  /** The process with the most samples (ties: the largest), or the plain list. */
  private series(): { pid: string; bytes: number[]; line: number; text: string } | undefined {
    if (this.source === 'list') return { pid: '', bytes: this.plain, line: this.firstLine, text: '' };
    let best: { pid: string; bytes: number[]; line: number; text: string } | undefined;
    for (const [pid, s] of this.byPid) {
      const better =
        !best ||
        s.bytes.length > best.bytes.length ||
        (s.bytes.length === best.bytes.length && maxOf(s.bytes) > maxOf(best.bytes));
      if (better) best = { pid, ...s };
    }
    return best;
  }

  finish() {
    const s = this.series();
    if (!s || s.bytes.length < 3)
      throw parseFailed(
        'at least 3 memory samples: repeated `top -b` or `ps` output, the numbers `ps -o rss= -p <pid>` prints (KiB), or one size per line like "1.2 GB".',
      );
    const ys = s.bytes;
    const xs = ys.map((_, i) => i);
    const third = Math.max(2, Math.floor(ys.length / 3));
    const early = slope(xs.slice(0, third), ys.slice(0, third));
    const late = slope(xs.slice(-third), ys.slice(-third));
    const first = ys[0] ?? 0;
    const last = ys[ys.length - 1] ?? 0;
    const peak = maxOf(ys);
    const growth = first > 0 ? (last - first) / first : 0;
    const ups = ys.slice(1).filter((y, i) => y >= (ys[i] ?? 0)).length / (ys.length - 1);
    const plateau = early > 0 && late <= early * 0.1;
    const values = {
      source: this.source ?? 'list',
      ...(s.pid ? { pid: s.pid } : {}),
      samples: ys.length,
      firstBytes: first,
      lastBytes: last,
      peakBytes: peak,
      minBytes: ys.reduce((m, y) => Math.min(m, y), first),
      medianBytes: median(ys),
      growthShare: Number(growth.toFixed(4)),
      slopeBytesPerSample: Math.round(slope(xs, ys)),
      plateau,
      bareSamplesAsKiB: this.bare,
    };
    const facts: Fact[] = [];
    let verdict: string;
    if (growth >= 0.2 && !plateau && ups >= 0.7 && last >= peak * 0.95) {
      verdict = 'leak likely: memory keeps growing without levelling off';
      facts.push(
        fact('memory.growing', s.line, s.text || `${ys.length} samples`, { growthShare: values.growthShare }),
      );
    } else if (peak >= median(ys) * 1.5 && last < peak * 0.8)
      verdict = 'high peak, not a leak: memory came back down';
    else if (plateau && growth > 0) verdict = 'grew then levelled off: a high steady state, not a leak';
    else verdict = 'stable';
    const kib =
      this.bare > 0 ? ` Bare numbers (${this.bare}) read as KiB, as \`ps -o rss=\` prints them.` : '';
    const summary = `${ys.length} samples${s.pid ? ` of PID ${s.pid}` : ''}: ${formatSize(first)} -> ${formatSize(last)} (${growth >= 0 ? '+' : ''}${percent(growth)}), peak ${formatSize(peak)}.${kib}`;
    return output('memory-samples', values, summary, facts, verdict, this.firstLine || 1);
  }
}

/** Memory over time: repeated `top -b`/`ps` output, or a plain list of sizes. Leak vs high peak. */
export const memorySamplesParser: Parser = {
  id: 'memory-samples',
  title: 'memory samples over time',
  howToGet:
    '`top -b -d 60 -n 30 -p <pid>`, `while sleep 60; do ps -o rss= -p <pid>; done` (KiB) or `ps -o pid,rss,cmd -p <pid>`, or one size per line',
  detect(head) {
    if (head.some((l) => TOP_HEADER.test(l) || TOP_COLUMNS.test(l))) return true;
    if (head.some((l) => PS_COLUMNS.test(l))) return head.filter((l) => PS_COLUMNS.test(l)).length >= 2;
    const nonEmpty = head.filter((l) => l.trim());
    const samples = nonEmpty.filter((l) => PLAIN.test(l) || BARE.test(l)).length;
    return nonEmpty.length >= 3 && samples >= nonEmpty.length * 0.8;
  },
  create: () => new SamplesRun(),
};
