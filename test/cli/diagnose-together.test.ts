import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './in-process.ts';

const CASES = join(import.meta.dirname, '..', 'fixtures', 'case');
const at = (...parts: string[]) => join(CASES, ...parts);
const HUDI = [at('hudi-9339', 'jobmanager.log'), at('hudi-9339', 'nodemanager.log')];
const JVM_A = ['gc-23908.log', 'nmt.txt', 'pmap.txt'].map((f) => at('jvm-threads-a', f));
const JVM_B = ['nmt.txt', 'gc-24551.log'].map((f) => at('jvm-threads-b', f));

interface Report {
  groups: {
    inputs: string[];
    joinedBy: string[];
    processes: string[];
    diagnoses: { playbook: string; evidence: { input: string; line: number; text: string }[] }[];
  }[];
  leftOut: { source: string; reason: string }[];
  notes: string[];
}

async function together(...args: string[]): Promise<Report> {
  const { code, out, err } = await cli(['diagnose', '--json', '--together', ...args]);
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out) as Report;
}

describe('diagnose --together', () => {
  it('joins a JobManager log and a NodeManager log by the container they both name, citing input:line', async () => {
    const report = await together(...HUDI);
    expect(report.groups).toHaveLength(1);
    const [group] = report.groups;
    expect(group?.joinedBy).toContain(
      `yarn-container container_e07_1669378398064_0904_01_000002 (${HUDI[0]}:1, ${HUDI[1]}:1)`,
    );
    expect(group?.processes.join('\n')).toContain(
      'pid 8296 = yarn-container container_e07_1669378398064_0904_01_000002',
    );
    const cited = new Set(group?.diagnoses[0]?.evidence.map((e) => `${e.input}:${e.line}`));
    expect(cited).toEqual(new Set([`${HUDI[0]}:2`, `${HUDI[1]}:1`]));
  });

  it('reads a GC log, NMT and pmap of one JVM as one process, and keeps another JVM apart', async () => {
    const report = await together(...JVM_A, ...JVM_B);
    expect(report.groups.map((g) => g.inputs)).toEqual([JVM_A, JVM_B]);
    expect(report.groups[0]?.processes).toEqual([`pid 23908 (${JVM_A[0]}, ${JVM_A[1]}:1, ${JVM_A[2]}:1)`]);
    expect(report.notes[0]).toMatch(
      /share no container, application, executor, TaskManager, pod or process id/,
    );
  });

  it('does not combine two unrelated logs', async () => {
    const report = await together(HUDI[0] as string, JVM_B[0] as string);
    expect(report.groups.map((g) => g.inputs)).toEqual([[HUDI[0]], [JVM_B[0]]]);
    expect(report.groups[1]?.diagnoses).toEqual([]);
  });

  it('leaves out inputs past --max-inputs and --max-bytes, and says which', async () => {
    const byCount = await together('--max-inputs', '2', ...JVM_A);
    expect(byCount.leftOut).toEqual([{ source: JVM_A[2], reason: 'a case holds at most 2 inputs' }]);
    expect(byCount.notes).toContain(`Left out ${JVM_A[2]}: a case holds at most 2 inputs.`);
    const byBytes = await together('--max-bytes', '10000', ...JVM_A);
    expect(byBytes.leftOut.map((l) => l.source)).toEqual([JVM_A[2]]);
    expect(byBytes.leftOut[0]?.reason).toMatch(/limit of 10000 bytes/);
  });

  it('refuses a limit that is no whole number above 0, naming the flag', async () => {
    const { code, err } = await cli(['diagnose', '--together', '--max-inputs', '0', ...HUDI]);
    expect(code).not.toBe(0);
    expect(err).toMatch(/--max-inputs must be at least 1/);
  });

  const singles = readdirSync(CASES, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.md'))
    .map((entry) => join(entry.parentPath, entry.name));
  it.each(singles)("one input with --together is today's --json, byte for byte: %s", async (file) => {
    const today = await cli(['diagnose', '--json', file]);
    const withFlag = await cli(['diagnose', '--json', '--together', file]);
    expect(withFlag).toEqual(today);
  });
});
