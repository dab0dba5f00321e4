import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCase, reportCase } from '../../../src/engine/case/index.ts';
import { joinInputs } from '../../../src/engine/case/join.ts';
import { storedInput } from '../../../src/engine/case/stored.ts';
import { apartInTime, timeOfLine } from '../../../src/engine/case/time.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../src/playbooks/load.ts';

// Real files (their SOURCES.md): each format of time the tools print.
const ROOT = join(import.meta.dirname, '..', '..', '..');
const lines = (...parts: string[]) => readFileSync(join(ROOT, ...parts), 'utf8').split('\n');
/** The span of times the lines name, as a case keeps it of an input. */
const timeSpanOf = (lines: string[]) =>
  storedInput({ name: 'input', lines, stats: { bytes: 0, lines: 0 } }).time;
const GC_DEC_7 = ['test', 'fixtures', 'case', 'jvm-heap-oom', 'gc-21442.log'];
const GC_DEC_3 = ['test', 'fixtures', 'case', 'jvm-threads-a', 'gc-23908.log'];

describe('the times an input prints', () => {
  it('reads JDK unified logging, log4j, Spark, kubectl describe and a pod’s finishedAt', () => {
    expect(timeOfLine(lines(...GC_DEC_7)[0] as string)).toEqual({
      at: Date.parse('2026-12-07T14:30:37.740Z'),
      zoned: true,
    });
    const hudi = lines('test', 'fixtures', 'case', 'hudi-9339', 'jobmanager.log').find((l) =>
      l.startsWith('[2023'),
    );
    expect(timeOfLine(hudi as string)).toEqual({ at: Date.parse('2023-08-01T18:17:56.141Z'), zoned: false });
    const spark = lines('playbooks', 'jvm-oom', 'fixtures', 'spark-heap.log')[0] as string;
    expect(timeOfLine(spark)).toEqual({ at: Date.parse('2020-01-01T00:00:00Z'), zoned: false });
    const describe = lines(
      'test',
      'engine',
      'parsers',
      'fixtures',
      'k8s-pod',
      'ibm-cloud-metrics-server-oomkilled.txt',
    );
    expect(timeOfLine(describe.find((l) => l.includes('Finished:')) as string)?.at).toBe(
      Date.parse('2021-09-10T17:31:37Z'),
    );
    const pod = lines('test', 'engine', 'parsers', 'fixtures', 'k8s-pod', 'aiops-memhog-get-pod-yaml.txt');
    expect(timeOfLine(pod.find((l) => l.includes('finishedAt')) as string)?.at).toBe(
      Date.parse('2026-04-22T02:50:04Z'),
    );
  });

  it('gives no span for output that prints no time (pmap, NMT)', () => {
    expect(timeSpanOf(lines('test', 'fixtures', 'case', 'jvm-heap-oom', 'pmap.txt'))).toBeUndefined();
    expect(timeSpanOf(lines('test', 'fixtures', 'case', 'jvm-heap-oom', 'nmt.txt'))).toBeUndefined();
  });
});

describe('inputs lined up by time', () => {
  const dec7 = { name: 'gc-21442.log', time: timeSpanOf(lines(...GC_DEC_7)) };
  const dec3 = { name: 'gc-23908.log', time: timeSpanOf(lines(...GC_DEC_3)) };
  const untimed = { name: 'pmap.txt' };

  it('keeps an input of another day apart, saying when it was written and how far off', () => {
    const { apart, notes } = apartInTime([dec7, untimed, dec3]);
    expect(apart).toEqual([['gc-23908.log']]);
    expect(notes[0]).toMatch(
      /^gc-23908\.log was written 2026-12-03 12:42 UTC, 4 days before the incident's window \(2026-12-07 14:30 UTC in gc-21442\.log\): another run/,
    );
  });

  it('keeps the first input given when two runs hold as many inputs each', () => {
    expect(apartInTime([dec3, dec7]).apart).toEqual([['gc-21442.log']]);
  });

  it('keeps inputs of one run together, and untimed inputs with them', () => {
    expect(apartInTime([dec7, untimed, { name: 'again.log', time: dec7.time }])).toEqual({
      apart: [],
      notes: [],
    });
  });

  it('gives a time without a zone 14 hours of slack: a local-time log beside a UTC one is not another run', () => {
    const utc = {
      name: 'gc.log',
      time: { first: '2026-12-07T01:00:00.000Z', last: '2026-12-07T02:00:00.000Z', zoned: true },
    };
    const local = {
      name: 'nm.log',
      time: { first: '2026-12-07T14:00:00.000Z', last: '2026-12-07T15:00:00.000Z', zoned: false },
    };
    expect(apartInTime([utc, local]).apart).toEqual([]);
    expect(apartInTime([utc, { ...local, time: { ...local.time, zoned: true } }]).apart).toEqual([
      ['nm.log'],
    ]);
  });
});

describe('a case with an input of the same pid from another day', () => {
  // jvm-threads-a was captured on 2026-12-03 as pid 23908; jvm-threads-again is another JVM given
  // pid 23908 on 2026-12-07 (scripts/capture/case/same-pid.sh): the same key, another run.
  const A = ['gc-23908.log', 'nmt.txt', 'pmap.txt'].map((f) =>
    join(ROOT, 'test', 'fixtures', 'case', 'jvm-threads-a', f),
  );
  const AGAIN = join(ROOT, 'test', 'fixtures', 'case', 'jvm-threads-again', 'gc-23908.log');
  const files = [...A, AGAIN];

  it('would join by the pid alone', () => {
    const inputs = files.map((file) => ({ name: file, lines: readFileSync(file, 'utf8').split('\n') }));
    expect(joinInputs(inputs)).toHaveLength(1);
  });

  it('keeps it apart, saying when it was written, and not that it shares no key', async () => {
    const read = await readCase(
      files.map((file) => ({ source: file, chunks: createReadStream(file) })),
      { maxInputs: 8, maxBytes: 1 << 26 },
    );
    const report = reportCase(read, loadPlaybooks(PLAYBOOKS_DIR));
    expect(report.groups.map((g) => g.inputs)).toEqual([A, [AGAIN]]);
    expect(report.timeApart).toEqual([AGAIN]);
    expect(report.notes).toHaveLength(1);
    expect(report.notes[0]).toContain(
      `${AGAIN} was written 2026-12-07 15:10 UTC, 4 days after the incident's window`,
    );
  });
});
