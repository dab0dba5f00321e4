import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { TWO_SMALL_TASKMANAGERS } from '../calc/taskmanagers.ts';

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    stdin: Readable.from([]),
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
  });
  return { code, out, err };
}

describe('memdoctor calc', () => {
  it('computes a Flink TaskManager from its process size', async () => {
    const { code, out } = await cli('calc', 'flink', '--taskmanager.memory.process.size', '1728m');
    expect(code).toBe(0);
    expect(out).toMatch(/total Flink memory\s+1\.\d+ GB/);
    expect(out).toContain('-XX:MaxMetaspaceSize=268435456');
    const json = await cli('calc', 'flink', '--json', '--taskmanager.memory.process.size', '1728m');
    expect(JSON.parse(json.out).budget.flinkSize).toBe(1280 * 1024 ** 2);
  });

  it('prints JSON with --json', async () => {
    const { code, out } = await cli('calc', 'spark', '--json', '--spark.executor.memory=8g');
    expect(code).toBe(0);
    const parsed = JSON.parse(out) as { system: string; budget: { heap: number; reserved: number } };
    expect(parsed.system).toBe('spark');
    expect(parsed.budget.heap).toBe(8 * 1024 ** 3);
  });

  it('names the fix for a container kill', async () => {
    const { out } = await cli(
      'calc',
      'spark',
      '--spark.executor.memory',
      '5g',
      '--failure',
      'container-killed',
    );
    expect(out).toMatch(/Smallest change: spark.executor.memoryOverhead 512m -> \d+m/);
  });

  it.each([
    [['calc'], /calc needs a system/],
    [['calc', 'hadoop'], /got "hadoop"/],
    [['calc', 'spark', '--spark.executor.memry', '8g'], /unknown flag --spark.executor.memry/],
    [['calc', 'spark', '--spark.memory.fraction', '1.5'], /a fraction in \(0, 1\]/],
    [['calc', 'spark', '--spark.executor.memory', 'lots'], /a size like 8g/],
    [['calc', 'spark', '--spark.executor.memory'], /needs a value/],
    [['calc', 'glue', '--worker-type', 'G.3X'], /unknown Glue worker type "G.3X"/],
    [['calc', 'flink'], /give taskmanager.memory.process.size/],
    [['calc', 'beam', '--machine_type', 'n9-giant-2'], /unknown machine type/],
  ])('rejects %j with a clear message', async (argv, message) => {
    const { code, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });

  it("lists a system's flags", async () => {
    const { out } = await cli('calc', 'beam', 'help');
    expect(out).toContain('--number_of_worker_harness_threads');
  });
});

describe('memdoctor calc flink-slots', () => {
  const fixtures = new URL('../engine/parsers/fixtures/', import.meta.url).pathname;

  it('checks pending requests from a log against /taskmanagers JSON', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'memdoctor-'));
    const tms = join(dir, 'tms.json');
    writeFileSync(tms, TWO_SMALL_TASKMANAGERS);
    const frag = await cli(
      'calc',
      'flink-slots',
      '--taskmanagers',
      tms,
      '--request',
      'cpuCores=0.5, taskHeapMemory=512m',
      '--json',
    );
    expect(JSON.parse(frag.out).fit.verdict).toBe('fragmentation');
    const pending = `${fixtures}flink-resource-profile/minimum-resources-acquired.txt`;
    const short = await cli('calc', 'flink-slots', '--taskmanagers', tms, '--pending', pending);
    expect(short.out).toMatch(/3 pending request\(s\)/);
    expect(short.out).toMatch(/verdict: lacks-resources/);
  });

  it('needs the TaskManagers', async () => {
    const { code, err } = await cli('calc', 'flink-slots', '--request', 'cpuCores=1');
    expect(code).toBe(2);
    expect(err).toMatch(/--taskmanagers FILE/);
  });
});
