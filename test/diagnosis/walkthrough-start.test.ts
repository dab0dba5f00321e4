import { describe, expect, it } from 'vitest';
import { walkthroughStart } from '../../src/diagnosis/index.ts';
import { FactBook } from '../../src/engine/facts.ts';
import type { Diagnosis } from '../../src/engine/index.ts';

function diagnosis(playbook: string, values: Record<string, unknown>): Diagnosis {
  return {
    playbook,
    title: playbook,
    confidence: 0.9,
    cause: null,
    evidence: [],
    facts: { values },
    actions: [],
  };
}

describe('FactBook.findings', () => {
  it('keeps each distinct fact once, without source lines, ordered by kind', () => {
    const book = new FactBook();
    book.add({ kind: 'oom.java-heap', line: 3, text: 'x' });
    book.add({ kind: 'oom.java-heap', line: 9, text: 'y' });
    book.add({ kind: 'config', values: { key: 'spark.driver.memory', value: '4g' }, line: 1, text: 'z' });
    expect(book.findings()).toEqual([
      { kind: 'config', values: { key: 'spark.driver.memory', value: '4g' } },
      { kind: 'oom.java-heap' },
    ]);
  });
});

describe('walkthroughStart', () => {
  const findings = [{ kind: 'oom.java-heap' }, { kind: 'config', values: { key: 'k', value: 'v' } }];
  const report = {
    source: 'paste',
    input: { bytes: 1, lines: 1 },
    diagnoses: [
      diagnosis('top', { 'config.spark.driver.memory': '4g', heapBytes: 123, nested: {} }),
      diagnosis('other', { otherValue: true }),
    ],
  };

  it('takes every fact, and the scalar values of the top diagnosis', () => {
    expect(walkthroughStart({ report, findings })).toEqual({
      facts: findings,
      values: { 'config.spark.driver.memory': '4g', heapBytes: '123' },
    });
  });

  it('takes the values of the diagnosis of the playbook asked for', () => {
    expect(walkthroughStart({ report, findings }, 'other').values).toEqual({ otherValue: 'true' });
  });

  it('has no values for a playbook the input was not diagnosed with, but keeps the facts', () => {
    expect(walkthroughStart({ report, findings }, 'unrelated')).toEqual({ facts: findings, values: {} });
  });

  it('copies the facts, so a walkthrough cannot change the result', () => {
    const start = walkthroughStart({ report, findings });
    (start.facts[1]?.values as Record<string, unknown>).value = 'changed';
    expect(findings[1]?.values?.value).toBe('v');
  });
});
