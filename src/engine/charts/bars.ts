import { sizeAxis, sizeText } from './scale.ts';
import { COLOURS, clip, document, el, fullWidthChart, line, text, textWidth, WIDTH } from './svg.ts';
import { wrap } from './time-chart.ts';
import type { BarsChartData, Chart, StackChartData } from './types.ts';

/** More bars than this do not read; the rest are summed into one "others" bar. */
const MAX_BARS = 14;
const LABEL_WIDTH = 190;
const ROW = 26;
export const TOP = 96;
const BOTTOM = 56;

/** Colours for the parts of a stack, in order; overflow always in the limit's red. */
export const PALETTE = [
  '#0969da',
  '#54aeff',
  '#8250df',
  '#c297ff',
  '#1a7f37',
  '#4ac26b',
  '#9a6700',
  '#d4a72c',
  '#57606a',
];

/** The verdict (and a note, when given) above the plot: at most two lines, words kept whole. */
export function notesSvg(verdict: string | undefined, note?: string): string {
  const notes = [...(verdict ? [`Verdict: ${verdict}.`] : []), ...(note ? [`${note}.`] : [])];
  return wrap(notes, WIDTH - 40, 2)
    .map((l, i) => text(20, 52 + i * 15, l, { fill: COLOURS.muted }))
    .join('\n');
}

function shown(bars: BarsChartData['bars']) {
  if (bars.length <= MAX_BARS) return bars;
  const rest = bars.slice(MAX_BARS - 1);
  return [
    ...bars.slice(0, MAX_BARS - 1),
    { label: `${rest.length} others`, bytes: rest.reduce((s, b) => s + b.bytes, 0) },
  ];
}

/** A vertical limit line across the plot, when it fits the scale. */
export function limitLine(x: number, top: number, bottom: number, label: string): string {
  return [
    line(x, top - 6, x, bottom, { stroke: COLOURS.limit, 'stroke-width': 2 }),
    text(x, top - 10, label, {
      fill: COLOURS.limit,
      'text-anchor': x + textWidth(label) / 2 > WIDTH - 10 ? 'end' : 'middle',
    }),
  ].join('\n');
}

export function sizeTicks(peak: number, left: number, width: number, y: number, unitLabel: string) {
  const axis = sizeAxis(peak, 6);
  const sx = (v: number) => left + (v / axis.max) * width;
  const parts = axis.ticks.map((v) =>
    [
      line(sx(v), TOP - 4, sx(v), y, { stroke: COLOURS.grid }),
      text(sx(v), y + 16, axis.label(v), { 'text-anchor': 'middle', fill: COLOURS.muted }),
    ].join(''),
  );
  parts.push(text(left + width / 2, y + 38, `${unitLabel} (${axis.unit})`, { 'text-anchor': 'middle' }));
  return { sx, svg: parts.join('\n') };
}

/** A bar's size after its end; inside it instead when the limit line would run through the text. */
function sizeLabel(bytes: number, end: number, y: number, limitX?: number): string {
  const size = sizeText(bytes);
  const w = textWidth(size, 11);
  const crossed = limitX !== undefined && limitX > end - 2 && limitX < end + 10 + w;
  if (crossed && end - LABEL_WIDTH - 20 > w + 12)
    return text(end - 6, y + 17, size, { fill: '#ffffff', 'font-size': 11, 'text-anchor': 'end' });
  return text(end + 6, y + 17, size, { fill: COLOURS.muted, 'font-size': 11 });
}

function altOfBars(d: BarsChartData, bars: BarsChartData['bars']): string {
  const listed = bars.map((b) => `${b.label} ${sizeText(b.bytes)}`).join(', ');
  const verdict = d.verdict ? ` ${d.verdict}.` : '';
  return `Chart: ${d.title}: ${listed}.${verdict}`;
}

/** Sizes as horizontal bars, largest first, the emphasised ones in the warning colour. */
export function drawBars(d: BarsChartData): Chart {
  const bars = shown([...d.bars].sort((a, b) => b.bytes - a.bytes || a.label.localeCompare(b.label)));
  const height = TOP + Math.max(1, bars.length) * ROW + BOTTOM;
  const left = 20 + LABEL_WIDTH;
  const width = WIDTH - left - 90;
  const peak = Math.max(1, ...bars.map((b) => b.bytes), d.limitBytes ?? 0);
  const bottom = TOP + bars.length * ROW;
  const { sx, svg: ticks } = sizeTicks(peak, left, width, bottom, d.valueLabel);
  const limitX = d.limitBytes !== undefined ? sx(d.limitBytes) : undefined;
  const rows = bars.map((b, i) => {
    const y = TOP + i * ROW;
    return [
      text(left - 8, y + 17, clip(b.label, LABEL_WIDTH), { 'text-anchor': 'end' }),
      el('rect', {
        x: left,
        y: y + 5,
        width: Math.max(1, sx(b.bytes) - left),
        height: ROW - 10,
        fill: b.emphasis ? COLOURS.warn : COLOURS.data,
      }),
      sizeLabel(b.bytes, sx(b.bytes), y, limitX),
    ].join('');
  });
  const limit =
    d.limitBytes !== undefined
      ? limitLine(sx(d.limitBytes), TOP, bottom, `${d.limitLabel ?? 'limit'} ${sizeText(d.limitBytes)}`)
      : '';
  const alt = altOfBars(d, bars);
  const svg = document(d.title, alt, [notesSvg(d.verdict), ticks, ...rows, limit].join('\n'), WIDTH, height);
  return { id: d.id, title: d.title, alt, svg, width: WIDTH, height };
}

/** One colour per part label across every stack, in order of first appearance; overflow in red. */
function coloursOf(d: StackChartData): Map<string, string> {
  const colours = new Map<string, string>();
  for (const s of d.stacks)
    for (const p of s.parts) {
      if (p.bytes <= 0 || colours.has(p.label)) continue;
      const colour = p.overflow
        ? COLOURS.limit
        : p.measured
          ? COLOURS.muted
          : PALETTE[colours.size % PALETTE.length];
      colours.set(p.label, colour as string);
    }
  return colours;
}

/** The legend under the stacks: every named part with its colour, wrapped to the width. */
function stackLegend(colours: Map<string, string>, y: number): { svg: string; height: number } {
  const parts: string[] = [];
  let x = 20;
  let row = 0;
  for (const [label, colour] of colours) {
    const w = textWidth(label, 11) + 30;
    if (x + w > WIDTH - 20) {
      x = 20;
      row++;
    }
    parts.push(el('rect', { x, y: y + row * 18, width: 12, height: 12, fill: colour }));
    parts.push(text(x + 16, y + row * 18 + 10, label, { 'font-size': 11 }));
    x += w;
  }
  return { svg: parts.join('\n'), height: (row + 1) * 18 };
}

function altOfStacks(d: StackChartData): string {
  const stacks = d.stacks
    .map(
      (s) =>
        `${s.label}: ${s.parts
          .filter((p) => p.bytes > 0)
          .map((p) => `${p.label} ${sizeText(p.bytes)}`)
          .join(', ')}`,
    )
    .join('; ');
  const limit =
    d.limitBytes !== undefined ? ` Limit: ${d.limitLabel ?? 'limit'} ${sizeText(d.limitBytes)}.` : '';
  return `Chart: ${d.title}. ${stacks}.${limit}${d.verdict ? ` ${d.verdict}.` : ''}`;
}

const STACK_ROW = 58;
const STACK_LEFT = 150;

/** One stack: its label, then its parts left to right, each with its size inside when it fits. */
function stackRow(
  stack: StackChartData['stacks'][number],
  y: number,
  sx: (v: number) => number,
  colours: Map<string, string>,
  limitX?: number,
): string {
  let at = 0;
  const rects = stack.parts.map((p) => {
    const x0 = sx(at);
    at += p.bytes;
    const w = sx(at) - x0;
    if (p.bytes <= 0) return '';
    const fill = colours.get(p.label) ?? COLOURS.data;
    const rect = el('rect', { x: x0, y, width: w, height: STACK_ROW - 22, fill, stroke: '#ffffff' });
    const size = sizeText(p.bytes);
    // A size the limit line crosses is left out: the line through it reads as neither.
    const crossed = limitX !== undefined && Math.abs(limitX - (x0 + w / 2)) < textWidth(size, 11) / 2 + 3;
    const label =
      textWidth(size, 11) + 6 < w && !crossed
        ? text(x0 + w / 2, y + 22, size, { 'font-size': 11, fill: '#ffffff', 'text-anchor': 'middle' })
        : '';
    return rect + label;
  });
  return [
    text(STACK_LEFT - 8, y + 22, clip(stack.label, STACK_LEFT - 28), { 'text-anchor': 'end' }),
    ...rects,
  ].join('');
}

/** A memory model as horizontal stacked bars, one per stack, with the limit and any overflow in red. */
export function drawStacks(d: StackChartData): Chart {
  const width = WIDTH - STACK_LEFT - 40;
  const bottom = TOP + d.stacks.length * STACK_ROW;
  const totals = d.stacks.map((s) => s.parts.reduce((sum, p) => sum + p.bytes, 0));
  const peak = Math.max(1, ...totals, d.limitBytes ?? 0);
  const { sx, svg: ticks } = sizeTicks(peak, STACK_LEFT, width, bottom, 'memory');
  const colours = coloursOf(d);
  const limitX = d.limitBytes !== undefined ? sx(d.limitBytes) : undefined;
  const rows = d.stacks.map((s, i) => stackRow(s, TOP + i * STACK_ROW + 10, sx, colours, limitX));
  const limit =
    d.limitBytes !== undefined
      ? limitLine(sx(d.limitBytes), TOP, bottom, `${d.limitLabel ?? 'limit'} ${sizeText(d.limitBytes)}`)
      : '';
  const legend = stackLegend(colours, bottom + 50);
  const height = bottom + 50 + legend.height + 12;
  const alt = altOfStacks(d);
  const body = [notesSvg(d.verdict), ticks, ...rows, limit, legend.svg].join('\n');
  return fullWidthChart(d, alt, body, height);
}
