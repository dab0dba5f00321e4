import type { FactValue } from '../facts.ts';
import { formatSize, MiB } from '../units.ts';
import { median, percent } from './common.ts';
import { MIN_SAMPLES, type SeriesJudgement, type SeriesMissing, type SeriesShape } from './memory-series.ts';

/** One reading: its bytes, the smallest change it can show, and its time of day when it had one. */
export interface Sample {
  bytes: number;
  quantum: number;
  seconds?: number | undefined;
}

/** What memory-samples read from the paste, before judging it. */
export interface SamplesRead {
  source: 'top' | 'ps' | 'list';
  pid: string;
  samples: readonly Sample[];
  seconds?: readonly number[] | undefined;
  limitBytes?: number | undefined;
  /** "stated": a "limit 4 GB" line; "machine": top's "MiB Mem : ... total". */
  limitFrom?: 'stated' | 'machine' | undefined;
  bare: number;
}

const VERDICTS: Record<Exclude<SeriesShape, 'insufficient'>, string> = {
  climbing: 'leak likely: memory keeps growing without levelling off',
  spike: 'high peak, not a leak: memory came back down',
  levelled: 'grew then levelled off: a high steady state, not a leak',
  flat: 'stable',
  falling: 'falling: memory is being given back, not a leak',
};

const MISSING: Record<SeriesMissing, string> = {
  'few-samples': 'too few samples',
  coarse: 'readings too coarse',
  unsettled: 'too soon after the last change',
  'short-span': 'too short a span',
  'no-times': 'samples without times',
};

/** The verdict a playbook matches on: the shape, or what is missing to judge one. */
export function verdictOf(j: SeriesJudgement): string {
  if (j.shape !== 'insufficient') return VERDICTS[j.shape];
  return `cannot tell yet: ${MISSING[j.missing ?? 'few-samples']}`;
}

/** Seconds as a person reads a duration: "45 s", "12 min", "3.5 h", "2.1 days". */
export function duration(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Number.parseFloat((seconds / 3600).toFixed(1))} h`;
  return `${Number.parseFloat((seconds / 86_400).toFixed(1))} days`;
}

/** The parser's values, verdict and summary for a judged series. */
export function samplesSummary(read: SamplesRead, j: SeriesJudgement) {
  const ys = read.samples.map((x) => x.bytes);
  const first = ys[0] ?? 0;
  const last = ys[ys.length - 1] ?? 0;
  const peak = ys.reduce((m, y) => Math.max(m, y), 0);
  const growth = first > 0 ? (last - first) / first : 0;
  const quantum = median(read.samples.map((x) => x.quantum));
  const values: Record<string, FactValue> = {
    source: read.source,
    ...(read.pid ? { pid: read.pid } : {}),
    samples: ys.length,
    firstBytes: first,
    lastBytes: last,
    peakBytes: peak,
    minBytes: ys.reduce((m, y) => Math.min(m, y), first),
    medianBytes: median(ys),
    growthShare: Number(growth.toFixed(4)),
    slopeBytesPerSample: Math.round(j.bytesPerSample),
    plateau: j.shape === 'levelled',
    bareSamplesAsKiB: read.bare,
    shape: j.shape,
    ...(j.missing ? { missing: j.missing } : {}),
    quantumBytes: quantum,
    steps: j.steps.length,
    ...firstStep(j),
    plateaus: j.plateaus.length,
    ...optional(j, read),
  };
  const head = `${ys.length} samples${read.pid ? ` of PID ${read.pid}` : ''}${span(j)}: ${formatSize(first)} -> ${formatSize(last)} (${growth >= 0 ? '+' : ''}${percent(growth)}), peak ${formatSize(peak)}.`;
  const kib = read.bare > 0 ? ` Bare numbers (${read.bare}) read as KiB, as \`ps -o rss=\` prints them.` : '';
  const summary = [head, shapeText(read, j), coarseText(read, quantum), kib].filter(Boolean).join(' ');
  return { values, verdict: verdictOf(j), summary: summary.replace(/ {2,}/g, ' ') };
}

function firstStep(j: SeriesJudgement): Record<string, FactValue> {
  const step = j.steps[0];
  // 1-based, as a person counts the samples they pasted.
  return step ? { firstStepSample: step.at + 1, firstStepBytes: step.bytes } : {};
}

function optional(j: SeriesJudgement, read: SamplesRead): Record<string, FactValue> {
  const out: Record<string, FactValue> = {};
  if (j.bytesPerSecond !== undefined) out.rateBytesPerSecond = Math.round(j.bytesPerSecond);
  if (j.spanSeconds !== undefined) out.spanSeconds = j.spanSeconds;
  if (read.limitBytes !== undefined) out.limitBytes = read.limitBytes;
  if (read.limitFrom !== undefined) out.limitFrom = read.limitFrom;
  if (j.secondsToLimit !== undefined) out.secondsToLimit = Math.round(j.secondsToLimit);
  if (j.smallestVisibleBytesPerSecond !== undefined)
    out.smallestVisibleBytesPerSecond = Math.round(j.smallestVisibleBytesPerSecond);
  return out;
}

function span(j: SeriesJudgement): string {
  return j.spanSeconds !== undefined ? ` over ${duration(j.spanSeconds)}` : '';
}

const rate = (bytes: number, per: string) => `${formatSize(bytes)}/${per}`;

function shapeText(read: SamplesRead, j: SeriesJudgement): string {
  switch (j.shape) {
    case 'climbing':
      return climbText(read, j);
    case 'levelled':
      return levelText(read, j);
    case 'spike':
      return 'It came back down: memory was given back, which a leak never does.';
    case 'falling':
      return 'It fell: memory is being given back.';
    case 'flat':
      return `Flat within ${formatSize(j.toleranceBytes)}; a leak of ${rate(j.smallestVisibleBytesPerSecond ?? 0, 's')} or faster would have shown.`;
    default:
      return missingText(read, j);
  }
}

function climbText(read: SamplesRead, j: SeriesJudgement): string {
  const pace =
    j.bytesPerSecond !== undefined
      ? `Climbing ${rate(j.bytesPerSecond, 's')}`
      : `Climbing ${rate(j.bytesPerSample, 'sample')} (the samples carry no times: add \`date +%T\` or a line "every 60s" for a rate per second)`;
  const step = j.steps[0]
    ? `, with a step of ${formatSize(j.steps[0].bytes)} at sample ${j.steps[0].at + 1}`
    : '';
  if (j.secondsToLimit === undefined || read.limitBytes === undefined) return `${pace}${step}.`;
  const limit = read.limitFrom === 'machine' ? "the machine's memory (top's Mem total)" : 'the stated limit';
  return `${pace}${step}; at this rate it reaches ${limit}, ${formatSize(read.limitBytes)}, in ${duration(j.secondsToLimit)}.`;
}

function levelText(read: SamplesRead, j: SeriesJudgement): string {
  const ys = read.samples.map((x) => x.bytes);
  const lastRun = j.plateaus[j.plateaus.length - 1];
  const held =
    lastRun && lastRun[1] === ys.length - 1 ? ` for the last ${lastRun[1] - lastRun[0] + 1} samples` : '';
  const level = formatSize(ys[ys.length - 1] ?? 0);
  const ups = j.steps.filter((s) => s.bytes > 0);
  const first = ups[0];
  if (ups.length === 1 && first)
    return `One step of ${formatSize(first.bytes)} at sample ${first.at + 1}, then flat at ${level}${held}: memory taken at once and held, not growing.`;
  if (first)
    return `${ups.length} steps up (samples ${ups.map((s) => s.at + 1).join(', ')}), then flat at ${level}${held}: memory taken in steps and held, not growing.`;
  return `It grew, then levelled off at ${level}${held}.`;
}

function missingText(read: SamplesRead, j: SeriesJudgement): string {
  const n = read.samples.length;
  switch (j.missing) {
    case 'few-samples':
      return `${n} samples are too few to tell a climb from a step or a level: paste at least ${MIN_SAMPLES}, taken over the time the job usually runs before it fails.`;
    case 'coarse':
      return 'The readings moved by too few of their smallest steps to show a shape.';
    case 'unsettled':
      return 'It rose, then held for only the last few samples: too few to tell a pause in a leak from a level; keep sampling.';
    case 'short-span':
      return `Flat within ${formatSize(j.toleranceBytes)}, but a leak of up to ${rate(j.smallestVisibleBytesPerSecond ?? 0, 's')} would not show in so short a span and would still ${limitFirst(read) ? 'reach the limit' : 'double the process'} within a day: sample for longer (hours).`;
    default:
      return `Flat within ${formatSize(j.toleranceBytes)}, but the samples carry no times, so a slow leak cannot be ruled out: add times (\`date +%T\`) or a line "every 60s".`;
  }
}

/** Whether the limit is nearer than the process's own size again (the sooner of the two matters). */
function limitFirst(read: SamplesRead): boolean {
  const last = read.samples[read.samples.length - 1]?.bytes ?? 0;
  return read.limitBytes !== undefined && read.limitBytes - last < last;
}

/** top scales RES once it no longer fits ("4.4g"): each reading then hides up to a tenth of a GiB. */
function coarseText(read: SamplesRead, quantum: number): string {
  if (read.source !== 'top' || quantum < MiB) return '';
  return `top printed RES scaled, so each reading is only known to ${formatSize(quantum)} (resolution lost): sample with \`ps -o rss= -p <pid>\` (KiB, exact) or VmRSS in /proc/<pid>/status instead.`;
}
