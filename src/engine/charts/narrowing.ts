import { TOP } from './bars.ts';
import { countAxis } from './scale.ts';
import { COLOURS, clip, el, fullWidthChart, line, text, WIDTH } from './svg.ts';
import type { Chart, NarrowingChartData } from './types.ts';

const LEFT = 230;
const ROW = 30;
const RIGHT = 60;

interface Stage {
  label: string;
  left: number;
  leak?: boolean;
}

/** How many candidates each round left: the tested half when the symptom showed, else the rest. */
export function stagesOf(d: NarrowingChartData): Stage[] {
  const stages: Stage[] = [{ label: 'start', left: d.total }];
  let left = d.total;
  d.rounds.forEach((r, i) => {
    left = r.leak ? r.tested.length : Math.max(1, left - r.tested.length);
    stages.push({ label: `round ${i + 1}: ${r.leak ? 'symptom' : 'no symptom'}`, left, leak: r.leak });
  });
  return stages;
}

function altOf(d: NarrowingChartData, stages: readonly Stage[]): string {
  const steps = stages
    .slice(1)
    .map((s, i) => `${s.label} with ${d.rounds[i]?.tested.length} tested, ${s.left} left`)
    .join('; ');
  const symptom = d.symptom ? ` (symptom: ${d.symptom})` : '';
  return `Chart: ${d.title}${symptom}: ${d.total} candidates at the start; ${steps || 'no round run'}. Found: ${d.found}.`;
}

function stageRow(d: NarrowingChartData, s: Stage, i: number, sx: (v: number) => number): string {
  const y = TOP + 8 + i * ROW;
  const fill = s.leak === undefined ? COLOURS.muted : s.leak ? COLOURS.warn : COLOURS.data;
  const tested = i > 0 ? d.rounds[i - 1]?.tested.join(', ') : undefined;
  const said = `${s.left} left${tested ? ` (tested ${tested})` : ''}`;
  return [
    text(LEFT - 8, y + 15, clip(s.label, LEFT - 28), { 'text-anchor': 'end' }),
    el('rect', { x: LEFT, y: y + 4, width: Math.max(2, sx(s.left) - LEFT), height: ROW - 10, fill }),
    text(sx(s.left) + 6, y + 15, clip(said, WIDTH - sx(s.left) - 16, 11), {
      'font-size': 11,
      fill: COLOURS.muted,
    }),
  ].join('');
}

function ticksOf(
  sx: (v: number) => number,
  ticks: readonly number[],
  label: (v: number) => string,
  bottom: number,
) {
  return ticks.map((v) =>
    [
      line(sx(v), TOP, sx(v), bottom, { stroke: COLOURS.grid }),
      text(sx(v), bottom + 16, label(v), { 'text-anchor': 'middle', fill: COLOURS.muted }),
    ].join(''),
  );
}

/** The line at one candidate, where the bisection ends, named with what it found. */
function foundLine(d: NarrowingChartData, x: number, bottom: number): string {
  return [
    line(x, TOP - 6, x, bottom, { stroke: COLOURS.limit, 'stroke-width': 2 }),
    text(x + 4, TOP - 10, clip(`found: ${d.found}`, WIDTH - x - 24), { fill: COLOURS.limit }),
  ].join('\n');
}

/** One bar per stage, shorter each round: the candidates still suspected, down to the one found. */
export function drawNarrowing(d: NarrowingChartData): Chart {
  const stages = stagesOf(d);
  const axis = countAxis(0, Math.max(2, d.total), 6);
  const width = WIDTH - LEFT - RIGHT;
  const sx = (v: number) => LEFT + (v / axis.max) * width;
  const bottom = TOP + stages.length * ROW + 8;
  const legend = d.symptom
    ? text(20, 52, clip(`Orange: the symptom (${d.symptom}) showed; blue: it did not.`, WIDTH - 40), {
        fill: COLOURS.muted,
      })
    : '';
  const xTitle = text(LEFT + width / 2, bottom + 38, 'candidates still suspected', {
    'text-anchor': 'middle',
  });
  const height = bottom + 52;
  const alt = altOf(d, stages);
  const body = [
    legend,
    ...ticksOf(sx, axis.ticks, axis.label, bottom),
    ...stages.map((s, i) => stageRow(d, s, i, sx)),
    foundLine(d, sx(1), bottom),
    xTitle,
  ].join('\n');
  return fullWidthChart(d, alt, body, height);
}
