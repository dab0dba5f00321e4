import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { downsample, StreamingSeries } from '../../../src/engine/charts/downsample.ts';
import type { TimePoint } from '../../../src/engine/charts/types.ts';

const series = fc
  .array(fc.integer({ min: 0, max: 1e9 }), { minLength: 1, maxLength: 3000 })
  .map((ys) => ys.map((bytes, t) => ({ t, bytes })));

const max = (ps: readonly TimePoint[]) => ps.reduce((m, p) => Math.max(m, p.bytes), -1);
const min = (ps: readonly TimePoint[]) => ps.reduce((m, p) => Math.min(m, p.bytes), Number.POSITIVE_INFINITY);

describe('downsample', () => {
  it('keeps the first, last, lowest and highest points, in time order, within the budget', () => {
    fc.assert(
      fc.property(series, fc.integer({ min: 4, max: 500 }), (points, budget) => {
        const kept = downsample(points, budget);
        expect(kept.length).toBeLessThanOrEqual(Math.max(Math.min(points.length, budget), 2));
        expect(kept[0]).toEqual(points[0]);
        expect(kept[kept.length - 1]).toEqual(points[points.length - 1]);
        expect(max(kept)).toBe(max(points));
        expect(min(kept)).toBe(min(points));
        for (let i = 1; i < kept.length; i++) expect(kept[i]?.t).toBeGreaterThan(kept[i - 1]?.t ?? -1);
      }),
    );
  });

  it('leaves a short series alone', () => {
    const points = [
      { t: 0, bytes: 5 },
      { t: 1, bytes: 7 },
    ];
    expect(downsample(points, 10)).toEqual(points);
  });
});

describe('StreamingSeries', () => {
  it('holds at most twice its budget while streaming and keeps the extremes of the whole stream', () => {
    fc.assert(
      fc.property(series, (points) => {
        const kept = new StreamingSeries(100);
        for (const p of points) kept.push(p);
        const values = kept.values();
        expect(values.length).toBeLessThanOrEqual(100);
        expect(max(values)).toBe(max(points));
        expect(min(values)).toBe(min(points));
        expect(values[values.length - 1]).toEqual(points[points.length - 1]);
      }),
      { numRuns: 50 },
    );
  });
});
