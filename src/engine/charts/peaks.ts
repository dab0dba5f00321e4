import { limitLine, notesSvg, PALETTE, sizeTicks, TOP } from './bars.ts';
import { sizeText } from './scale.ts';
import { COLOURS, clip, el, fullWidthChart, text, textWidth, WIDTH } from './svg.ts';
import type { Chart, PeaksChartData } from './types.ts';

/** More rows than this do not read; the caller picks the telling ones and says so in its note. */
const MAX_ROWS = 12;
const BAR = 11;
const GAP = 12;
const LEFT = 170;

/** Measures in fixed colours so a row reads the same as its neighbours. */
const colourOf = (i: number) => PALETTE[(i * 2) % PALETTE.length] as string;

function legend(measures: readonly string[], y: number): string {
  let x = 20;
  return measures
    .map((m, i) => {
      const part = [
        el('rect', { x, y, width: 12, height: 12, fill: colourOf(i) }),
        text(x + 16, y + 10, m, { 'font-size': 11 }),
      ].join('');
      x += textWidth(m, 11) + 30;
      return part;
    })
    .join('\n');
}

function rowSvg(
  row: PeaksChartData['rows'][number],
  y: number,
  height: number,
  sx: (v: number) => number,
): string {
  const parts = [
    text(LEFT - 8, y + height / 2 + 4, clip(row.label, LEFT - 28), {
      'text-anchor': 'end',
      ...(row.emphasis ? { fill: COLOURS.limit, 'font-weight': 'bold' } : {}),
    }),
  ];
  row.values.forEach((v, i) => {
    const top = y + i * BAR;
    if (v === undefined) {
      parts.push(text(LEFT + 4, top + BAR - 2, 'not measured', { 'font-size': 9, fill: COLOURS.muted }));
      return;
    }
    parts.push(
      el('rect', { x: LEFT, y: top, width: Math.max(1, sx(v) - LEFT), height: BAR - 1, fill: colourOf(i) }),
    );
    parts.push(text(sx(v) + 4, top + BAR - 2, sizeText(v), { 'font-size': 9, fill: COLOURS.muted }));
  });
  return parts.join('');
}

function altOf(d: PeaksChartData, rows: PeaksChartData['rows']): string {
  const listed = rows
    .map(
      (r) =>
        `${r.label}: ${r.values
          .map((v, i) => `${d.measures[i]} ${v === undefined ? 'not measured' : sizeText(v)}`)
          .join(', ')}`,
    )
    .join('; ');
  const limit =
    d.limitBytes !== undefined ? ` Limit: ${d.limitLabel ?? 'limit'} ${sizeText(d.limitBytes)}.` : '';
  const note = d.note ? ` ${d.note}.` : '';
  return `Chart: ${d.title}. ${listed}.${limit}${d.verdict ? ` ${d.verdict}.` : ''}${note}`;
}

/** Each row's peaks as thin bars, one colour per measure, against the limit as a vertical line. */
export function drawPeaks(d: PeaksChartData): Chart {
  const rows = d.rows.slice(0, MAX_ROWS);
  const group = d.measures.length * BAR;
  const bottom = TOP + rows.length * (group + GAP) + GAP;
  const values = rows.flatMap((r) => r.values.filter((v): v is number => v !== undefined));
  const peak = Math.max(1, ...values, d.limitBytes ?? 0);
  const { sx, svg: ticks } = sizeTicks(peak, LEFT, WIDTH - LEFT - 70, bottom, 'peak memory');
  const drawn = rows.map((r, i) => rowSvg(r, TOP + GAP + i * (group + GAP), group, sx));
  const limit =
    d.limitBytes !== undefined
      ? limitLine(sx(d.limitBytes), TOP, bottom, `${d.limitLabel ?? 'limit'} ${sizeText(d.limitBytes)}`)
      : '';
  const height = bottom + 50 + 24;
  const alt = altOf(d, rows);
  const body = [notesSvg(d.verdict, d.note), ticks, ...drawn, limit, legend(d.measures, bottom + 50)].join(
    '\n',
  );
  return fullWidthChart(d, alt, body, height);
}
