import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { parseReports, type Report } from './contract.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const OVERHEAD = [
  '24/03/01 10:00:00 INFO SparkContext: Running Spark version 3.5.0',
  '24/03/01 10:00:01 INFO YarnClientSchedulerBackend: Application application_1700000000000_0042 has started running.',
  '24/03/01 10:05:00 WARN YarnSchedulerBackend$YarnSchedulerEndpoint: Container killed by YARN for exceeding memory limits. 11.0 GB of 11 GB physical memory used. Consider boosting spark.executor.memoryOverhead.',
  '24/03/01 10:05:00 ERROR YarnScheduler: Lost executor 7 on ip-10-0-1-12.ec2.internal: Container killed by YARN for exceeding memory limits. 11.0 GB of 11 GB physical memory used. Consider boosting spark.executor.memoryOverhead.',
  '24/03/01 10:05:01 INFO DAGScheduler: Resubmitted ShuffleMapTask(3, 17), so marking it as still running.',
].join('\n');

const HEAP = [
  '24/03/01 11:00:00 INFO SparkContext: Running Spark version 3.4.1',
  '24/03/01 11:20:00 WARN TaskSetManager: Lost task 3.0 in stage 4.0 (TID 212) (10.0.0.5 executor 2): java.lang.OutOfMemoryError: Java heap space',
  '\tat java.util.Arrays.copyOf(Arrays.java:3236)',
  '\tat org.apache.spark.sql.catalyst.expressions.UnsafeRow.copy(UnsafeRow.java:470)',
].join('\r\n');

const UNRELATED = 'INFO starting the nightly export\nWARN disk /data is 81% full\nINFO done in 42 s\n';

let dir = '';
const path = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'memdoctor-cli-'));
  writeFileSync(path('overhead.log'), `${OVERHEAD}\n`);
  writeFileSync(path('heap.log.gz'), gzipSync(`${HEAP}\r\n`));
  writeFileSync(path('unrelated.log'), UNRELATED);
  writeFileSync(path('image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
  writeFileSync(path('damaged.log.gz'), gzipSync(OVERHEAD.repeat(20)).subarray(0, 60));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI in-process with captured output and the given stdin. */
async function run(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdin: Readable.from([Buffer.from(stdin)]),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

/** The input lines of a text as the contract numbers them (1-based, CRLF stripped). */
function inputLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/** The value, or a failed test when it is missing. */
function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}

/** Every evidence line must be that very line of the input, trimmed. */
function expectHonestEvidence(report: Report, text: string): void {
  const lines = inputLines(text);
  for (const diagnosis of report.diagnoses) {
    for (const { line, text: cited } of diagnosis.evidence) expect(cited).toBe(lines[line - 1]?.trim());
  }
}

describe('memdoctor diagnose --json', () => {
  it('diagnoses files, a .gz and stdin, one JSON line each, in input order', async () => {
    const { code, stdout, stderr } = await run(
      ['diagnose', '--json', path('overhead.log'), path('heap.log.gz'), '-', path('unrelated.log')],
      OVERHEAD,
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const reports = parseReports(stdout);
    expect(reports.map((r) => r.source)).toEqual([
      path('overhead.log'),
      path('heap.log.gz'),
      '-',
      path('unrelated.log'),
    ]);

    const [file, gz, stdin, unrelated] = reports;
    expect(file?.input).toEqual({ bytes: Buffer.byteLength(OVERHEAD) + 1, lines: 5 });
    expect(file?.diagnoses[0]?.playbook).toBe('spark-executor-overhead-killed');
    expect(file?.diagnoses[0]?.evidence.map((e) => e.line)).toEqual(expect.arrayContaining([3, 4]));
    expectHonestEvidence(must(file), OVERHEAD);

    // Line numbers and bytes are those of the text after gunzip.
    expect(gz?.input).toEqual({ bytes: Buffer.byteLength(HEAP) + 2, lines: 4 });
    expect(gz?.diagnoses[0]?.playbook).toBe('spark-heap-oom');
    expect(gz?.diagnoses[0]?.evidence.map((e) => e.line)).toContain(2);
    expectHonestEvidence(must(gz), HEAP);

    expect(stdin?.diagnoses).toEqual(file?.diagnoses);
    expect(unrelated?.diagnoses).toEqual([]);
    expect(unrelated?.input).toEqual({ bytes: Buffer.byteLength(UNRELATED), lines: 3 });
  });

  it('ranks diagnoses best first', async () => {
    const { stdout } = await run(['diagnose', '--json', path('overhead.log'), path('heap.log.gz')]);
    for (const report of parseReports(stdout)) {
      const confidences = report.diagnoses.map((d) => d.confidence);
      expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
    }
  });

  it('exits 2 with one line per bad input and still diagnoses the good ones in order', async () => {
    const missing = path('no-such.log');
    const { code, stdout, stderr } = await run([
      'diagnose',
      '--json',
      missing,
      path('overhead.log'),
      path('image.png'),
      path('damaged.log.gz'),
      path('unrelated.log'),
    ]);
    expect(code).toBe(2);
    expect(parseReports(stdout).map((r) => r.source)).toEqual([path('overhead.log'), path('unrelated.log')]);
    const errors = stderr.trimEnd().split('\n');
    expect(errors).toHaveLength(3);
    expect(errors[0]).toContain(missing);
    expect(errors[0]).toMatch(/no such file/);
    expect(errors[1]).toMatch(/image\.png: this is not a text log \(a PNG image\)/);
    expect(errors[2]).toMatch(/damaged\.log\.gz: cannot read it: the gzip data is damaged/);
  });

  it('gives byte-identical output for the same input', async () => {
    const args = ['diagnose', '--json', path('overhead.log'), path('heap.log.gz'), path('unrelated.log')];
    const first = await run(args);
    const second = await run(args);
    expect(first.stdout.length).toBeGreaterThan(100);
    expect(second.stdout).toBe(first.stdout);
  });

  it('refuses an unknown --engine with a usage error', async () => {
    const { code, stderr } = await run(['diagnose', '--engine', 'hadoop', path('overhead.log')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--engine must be one of glue, spark, flink, beam/);
  });

  it('reads stdin when no file is given, as grep does', async () => {
    const { code, stdout } = await run(
      ['diagnose', '--json'],
      'java.lang.OutOfMemoryError: Java heap space\n',
    );
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.source).toBe('-');
    expect(report.diagnoses[0].playbook).toBe('jvm-oom');
  });
});

describe('memdoctor diagnose (human output)', () => {
  it('shows the top diagnosis with its evidence line numbers', async () => {
    const { code, stdout } = await run(['diagnose', path('overhead.log')]);
    expect(code).toBe(0);
    expect(stdout).toContain('spark-executor-overhead-killed');
    expect(stdout).toMatch(/line 3: .*Container killed by YARN/);
  });

  it('says plainly when nothing was recognised and what was looked for', async () => {
    const { stdout } = await run(['diagnose', path('unrelated.log')]);
    expect(stdout).toContain('No known memory problem recognised.');
    expect(stdout).toContain('spark-heap-oom');
  });
});

describe('memdoctor as a process', () => {
  it('reads stdin, reports a missing file on stderr and exits 2', () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/memdoctor.ts', 'diagnose', '--json', '-', path('missing.log')],
      { cwd: ROOT, input: OVERHEAD, encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.status).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('missing.log');
    const [report] = parseReports(result.stdout);
    expect(report?.source).toBe('-');
    expect(report?.diagnoses[0]?.playbook).toBe('spark-executor-overhead-killed');
  });
});
