import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportCase } from '../../../src/engine/case/case-report.ts';
import { diagnoseBookGroup } from '../../../src/engine/case/diagnose-case.ts';
import { refineDiagnoses } from '../../../src/engine/case/refine/refine.ts';
import { REFINEMENTS } from '../../../src/engine/case/refine/rules.ts';
import { storedInput } from '../../../src/engine/case/stored.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../src/playbooks/load.ts';

/*
 * One JVM captured here (test/fixtures/case/jvm-native-leak, SOURCES.md): pid 16253 leaking 4 MiB/s
 * natively under a 192 MiB memory cgroup until the kernel killed it, sampled with ps. Nothing in it
 * names an engine (no Flink runs here), so the person says it, as `diagnose --engine flink --together`.
 */
const DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'case', 'jvm-native-leak');
const playbooks = loadPlaybooks(PLAYBOOKS_DIR);

function read(name: string) {
  const text = readFileSync(join(DIR, name), 'utf8');
  return { name, lines: text.split('\n'), stats: { bytes: Buffer.byteLength(text), lines: 0 } };
}

function flinkCase(...names: string[]) {
  return reportCase({ inputs: names.map(read), leftOut: [] }, playbooks, 'flink');
}

const killOf = (report: ReturnType<typeof flinkCase>) =>
  report.groups[0]?.diagnoses.find((d) => d.playbook === 'flink-container-oom-killed');

describe('ps samples that name their pid join the JVM the kernel killed', () => {
  it('the kill and `ps -o pid,etimes,rss`: a steady climb at 3.97 MB/s up to the cgroup limit, from the ps input', () => {
    const report = flinkCase('dmesg.txt', 'ps-o.txt');
    expect(report.groups.map((g) => g.inputs)).toEqual([['dmesg.txt', 'ps-o.txt']]);
    const kill = killOf(report);
    expect(kill?.cause).toBe('steady-growth');
    expect(kill?.refinedBy).toMatchObject({
      rule: 'samples-growth',
      evidence: { input: 'ps-o.txt', line: 2 },
    });
    // The limit is the kernel's for the cgroup (dmesg.txt: "memory: usage 196608kB, limit 196608kB").
    expect(kill?.refinedBy?.because).toContain(
      'climb at 3.97 MB/s without levelling off; they ran up to the 192 MB limit (the last, 209 MB, is at or past it',
    );
    expect(kill?.evidence[0]?.input).toBe('ps-o.txt');
  });

  it.each([
    ['ps u (the ps aux columns), untimed', 'ps-u.txt', 'climb at'],
    ['a ps -o rss= loop in a file named ps-16253.txt', 'ps-16253.txt', 'climb at 3.96 MB/s'],
  ])('%s joins and refines too', (_what, name, because) => {
    const kill = killOf(flinkCase('dmesg.txt', name));
    expect(kill?.refinedBy).toMatchObject({ rule: 'samples-growth', evidence: { input: name } });
    expect(kill?.refinedBy?.because).toContain(because);
  });

  it("adding NMT's diff of the same pid makes the native leak the cause, cited from it", () => {
    const kill = killOf(flinkCase('dmesg.txt', 'ps-o.txt', 'nmt-diff.txt', 'pmap.txt'));
    expect(kill?.cause).toBe('native-leak');
    expect(kill?.refinedBy).toMatchObject({ rule: 'nmt-native-growth', evidence: { input: 'nmt-diff.txt' } });
    expect(kill?.refinedBy?.because).toContain("NMT's Other area grew by 60 MB");
  });

  it('a series that names no pid stays apart, and the answer says why and how to sample', () => {
    const report = flinkCase('dmesg.txt', 'ps-o.txt', 'ps-bare.txt');
    expect(report.groups.map((g) => g.inputs)).toEqual([['dmesg.txt', 'ps-o.txt'], ['ps-bare.txt']]);
    const note = report.notes.find((n) =>
      n.startsWith('ps-bare.txt holds memory samples that name no process'),
    );
    expect(note).toContain('ps -o pid,etimes,rss -p <pid>');
    // With the pid in its name, the same loop joins and no such note is given.
    expect(flinkCase('dmesg.txt', 'ps-16253.txt').notes).toEqual([]);
  });
});

describe("a growth that names its pid refines only that pid's process", () => {
  const inputs = ['dmesg.txt', 'ps-o.txt'].map((name) => {
    const { lines } = read(name);
    return {
      name,
      lines: lines.length,
      book: storedInput({ name, lines, stats: { bytes: 0, lines: 0 } }).book,
    };
  });
  const joinedBy = (pid: string) => ({
    processes: [
      [
        {
          key: { family: 'pid' as const, value: pid },
          cites: inputs.map((i) => ({ input: i.name, line: 1 })),
        },
      ],
    ],
  });
  const refined = (pid: string) =>
    refineDiagnoses(diagnoseBookGroup(inputs, playbooks, 'flink'), inputs, joinedBy(pid), REFINEMENTS).find(
      (d) => d.playbook === 'flink-container-oom-killed',
    );

  it('joined by pid 16253, the series of pid 16253 refines the kill', () => {
    expect(refined('16253')?.refinedBy?.rule).toBe('samples-growth');
  });

  it('joined by another pid (ps aux names every process), the series of pid 16253 does not', () => {
    expect(refined('16257')?.refinedBy).toBeUndefined();
  });
});
