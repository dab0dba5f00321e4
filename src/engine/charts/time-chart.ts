import { type Axis, countAxis, sizeAxis, timeAxis } from './scale.ts';
import {
  COLOURS,
  clip,
  document,
  el,
  type Frame,
  HEIGHT,
  line,
  polyline,
  text,
  textWidth,
  WIDTH,
} from './svg.ts';
import type { TimePoint } from './types.ts';

/**
 * One plot of sizes over time: the series, the limit as a red line, a fitted trend, markers where
 * something starts (a step, a plateau) and the judgement written above the plot. gc-heap and
 * memory-samples describe what to draw; this draws it.
 */

export interface SeriesSpec {
  points: readonly TimePoint[];
  label: string;
  colour: string;
  /** Dots at each point (few points, or the floors), else a line. */
  dots?: boolean;
  /** With dots: joined by a line too (a few samples read as one process's path). */
  connect?: boolean;
  width?: number;
}

export interface TimeChartSpec {
  title: string;
  alt: string;
  /** The judgement in a line or two, drawn above the plot. */
  notes: readonly string[];
  timed: boolean;
  /** What the x axis counts when the points carry no time: "collection", "sample". */
  countLabel: string;
  yTitle: string;
  series: readonly SeriesSpec[];
  trend?: { from: TimePoint; to: TimePoint; label: string };
  limit?: { bytes: number; label: string };
  markers?: readonly { t: number; label: string }[];
  bands?: readonly { from: number; to: number; label: string }[];
}

const FRAME: Frame = { left: 78, top: 104, width: WIDTH - 78 - 36, height: HEIGHT - 104 - 62 };
/** A limit this many times the data's peak would squash the data to a line: it is named, not drawn. */
const LIMIT_SCALE_FACTOR = 3;

function xAxisOf(spec: TimeChartSpec): Axis {
  const ts = spec.series.flatMap((s) => s.points.map((p) => p.t));
  if (spec.trend) ts.push(spec.trend.from.t, spec.trend.to.t);
  const min = Math.min(...ts);
  const max = Math.max(...ts);
  return spec.timed ? timeAxis(min, max > min ? max : min + 1) : countAxis(min, max > min ? max : min + 1);
}

function dataPeak(spec: TimeChartSpec): number {
  let peak = 0;
  for (const s of spec.series) for (const p of s.points) peak = Math.max(peak, p.bytes);
  if (spec.trend) peak = Math.max(peak, spec.trend.from.bytes, spec.trend.to.bytes);
  return peak;
}

/** Whether the limit fits on the scale without flattening the data. */
function limitDrawn(spec: TimeChartSpec): boolean {
  return spec.limit !== undefined && spec.limit.bytes <= dataPeak(spec) * LIMIT_SCALE_FACTOR;
}

function scaler(axis: Axis, from: number, length: number, flip: boolean) {
  const span = axis.max - axis.min || 1;
  return (v: number) =>
    flip ? from + length - ((v - axis.min) / span) * length : from + ((v - axis.min) / span) * length;
}

function axes(
  x: Axis,
  y: Axis,
  spec: TimeChartSpec,
  sx: (v: number) => number,
  sy: (v: number) => number,
): string {
  const f = FRAME;
  const parts: string[] = [];
  for (const v of y.ticks) {
    parts.push(line(f.left, sy(v), f.left + f.width, sy(v), { stroke: COLOURS.grid }));
    parts.push(text(f.left - 8, sy(v) + 4, y.label(v), { 'text-anchor': 'end', fill: COLOURS.muted }));
  }
  for (const v of x.ticks) {
    parts.push(line(sx(v), f.top + f.height, sx(v), f.top + f.height + 5, { stroke: COLOURS.muted }));
    parts.push(
      text(sx(v), f.top + f.height + 20, x.label(v), { 'text-anchor': 'middle', fill: COLOURS.muted }),
    );
  }
  parts.push(line(f.left, f.top + f.height, f.left + f.width, f.top + f.height, { stroke: COLOURS.muted }));
  parts.push(line(f.left, f.top, f.left, f.top + f.height, { stroke: COLOURS.muted }));
  const xTitle = spec.timed ? `time since the first point (${x.unit})` : `${spec.countLabel} number`;
  parts.push(text(f.left + f.width / 2, HEIGHT - 18, xTitle, { 'text-anchor': 'middle' }));
  const yTitle = `${spec.yTitle} (${y.unit})`;
  const cy = f.top + f.height / 2;
  parts.push(text(18, cy, yTitle, { 'text-anchor': 'middle', transform: `rotate(-90 18 ${cy})` }));
  return parts.join('\n');
}

function seriesSvg(s: SeriesSpec, sx: (v: number) => number, sy: (v: number) => number): string {
  const xy = s.points.map((p) => [sx(p.t), sy(p.bytes)] as const);
  const path = xy.length > 1 ? polyline(xy, { stroke: s.colour, 'stroke-width': s.width ?? 1.5 }) : '';
  if (!s.dots) return path;
  return (
    (s.connect ? path : '') +
    el(
      'g',
      { fill: s.colour },
      xy.map(([x, y]) => el('circle', { cx: x, cy: y, r: xy.length > 300 ? 1.8 : 3 })).join(''),
    )
  );
}

/** Marker labels on rows so that two close together do not overlap. */
function markersSvg(spec: TimeChartSpec, sx: (v: number) => number): string {
  const f = FRAME;
  const rows: number[] = [];
  const parts: string[] = [];
  for (const m of spec.markers ?? []) {
    const x = sx(m.t);
    const label = clip(m.label, 220, 11);
    const w = textWidth(label, 11);
    const anchorLeft = x + w + 4 > f.left + f.width;
    const start = anchorLeft ? x - w - 4 : x + 4;
    let row = rows.findIndex((end) => end < start);
    if (row < 0) row = rows.length;
    rows[row] = start + w + 8;
    parts.push(line(x, f.top, x, f.top + f.height, { stroke: COLOURS.warn, 'stroke-dasharray': '4 3' }));
    parts.push(
      text(anchorLeft ? x - 4 : x + 4, f.top + 14 + row * 14, label, {
        'font-size': 11,
        fill: COLOURS.warn,
        'text-anchor': anchorLeft ? 'end' : 'start',
      }),
    );
  }
  return parts.join('\n');
}

function bandsSvg(spec: TimeChartSpec, sx: (v: number) => number): string {
  const f = FRAME;
  return (spec.bands ?? [])
    .map((b) =>
      el('rect', {
        x: sx(b.from),
        y: f.top,
        width: Math.max(1, sx(b.to) - sx(b.from)),
        height: f.height,
        fill: COLOURS.grid,
        'fill-opacity': 0.45,
      }),
    )
    .join('\n');
}

function limitSvg(spec: TimeChartSpec, drawn: boolean, sy: (v: number) => number): string {
  const f = FRAME;
  if (!spec.limit) return '';
  if (!drawn)
    return text(f.left + f.width, f.top - 6, `▲ ${spec.limit.label}: above this scale`, {
      'text-anchor': 'end',
      fill: COLOURS.limit,
    });
  const y = sy(spec.limit.bytes);
  return [
    line(f.left, y, f.left + f.width, y, { stroke: COLOURS.limit, 'stroke-width': 2 }),
    text(f.left + f.width - 4, y - 6, spec.limit.label, { 'text-anchor': 'end', fill: COLOURS.limit }),
  ].join('\n');
}

function legend(spec: TimeChartSpec): string {
  const items = spec.series.map((s) => ({ label: s.label, colour: s.colour }));
  if (spec.trend) items.push({ label: spec.trend.label, colour: COLOURS.trend });
  let x = FRAME.left;
  const y = FRAME.top - 10;
  return items
    .map((item) => {
      const w = textWidth(item.label, 11) + 26;
      const part = [
        el('rect', { x, y: y - 8, width: 12, height: 8, fill: item.colour }),
        text(x + 16, y, item.label, { 'font-size': 11, fill: COLOURS.muted }),
      ].join('');
      x += w;
      return part;
    })
    .join('\n');
}

/** The notes as at most `rows` lines that fit `width`, words kept whole; the last line cut if need be. */
export function wrap(notes: readonly string[], width: number, rows: number): string[] {
  const lines: string[] = [];
  for (const note of notes) {
    let current = '';
    for (const word of note.split(' ')) {
      const next = current ? `${current} ${word}` : word;
      if (current && textWidth(next) > width) {
        lines.push(current);
        current = word;
      } else current = next;
    }
    if (current) lines.push(current);
  }
  const kept = lines.slice(0, rows);
  if (lines.length > rows) kept[rows - 1] = clip(`${kept[rows - 1]} ${lines[rows]}`, width);
  return kept;
}

/** Draws the spec as an SVG document. */
export function drawTimeChart(spec: TimeChartSpec): string {
  const drawn = limitDrawn(spec);
  const top = Math.max(dataPeak(spec), drawn && spec.limit ? spec.limit.bytes : 0) * 1.04;
  const y = sizeAxis(top);
  const x = xAxisOf(spec);
  const sx = scaler(x, FRAME.left, FRAME.width, false);
  const sy = scaler(y, FRAME.top, FRAME.height, true);
  const notes = wrap(spec.notes, WIDTH - 40, 3).map((n, i) =>
    text(20, 50 + i * 15, n, { fill: COLOURS.muted }),
  );
  const trend = spec.trend
    ? line(sx(spec.trend.from.t), sy(spec.trend.from.bytes), sx(spec.trend.to.t), sy(spec.trend.to.bytes), {
        stroke: COLOURS.trend,
        'stroke-width': 2,
        'stroke-dasharray': '7 4',
      })
    : '';
  const body = [
    ...notes,
    bandsSvg(spec, sx),
    axes(x, y, spec, sx, sy),
    ...spec.series.map((s) => seriesSvg(s, sx, sy)),
    trend,
    limitSvg(spec, drawn, sy),
    markersSvg(spec, sx),
    legend(spec),
  ].filter(Boolean);
  return document(spec.title, spec.alt, body.join('\n'));
}
