import type { SamplesChartData } from '../charts/types.ts';
import type { Fact } from '../facts.ts';
import { parseSize } from '../units.ts';
import { fact, maxOf, median, output, parseFailed } from './common.ts';
import { type Sample, type SamplesRead, samplesSummary } from './memory-samples-text.ts';
import { judgeSeries, MIN_SAMPLES, type SeriesJudgement } from './memory-series.ts';
import type { Parser, ParserRun } from './types.ts';

const TOP_HEADER = /^top - (\d{1,2}:\d{2}:\d{2})/;
// `(?=\S)`: the columns after USER start on a non-space, so `\s+` and `.*` never split one run of spaces.
const TOP_COLUMNS = /^\s*PID\s+USER\s+(?=\S).*\bRES\b/;
const PS_COLUMNS = /^\s*(?:USER\s+)?PID\b.*\bRSS\b/;
/** top's memory line: "MiB Mem :  24105.1 total" (or KiB/GiB Mem), the machine's RAM. */
const TOP_MEM = /^([KMGT]iB) Mem\s*:\s*(\d+(?:[.,]\d+)?) total/;
/** A plain sample: optional timestamp/label, a number, a unit ("10:00 1.2 GB", "1536MiB", "2.1g"). */
const PLAIN = /^\s*(?:(\S+)\s+)?(\d+(?:\.\d+)?)\s*([KMGT]i?B?|kB|[kmgt]|B)\s*$/;
/**
 * A bare whole number, optionally after a timestamp ("21744", "20:04:23 21744"): what
 * `ps -o rss= -p <pid>` prints, in KiB (procps ps(1): "RSS ... in kilobytes"), as top's RES is.
 */
const BARE = /^\s*(?:(\S+)\s+)?(\d+)\s*$/;
/** `grep VmRSS /proc/<pid>/status`, optionally after a timestamp: "11:34:12 VmRSS:	   35488 kB" (KiB, proc(5)). */
const VMRSS = /^\s*(?:(\S+)\s+)?VmRSS:\s+(\d+) kB\s*$/;
/** A line the person adds: "every 60s", "interval: 1 min" (the samples' spacing), "limit 4 GB". */
const EVERY = /^\s*(?:every|interval:?)\s+(\d+(?:\.\d+)?)\s*(s|sec|seconds?|m|min|minutes?|h|hours?)\s*$/i;
const LIMIT = /^\s*limit:?\s+(\d+(?:\.\d+)?\s*[KMGT]i?B?)\s*$/i;
const KiB = 1024;
const MAX_SAMPLES = 100_000;

type Source = 'top' | 'ps' | 'list';
type Series = { pid: string; samples: Sample[]; line: number; text: string };

/** "20:04:23", "20:04", "2026-12-03T11:34:12", or `date +%s` seconds; undefined for any other label. */
function secondsOf(label: string | undefined): number | undefined {
  if (!label) return undefined;
  if (/^\d{9,11}(?:\.\d+)?$/.test(label)) return Number(label);
  const m = /^(?:\d{4}-\d{2}-\d{2}[T ])?(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?Z?$/.exec(label);
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0) : undefined;
}

/**
 * ps's ELAPSED column, the time since the process started: `etimes` prints seconds ("42"), `etime`
 * `[[dd-]hh:]mm:ss` ("02:14", "1-03:04:05"); procps ps/output.c (pr_etimes, pr_etime). Rows of one
 * process are then timed by its own clock, which is all a rate needs.
 */
function elapsedSeconds(text: string | undefined): number | undefined {
  if (text && /^\d{1,10}$/.test(text)) return Number(text);
  const m = /^(?:(\d{1,5})-)?(?:(\d{1,2}):)?(\d{1,2}):(\d{2})$/.exec(text ?? '');
  if (!m) return undefined;
  return Number(m[1] ?? 0) * 86_400 + Number(m[2] ?? 0) * 3600 + Number(m[3]) * 60 + Number(m[4]);
}

/** A reading's bytes and the smallest step it can show: "4.4g" moves by 0.1 GiB, "35488" by 1 KiB. */
function reading(number: string, unit: string): Pick<Sample, 'bytes' | 'quantum'> | undefined {
  const bytes = parseSize(`${number}${unit}`);
  const decimals = number.split('.')[1]?.length ?? 0;
  const quantum = parseSize(`1${unit}`);
  if (bytes === undefined || quantum === undefined) return undefined;
  return { bytes, quantum: quantum / 10 ** decimals };
}

/** top's RES: KiB by default, or with a unit suffix (`512m`, `1.2g`); some locales write "2,1g". */
function topRes(text: string): Pick<Sample, 'bytes' | 'quantum'> | undefined {
  const m = /^(\d+(?:[.,]\d+)?)([kmgt]?)$/i.exec(text);
  if (!m) return undefined;
  return reading((m[1] ?? '').replace(',', '.'), m[2] || 'k');
}

/** A line of a plain list: a size with its unit, a VmRSS line, or a bare number of KiB. */
function listSample(line: string): (Sample & { bare: boolean }) | undefined {
  const status = VMRSS.exec(line);
  if (status)
    return { bytes: Number(status[2]) * KiB, quantum: KiB, seconds: secondsOf(status[1]), bare: false };
  const p = PLAIN.exec(line);
  if (p) {
    const r = reading(p[2] ?? '', p[3] === 'kB' ? 'KB' : (p[3] ?? ''));
    return r && { ...r, seconds: secondsOf(p[1]), bare: false };
  }
  const bare = BARE.exec(line);
  if (!bare) return undefined;
  return { bytes: Number(bare[2]) * KiB, quantum: KiB, seconds: secondsOf(bare[1]), bare: true };
}

class SamplesRun implements ParserRun {
  private source?: Source;
  private resColumn = -1;
  private pidColumn = 0;
  private elapsedColumn = -1;
  private topTime?: number;
  private readonly byPid = new Map<string, Omit<Series, 'pid'>>();
  private readonly plain: Sample[] = [];
  private firstLine = 0;
  private bare = 0;
  private everySeconds?: number;
  private machineBytes?: number;
  private statedLimit?: number;

  push(line: string, lineNo: number): void {
    if (this.settings(line)) return;
    if (TOP_COLUMNS.test(line) || PS_COLUMNS.test(line)) {
      const cols = line.trim().split(/\s+/);
      this.source ??= 'ps';
      this.resColumn = cols.indexOf(this.source === 'top' ? 'RES' : 'RSS');
      this.pidColumn = cols.indexOf('PID');
      this.elapsedColumn = this.source === 'ps' ? cols.indexOf('ELAPSED') : -1;
      return;
    }
    if (this.resColumn >= 0 && /^\s*\S+\s+\S+/.test(line)) {
      this.row(line, lineNo);
      return;
    }
    if (this.resColumn >= 0 || this.plain.length >= MAX_SAMPLES) return;
    const sample = listSample(line);
    if (!sample) return;
    if (sample.bare) this.bare++;
    this.source ??= 'list';
    this.firstLine ||= lineNo;
    this.plain.push({ bytes: sample.bytes, quantum: sample.quantum, seconds: sample.seconds });
  }

  /** top's header (time, machine memory) and the lines a person adds; true when the line was one. */
  private settings(line: string): boolean {
    const top = TOP_HEADER.exec(line);
    if (top) {
      this.source = 'top';
      this.topTime = secondsOf(top[1]);
      return true;
    }
    const mem = TOP_MEM.exec(line);
    const every = EVERY.exec(line);
    const limit = LIMIT.exec(line);
    if (mem) this.machineBytes = parseSize(`${(mem[2] ?? '').replace(',', '.')}${mem[1]}`);
    if (every) this.everySeconds = Number(every[1]) * ({ h: 3600, m: 60 }[(every[2] ?? 's')[0] ?? 's'] ?? 1);
    if (limit) this.statedLimit = parseSize(limit[1] ?? '');
    return Boolean(mem || every || limit);
  }

  private row(line: string, lineNo: number): void {
    const cols = line.trim().split(/\s+/);
    const pid = cols[this.pidColumn] ?? '';
    const raw = cols[this.resColumn] ?? '';
    const r = this.source === 'top' ? topRes(raw) : reading(raw, 'k');
    if (!/^\d+$/.test(pid) || r === undefined) return;
    let series = this.byPid.get(pid);
    if (!series) {
      series = { samples: [], line: lineNo, text: line };
      this.byPid.set(pid, series);
    }
    this.firstLine ||= lineNo;
    const seconds = this.elapsedColumn >= 0 ? elapsedSeconds(cols[this.elapsedColumn]) : this.topTime;
    if (series.samples.length < MAX_SAMPLES) series.samples.push({ ...r, seconds });
  }

  /** The process with the most samples (ties: the largest), or the plain list. */
  private series(): Series | undefined {
    if (this.source === 'list') return { pid: '', samples: this.plain, line: this.firstLine, text: '' };
    let best: Series | undefined;
    const peak = (s: { samples: Sample[] }) => maxOf(s.samples.map((x) => x.bytes));
    for (const [pid, s] of this.byPid) {
      const n = s.samples.length;
      const better = !best || n > best.samples.length || (n === best.samples.length && peak(s) > peak(best));
      if (better) best = { pid, ...s };
    }
    return best;
  }

  finish() {
    const s = this.series();
    if (!s || s.samples.length < 3)
      throw parseFailed(
        `at least 3 memory samples (${MIN_SAMPLES} or more to judge a shape): repeated \`top -b\` or \`ps\` output, the numbers \`ps -o rss= -p <pid>\` prints (KiB), VmRSS lines of /proc/<pid>/status, or one size per line like "1.2 GB".`,
      );
    const read: SamplesRead = {
      source: this.source ?? 'list',
      pid: s.pid,
      samples: s.samples,
      seconds: timesOf(s.samples, this.everySeconds),
      limitBytes: this.statedLimit ?? this.machineBytes,
      limitFrom:
        this.statedLimit !== undefined ? 'stated' : this.machineBytes !== undefined ? 'machine' : undefined,
      bare: this.bare,
    };
    return judged(read, s, this.firstLine || 1);
  }
}

/** Every sample's seconds from its timestamp (across midnight), or from a stated interval; else none. */
function timesOf(samples: readonly Sample[], every: number | undefined): number[] | undefined {
  if (samples.every((x) => x.seconds !== undefined)) {
    let day = 0;
    return samples.map((x, i) => {
      const prev = samples[i - 1]?.seconds;
      // A clock time lower than the one before by more than half a day went past midnight.
      if (prev !== undefined && (x.seconds ?? 0) < prev - 43_200) day += 86_400;
      return (x.seconds ?? 0) + day;
    });
  }
  return every === undefined ? undefined : samples.map((_, i) => i * every);
}

function judged(read: SamplesRead, s: Series, firstLine: number) {
  const ys = read.samples.map((x) => x.bytes);
  // The typical reading's precision: a typed "2 GB" among "2.25 GB"s is not a coarser instrument.
  const quantum = median(read.samples.map((x) => x.quantum));
  const judgement = judgeSeries({
    bytes: ys,
    quantumBytes: quantum,
    ...(read.seconds ? { seconds: read.seconds } : {}),
    ...(read.limitBytes !== undefined ? { limitBytes: read.limitBytes } : {}),
  });
  const { values, verdict, summary } = samplesSummary(read, judgement);
  const facts: Fact[] = [];
  if (judgement.shape === 'climbing')
    facts.push(
      fact('memory.growing', s.line, s.text || `${ys.length} samples`, {
        growthShare: values.growthShare ?? 0,
        ...(values.rateBytesPerSecond !== undefined ? { rateBytesPerSecond: values.rateBytesPerSecond } : {}),
        ...(values.lastBytes !== undefined ? { lastBytes: values.lastBytes } : {}),
        // Whose growth it is: a case applies it only to the process of that pid (refine.ts).
        ...(read.pid ? { pid: read.pid } : {}),
      }),
    );
  const out = output('memory-samples', values, summary, facts, verdict, firstLine);
  return { ...out, chart: chartOf(read, judgement, verdict) };
}

const LIMIT_LABELS = { stated: 'stated limit', machine: "machine's memory" } as const;

/** The samples, their limit and the judgement, for the chart beside the answer. */
function chartOf(read: SamplesRead, j: SeriesJudgement, verdict: string): SamplesChartData {
  const seconds = read.seconds;
  const who = read.pid ? ` of PID ${read.pid}` : '';
  return {
    kind: 'memory-samples',
    title: `Memory${who} (${read.source === 'list' ? 'samples' : `${read.source} RSS`}) over time`,
    points: read.samples.map((x, i) => ({ t: seconds ? (seconds[i] ?? 0) : i + 1, bytes: x.bytes })),
    timed: seconds !== undefined,
    ...(read.limitBytes !== undefined
      ? { limitBytes: read.limitBytes, limitLabel: LIMIT_LABELS[read.limitFrom ?? 'stated'] }
      : {}),
    shape: j.shape,
    ...(j.bytesPerSecond !== undefined ? { bytesPerSecond: j.bytesPerSecond } : {}),
    bytesPerSample: j.bytesPerSample,
    ...(j.secondsToLimit !== undefined ? { secondsToLimit: j.secondsToLimit } : {}),
    steps: j.steps.map((step) => step.at),
    plateaus: j.plateaus,
    verdict,
  };
}

/** Memory over time: repeated `top -b`/`ps` output, VmRSS lines, or a plain list of sizes. Leak vs peak. */
export const memorySamplesParser: Parser = {
  id: 'memory-samples',
  title: 'memory samples over time',
  howToGet:
    '`while sleep 60; do echo "$(date +%T) $(ps -o rss= -p <pid>)"; done` (KiB), `top -b -d 60 -n 30 -p <pid>`, or one size per line with "every 60s"',
  detect(head) {
    if (head.some((l) => TOP_HEADER.test(l) || TOP_COLUMNS.test(l))) return true;
    if (head.some((l) => PS_COLUMNS.test(l))) return head.filter((l) => PS_COLUMNS.test(l)).length >= 2;
    // The lines a person adds ("every 60s", "limit 4 GB") are neither samples nor noise.
    const nonEmpty = head.filter((l) => l.trim() && !EVERY.test(l) && !LIMIT.test(l));
    const samples = nonEmpty.filter((l) => PLAIN.test(l) || BARE.test(l) || VMRSS.test(l)).length;
    return nonEmpty.length >= 3 && samples >= nonEmpty.length * 0.8;
  },
  create: () => new SamplesRun(),
};
