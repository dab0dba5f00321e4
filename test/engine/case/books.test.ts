import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CaseLimits,
  readCase,
  renamed,
  reportCase,
  reportStoredCase,
  storedInput,
} from '../../../src/engine/case/index.ts';
import type { EngineHint } from '../../../src/engine/index.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../src/playbooks/load.ts';

// Real inputs: the sources are in test/fixtures/case/SOURCES.md.
const CASES = join(import.meta.dirname, '..', '..', 'fixtures', 'case');
const at = (...parts: string[]) => join(CASES, ...parts);
const HUDI = [at('hudi-9339', 'jobmanager.log'), at('hudi-9339', 'nodemanager.log')];
const JVM_A = ['gc-23908.log', 'nmt.txt', 'pmap.txt'].map((f) => at('jvm-threads-a', f));
const JVM_B = ['nmt.txt', 'gc-24551.log', 'pmap.txt'].map((f) => at('jvm-threads-b', f));
const playbooks = loadPlaybooks(PLAYBOOKS_DIR);
const LIMITS: CaseLimits = { maxInputs: 8, maxBytes: 64 * 1024 * 1024 };

function read(files: readonly string[], limits = LIMITS) {
  return readCase(
    files.map((file) => ({ source: file, chunks: createReadStream(file) })),
    limits,
  );
}

// The last column: whether the case names a problem (the thread-leak JVMs' captures do not).
const SETS: [string, string[], EngineHint | undefined, boolean][] = [
  ['the hudi JobManager and NodeManager logs', HUDI, undefined, true],
  ['the same with --engine flink', HUDI, 'flink', true],
  ['a GC log, NMT and pmap of one JVM', JVM_A, undefined, false],
  ['two JVMs that share no key', [...JVM_A, ...JVM_B], undefined, false],
  ['everything, with --engine spark', [...HUDI, ...JVM_A, ...JVM_B.slice(0, 1)], 'spark', true],
];

describe('diagnosing a case from stored fact books', () => {
  it.each(SETS)('gives what reading the text gives: %s', async (_name, files, engine, diagnosed) => {
    const text = await read(files);
    const fromText = reportCase(text, playbooks, engine);
    // Through JSON, as a store keeps it: the books and keys must carry everything the answer uses.
    const stored = JSON.parse(JSON.stringify(text.inputs.map(storedInput)));
    const fromBooks = reportStoredCase({ inputs: stored, leftOut: text.leftOut }, playbooks, engine);
    expect(fromBooks).toEqual(fromText);
    expect(fromText.groups.some((g) => g.diagnoses.length > 0)).toBe(diagnosed);
    expect(fromText.groups.flatMap((g) => g.processes).length).toBeGreaterThan(0);
  });

  it('keeps no line of the text beyond the facts it cites', async () => {
    const text = await read(JVM_A);
    const stored = text.inputs.map(storedInput);
    const pmap = text.inputs[2]?.lines ?? [];
    const json = JSON.stringify(stored[2]);
    // pmap.txt has hundreds of mapping lines; the stored input holds the few its facts cite.
    expect(pmap.length).toBeGreaterThan(300);
    const kept = pmap.filter((line) => line.length > 20 && json.includes(JSON.stringify(line).slice(1, -1)));
    expect(kept.length).toBeLessThan(10);
    expect(stored[2]).toMatchObject({ name: JVM_A[2], lines: pmap.length });
  });

  it('moves the keys only its own lines can join by when an input is renamed', () => {
    // yahoo/TensorFlowOnSpark#134 (test/engine/case/keys.test.ts): a bare executor id is scoped to its input.
    const line =
      '17/11/25 18:23:24 WARN TaskSetManager: Lost task 3.0 in stage 1.0 (TID 10, harrisburg.cs.colostate.edu, executor 9): ExecutorLostFailure (executor 9 exited caused by one of the running tasks)';
    const stored = storedInput({ name: 'x.log', lines: [line], stats: { bytes: line.length, lines: 1 } });
    const moved = renamed(stored, 'x.log (2)');
    expect(stored.keys.first.map((k) => k.id)).toContain('x.log#spark-executor 9');
    expect(moved.keys.first.map((k) => k.id)).toEqual([
      'spark-executor 9@harrisburg.cs.colostate.edu',
      'x.log (2)#spark-executor 9',
    ]);
    expect(moved.keys.links).toEqual([
      ['spark-executor 9@harrisburg.cs.colostate.edu', 'x.log (2)#spark-executor 9'],
    ]);
    expect(renamed(stored, 'x.log')).toBe(stored);
  });

  it('carries the inputs left out over the limits into the answer', async () => {
    const text = await read([...HUDI, JVM_B[0] as string], { maxInputs: 2, maxBytes: LIMITS.maxBytes });
    const report = reportStoredCase(
      { inputs: text.inputs.map(storedInput), leftOut: text.leftOut },
      playbooks,
    );
    expect(report.leftOut).toEqual([{ source: JVM_B[0], reason: 'a case holds at most 2 inputs' }]);
    expect(report.notes).toContain(`Left out ${JVM_B[0]}: a case holds at most 2 inputs.`);
  });
});
