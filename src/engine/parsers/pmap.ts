import type { ChartData } from '../charts/types.ts';
import type { Fact } from '../facts.ts';
import { formatSize } from '../units.ts';
import { fact, output, parseFailed, percent } from './common.ts';
import type { Parser, ParserRun } from './types.ts';

const KiB = 1024;
/** A glibc thread arena on 64-bit: 64 MiB of address space, often split into a used and a reserved part. */
const ARENA_KB = 65536;
/**
 * Arenas cost address space until touched; a container is killed for resident memory. glibc allows up
 * to 8 arenas per core on 64-bit, so a 2-core JVM with 60 threads already has 15 of them holding 3 MB
 * (captured here): the count alone says nothing. What is resident in them does.
 */
const ARENA_RSS_ALERT = 256 * 1024 ** 2;
/** ... or this share of the process's resident memory, when that is at least ARENA_RSS_FLOOR. */
const ARENA_RSS_SHARE_ALERT = 0.25;
const ARENA_RSS_FLOOR = 64 * 1024 ** 2;
const MAX_MAPPINGS = 262_144;

// The mapping name starts on a non-space: as `.*` it shared the spaces before it with `\s+`, which
// costs quadratic time on a long run of them before a character `.` does not take (CR, U+2028).
const EXTENDED = /^([0-9a-f]{8,16})\s+(\d+)\s+(\d+|-)\s+(\d+|-)\s+([rwxsp-]{4,5})\s+(\S.*)?$/i;
const PLAIN = /^([0-9a-f]{8,16})\s+(\d+)K\s+([rwxsp-]{4,5})\s+(\S.*)?$/i;
const TOTAL_EXTENDED = /^total kB\s+(\d+)\s+(\d+)/i;
const TOTAL_PLAIN = /^\s*total\s+(\d+)K/i;

interface Mapping {
  address: bigint;
  kbytes: number;
  rssKb: number;
  anon: boolean;
  line: number;
  text: string;
}

interface Arena {
  kbytes: number;
  rssKb: number;
  line: number;
  text: string;
}

/** Anonymous regions that look like arenas: one 65536 KB region, or adjacent ones summing to it. */
function findArenas(mappings: readonly Mapping[]): Arena[] {
  const anon = mappings.filter((m) => m.anon).sort((a, b) => (a.address < b.address ? -1 : 1));
  const arenas: Arena[] = [];
  for (let i = 0; i < anon.length; i++) {
    const m = anon[i] as Mapping;
    if (m.kbytes === ARENA_KB) {
      arenas.push({ kbytes: m.kbytes, rssKb: m.rssKb, line: m.line, text: m.text });
      continue;
    }
    const next = anon[i + 1];
    const adjacent = next && next.address === m.address + BigInt(m.kbytes * KiB);
    if (next && adjacent && m.kbytes + next.kbytes === ARENA_KB) {
      arenas.push({ kbytes: ARENA_KB, rssKb: m.rssKb + next.rssKb, line: m.line, text: m.text });
      i++;
    }
  }
  return arenas;
}

/** What a map says about arenas: the regions, the anonymous memory, and whether the arenas look grown. */
interface ArenaFigures {
  arenas: Arena[];
  anon: Mapping[];
  anonRss: number;
  arenaRss: number;
  /** The arenas' share of the process's resident memory (0 without resident sizes). */
  rssShare: number;
  likely: boolean;
}

/** `extended`: the map has resident sizes (pmap -x); `totalRssKb`: its total line's RSS, when given. */
function arenaFigures(mappings: readonly Mapping[], extended: boolean, totalRssKb?: number): ArenaFigures {
  const arenas = findArenas(mappings);
  const anon = mappings.filter((m) => m.anon);
  const anonRss = anon.reduce((s, m) => s + m.rssKb, 0) * KiB;
  const arenaRss = arenas.reduce((s, a) => s + a.rssKb, 0) * KiB;
  const totalRss = totalRssKb !== undefined ? totalRssKb * KiB : anonRss;
  const rssShare = extended && totalRss > 0 ? arenaRss / totalRss : 0;
  const likely =
    extended &&
    (arenaRss >= ARENA_RSS_ALERT || (rssShare >= ARENA_RSS_SHARE_ALERT && arenaRss >= ARENA_RSS_FLOOR));
  return { arenas, anon, anonRss, arenaRss, rssShare, likely };
}

function summaryOf({ arenas, anon, anonRss, arenaRss, rssShare }: ArenaFigures, extended: boolean): string {
  const rssPart = extended
    ? `, ${formatSize(arenaRss)} of them resident (${percent(rssShare)} of the process)`
    : '; plain pmap shows no resident sizes, run `pmap -x <pid>` to see them';
  return `${arenas.length} glibc-arena-shaped regions of 64 MiB (${formatSize(arenas.length * ARENA_KB * KiB)} reserved${rssPart}); anonymous memory holds ${formatSize(anonRss)} resident in ${anon.length} mappings.`;
}

/** Each arena's resident memory, largest first, and the rest of the anonymous memory beside them. */
function arenaChart({ arenas, anonRss, arenaRss, likely }: ArenaFigures, verdict: string): ChartData {
  const bars = arenas.map((a, i) => ({
    label: `arena ${i + 1} (line ${a.line})`,
    bytes: a.rssKb * KiB,
    emphasis: likely,
  }));
  bars.push({ label: `all ${arenas.length} arenas together`, bytes: arenaRss, emphasis: likely });
  bars.push({ label: 'other anonymous memory', bytes: Math.max(0, anonRss - arenaRss), emphasis: false });
  return {
    kind: 'bars',
    id: 'pmap-arenas',
    title: `Resident memory of ${arenas.length} glibc-arena-shaped regions (pmap -x)`,
    valueLabel: 'resident',
    bars: bars.filter((b) => b.bytes > 0),
    verdict,
  };
}

class PmapRun implements ParserRun {
  private readonly mappings: Mapping[] = [];
  private totalKb?: number;
  private totalRssKb?: number;
  private extended = false;
  private totalLine?: { line: number; text: string };

  push(line: string, lineNo: number): void {
    const x = EXTENDED.exec(line);
    if (x) {
      this.extended = true;
      const rss = x[3] === '-' ? 0 : Number(x[3]);
      this.add(x[1] ?? '0', Number(x[2]), rss, x[6] ?? '', lineNo, line);
      return;
    }
    const p = PLAIN.exec(line);
    if (p) {
      this.add(p[1] ?? '0', Number(p[2]), 0, p[4] ?? '', lineNo, line);
      return;
    }
    const total = TOTAL_EXTENDED.exec(line) ?? TOTAL_PLAIN.exec(line);
    if (total) {
      this.totalLine = { line: lineNo, text: line };
      this.totalKb = Number(total[1]);
      if (total[2] !== undefined) this.totalRssKb = Number(total[2]);
    }
  }

  private add(
    address: string,
    kbytes: number,
    rssKb: number,
    mapping: string,
    line: number,
    text: string,
  ): void {
    // vm.max_map_count defaults to 65530: far more rows than that is not one process's map.
    if (this.mappings.length >= MAX_MAPPINGS) return;
    const anon = /\[\s*anon\s*\]/.test(mapping);
    this.mappings.push({ address: BigInt(`0x${address}`), kbytes, rssKb, anon, line, text });
  }

  finish() {
    if (this.mappings.length === 0)
      throw parseFailed(
        'pmap rows like "00007f787c000000  132  24  24 rw---   [ anon ]" (run pmap -x <pid>).',
      );
    const figures = arenaFigures(this.mappings, this.extended, this.totalRssKb);
    const { arenas, arenaRss, likely } = figures;
    const verdict = !this.extended
      ? 'no resident sizes: run pmap -x'
      : likely
        ? 'arena growth likely'
        : 'no sign of arena growth';
    const facts: Fact[] = [];
    const first = arenas[0];
    if (likely && first)
      facts.push(
        fact('native.glibc-arenas', first.line, first.text, {
          count: arenas.length,
          rssBytes: arenaRss,
          share: Number(figures.rssShare.toFixed(4)),
        }),
      );
    // The process's whole resident size, which a case holds against a kill's figures (one process, one time?).
    if (this.extended && this.totalRssKb !== undefined && this.totalLine)
      facts.push(
        fact('process.resident', this.totalLine.line, this.totalLine.text, {
          rssBytes: this.totalRssKb * KiB,
        }),
      );
    const summary = summaryOf(figures, this.extended);
    const out = output('pmap', this.values(figures), summary, facts, verdict, this.mappings[0]?.line ?? 1);
    return this.extended ? { ...out, chart: arenaChart(figures, verdict) } : out;
  }

  private values({
    arenas,
    anon,
    anonRss,
    arenaRss,
    rssShare,
  }: ArenaFigures): Record<string, number | boolean> {
    const values: Record<string, number | boolean> = {
      mappings: this.mappings.length,
      anonMappings: anon.length,
      anonKbytes: anon.reduce((s, m) => s + m.kbytes, 0),
      anonRssBytes: anonRss,
      arenaCount: arenas.length,
      arenaReservedBytes: arenas.length * ARENA_KB * KiB,
      extended: this.extended,
      ...(this.totalKb !== undefined ? { totalKbytes: this.totalKb } : {}),
      ...(this.totalRssKb !== undefined ? { totalRssBytes: this.totalRssKb * KiB } : {}),
    };
    // Plain `pmap` has no RSS column: leave the resident figures out rather than report 0.
    if (this.extended) {
      values.arenaRssBytes = arenaRss;
      values.arenaRssShare = Number(rssShare.toFixed(4));
    }
    return values;
  }
}

/** `pmap -x <pid>` and plain `pmap <pid>`: counts glibc thread arenas and anonymous RSS. */
export const pmapParser: Parser = {
  id: 'pmap',
  title: 'pmap',
  howToGet: '`pmap -x <pid>` on the host or in the container of the process',
  detect(head) {
    const rows = head.filter((l) => EXTENDED.test(l) || PLAIN.test(l)).length;
    return rows >= 3 || head.some((l) => /^Address\s+Kbytes\s+(RSS|Mode)/i.test(l.trim()));
  },
  create: () => new PmapRun(),
};
