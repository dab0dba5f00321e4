/**
 * `npm run bench:charts -- [--runs 20]`
 *
 * How long a chart takes, as the Slack app and `--chart` make one: the SVG drawn from a parser's
 * figures (drawCharts, on the caller's thread), then the PNG rendered by resvg (renderPng, in a thread
 * of its own). Each input is a real capture the parsers are tested on; the first render of the run
 * (the thread started, resvg's native module and the font loaded) is reported apart from the medians.
 * While the PNGs are made, the event loop's delay is measured (perf_hooks monitorEventLoopDelay,
 * 1 ms resolution): how late the loop that acknowledges Slack would have answered. The last line is
 * the GC chart at three times its size, the largest picture here.
 * Issue 39's target: a chart in under 100 ms. The load average is printed before and after: on a
 * shared machine the PNG's time follows it.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { calcAnswerWithChart } from '../src/calc/answer.ts';
import type { ChartData } from '../src/engine/charts/types.ts';
import { parseText } from '../src/engine/parsers/parse-text.ts';
import { drawCharts, renderPng } from '../src/usecases/chart-images.ts';

const FIXTURES = new URL('../test/engine/parsers/fixtures/', import.meta.url);

const fixture = (file: string) => readFileSync(new URL(file, FIXTURES), 'utf8');
const parsed = (parser: string, file: string) => () => parseText(parser, fixture(file)).chart;
const calc =
  (...args: string[]) =>
  () =>
    calcAnswerWithChart(args, fixture).chart;

/** Real captures with something to draw (each through the parser a paste of it goes to), and calculators. */
const INPUTS: readonly { name: string; data: () => ChartData | undefined }[] = [
  { name: 'gc-log G1 leak', data: parsed('gc-log', 'gc-log/jdk17-g1-leak-oom-128m-xlog-gc-uptime.log') },
  {
    name: 'gc-log Parallel leak',
    data: parsed('gc-log', 'gc-log/jdk17-parallel-leak-oom-128m-xlog-gc-uptime.log'),
  },
  { name: 'ps samples', data: parsed('memory-samples', 'memory-samples/live-ps-climb-0.25mibs-1s.txt') },
  {
    name: 'Dataflow worker memory',
    data: parsed('cloud-monitoring-series', 'cloud-monitoring-series/assembled-dataflow-worker-oom.json'),
  },
  {
    name: 'Spark executors peaks',
    data: parsed('spark-executors', 'spark-executors/spark-executor-metrics-trimmed.json'),
  },
  { name: 'calc glue --needed-heap 20g', data: calc('glue', '--needed-heap', '20g') },
  { name: 'calc beam n1-standard-4', data: calc('beam', '--machine_type', 'n1-standard-4') },
  {
    name: 'calc flink-slots',
    data: calc(
      'flink-slots',
      '--taskmanagers',
      'flink-rest/superzhc-yarn-taskmanagers.json',
      '--pending',
      'flink-resource-profile/minimum-resources-acquired.txt',
    ),
  },
];

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function timed<T>(work: () => T | Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

/** The PNG of `svg` made `runs` times, with the event loop's longest and 99th-percentile delay meanwhile. */
async function loopDelayWhile(
  svg: string,
  runs: number,
): Promise<{ pngMs: number; max: number; p99: number }> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const times: number[] = [];
  delay.enable();
  for (let run = 0; run < runs; run++) times.push((await timed(() => renderPng({ svg })))[1]);
  // One more turn of the loop, so a delay at the very end is recorded too.
  await new Promise((resolve) => setTimeout(resolve, 5));
  delay.disable();
  return { pngMs: median(times), max: delay.max / 1e6, p99: delay.percentile(99) / 1e6 };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of 1 or more');
  console.log(`node ${process.version}, ${runs} runs each, medians; load average ${load()}`);
  let first = true;
  for (const { name: file, data: dataOf } of INPUTS) {
    const data = dataOf();
    const svgTimes: number[] = [];
    const pngTimes: number[] = [];
    for (let run = 0; run < runs + 1; run++) {
      const [charts, svgMs] = await timed(() => drawCharts([data]));
      const chart = charts[0];
      if (!chart) throw new Error(`${file}: nothing to draw`);
      const [, pngMs] = await timed(() => renderPng(chart));
      if (first) console.log(`first render of the run (loads resvg and the font): ${pngMs.toFixed(0)} ms`);
      first = false;
      if (run === 0) continue;
      svgTimes.push(svgMs);
      pngTimes.push(pngMs);
    }
    const svg = median(svgTimes);
    const png = median(pngTimes);
    const loop = await loopDelayWhile(drawCharts([data])[0]?.svg ?? '', runs);
    console.log(
      `${file.padEnd(30)} svg ${svg.toFixed(1).padStart(5)} ms  png ${png.toFixed(0).padStart(4)} ms  total ${(svg + png).toFixed(0)} ms  loop delay max ${loop.max.toFixed(1)} ms p99 ${loop.p99.toFixed(1)} ms`,
    );
  }
  await largeChart(runs);
  await idleLoop();
}

/** The loop's delay over a second with nothing drawn: what the machine's load alone costs it. */
async function idleLoop(): Promise<void> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  delay.disable();
  console.log(
    `${'nothing drawn, 1 s'.padEnd(30)} loop delay max ${(delay.max / 1e6).toFixed(1)} ms p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms`,
  );
}

/** The GC chart at three times its size (the SVG scales by its viewBox): 5160x2640 pixels. */
async function largeChart(runs: number): Promise<void> {
  const [chart] = drawCharts([INPUTS[0]?.data()]);
  if (!chart) throw new Error('nothing to draw');
  const { svg, width, height } = chart;
  const large = svg.replace(
    `width="${width}" height="${height}"`,
    `width="${width * 3}" height="${height * 3}"`,
  );
  const loop = await loopDelayWhile(large, runs);
  console.log(
    `${'gc-log G1 leak, 3x size'.padEnd(30)} png ${loop.pngMs.toFixed(0).padStart(4)} ms  loop delay max ${loop.max.toFixed(1)} ms p99 ${loop.p99.toFixed(1)} ms`,
  );
}

await main();
console.log(`load average after: ${load()}`);
