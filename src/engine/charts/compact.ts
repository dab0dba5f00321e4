import { downsample, keptIndexes } from './downsample.ts';
import type { Bar, ChartData, GcHeapChartData, PeaksChartData, SamplesChartData } from './types.ts';

/**
 * The most a chart kept in a stored record may hold. A walkthrough record is read and written whole
 * on every answer, so a GC log's 2,000 points per series are thinned (extremes kept) to what a chat
 * picture shows anyway; the store's schema refuses more (src/walkthrough/steps/chart-schema.ts).
 */
export const KEPT_CHART = {
  /** Points per time series: a 860-pixel-wide plot shows no more. */
  points: 400,
  /** Bars; the drawing sums all past 14 into "N others" in any case. */
  bars: 32,
  /** Rows of peaks; the drawing shows 12. */
  rows: 32,
  /** Steps and plateaus marked on memory samples; the drawing names the largest 3 steps. */
  marks: 64,
  /** Any one text: a title, a label, a verdict. */
  text: 500,
} as const;

const cut = (text: string) => text.slice(0, KEPT_CHART.text);

function keptBars(bars: readonly Bar[]): Bar[] {
  const labelled = bars.map((b) => ({ ...b, label: cut(b.label) }));
  if (labelled.length <= KEPT_CHART.bars) return labelled;
  const rest = labelled.slice(KEPT_CHART.bars - 1);
  const others = { label: `${rest.length} others`, bytes: rest.reduce((s, b) => s + b.bytes, 0) };
  return [...labelled.slice(0, KEPT_CHART.bars - 1), others];
}

/** Samples thinned, their steps and plateaus moved to the nearest kept samples. */
function keptSamples(d: SamplesChartData): SamplesChartData {
  const kept = keptIndexes(d.points, KEPT_CHART.points);
  if (kept.length === d.points.length && d.steps.length + d.plateaus.length <= KEPT_CHART.marks) return d;
  // The first kept sample at or after an index, and the last at or before it.
  const after = (i: number) =>
    Math.max(
      0,
      kept.findIndex((k) => k >= i),
    );
  const before = (i: number) =>
    Math.max(
      0,
      kept.findLastIndex((k) => k <= i),
    );
  const steps = [...new Set(d.steps.map(after))].slice(-KEPT_CHART.marks);
  const plateaus = d.plateaus
    .map(([from, to]): [number, number] => [after(from), before(to)])
    .filter(([from, to]) => from <= to)
    .slice(-KEPT_CHART.marks);
  return {
    ...d,
    points: kept.map((i) => d.points[i] as SamplesChartData['points'][number]),
    steps,
    plateaus,
    count: d.count ?? d.points.length,
  };
}

function keptGc(d: GcHeapChartData): GcHeapChartData {
  return {
    ...d,
    after: downsample(d.after, KEPT_CHART.points),
    floors: downsample(d.floors, KEPT_CHART.points),
  };
}

function keptPeaks(d: PeaksChartData): PeaksChartData {
  return {
    ...d,
    measures: d.measures.map(cut),
    rows: d.rows.slice(0, KEPT_CHART.rows).map((r) => ({ ...r, label: cut(r.label) })),
    ...(d.note !== undefined ? { note: cut(d.note) } : {}),
  };
}

/** The texts every kind may carry, cut to KEPT_CHART.text. */
function keptTexts<D extends ChartData>(d: D): D {
  const texts: Partial<Record<'title' | 'verdict' | 'limitLabel', string>> = {};
  for (const key of ['title', 'verdict', 'limitLabel'] as const) {
    const value = (d as Partial<Record<typeof key, string>>)[key];
    if (value !== undefined) texts[key] = cut(value);
  }
  return { ...d, ...texts };
}

/**
 * A chart's data bounded for keeping in a stored record (KEPT_CHART): long series thinned with
 * their extremes kept, many bars summed into one, texts cut. What fits is returned as it is, so a
 * short paste's chart is drawn exactly as the diagnosis draws it. Pure.
 */
export function compactChart(data: ChartData): ChartData {
  switch (data.kind) {
    case 'gc-heap':
      return keptTexts(keptGc(data));
    case 'memory-samples':
      return keptTexts(keptSamples(data));
    case 'bars':
      return keptTexts({ ...data, valueLabel: cut(data.valueLabel), bars: keptBars(data.bars) });
    case 'peaks':
      return keptTexts(keptPeaks(data));
    default:
      return keptTexts(data);
  }
}
