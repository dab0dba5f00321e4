import { describe, expect, it } from 'vitest';
import { beamVersion } from '../../../src/engine/derive/beam-version.ts';
import { containerMemory } from '../../../src/engine/derive/container-memory.ts';
import { dataflowJob } from '../../../src/engine/derive/dataflow-job.ts';
import { flinkMemory } from '../../../src/engine/derive/flink-memory.ts';
import { flinkSlots } from '../../../src/engine/derive/flink-slots.ts';
import { glueWorker } from '../../../src/engine/derive/glue-worker.ts';
import { heapSize } from '../../../src/engine/derive/heap-size.ts';
import { jdk } from '../../../src/engine/derive/jdk.ts';
import { DERIVATIONS } from '../../../src/engine/derive/registry.ts';
import { resultSize } from '../../../src/engine/derive/result-size.ts';
import { numberValue, sizeSetting } from '../../../src/engine/derive/settings.ts';
import { yarnVmem } from '../../../src/engine/derive/yarn-vmem.ts';
import { GiB, MiB } from '../../../src/engine/units.ts';
import { bookOf } from './book.ts';

describe('flink-slots derivation', () => {
  // slot.request.timeout is in milliseconds; shown in whole seconds, rounded to the nearest.
  it.each([
    [300_000, '300 s'],
    [1500, '2 s'],
    [1499, '1 s'],
  ])('%d ms reads as %s', (timeoutMs, seconds) => {
    expect(flinkSlots(bookOf({}, ['flink.slot-timeout', { timeoutMs }]))).toEqual({
      'slots.timeout': seconds,
      'slots.timeout-ms': String(timeoutMs),
    });
  });

  it('falls back to the no-slots fact, and gives nothing without a timeout', () => {
    expect(flinkSlots(bookOf({}, ['flink.no-slots', { timeoutMs: 60_000 }]))['slots.timeout']).toBe('60 s');
    expect(flinkSlots(bookOf({}, ['flink.no-slots', { variant: 'no-resource' }]))).toEqual({});
  });
});

describe('jdk derivation', () => {
  it('passes the version through, only when it is text', () => {
    expect(jdk(bookOf({}, ['jdk.version', { version: '17.0.2' }]))).toEqual({ 'jdk.version': '17.0.2' });
    expect(jdk(bookOf({}, ['jdk.version', { version: 17 }]))).toEqual({});
    expect(jdk(bookOf({}))).toEqual({});
    const bare = bookOf({});
    bare.add({ kind: 'jdk.version', line: 1, text: 'java' });
    expect(jdk(bare)).toEqual({});
  });
});

describe('settings', () => {
  it('reads the first key that is set and parses, bare numbers in the default unit', () => {
    const book = bookOf({ a: 'many', b: '3g', c: '1024' });
    expect(sizeSetting(book, ['missing', 'a', 'b', 'c'])).toBe(3 * GiB);
    expect(sizeSetting(book, ['c'])).toBe(GiB);
    expect(sizeSetting(book, ['c'], 'k')).toBe(MiB);
    expect(sizeSetting(book, ['a', 'missing'])).toBeUndefined();
    // A value that is not text is not a size setting.
    const numeric = bookOf({});
    numeric.add({ kind: 'config', values: { key: 'n', value: 4 }, line: 1, text: 'n=4' });
    expect(sizeSetting(numeric, ['n'])).toBeUndefined();
  });

  it('reads a number from the first fact of a kind, never a string', () => {
    const book = bookOf({}, ['k', { n: 5, s: '6' }], ['k', { n: 7 }]);
    expect(numberValue(book, 'k', 'n')).toBe(5);
    expect(numberValue(book, 'k', 's')).toBeUndefined();
    expect(numberValue(book, 'other', 'n')).toBeUndefined();
    book.add({ kind: 'bare', line: 9, text: 'no values' });
    expect(numberValue(book, 'bare', 'n')).toBeUndefined();
  });
});

describe('derivation registry', () => {
  it('names each derivation a playbook can ask for', () => {
    expect(DERIVATIONS).toEqual({
      'container-memory': containerMemory,
      'result-size': resultSize,
      'heap-size': heapSize,
      'flink-slots': flinkSlots,
      'glue-worker': glueWorker,
      jdk,
      'flink-memory': flinkMemory,
      'beam-version': beamVersion,
      'dataflow-job': dataflowJob,
      'yarn-vmem': yarnVmem,
    });
  });
});

describe('dataflow-job', () => {
  it('gives the job id the launcher logged, and nothing without one', () => {
    const jobId = '2024-04-27_14_34_41-15368285970572376633';
    expect(dataflowJob(bookOf({}, ['dataflow.job', { jobId }]))).toEqual({
      'dataflow.job-id': jobId,
    });
    expect(dataflowJob(bookOf({}, ['platform.dataflow', undefined]))).toEqual({});
  });
});
