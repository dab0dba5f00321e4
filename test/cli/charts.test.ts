import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shapeText } from '../../src/cli/charts.ts';
import { drawChart } from '../../src/engine/charts/index.ts';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { cli } from './in-process.ts';

const FIXTURES = join(import.meta.dirname, '..', 'engine', 'parsers', 'fixtures');
const GC_LOG = join(FIXTURES, 'gc-log', 'jdk17-parallel-leak-oom-128m-xlog-gc-uptime.log');
const PS = join(FIXTURES, 'memory-samples', 'live-ps-climb-14mibs-1s.txt');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'memdoctor-charts-'));
  dirs.push(dir);
  return join(dir, 'charts');
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describe('--chart DIR', () => {
  it('parse writes the SVG the chart module draws and its PNG, and prints both paths', async () => {
    const dir = tempDir();
    const { code, out } = await cli(['parse', 'auto', GC_LOG, '--chart', dir]);
    expect(code).toBe(0);
    expect(out).toContain(`chart: ${join(dir, 'gc-heap.svg')} ${join(dir, 'gc-heap.png')}\n`);
    const chart = parseText('gc-log', readFileSync(GC_LOG, 'utf8')).chart;
    expect(chart).toBeDefined();
    expect(readFileSync(join(dir, 'gc-heap.svg'), 'utf8')).toBe(chart && drawChart(chart).svg);
    expect(readFileSync(join(dir, 'gc-heap.png')).subarray(0, 8)).toEqual(PNG);
  });

  it('parse --json keeps stdout the JSON it was (no chart data in it) and prints the paths on stderr', async () => {
    const dir = tempDir();
    const { code, out, err } = await cli(['parse', 'memory-samples', PS, '--json', '--chart', dir]);
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(json.format).toBe('memory-samples');
    expect(json).not.toHaveProperty('chart');
    expect(err).toContain(join(dir, 'memory-samples.svg'));
  });

  it('calc spark writes the executor model and leaves the calculator its own flags', async () => {
    const dir = tempDir();
    const args = [
      'calc',
      'spark',
      '--chart',
      dir,
      '--spark.executor.memory',
      '4g',
      '--failure',
      'container-killed',
    ];
    const { code, out } = await cli([...args, '--observed', '5.5g']);
    expect(code).toBe(0);
    expect(out).toContain('Smallest change: spark.executor.memoryOverhead');
    expect(readdirSync(dir).sort()).toEqual(['spark-executor.png', 'spark-executor.svg']);
    expect(readFileSync(join(dir, 'spark-executor.svg'), 'utf8')).toContain('over the limit');
  });

  it('calc refuses --chart without a folder', async () => {
    const { code, err } = await cli(['calc', 'flink', '--chart']);
    expect(code).not.toBe(0);
    expect(err).toContain('--chart needs a folder');
  });

  it('diagnose writes the chart of each input it recognised as a dump, numbered when two share a kind', async () => {
    const dir = tempDir();
    const { out } = await cli(['diagnose', GC_LOG, PS, GC_LOG, '--chart', dir]);
    expect(readdirSync(dir).sort()).toEqual([
      'gc-heap-2.png',
      'gc-heap-2.svg',
      'gc-heap.png',
      'gc-heap.svg',
      'memory-samples.png',
      'memory-samples.svg',
    ]);
    expect(out).toContain(join(dir, 'gc-heap-2.svg'));
  });

  it('says when there is nothing to chart', async () => {
    const dir = tempDir();
    const { code, err } = await cli(['calc', 'beam', 'help', '--chart', dir]);
    expect(code).toBe(0);
    expect(err).toContain('nothing to chart');
  });

  it('calc beam, glue and flink-slots draw their models too', async () => {
    const dir = tempDir();
    const tms = join(FIXTURES, 'flink-rest', 'superzhc-yarn-taskmanagers.json');
    await cli(['calc', 'beam', '--machine_type', 'n1-standard-4', '--chart', dir]);
    await cli(['calc', 'glue', '--needed-heap', '20g', '--chart', dir]);
    await cli([
      'calc',
      'flink-slots',
      '--taskmanagers',
      tms,
      '--request',
      'cpuCores=1, taskHeapMemory=1g',
      '--chart',
      dir,
    ]);
    expect(readdirSync(dir).sort()).toEqual(
      ['beam-worker', 'flink-slots', 'glue-workers'].flatMap((n) => [`${n}.png`, `${n}.svg`]),
    );
  });
});

describe('the shape beside the figures', () => {
  const chart = parseText('memory-samples', readFileSync(PS, 'utf8')).chart;
  const io = (isTTY: boolean) => ({
    stdin: process.stdin,
    stdout: { isTTY, write: () => true },
    stderr: { write: () => true },
  });

  it('is drawn for a terminal', () => {
    vi.stubEnv('NO_COLOR', '');
    vi.stubEnv('FORCE_COLOR', '');
    vi.stubEnv('TERM', 'xterm');
    expect(shapeText(chart, io(true))).toMatch(/^\nsamples {2}[▁▂▃▄▅▆▇█]{12} {2}34\.7 MB \.\. 190 MB\n$/);
  });

  it('is left out when piped or with NO_COLOR', () => {
    vi.stubEnv('FORCE_COLOR', '');
    expect(shapeText(chart, io(false))).toBe('');
    vi.stubEnv('NO_COLOR', '1');
    vi.stubEnv('TERM', 'xterm');
    expect(shapeText(chart, io(true))).toBe('');
  });
});
