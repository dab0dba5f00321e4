import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calcAnswerWithChart } from '../../../src/calc/answer.ts';
import { drawChart } from '../../../src/engine/charts/index.ts';
import type { ChartData } from '../../../src/engine/charts/types.ts';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';

const FIXTURES = new URL('../parsers/fixtures/', import.meta.url);
const noFiles = () => {
  throw new Error('no files here');
};

function parsed(parser: string, file: string): ChartData {
  const chart = parseText(parser, readFileSync(new URL(file, FIXTURES), 'utf8')).chart;
  if (!chart) throw new Error(`${file} gave no chart`);
  return chart;
}

/** The files a calculator's flags name, read from the parsers' fixtures. */
const fixtureFile = (path: string) => readFileSync(new URL(path, FIXTURES), 'utf8');

function calc(args: string[], files: (path: string) => string = noFiles): ChartData {
  const chart = calcAnswerWithChart(args, files).chart;
  if (!chart) throw new Error(`calc ${args.join(' ')} gave no chart`);
  return chart;
}

/** Real captured inputs (test/engine/parsers/fixtures/SOURCES.md) and calculator runs, one per picture. */
const CASES: [string, () => ChartData][] = [
  ['gc-g1-full-heap', () => parsed('gc-log', 'gc-log/jdk17-g1-leak-oom-128m-xlog-gc-uptime.log')],
  ['gc-parallel-leak', () => parsed('gc-log', 'gc-log/jdk17-parallel-leak-oom-128m-xlog-gc-uptime.log')],
  ['gc-zgc-untimed', () => parsed('gc-log', 'gc-log/jdk17-zgc-leak-oom-32m-xlog-gc-none.log')],
  ['gc-jdk8-cms', () => parsed('gc-log', 'gc-log/github-jdk8-cms-datestamps.txt')],
  ['samples-ps-climb', () => parsed('memory-samples', 'memory-samples/live-ps-climb-14mibs-1s.txt')],
  ['samples-ps-step', () => parsed('memory-samples', 'memory-samples/live-ps-step-100mib-1s.txt')],
  ['samples-top-machine-limit', () => parsed('memory-samples', 'memory-samples/live-top-e-k-1100mib.txt')],
  // Assembled from AWS's documented GetMetricData shape and Glue's metric names (SOURCES.md).
  [
    'cloudwatch-glue-driver-heap',
    () => parsed('cloudwatch-metrics', 'cloudwatch-metrics/assembled-glue-heap-driver-oom.json'),
  ],
  // Cloud Monitoring's shape and Dataflow's metric names, values of a real cgroup-limited leak (SOURCES.md).
  [
    'cloud-monitoring-dataflow-worker-memory',
    () => parsed('cloud-monitoring-series', 'cloud-monitoring-series/assembled-dataflow-worker-oom.json'),
  ],
  [
    'spark-executor-peaks',
    () => parsed('spark-executors', 'spark-executors/spark-executor-metrics-trimmed.json'),
  ],
  [
    'spark-executor-peaks-process-tree',
    () => parsed('spark-executors', 'spark-executors/spark-executor-process-tree-metrics.json'),
  ],
  ['nmt-diff', () => parsed('nmt', 'nmt/jdk17-summary-diff-direct-growth.txt')],
  ['nmt-threads', () => parsed('nmt', 'nmt/jdk17-thread-leak-3000-xss-default.txt')],
  ['pmap-arenas', () => parsed('pmap', 'pmap/jdk17-1200-threads-x.txt')],
  [
    'spark-container-killed',
    () =>
      calc(['spark', '--spark.executor.memory', '4g', '--failure', 'container-killed', '--observed', '5.5g']),
  ],
  ['flink-taskmanager', () => calc(['flink', '--taskmanager.memory.process.size', '4g'])],
  ['glue-needed-heap', () => calc(['glue', '--needed-heap', '20g'])],
  ['glue-one-type', () => calc(['glue', '--worker-type', 'G.1X'])],
  ['beam-python-batch', () => calc(['beam', '--machine_type', 'n1-standard-4'])],
  [
    'beam-java-streaming',
    () => calc(['beam', '--machine_type', 'n1-highmem-8', '--streaming', '--sdk', 'java']),
  ],
  [
    'flink-slots-lacks',
    () =>
      calc(
        [
          'flink-slots',
          '--taskmanagers',
          'flink-rest/superzhc-yarn-taskmanagers.json',
          '--pending',
          'flink-resource-profile/minimum-resources-acquired.txt',
        ],
        fixtureFile,
      ),
  ],
];

describe('charts of real inputs', () => {
  it.each(CASES)('%s: the same SVG as its snapshot, byte for byte, every time', async (name, data) => {
    const first = drawChart(data()).svg;
    expect(drawChart(data()).svg).toBe(first);
    await expect(first).toMatchFileSnapshot(`__snapshots__/${name}.svg`);
  });

  it.each(CASES)('%s: a title, alt text, and no coordinate that is not a number', (_name, data) => {
    const chart = drawChart(data());
    expect(chart.svg).toContain(`<title>${chart.title.replace(/&/g, '&amp;')}</title>`);
    expect(chart.alt).toMatch(/^Chart: /);
    expect(chart.svg).not.toMatch(/NaN|Infinity|undefined/);
  });
});

describe('what each chart says', () => {
  it('a leaking heap: the floor trend is drawn and its rate and time to the limit are written', () => {
    const chart = drawChart(parsed('gc-log', 'gc-log/jdk17-parallel-leak-oom-128m-xlog-gc-uptime.log'));
    expect(chart.svg).toContain('trend of the live data');
    expect(chart.alt).toMatch(/climbs \+\d+(\.\d+)? MB\/s; at this rate it meets .* in /);
    expect(chart.svg).toContain('stroke="#cf222e"');
  });

  it('a heap full from the start has no trend: a peak, not a climb', () => {
    const chart = drawChart(parsed('gc-log', 'gc-log/jdk17-g1-leak-oom-128m-xlog-gc-uptime.log'));
    expect(chart.svg).not.toContain('trend of the live data');
    expect(chart.alt).toContain('live data fills the heap');
  });

  it('an untimed log counts collections on its x axis', () => {
    const chart = drawChart(parsed('gc-log', 'gc-log/jdk17-zgc-leak-oom-32m-xlog-gc-none.log'));
    expect(chart.svg).toContain('collection number');
    expect(chart.alt).toMatch(/per collection/);
  });

  it('the trend of an untimed ZGC log stops where it meets the limit, not above it', () => {
    const chart = drawChart(parsed('gc-log', 'gc-log/jdk17-zgc-leak-oom-32m-xlog-gc-none.log'));
    const trend = /<line x1="[\d.]+" y1="[\d.]+" x2="([\d.]+)" y2="([\d.]+)"[^>]*stroke-dasharray="7 4"/.exec(
      chart.svg,
    );
    const limit =
      /<line x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="[\d.]+" stroke="#cf222e" stroke-width="2"/.exec(
        chart.svg,
      );
    if (!trend || !limit) throw new Error('no trend or no limit line drawn');
    // SVG's y grows downwards: the trend's end at or below the limit's y is on or under the line.
    expect(Number(trend[2])).toBeCloseTo(Number(limit[1]), 0);
    // The plot ends at x 824: a trend that met the limit earlier stops short of it.
    expect(Number(trend[1])).toBeLessThan(820);
    expect(chart.alt).toMatch(/the trend reaches the limit by collection \d+/);
  });

  it('a climb of ps samples: the fitted rate as the parser judged it', () => {
    const data = parsed('memory-samples', 'memory-samples/live-ps-climb-14mibs-1s.txt');
    const chart = drawChart(data);
    expect(data.kind === 'memory-samples' && data.shape).toBe('climbing');
    expect(chart.alt).toMatch(/Fitted rate \+14\.\d MB\/s/);
    expect(chart.svg).toContain('fitted rate');
  });

  it('a step then a plateau: both marked where they start', () => {
    const chart = drawChart(parsed('memory-samples', 'memory-samples/live-ps-step-100mib-1s.txt'));
    expect(chart.svg).toContain('step +100 MB');
    expect(chart.svg).toContain('plateau starts');
  });

  it("a machine's memory far above the samples is named above the scale, not drawn flat", () => {
    const chart = drawChart(parsed('memory-samples', 'memory-samples/live-top-e-k-1100mib.txt'));
    expect(chart.svg).toContain("machine's memory 23.5 GB: above this scale");
  });

  it('an NMT diff draws growth with the fastest-growing area emphasised', () => {
    const chart = drawChart(parsed('nmt', 'nmt/jdk17-summary-diff-direct-growth.txt'));
    expect(chart.title).toContain('growth');
    expect(chart.svg).toMatch(/fill="#bc4c00"/);
    expect(chart.alt).toMatch(/^Chart: .*: Other 320 MB,/);
  });

  it('Spark: the part over the container limit is drawn as overflow', () => {
    const chart = drawChart(
      calc(['spark', '--spark.executor.memory', '4g', '--failure', 'container-killed', '--observed', '5.5g']),
    );
    expect(chart.alt).toContain('over the limit 1.1 GB');
    expect(chart.alt).toContain('Limit: container 4.4 GB');
  });

  it('Flink: every component adds up to the process size', () => {
    const data = calc(['flink', '--taskmanager.memory.process.size', '4g']);
    if (data.kind !== 'stack') throw new Error('not a stack');
    const total = data.stacks[0]?.parts.reduce((s, p) => s + p.bytes, 0);
    expect(total).toBe(data.limitBytes);
  });
});

describe('calculators', () => {
  it('Glue: every worker type side by side, the heap asked for as the line, the smallest that has it named', () => {
    const data = calc(['glue', '--needed-heap', '20g']);
    if (data.kind !== 'stack') throw new Error('not a stack');
    expect(data.stacks.map((s) => s.label)).toContain('G.2X');
    const g2x = data.stacks.find((s) => s.label === 'G.2X');
    const heap = g2x?.parts.filter((p) => p.label !== 'overhead').reduce((n, p) => n + p.bytes, 0);
    expect(heap).toBe(20 * 1024 ** 3);
    expect(drawChart(data).alt).toContain('executor heap needed 20 GB');
    expect(data.verdict).toContain('G.2X');
  });

  it("Glue: one type is drawn against its executor's container, which its parts fill", () => {
    const data = calc(['glue', '--worker-type', 'G.1X']);
    if (data.kind !== 'stack') throw new Error('not a stack');
    const total = data.stacks[0]?.parts.reduce((n, p) => n + p.bytes, 0);
    expect(total).toBe(data.limitBytes);
    expect(data.limitBytes).toBe(11 * 1024 ** 3);
  });

  it('Beam: the SDK processes and what Dataflow keeps add up to the machine; one process split by thread', () => {
    const data = calc(['beam', '--machine_type', 'n1-standard-4']);
    if (data.kind !== 'stack') throw new Error('not a stack');
    const [worker, process] = data.stacks;
    expect(worker?.parts.filter((p) => p.label === 'SDK process')).toHaveLength(4);
    expect(worker?.parts.reduce((n, p) => n + p.bytes, 0)).toBe(data.limitBytes);
    expect(process?.parts.reduce((n, p) => n + p.bytes, 0)).toBe(worker?.parts[1]?.bytes);
  });

  it('Beam: 300 streaming threads are one part, not a comb of 300', () => {
    const data = calc(['beam', '--machine_type', 'n1-highmem-8', '--streaming', '--sdk', 'java']);
    if (data.kind !== 'stack') throw new Error('not a stack');
    expect(data.stacks[1]?.parts).toHaveLength(1);
    expect(data.stacks[1]?.parts[0]?.label).toMatch(/^harness threads \(300 x /);
  });

  it("Flink slots: the largest request against each TaskManager's free memory, with the shortfall", () => {
    const chart = drawChart(CASES.find(([n]) => n === 'flink-slots-lacks')?.[1]() as ChartData);
    expect(chart.alt).toContain('largest request: task heap 3.22 GB, managed 2.78 GB, network 712 MB');
    expect(chart.alt).toContain('…01_000002 free: task heap 358 MB');
    expect(chart.alt).toMatch(/lacks resources: the TaskManagers together are short of task heap by /);
    // A verdict longer than a line wraps to a second one instead of losing its end.
    expect(chart.svg).toMatch(/>[^<]*network by 1\.98 GB\.<\/text>/);
  });

  it('a size the limit line runs through is not written inside its part', () => {
    // At 8 GB the line crosses the 31.9 GB user-memory parts (0 to 31.9 GB) far from their centre.
    const chart = drawChart(calc(['glue', '--needed-heap', '8g']));
    expect(chart.svg).toContain('>31.9 GB<');
    // At 16 GB it runs through their centre: their size is left out.
    const crossed = drawChart(calc(['glue', '--needed-heap', '16g']));
    expect(crossed.svg).not.toContain('>31.9 GB<');
  });
});

describe("Spark executors' peaks", () => {
  it('each executor that measured its peaks, highest heap first; the driver and the unmeasured left out and said', () => {
    const data = parsed('spark-executors', 'spark-executors/spark-executor-metrics-trimmed.json');
    if (data.kind !== 'peaks') throw new Error('not peaks');
    expect(data.rows.map((r) => r.label)).toEqual(['executor 3', 'executor 4']);
    expect(data.rows[0]?.values[0]).toBe(726805712);
    expect(data.note).toContain('1 executor(s) sent no measured peaks');
    expect(data.note).toContain('spark.executor.memory is not in the executor list, so no limit is drawn');
  });

  it('process RSS is drawn only where Spark measured it, and said when it did not', () => {
    const tree = drawChart(
      parsed('spark-executors', 'spark-executors/spark-executor-process-tree-metrics.json'),
    );
    expect(tree.alt).toContain('executor 9: JVM heap 185 MB, JVM off-heap 56.3 MB, process RSS 453 MB');
    const off = drawChart(
      parsed('spark-executors', 'spark-executors/wave-operator-spark-3.0-k8s-process-tree-off.json'),
    );
    expect(off.alt).not.toContain('process RSS 0');
    expect(off.alt).toContain('process RSS not measured (spark.executor.processTreeMetrics.enabled=false)');
  });

  it('an executor list with no measured peak has no chart', () => {
    const out = parseText(
      'spark-executors',
      readFileSync(new URL('spark-executors/assembled-removed-for-memory.json', FIXTURES), 'utf8'),
    );
    expect(out.chart).toBeUndefined();
  });
});

describe('metric series', () => {
  it("Glue's driver heap from CloudWatch: bytes used against the maximum the two gauges give, with the climb's rate", () => {
    const chart = drawChart(
      parsed('cloudwatch-metrics', 'cloudwatch-metrics/assembled-glue-heap-driver-oom.json'),
    );
    expect(chart.title).toBe("Glue driver's heap used (glue.driver.jvm.heap.used)");
    expect(chart.alt).toContain('against maximum heap (used / usage) of 128 MB');
    expect(chart.alt).toMatch(/Fitted rate \+5\.\d+ MB\/min/);
  });

  it("a Dataflow worker's container memory from Cloud Monitoring against its container_limit, the container nearest it drawn", () => {
    const chart = drawChart(
      parsed('cloud-monitoring-series', 'cloud-monitoring-series/assembled-dataflow-worker-oom.json'),
    );
    expect(chart.title).toBe('Dataflow worker memory (harness on wordcount-05180703-k2qd-harness-7lzw)');
    expect(chart.alt).toContain('13 memory samples against container_limit of 256 MB');
    expect(chart.alt).toContain('Verdict: worker container reached 94% of its memory limit.');
    expect(chart.alt).toMatch(/Fitted rate \+1\.2\d MB\/s; at this rate it reaches container_limit in 1\d s/);
  });
});

describe('hard inputs', () => {
  it('a series of one point draws a dot, with a usable axis', () => {
    const chart = drawChart({
      kind: 'memory-samples',
      title: 'one sample',
      points: [{ t: 5, bytes: 1024 ** 3 }],
      timed: true,
      shape: 'insufficient',
      bytesPerSample: 0,
      steps: [],
      plateaus: [],
    });
    expect(chart.svg).toContain('<circle');
    expect(chart.svg).not.toMatch(/NaN|Infinity/);
  });

  it('100,000 samples are drawn with at most 1,500 points, the spike among them', () => {
    const points = Array.from({ length: 100_000 }, (_, i) => ({ t: i, bytes: 1e9 + (i % 7) * 1e6 }));
    points[54_321] = { t: 54_321, bytes: 3e9 };
    const chart = drawChart({
      kind: 'memory-samples',
      title: 'many',
      points,
      timed: true,
      shape: 'spike',
      bytesPerSample: 0,
      steps: [],
      plateaus: [],
    });
    const polyline = /<polyline points="([^"]+)"/.exec(chart.svg)?.[1] ?? '';
    const ys = polyline.split(' ').map((p) => Number(p.split(',')[1]));
    expect(ys.length).toBeLessThanOrEqual(1500);
    expect(ys.length).toBeGreaterThan(100);
    expect(Math.min(...ys)).toBeLessThan(150);
  });
});
