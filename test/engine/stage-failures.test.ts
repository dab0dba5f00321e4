import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXTRACTORS } from '../../src/engine/extractors/registry.ts';
import type { Extractor } from '../../src/engine/extractors/types.ts';
import { diagnoseText } from '../../src/engine/index.ts';
import { loadPlaybooks } from '../../src/playbooks/load.ts';
import { throwingExtractor } from './failing-extractor.ts';

const PLAYBOOKS = loadPlaybooks();
const LOG = [
  'Running Spark version 3.5.1',
  '--conf spark.executor.memory=4g',
  'java.lang.OutOfMemoryError: Java heap space',
  'java.lang.OutOfMemoryError: Java heap space',
].join('\n');

const broken = throwingExtractor(
  'broken',
  'outofmemoryerror',
  new TypeError('cannot read properties of undefined'),
);

/** One that finds something, then throws half-way through the same line. */
const halfBroken: Extractor = {
  id: 'half-broken',
  description: 'finds one fact, then throws',
  triggers: ['spark version'],
  extract: () => {
    const found = [{ kind: 'test.found-before-throwing' }];
    return new Proxy(found, {
      get(target, key, receiver) {
        if (key === Symbol.iterator)
          return function* () {
            yield* target;
            throw new Error('half-way');
          };
        return Reflect.get(target, key, receiver);
      },
    });
  },
};

describe('a failing extractor', () => {
  it('never stops the diagnosis: the report is what it is without it, and the failure is reported', async () => {
    const registered = Object.values(EXTRACTORS);
    const plain = await diagnoseText('paste', LOG, PLAYBOOKS);
    const withBroken = await diagnoseText('paste', LOG, PLAYBOOKS, { extractors: [broken, ...registered] });
    expect(withBroken.report).toEqual(plain.report);
    expect(plain.failures).toEqual([]);
    expect(withBroken.failures).toEqual([
      {
        stage: 'extractor',
        id: 'broken',
        message: 'cannot read properties of undefined',
        line: 3,
        count: 2,
      },
    ]);
  });

  it('keeps what it found on a line before it threw', async () => {
    const result = await diagnoseText('paste', LOG, PLAYBOOKS, { extractors: [halfBroken] });
    expect(result.findings).toEqual([{ kind: 'test.found-before-throwing' }]);
    expect(result.failures).toMatchObject([{ id: 'half-broken', message: 'half-way', line: 1, count: 1 }]);
  });

  it('reports failures in registry order, whichever failed first', async () => {
    const result = await diagnoseText('paste', LOG, PLAYBOOKS, { extractors: [broken, halfBroken] });
    expect(result.failures.map((f) => f.id)).toEqual(['broken', 'half-broken']);
  });
});

describe('a dump a parser cannot use', () => {
  it('is reported as a parser failure, and the extractors still read every line', async () => {
    // An NMT summary cut after its header: the NMT parser recognises it, then refuses it.
    const header = readFileSync(
      new URL('parsers/fixtures/nmt/truncated-header-only.txt', import.meta.url),
      'utf8',
    );
    const result = await diagnoseText(
      'nmt.txt',
      `${header}java.lang.OutOfMemoryError: Java heap space\n`,
      PLAYBOOKS,
    );
    expect(result.findings).toContainEqual({ kind: 'oom.java-heap' });
    expect(result.failures).toEqual([
      { stage: 'parser', message: expect.stringMatching(/could not parse: expected/), count: 1 },
    ]);
  });
});
