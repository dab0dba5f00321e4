import { drawBars, drawStacks } from './bars.ts';
import { drawGcHeap } from './gc-heap.ts';
import { drawNarrowing } from './narrowing.ts';
import { drawPeaks } from './peaks.ts';
import { drawSamples } from './samples.ts';
import type { Chart, ChartData } from './types.ts';

export { shareBar, sparkline } from './sparkline.ts';
export { terminalLines } from './terminal.ts';
export type { Chart, ChartData } from './types.ts';

/**
 * Every kind of chart and what draws it: one entry per kind. A heap dump's biggest holders will be
 * `bars` data (labels and retained sizes), or a kind of its own added here and in types.ts.
 */
const DRAW: { readonly [K in ChartData['kind']]: (data: Extract<ChartData, { kind: K }>) => Chart } = {
  'gc-heap': drawGcHeap,
  'memory-samples': drawSamples,
  bars: drawBars,
  stack: drawStacks,
  peaks: drawPeaks,
  narrowing: drawNarrowing,
};

/** Draws one chart. Pure: the same data gives byte-identical SVG. */
export function drawChart(data: ChartData): Chart {
  return (DRAW[data.kind] as (d: ChartData) => Chart)(data);
}
