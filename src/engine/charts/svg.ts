/**
 * The few SVG pieces every chart uses. Coordinates are printed with one decimal so the same figures
 * always give the same bytes; text is escaped; the font is the one the PNG renderer ships (DejaVu Sans).
 */

import type { Chart } from './types.ts';

export const WIDTH = 860;
export const HEIGHT = 440;
export const FONT = 'DejaVu Sans, Verdana, sans-serif';

/** The colours: one for the data, one for the trend, one for the limit and for what overflowed. */
export const COLOURS = {
  ink: '#1f2328',
  muted: '#656d76',
  grid: '#d8dee4',
  data: '#0969da',
  light: '#8cb8ea',
  trend: '#8250df',
  limit: '#cf222e',
  warn: '#bc4c00',
  background: '#ffffff',
} as const;

/** The plot area inside the canvas: room on the left for tick labels, at the top for the title and notes. */
export interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
}

export function px(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

type Attrs = Readonly<Record<string, string | number | undefined>>;

function attrs(a: Attrs): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${typeof v === 'number' ? px(v) : escapeXml(v as string)}"`)
    .join('');
}

export function el(name: string, a: Attrs, children = ''): string {
  return children ? `<${name}${attrs(a)}>${children}</${name}>` : `<${name}${attrs(a)}/>`;
}

export function text(x: number, y: number, content: string, a: Attrs = {}): string {
  return el('text', { x, y, 'font-size': 12, fill: COLOURS.ink, ...a }, escapeXml(content));
}

export function line(x1: number, y1: number, x2: number, y2: number, a: Attrs = {}): string {
  return el('line', { x1, y1, x2, y2, stroke: COLOURS.ink, 'stroke-width': 1, ...a });
}

export function polyline(points: readonly (readonly [number, number])[], a: Attrs = {}): string {
  return el('polyline', {
    points: points.map(([x, y]) => `${px(x)},${px(y)}`).join(' '),
    fill: 'none',
    ...a,
  });
}

/**
 * How wide a text is drawn, roughly: DejaVu Sans averages about 0.6 em per character. Used to keep
 * labels inside the canvas and off each other, never for anything exact.
 */
export function textWidth(content: string, size = 12): number {
  return content.length * size * 0.6;
}

/** Cuts a text to what fits in `width` pixels, with an ellipsis. */
export function clip(content: string, width: number, size = 12): string {
  const max = Math.floor(width / (size * 0.6));
  return content.length <= max ? content : `${content.slice(0, Math.max(1, max - 1))}…`;
}

/** The whole document: white background, title, then the chart's own parts. */
export function document(title: string, alt: string, body: string, width = WIDTH, height = HEIGHT): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}" role="img" aria-label="${escapeXml(alt)}">`,
    `<title>${escapeXml(title)}</title>`,
    el('rect', { x: 0, y: 0, width, height, fill: COLOURS.background }),
    text(20, 28, clip(title, width - 40, 16), { 'font-size': 16, 'font-weight': 'bold' }),
    body,
    '</svg>',
    '',
  ].join('\n');
}

/** A chart of the full width and the given height: its document around `body`, with its alt text. */
export function fullWidthChart(
  d: { id: string; title: string },
  alt: string,
  body: string,
  height: number,
): Chart {
  return {
    id: d.id,
    title: d.title,
    alt,
    svg: document(d.title, alt, body, WIDTH, height),
    width: WIDTH,
    height,
  };
}
