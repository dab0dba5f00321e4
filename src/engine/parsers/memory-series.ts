/**
 * The shape of a process's memory over time, judged from what the numbers mean physically: a leak is
 * memory that keeps rising as work is done, whatever its percentage; a step is one allocation (a model,
 * a cache fill) and a plateau is memory held but no longer growing; a spike is memory given back.
 * Pure: samples in, shape out. memory-samples reads the tools' output into these samples.
 */

/** What the series shows; `insufficient` when it cannot tell, with `missing` saying why. */
export type SeriesShape = 'climbing' | 'levelled' | 'spike' | 'flat' | 'falling' | 'insufficient';
export type SeriesMissing = 'few-samples' | 'coarse' | 'unsettled' | 'short-span' | 'no-times';

export interface SeriesInput {
  bytes: readonly number[];
  /** Seconds of each sample from any origin, when the samples carry times; else rates are per sample. */
  seconds?: readonly number[];
  /** The smallest change the readings can show (1 KiB for ps; 0.1 GiB for top's "4.4g"). */
  quantumBytes: number;
  /** The memory the process cannot pass (the machine's or container's), when known. */
  limitBytes?: number;
}

export interface SeriesStep {
  /** The sample the step lands on (0-based). */
  at: number;
  bytes: number;
}

export interface SeriesJudgement {
  shape: SeriesShape;
  missing?: SeriesMissing;
  /** Changes within this band are noise, not growth. */
  toleranceBytes: number;
  /** Single intervals far larger than the typical one, in order. */
  steps: SeriesStep[];
  /** Runs of at least PLATEAU_MIN samples within the tolerance, as [first, last] sample indexes. */
  plateaus: [number, number][];
  /** The least-squares rise per sample, and per second when the samples carry times. */
  bytesPerSample: number;
  bytesPerSecond?: number;
  spanSeconds?: number;
  /** For a climb with a known limit and times: seconds until the limit at this rate. */
  secondsToLimit?: number;
  /** For a flat series with times: the slowest rise this span could have shown. */
  smallestVisibleBytesPerSecond?: number;
}

/** Fewer samples cannot hold a change and a flat run of PLATEAU_MIN after it, let alone tell them apart. */
export const MIN_SAMPLES = 6;
/** Two equal readings can be chance; three in a row at one level is memory being held there. */
export const PLATEAU_MIN = 3;
/**
 * A resting process's RSS still moves by some pages between samples (allocator free lists, arenas
 * handed back, lazily touched stacks): 0.5% of the level, ~500 KiB on a 100 MiB Python worker.
 */
const NOISE_SHARE = 0.005;
/** A reading rounded to a quantum moves by up to one quantum with nothing changed; two readings, two. */
const QUANTUM_NOISE = 2;
/** One interval rising this many times the typical interval's change is one allocation, not a trend. */
const STEP_FACTOR = 4;
/** A rise must stand above the scatter around the fitted line by this much (about 3 sigma) to be real. */
const TREND_SIGMAS = 3;
/**
 * Readings that moved by fewer quanta than this cannot show a shape: top's "4.4g" moves 0.1 GiB at a
 * time, so a 300 MiB climb reads as three jumps and two flat runs.
 */
const MIN_QUANTA = 10;
/** A peak this far above the usual level that came back below SPIKE_RETURN of itself was given back. */
const SPIKE_PEAK = 1.5;
const SPIKE_RETURN = 0.8;
/** A fill that slows to a tenth of its early rate is a working set reaching its size; a leak keeps pace. */
const LEVEL_SLOWDOWN = 0.1;
/**
 * A flat series rules a leak out only if a leak too slow to show would still take longer than this to
 * double the process or reach its limit: a day, longer than the batch and streaming runs that fail.
 */
const HORIZON_SECONDS = 24 * 3600;

/** Judges a series; see SeriesJudgement. */
export function judgeSeries(input: SeriesInput): SeriesJudgement {
  const ys = input.bytes;
  const tol = toleranceOf(ys, input.quantumBytes);
  const base = baseJudgement(input, tol);
  if (ys.length < MIN_SAMPLES) return { ...base, shape: 'insufficient', missing: 'few-samples' };
  if (rangeOf(ys) < MIN_QUANTA * input.quantumBytes && input.quantumBytes > NOISE_SHARE * medianOf(ys))
    return { ...base, shape: 'insufficient', missing: 'coarse' };
  const peak = ys.reduce((m, y) => Math.max(m, y), 0);
  const last = ys[ys.length - 1] ?? 0;
  if (peak >= medianOf(ys) * SPIKE_PEAK && last < peak * SPIKE_RETURN) return { ...base, shape: 'spike' };
  const tail = flatTail(ys, tol);
  if (tail < ys.length && tail >= PLATEAU_MIN && tailStopped(ys, tail))
    return { ...base, ...afterFlatTail(ys, tail, tol) };
  // A step up among the last samples: what follows it (a level or more climbing) is not seen yet.
  const lastStep = base.steps[base.steps.length - 1];
  if (lastStep && lastStep.bytes > 0 && ys.length - lastStep.at < PLATEAU_MIN)
    return { ...base, shape: 'insufficient', missing: 'unsettled' };
  if (slowedDown(ys, tol)) return { ...base, shape: 'levelled' };
  return { ...base, ...byTrend(input, tol) };
}

/** The noise band: two quanta of the readings, or NOISE_SHARE of the median level if larger. */
export function toleranceOf(ys: readonly number[], quantumBytes: number): number {
  return Math.max(QUANTUM_NOISE * quantumBytes, NOISE_SHARE * medianOf(ys));
}

function baseJudgement(input: SeriesInput, tol: number): SeriesJudgement {
  const ys = input.bytes;
  const xs = ys.map((_, i) => i);
  const out: SeriesJudgement = {
    shape: 'flat',
    toleranceBytes: tol,
    steps: stepsOf(ys, tol),
    plateaus: plateausOf(ys, tol),
    bytesPerSample: fitLine(xs, ys).slope,
  };
  const ts = input.seconds;
  if (!ts || ts.length !== ys.length || ys.length < 2) return out;
  const span = (ts[ts.length - 1] ?? 0) - (ts[0] ?? 0);
  if (span <= 0) return out;
  return { ...out, spanSeconds: span, bytesPerSecond: fitLine(ts, ys).slope };
}

/**
 * A tail within the noise band has stopped only if its own pace is a tenth of the pace from the samples
 * before it to it, or less: a slow climb also stays within the band for a while, at the same pace.
 */
function tailStopped(ys: readonly number[], tail: number): boolean {
  const head = ys.length - tail;
  const mean = (xs: readonly number[]) => xs.reduce((sum, y) => sum + y, 0) / xs.length;
  // The centres of the head and the tail are half the series apart.
  const pace = (mean(ys.slice(head)) - mean(ys.slice(0, head))) / (ys.length / 2);
  const late = fitLine(
    Array.from({ length: tail }, (_, i) => head + i),
    ys.slice(head),
  ).slope;
  return pace <= 0 || late <= pace * LEVEL_SLOWDOWN;
}

/** The tail held flat after a change: a level if it held long enough, else too soon to tell. */
function afterFlatTail(ys: readonly number[], tail: number, tol: number): Partial<SeriesJudgement> {
  const level = ys[ys.length - 1] ?? 0;
  const first = ys[0] ?? 0;
  // A pause in input (a slow bundle, a checkpoint) holds memory still for a moment during a leak; a
  // level that holds for a quarter of the time watched is where the process settled.
  const needed = Math.max(PLATEAU_MIN, Math.ceil(ys.length / 4));
  if (tail < needed) return { shape: 'insufficient', missing: 'unsettled' };
  if (level > first + tol) return { shape: 'levelled' };
  return { shape: level < first - tol ? 'falling' : 'flat' };
}

/** Early third rising, late third at a tenth of that pace or less: a fill reaching its size. */
function slowedDown(ys: readonly number[], tol: number): boolean {
  const third = Math.max(2, Math.floor(ys.length / 3));
  const idx = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
  const early = fitLine(idx(0, third), ys.slice(0, third)).slope;
  const late = fitLine(idx(ys.length - third, third), ys.slice(-third)).slope;
  return early * (third - 1) > tol && late <= early * LEVEL_SLOWDOWN;
}

/** Rise or fall beyond the scatter; a flat series only counts if the span could have shown a leak. */
function byTrend(input: SeriesInput, tol: number): Partial<SeriesJudgement> {
  const ys = input.bytes;
  const xs = input.seconds && input.seconds.length === ys.length ? input.seconds : ys.map((_, i) => i);
  const fit = fitLine(xs, ys);
  const span = (xs[xs.length - 1] ?? 0) - (xs[0] ?? 0);
  const visible = Math.max(tol, TREND_SIGMAS * fit.scatter);
  const rise = fit.slope * span;
  if (rise > visible) return { shape: 'climbing', ...timeToLimit(input, fit.slope) };
  if (rise < -visible) return { shape: 'falling' };
  if (!input.seconds || input.seconds.length !== ys.length || span <= 0)
    return { shape: 'insufficient', missing: 'no-times' };
  const smallest = visible / span;
  const last = ys[ys.length - 1] ?? 0;
  // Whichever comes first: the process doubling (a leak that matters on any machine) or its limit.
  const room = Math.min(last, input.limitBytes !== undefined ? Math.max(0, input.limitBytes - last) : last);
  const hidden = room / smallest < HORIZON_SECONDS;
  return {
    shape: hidden ? 'insufficient' : 'flat',
    smallestVisibleBytesPerSecond: smallest,
    ...(hidden ? { missing: 'short-span' as const } : {}),
  };
}

function timeToLimit(input: SeriesInput, slope: number): Partial<SeriesJudgement> {
  const last = input.bytes[input.bytes.length - 1] ?? 0;
  if (input.limitBytes === undefined || !input.seconds || slope <= 0) return {};
  return { secondsToLimit: Math.max(0, (input.limitBytes - last) / slope) };
}

/** How many samples at the end lie within `tol` of each other. */
export function flatTail(ys: readonly number[], tol: number): number {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = ys.length - 1; i >= 0; i--) {
    const y = ys[i] ?? 0;
    lo = Math.min(lo, y);
    hi = Math.max(hi, y);
    if (hi - lo > tol) return ys.length - 1 - i;
  }
  return ys.length;
}

/** Intervals whose change exceeds the band and STEP_FACTOR times the median interval change. */
export function stepsOf(ys: readonly number[], tol: number): SeriesStep[] {
  const diffs = ys.slice(1).map((y, i) => y - (ys[i] ?? 0));
  const typical = medianOf(diffs.map(Math.abs));
  const steps: SeriesStep[] = [];
  diffs.forEach((d, i) => {
    if (Math.abs(d) > tol && Math.abs(d) > STEP_FACTOR * typical) steps.push({ at: i + 1, bytes: d });
  });
  return steps;
}

/**
 * Left to right: from each sample, the longest run within `tol`; if PLATEAU_MIN long the scan goes on
 * after it, and it is a plateau when its ends lie within half the band; else the scan goes on from the
 * next sample.
 */
export function plateausOf(ys: readonly number[], tol: number): [number, number][] {
  const runs: [number, number][] = [];
  let start = 0;
  while (start < ys.length) {
    let lo = ys[start] ?? 0;
    let hi = lo;
    let end = start;
    while (end + 1 < ys.length) {
      const y = ys[end + 1] ?? 0;
      if (Math.max(hi, y) - Math.min(lo, y) > tol) break;
      lo = Math.min(lo, y);
      hi = Math.max(hi, y);
      end++;
    }
    if (end - start + 1 >= PLATEAU_MIN) {
      // A slow climb also stays within the band for a while; a plateau ends about where it began.
      if (Math.abs((ys[end] ?? 0) - (ys[start] ?? 0)) <= tol / 2) runs.push([start, end]);
      start = end + 1;
    } else start++;
  }
  return runs;
}

/** Least-squares line: its slope, and the standard deviation of the points around it. */
export function fitLine(xs: readonly number[], ys: readonly number[]): { slope: number; scatter: number } {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return { slope: 0, scatter: 0 };
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += (xs[i] ?? 0) / n;
    my += (ys[i] ?? 0) / n;
  }
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += ((xs[i] ?? 0) - mx) * ((ys[i] ?? 0) - my);
    den += ((xs[i] ?? 0) - mx) ** 2;
  }
  const slope = den === 0 ? 0 : num / den;
  let sq = 0;
  for (let i = 0; i < n; i++) sq += ((ys[i] ?? 0) - my - slope * ((xs[i] ?? 0) - mx)) ** 2;
  return { slope, scatter: Math.sqrt(sq / n) };
}

function medianOf(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function rangeOf(ys: readonly number[]): number {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const y of ys) {
    lo = Math.min(lo, y);
    hi = Math.max(hi, y);
  }
  return ys.length ? hi - lo : 0;
}
