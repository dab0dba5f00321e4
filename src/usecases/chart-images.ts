import { createRequire } from 'node:module';
import { drawChart } from '../engine/charts/index.ts';
import type { Chart, ChartData } from '../engine/charts/types.ts';
import { PngThread } from './png-thread.ts';

export { shareBar, sparkline, terminalLines } from '../engine/charts/index.ts';
export type { Chart, ChartData };

/**
 * Charts as files: the SVG the engine draws and a PNG of it for Slack. The PNG is rasterised by
 * resvg (@resvg/resvg-js): Rust, shipped prebuilt per platform in npm packages, so no browser and no
 * build step. It draws and encodes in a thread of its own (png-thread.ts), off the event loop that
 * acknowledges Slack. It is told to read no system fonts (a slim image has none): DejaVu Sans ships
 * as a package (dejavu-fonts-ttf) and is named to it by path.
 */

/** Twice the SVG's size: crisp on the high-density screens Slack is mostly read on. */
const ZOOM = 2;

const require = createRequire(import.meta.url);

let fonts: string[] | undefined;

/** The font files' paths, resolved once from the installed package. */
function fontFiles(): string[] {
  fonts ??= ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((f) =>
    require.resolve(`dejavu-fonts-ttf/ttf/${f}`),
  );
  return fonts;
}

let thread: PngThread | undefined;

/** A chart's PNG, `ZOOM` times its SVG size, drawn and encoded off the event loop. */
export async function renderPng(chart: Pick<Chart, 'svg'>): Promise<Uint8Array> {
  thread ??= new PngThread(require.resolve('@resvg/resvg-js'));
  return thread.render(chart.svg, {
    font: { fontFiles: fontFiles(), defaultFontFamily: 'DejaVu Sans', loadSystemFonts: false },
    fitTo: { mode: 'zoom', value: ZOOM },
    logLevel: 'off',
  });
}

/** The charts of what was found, most telling first (the order the callers give them in). */
export function drawCharts(data: readonly (ChartData | undefined)[]): Chart[] {
  return data.filter((d): d is ChartData => d !== undefined).map(drawChart);
}
