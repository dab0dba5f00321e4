import type { TimePoint } from './types.ts';

/**
 * Thins a series to about `max` points for drawing without losing what the eye looks for: the
 * series is cut into equal runs and each run keeps its lowest and highest point, in time order, and
 * the first and last points always stay. A spike or a floor's low point survives 100,000 samples.
 */
export function downsample(points: readonly TimePoint[], max: number): TimePoint[] {
  if (points.length <= max) return [...points];
  return keptIndexes(points, max).map((i) => points[i] as TimePoint);
}

/** The indexes `downsample` keeps, ascending: for data that points into the series by index. */
export function keptIndexes(points: readonly TimePoint[], max: number): number[] {
  if (points.length <= max) return points.map((_, i) => i);
  const buckets = Math.max(1, Math.floor((max - 2) / 2));
  const size = (points.length - 2) / buckets;
  const kept = [0];
  for (let b = 0; b < buckets; b++) {
    const from = 1 + Math.floor(b * size);
    const to = Math.min(points.length - 1, 1 + Math.floor((b + 1) * size));
    let lo = from;
    let hi = from;
    for (let i = from; i < to; i++) {
      if ((points[i] as TimePoint).bytes < (points[lo] as TimePoint).bytes) lo = i;
      if ((points[i] as TimePoint).bytes > (points[hi] as TimePoint).bytes) hi = i;
    }
    if (from >= to) continue;
    kept.push(...(lo === hi ? [lo] : [Math.min(lo, hi), Math.max(lo, hi)]));
  }
  kept.push(points.length - 1);
  return kept;
}

/**
 * Keeps a bounded series as a log streams by: every point until twice `max`, then the series is
 * thinned to `max` as above and filling goes on, so memory stays flat on a multi-GiB GC log and what
 * is kept still spans the whole log with its extremes. Amortised, each point costs O(1).
 */
export class StreamingSeries {
  private points: TimePoint[] = [];

  constructor(private readonly max: number) {}

  push(point: TimePoint): void {
    this.points.push(point);
    if (this.points.length >= this.max * 2) this.points = downsample(this.points, this.max);
  }

  values(): TimePoint[] {
    return downsample(this.points, this.max);
  }
}
