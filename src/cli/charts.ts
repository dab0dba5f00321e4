import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type Chart,
  type ChartData,
  drawCharts,
  renderPng,
  terminalLines,
} from '../usecases/chart-images.ts';
import type { CliIo } from './command.ts';
import { colorEnabled } from './render/colors.ts';

/** The option every command that can draw takes: `--chart DIR`. */
export const CHART_OPTION = { chart: { type: 'string' } } as const;

/** `gc-heap`, then `gc-heap-2` for a second chart of the same kind (diagnose of two GC logs). */
function fileNames(charts: readonly Chart[]): string[] {
  const seen = new Map<string, number>();
  return charts.map((c) => {
    const n = (seen.get(c.id) ?? 0) + 1;
    seen.set(c.id, n);
    return n === 1 ? c.id : `${c.id}-${n}`;
  });
}

/**
 * Writes each chart as SVG and PNG into `dir` (made if missing) and prints their paths: on stdout,
 * or on stderr when stdout carries JSON. A PNG that fails is said on stderr; its SVG stays written.
 */
export async function writeCharts(
  dir: string,
  data: readonly (ChartData | undefined)[],
  io: CliIo,
  json = false,
): Promise<void> {
  const charts = drawCharts(data);
  const out = json ? io.stderr : io.stdout;
  if (charts.length === 0) {
    io.stderr.write(
      'memdoctor: nothing to chart in this input (charts are drawn for GC logs, memory samples, NMT, pmap and calc spark|flink)\n',
    );
    return;
  }
  await mkdir(dir, { recursive: true });
  const names = fileNames(charts);
  for (const [i, chart] of charts.entries())
    await writeChart(join(dir, names[i] ?? chart.id), chart, {
      said: (line) => out.write(line),
      failed: (line) => io.stderr.write(line),
    });
}

/** Where a chart's paths are said (`chart: a.svg a.png`), and a PNG that failed. */
interface ChartSay {
  said(line: string): void;
  failed(line: string): void;
}

/** One chart as `<base>.svg` and `<base>.png`; a PNG that fails is said, its SVG stays written. */
async function writeChart(base: string, chart: Chart, say: ChartSay): Promise<void> {
  await writeFile(`${base}.svg`, chart.svg);
  const paths = [`${base}.svg`];
  try {
    await writeFile(`${base}.png`, await renderPng(chart));
    paths.push(`${base}.png`);
  } catch (error) {
    say.failed(
      `memdoctor: the PNG of ${chart.title} could not be drawn (${(error as Error).message}); the SVG is written\n`,
    );
  }
  say.said(`chart: ${paths.join(' ')}\n`);
}

/**
 * A walkthrough's charts beside its transcript in `dir`, under the names the transcript gives them
 * (`<step>-gc-heap.png`, with its SVG next to it).
 */
export async function writeNamedCharts(
  dir: string,
  charts: readonly { data: ChartData; file: string }[],
  say: ChartSay,
): Promise<void> {
  if (charts.length === 0) return;
  await mkdir(dir, { recursive: true });
  for (const { data, file } of charts) {
    const [chart] = drawCharts([data]);
    if (chart) await writeChart(join(dir, file.replace(/\.png$/, '')), chart, say);
  }
}

/** The chart in block characters, for a person at a terminal only (not piped, no NO_COLOR); else nothing. */
export function shapeText(data: ChartData | undefined, io: CliIo): string {
  if (!data || !colorEnabled(io.stdout as { isTTY?: boolean })) return '';
  const lines = terminalLines(data);
  return lines.length ? `\n${lines.join('\n')}\n` : '';
}
