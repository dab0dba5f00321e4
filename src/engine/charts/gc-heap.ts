import { duration as durationText } from '../parsers/memory-samples-text.ts';
import { fitLine } from '../parsers/memory-series.ts';
import { downsample } from './downsample.ts';
import { rateText, sizeText } from './scale.ts';
import { COLOURS } from './svg.ts';
import { drawTimeChart, type TimeChartSpec } from './time-chart.ts';
import type { Chart, GcHeapChartData, TimePoint } from './types.ts';

const MAX_POINTS = 1200;
const MAX_FLOOR_POINTS = 400;

interface FloorTrend {
  from: TimePoint;
  to: TimePoint;
  perUnit: number;
  /** Seconds (or collections) from the last floor until the trend meets the limit. */
  toLimit?: number;
  /** The trend met the limit within the span shown: it stops there. */
  metLimit?: boolean;
}

/** The least-squares line through the floors, over their span; a time to the limit when it rises. */
export function floorTrend(floors: readonly TimePoint[], limit?: number): FloorTrend | undefined {
  if (floors.length < 3) return undefined;
  const xs = floors.map((p) => p.t);
  const ys = floors.map((p) => p.bytes);
  const { slope } = fitLine(xs, ys);
  const mx = xs.reduce((s, x) => s + x, 0) / xs.length;
  const my = ys.reduce((s, y) => s + y, 0) / ys.length;
  const at = (t: number) => my + slope * (t - mx);
  const first = xs[0] ?? 0;
  const last = xs[xs.length - 1] ?? 0;
  if (slope > 0 && limit !== undefined && at(first) >= limit) return undefined;
  const trend: FloorTrend = {
    from: { t: first, bytes: at(first) },
    to: { t: last, bytes: at(last) },
    perUnit: slope,
  };
  if (slope > 0 && limit !== undefined && limit > at(last)) trend.toLimit = (limit - at(last)) / slope;
  // Memory cannot pass its limit: a line drawn beyond it would show a heap larger than the heap.
  if (slope > 0 && limit !== undefined && at(last) > limit) {
    trend.to = { t: mx + (limit - my) / slope, bytes: limit };
    trend.metLimit = true;
  }
  return trend;
}

/** When the trend meets (or met) the limit, in the units of the x axis. */
function etaOf(d: GcHeapChartData, trend: FloorTrend): string {
  if (trend.metLimit)
    return d.timed
      ? `; the trend reaches the limit ${durationText(trend.to.t - trend.from.t)} in`
      : `; the trend reaches the limit by collection ${Math.ceil(trend.to.t)}`;
  if (trend.toLimit === undefined) return '';
  if (!d.timed)
    return `; at this rate it meets ${d.limitLabel} in ${Math.ceil(trend.toLimit)} more collections`;
  return `; at this rate it meets ${d.limitLabel} in ${trend.toLimit < 1 ? 'under a second' : durationText(trend.toLimit)}`;
}

function notesOf(d: GcHeapChartData, trend: FloorTrend | undefined): string[] {
  const notes: string[] = [];
  if (d.verdict) notes.push(`Verdict: ${d.verdict}.`);
  if (d.floorRising && trend && trend.perUnit > 0) {
    const rate = d.timed ? rateText(trend.perUnit) : `+${sizeText(trend.perUnit)} per collection`;
    notes.push(`Live data after whole-heap collections climbs ${rate}${etaOf(d, trend)}.`);
  } else if (d.floors.length === 0)
    notes.push('No collection of the whole heap: the live data is not known.');
  return notes;
}

function altOf(d: GcHeapChartData, notes: readonly string[]): string {
  const peak = d.after.reduce((m, p) => Math.max(m, p.bytes), 0);
  const limit = d.limitBytes === undefined ? '' : ` against ${d.limitLabel} of ${sizeText(d.limitBytes)}`;
  const floors = d.floors.length
    ? ` ${d.floors.length} whole-heap collections left from ${sizeText(d.floors[0]?.bytes ?? 0)} to ${sizeText(d.floors[d.floors.length - 1]?.bytes ?? 0)}.`
    : '';
  return `Chart: heap in use after each GC${limit}; the most after any collection was ${sizeText(peak)}.${floors} ${notes.join(' ')}`.trim();
}

/** Heap after each collection against the maximum heap, the live-data floors and their trend. */
export function drawGcHeap(d: GcHeapChartData): Chart {
  const trend = d.floorRising ? floorTrend(d.floors, d.limitBytes) : undefined;
  const notes = notesOf(d, trend);
  const title = 'Heap after each garbage collection';
  const alt = altOf(d, notes);
  const spec: TimeChartSpec = {
    title,
    alt,
    notes,
    timed: d.timed,
    countLabel: 'collection',
    yTitle: 'heap in use after GC',
    series: [
      { points: downsample(d.after, MAX_POINTS), label: 'after each GC', colour: COLOURS.light, width: 1 },
      {
        points: downsample(d.floors, MAX_FLOOR_POINTS),
        label: 'after whole-heap GC (live data)',
        colour: COLOURS.data,
        dots: true,
      },
    ],
    ...(trend ? { trend: { from: trend.from, to: trend.to, label: 'trend of the live data' } } : {}),
    ...(d.limitBytes !== undefined
      ? { limit: { bytes: d.limitBytes, label: `${d.limitLabel} ${sizeText(d.limitBytes)}` } }
      : {}),
  };
  return { id: 'gc-heap', title, alt, svg: drawTimeChart(spec), width: 860, height: 440 };
}
