import { duration } from '../parsers/memory-samples-text.ts';
import { downsample } from './downsample.ts';
import { rateText, sizeText } from './scale.ts';
import { COLOURS, HEIGHT, WIDTH } from './svg.ts';
import { drawTimeChart, type TimeChartSpec } from './time-chart.ts';
import type { Chart, SamplesChartData, TimePoint } from './types.ts';

const MAX_POINTS = 1500;
/** More markers than this crowd the plot; the largest steps are the ones named. */
const MAX_STEPS = 3;

/** The fitted line through the samples (slope from the judgement, through their mean), over their span. */
function fitted(d: SamplesChartData): { from: TimePoint; to: TimePoint } | undefined {
  const slope = d.timed ? d.bytesPerSecond : d.bytesPerSample;
  if (slope === undefined || d.points.length < 2) return undefined;
  const n = d.points.length;
  const mt = d.points.reduce((s, p) => s + p.t, 0) / n;
  const my = d.points.reduce((s, p) => s + p.bytes, 0) / n;
  const first = d.points[0] as TimePoint;
  let endT = (d.points[n - 1] as TimePoint).t;
  // The line goes on to the limit when it gets there within the span shown again: the eye sees when.
  if (d.secondsToLimit !== undefined && d.timed && d.secondsToLimit <= endT - first.t)
    endT += d.secondsToLimit;
  const at = (t: number) => my + slope * (t - mt);
  return { from: { t: first.t, bytes: at(first.t) }, to: { t: endT, bytes: at(endT) } };
}

function notesOf(d: SamplesChartData): string[] {
  const notes = d.verdict ? [`Verdict: ${d.verdict}.`] : [];
  const rate = d.timed && d.bytesPerSecond !== undefined ? rateText(d.bytesPerSecond) : undefined;
  if (d.shape === 'climbing' && rate) {
    const eta =
      d.secondsToLimit !== undefined
        ? `; at this rate it reaches ${d.limitLabel ?? 'the limit'} in ${duration(d.secondsToLimit)}`
        : '';
    notes.push(`Fitted rate ${rate}${eta}.`);
  } else if (d.shape === 'climbing') notes.push(`Fitted rise ${sizeText(d.bytesPerSample)} per sample.`);
  const plateau = d.plateaus[d.plateaus.length - 1];
  if (d.shape === 'levelled' && plateau) notes.push(`Levels off from ${plateauStart(d, plateau[0])}.`);
  return notes;
}

/**
 * Where the plateau starts: its sample's number, which thinned points (a stored record's, `count`
 * set) no longer give by index, so then its sample number (untimed) or its time from the first.
 */
function plateauStart(d: SamplesChartData, at: number): string {
  if (d.count === undefined) return `sample ${at + 1}`;
  const t = d.points[at]?.t ?? 0;
  return d.timed ? `${duration(t - (d.points[0]?.t ?? 0))} in` : `sample ${t}`;
}

function markersOf(d: SamplesChartData): { t: number; label: string }[] {
  const rises = d.steps
    .map((at) => ({ at, rise: (d.points[at]?.bytes ?? 0) - (d.points[at - 1]?.bytes ?? 0) }))
    .sort((a, b) => b.rise - a.rise || a.at - b.at)
    .slice(0, MAX_STEPS)
    .sort((a, b) => a.at - b.at)
    .map(({ at, rise }) => ({
      t: d.points[at]?.t ?? 0,
      label: `step ${rise >= 0 ? '+' : ''}${sizeText(rise)}`,
    }));
  const plateau = d.plateaus[d.plateaus.length - 1];
  if (d.shape === 'levelled' && plateau)
    rises.push({ t: d.points[plateau[0]]?.t ?? 0, label: 'plateau starts' });
  return rises.sort((a, b) => a.t - b.t);
}

function altOf(d: SamplesChartData, notes: readonly string[]): string {
  const first = d.points[0]?.bytes ?? 0;
  const last = d.points[d.points.length - 1]?.bytes ?? 0;
  const peak = d.points.reduce((m, p) => Math.max(m, p.bytes), 0);
  const limit =
    d.limitBytes !== undefined ? ` against ${d.limitLabel ?? 'the limit'} of ${sizeText(d.limitBytes)}` : '';
  return `Chart: ${d.count ?? d.points.length} memory samples${limit}, from ${sizeText(first)} to ${sizeText(last)}, peak ${sizeText(peak)}. ${notes.join(' ')}`.trim();
}

/** What to draw: the samples, the fitted line for a climb, the limit, the steps and the plateau. */
function specOf(d: SamplesChartData, notes: string[], alt: string): TimeChartSpec {
  const line = d.shape === 'climbing' ? fitted(d) : undefined;
  const plateau = d.plateaus[d.plateaus.length - 1];
  const dots = d.points.length <= 60;
  return {
    title: d.title,
    alt,
    notes,
    timed: d.timed,
    countLabel: 'sample',
    yTitle: 'memory',
    series: [
      {
        points: downsample(d.points, MAX_POINTS),
        label: 'samples',
        colour: COLOURS.data,
        dots,
        connect: true,
      },
    ],
    ...(line ? { trend: { ...line, label: 'fitted rate' } } : {}),
    ...(d.limitBytes !== undefined
      ? { limit: { bytes: d.limitBytes, label: `${d.limitLabel ?? 'limit'} ${sizeText(d.limitBytes)}` } }
      : {}),
    markers: markersOf(d),
    ...(d.shape === 'levelled' && plateau
      ? {
          bands: [{ from: d.points[plateau[0]]?.t ?? 0, to: d.points[plateau[1]]?.t ?? 0, label: 'plateau' }],
        }
      : {}),
  };
}

/** Memory samples against the limit, with the fitted line, the steps and where a plateau starts. */
export function drawSamples(d: SamplesChartData): Chart {
  const notes = notesOf(d);
  const alt = altOf(d, notes);
  const svg = drawTimeChart(specOf(d, notes, alt));
  return { id: 'memory-samples', title: d.title, alt, svg, width: WIDTH, height: HEIGHT };
}
