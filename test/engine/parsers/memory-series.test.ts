import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  judgeSeries,
  MIN_SAMPLES,
  PLATEAU_MIN,
  type SeriesInput,
  type SeriesShape,
} from '../../../src/engine/parsers/memory-series.ts';

const KiB = 1024;
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

// ---------------------------------------------------------------------------------------------------
// A plain reference: the rules of memory-series.ts written the slow, obvious way (whole-slice ranges,
// sorted medians, closed-form sums), so a shortcut in the module (running minima, one-pass scans)
// that changes an answer shows up as a difference.
// ---------------------------------------------------------------------------------------------------

function refMedian(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return 0;
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

function refRange(xs: number[]): number {
  return xs.length === 0 ? 0 : Math.max(...xs) - Math.min(...xs);
}

function refFit(xs: number[], ys: number[]): { slope: number; scatter: number } {
  const n = xs.length;
  if (n < 2) return { slope: 0, scatter: 0 };
  const sx = xs.reduce((a, b) => a + b, 0);
  const sy = ys.reduce((a, b) => a + b, 0);
  const sxx = xs.reduce((a, x) => a + (x - sx / n) ** 2, 0);
  const sxy = xs.reduce((a, x, i) => a + (x - sx / n) * ((ys[i] as number) - sy / n), 0);
  const slope = sxx === 0 ? 0 : sxy / sxx;
  const res = ys.map((y, i) => y - sy / n - slope * ((xs[i] as number) - sx / n));
  return { slope, scatter: Math.sqrt(res.reduce((a, r) => a + r * r, 0) / n) };
}

const refTol = (ys: number[], q: number) => Math.max(2 * q, 0.005 * refMedian(ys));

function refSteps(ys: number[], tol: number): number[] {
  const d: number[] = [];
  for (let i = 1; i < ys.length; i++) d.push((ys[i] as number) - (ys[i - 1] as number));
  const typical = refMedian(d.map(Math.abs));
  const at: number[] = [];
  for (let i = 0; i < d.length; i++)
    if (Math.abs(d[i] as number) > tol && Math.abs(d[i] as number) > 4 * typical) at.push(i + 1);
  return at;
}

function refPlateaus(ys: number[], tol: number): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  while (i < ys.length) {
    let j = i;
    while (j + 1 < ys.length && refRange(ys.slice(i, j + 2)) <= tol) j++;
    if (j - i + 1 >= 3) {
      if (Math.abs((ys[j] as number) - (ys[i] as number)) <= tol / 2) out.push([i, j]);
      i = j + 1;
    } else i++;
  }
  return out;
}

function refFlatTail(ys: number[], tol: number): number {
  for (let len = ys.length; len >= 1; len--) if (refRange(ys.slice(ys.length - len)) <= tol) return len;
  return 0;
}

const idx = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

type RefInput = { ys: number[]; ts?: number[]; q: number; limit?: number };

function refShape(input: RefInput): SeriesShape {
  const { ys, q } = input;
  const n = ys.length;
  const tol = refTol(ys, q);
  if (n < 6) return 'insufficient';
  if (refRange(ys) < 10 * q && q > 0.005 * refMedian(ys)) return 'insufficient';
  const last = ys[n - 1] as number;
  const peak = Math.max(...ys);
  if (peak >= 1.5 * refMedian(ys) && last < 0.8 * peak) return 'spike';
  const held = refHeldTail(ys, tol);
  if (held) return held;
  const steps = refSteps(ys, tol);
  const lastStep = steps[steps.length - 1];
  if (lastStep !== undefined && (ys[lastStep] as number) > (ys[lastStep - 1] as number) && n - lastStep < 3)
    return 'insufficient';
  const third = Math.max(2, Math.floor(n / 3));
  const early = refFit(idx(0, third), ys.slice(0, third)).slope;
  const late = refFit(idx(n - third, third), ys.slice(n - third)).slope;
  if (early * (third - 1) > tol && late <= early * 0.1) return 'levelled';
  return refTrend(input, tol);
}

/** The shape when the last samples stopped within the band after a change; undefined otherwise. */
function refHeldTail(ys: number[], tol: number): SeriesShape | undefined {
  const n = ys.length;
  const tail = refFlatTail(ys, tol);
  if (tail >= n || tail < 3) return undefined;
  const head = n - tail;
  const pace = (mean(ys.slice(head)) - mean(ys.slice(0, head))) / (n / 2);
  const late = refFit(idx(head, tail), ys.slice(head)).slope;
  if (pace > 0 && late > pace * 0.1) return undefined;
  const last = ys[n - 1] as number;
  if (tail < Math.max(3, Math.ceil(n / 4))) return 'insufficient';
  if (last > (ys[0] as number) + tol) return 'levelled';
  return last < (ys[0] as number) - tol ? 'falling' : 'flat';
}

function refTrend({ ys, ts, limit }: RefInput, tol: number): SeriesShape {
  const n = ys.length;
  const xs = ts ?? idx(0, n);
  const fit = refFit(xs, ys);
  const span = (xs[n - 1] as number) - (xs[0] as number);
  const visible = Math.max(tol, 3 * fit.scatter);
  if (fit.slope * span > visible) return 'climbing';
  if (fit.slope * span < -visible) return 'falling';
  if (!ts || span <= 0) return 'insufficient';
  const last = ys[n - 1] as number;
  const room = Math.min(last, limit !== undefined ? Math.max(0, limit - last) : last);
  return room / (visible / span) < 86_400 ? 'insufficient' : 'flat';
}

const judge = (ys: number[], ts?: number[], q = KiB, limit?: number) => {
  const input: SeriesInput = {
    bytes: ys,
    quantumBytes: q,
    ...(ts ? { seconds: ts } : {}),
    ...(limit !== undefined ? { limitBytes: limit } : {}),
  };
  return judgeSeries(input);
};

// Sizes as ps prints them: whole KiB.
const kib = (bytes: number) => Math.round(bytes / KiB) * KiB;

// ---------------------------------------------------------------------------------------------------
// Generated series, each with the shape its construction means.
// ---------------------------------------------------------------------------------------------------

/** A process of 10 MiB to 8 GiB climbing 1 KiB/s to 100 MiB/s, sampled every 1 s to 10 min. */
const climb = fc.record({
  start: fc.integer({ min: 10 * MiB, max: 8 * GiB }),
  rate: fc.integer({ min: KiB, max: 100 * MiB }),
  every: fc.integer({ min: 1, max: 600 }),
  n: fc.integer({ min: MIN_SAMPLES, max: 60 }),
});

/** A level, one step up of 5% to 300% at any sample, then the new level; noise a twentieth of the band. */
const stepped = fc
  .record({
    level: fc.integer({ min: 10 * MiB, max: 8 * GiB }),
    share: fc.double({ min: 0.05, max: 3, noNaN: true }),
    n: fc.integer({ min: MIN_SAMPLES, max: 40 }),
    at: fc.integer({ min: 1, max: 39 }),
    noise: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 40, maxLength: 40 }),
  })
  .filter((g) => g.at < g.n);

function steppedSeries(g: { level: number; share: number; n: number; at: number; noise: number[] }) {
  // 0.5% of the level is the noise band (NOISE_SHARE); a twentieth of it stays well inside.
  const jitter = 0.00025 * g.level;
  return Array.from({ length: g.n }, (_, i) =>
    kib((i < g.at ? g.level : g.level * (1 + g.share)) + (g.noise[i] ?? 0) * jitter),
  );
}

describe('memory-series on generated series', () => {
  it('calls a steady rise at any rate and interval a climb at that rate, once it passes the band', () => {
    fc.assert(
      fc.property(climb, ({ start, rate, every, n }) => {
        const ts = idx(0, n).map((i) => i * every);
        const ys = ts.map((t) => kib(start + rate * t));
        const rise = (ys[n - 1] as number) - (ys[0] as number);
        const tol = refTol(ys, KiB);
        // Away from the band's edge, where KiB rounding could tip the answer either way.
        fc.pre(rise > 1.02 * tol || rise < 0.98 * tol);
        const j = judge(ys, ts);
        expect(j.shape).toBe(refShape({ ys, ts, q: KiB }));
        if (rise > 1.02 * tol) {
          expect(j.shape).toBe('climbing');
          expect(j.steps).toEqual([]);
          // KiB rounding moves each sample by half a KiB at most.
          expect(Math.abs((j.bytesPerSecond ?? 0) - rate)).toBeLessThanOrEqual(rate * 0.01 + KiB / every);
        } else expect(j.shape).not.toBe('climbing');
      }),
      { numRuns: 300 },
    );
  });

  it('finds a step wherever it falls, and calls it a level once the level has held long enough', () => {
    fc.assert(
      fc.property(stepped, (g) => {
        const ys = steppedSeries(g);
        const j = judge(ys);
        expect(j.steps.map((s) => s.at)).toEqual([g.at]);
        expect(j.shape).toBe(refShape({ ys, q: KiB }));
        const held = g.n - g.at;
        if (held >= Math.max(PLATEAU_MIN, Math.ceil(g.n / 4))) expect(j.shape).toBe('levelled');
        else expect([j.shape, j.missing]).toEqual(['insufficient', 'unsettled']);
        // The level after the step is always one plateau when it is long enough to be one.
        if (held >= PLATEAU_MIN) expect(j.plateaus).toContainEqual([g.at, g.n - 1]);
      }),
      { numRuns: 300 },
    );
  });

  it('calls noise within the band flat over hours, and asks for a longer span over seconds', () => {
    const flat = fc.record({
      level: fc.integer({ min: 10 * MiB, max: 8 * GiB }),
      n: fc.integer({ min: MIN_SAMPLES, max: 60 }),
      noise: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 60, maxLength: 60 }),
    });
    fc.assert(
      fc.property(
        flat,
        fc.integer({ min: 600, max: 7200 }),
        fc.integer({ min: 1, max: 5 }),
        (g, slow, fast) => {
          const ys = idx(0, g.n).map((i) => kib(g.level + (g.noise[i] ?? 0) * 0.00025 * g.level));
          const long = judge(
            ys,
            ys.map((_, i) => i * slow),
          );
          const short = judge(
            ys,
            ys.map((_, i) => i * fast),
          );
          expect(long.shape).toBe('flat');
          // A leak too slow to show in minutes would still double the process within a day.
          expect([short.shape, short.missing]).toEqual(['insufficient', 'short-span']);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('agrees with the reference on any series: shape, steps and plateaus', () => {
    const anySeries = fc.record({
      ys: fc.array(fc.integer({ min: 1, max: 4096 }), { minLength: 3, maxLength: 40 }),
      unit: fc.constantFrom(KiB, MiB),
      timed: fc.boolean(),
      every: fc.integer({ min: 1, max: 3600 }),
    });
    fc.assert(
      fc.property(anySeries, ({ ys: raw, unit, timed, every }) => {
        const ys = raw.map((y) => y * unit);
        const ts = timed ? ys.map((_, i) => i * every) : undefined;
        const j = judge(ys, ts, KiB);
        const tol = refTol(ys, KiB);
        expect(j.shape).toBe(refShape({ ys, ...(ts ? { ts } : {}), q: KiB }));
        expect(j.steps.map((s) => s.at)).toEqual(refSteps(ys, tol));
        expect(j.plateaus).toEqual(refPlateaus(ys, tol));
      }),
      { numRuns: 500 },
    );
  });
});

describe('memory-series on the shapes the issue names', () => {
  // Every sample 14 MiB higher on a 4.3 GiB process: +3% over the run, a leak all the same.
  it('calls a 14 MiB/s climb a climb whatever its share of the process, with the time to the limit', () => {
    const ts = idx(0, 10);
    const ys = ts.map((t) => 4400 * MiB + t * 14 * MiB);
    const j = judge(ys, ts, KiB, 8 * GiB);
    expect(j.shape).toBe('climbing');
    expect(j.bytesPerSecond).toBeCloseTo(14 * MiB, 0);
    // (8192 - 4400 - 126) MiB / 14 MiB/s = 261.857 s.
    expect(j.secondsToLimit).toBeCloseTo((8192 - 4400 - 126) / 14, 6);
  });

  it('calls flat, one jump, then ten equal samples a level with its step', () => {
    const j = judge([100, 100, 100, ...Array(10).fill(180)].map((m) => m * MiB));
    expect(j.shape).toBe('levelled');
    expect(j.steps).toEqual([{ at: 3, bytes: 80 * MiB }]);
    expect(j.plateaus).toEqual([
      [0, 2],
      [3, 12],
    ]);
  });
});
