// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { holds } from '../../src/walkthrough/conditions.ts';
import { checkProcedure } from '../../src/walkthrough/lint.ts';
import type { Procedure } from '../../src/walkthrough/procedure-schema.ts';
import { viewOf } from '../../src/walkthrough/view.ts';
import { walkProcedure } from '../../src/walkthrough/walk.ts';
import { parseKv, TEST_PARSERS } from './helpers.ts';

/** Bisection over pasted lines, and a measurement known from a fact's value. */
function procedure(): Procedure {
  const check = checkProcedure(
    {
      start: 'limit',
      steps: [
        {
          id: 'limit',
          kind: 'measurement',
          title: 'Container limit',
          text: 'The container limit in MiB.',
          unit: 'MiB',
          prefill: [
            { value: 'no.such.value' },
            { fact: { fact: 'container.limit', where: { unit: 'MiB' } }, key: 'mib' },
          ],
          branches: [{ when: [{ op: 'lt', to: 1024 }], next: 'stages' }],
          otherwise: 'big',
        },
        {
          id: 'stages',
          kind: 'paste',
          title: 'Stage list',
          text: 'Paste the stages, one a line.',
          parser: 'test-kv',
          branches: [{ when: [{ value: 'mode', op: 'eq', to: 'stream' }], next: 'bisect' }],
          otherwise: 'big',
        },
        {
          id: 'bisect',
          kind: 'bisection',
          title: 'Bisect the stages',
          text: 'Run {{stages.mode}} jobs with some stages.',
          candidates: { from_step: 'stages' },
          symptom: 'it grows',
          found: 'culprit',
        },
        {
          id: 'culprit',
          kind: 'conclusion',
          title: '{{bisect}}',
          text: 'Found {{bisect}}.',
          fix: ['x'],
          verify: ['y'],
        },
        { id: 'big', kind: 'conclusion', title: 'Big', text: 'Big enough.', fix: ['x'], verify: ['y'] },
      ],
    },
    TEST_PARSERS,
  );
  if (!check.ok) throw new Error(check.message);
  return check.procedure;
}

describe('more step behaviour', () => {
  it('prefills a measurement from a fact value and bisects pasted lines', () => {
    const facts = [{ kind: 'container.limit', values: { unit: 'MiB', mib: 512 } }];
    const paste = '# samples\nmode=stream\nread=1\nparse=1\nwrite=1';
    const walk = walkProcedure(
      procedure(),
      { stages: paste, bisect: { culprit: 'parse=1' } },
      { facts, parse: parseKv },
    );
    expect(walk.conclusion).toBe('culprit');
    expect(walk.record.path[0]).toMatchObject({
      prefilled: true,
      because: 'known from container.limit (unit=MiB) mib',
    });
    expect(viewOf(walk.record)?.title).toBe('parse=1');
  });

  it('without the fact, asks for the number; the header line is a candidate too', () => {
    const answers = { limit: 100, stages: '# samples\nmode=stream', bisect: { culprit: '# samples' } };
    const walk = walkProcedure(procedure(), answers, { parse: parseKv });
    expect(walk.conclusion).toBe('culprit');
    expect(walk.record.path[0]).toMatchObject({ prefilled: false, answer: { value: 100 } });
    expect(walk.record.path.at(-1)?.answer).toEqual({
      kind: 'bisection',
      found: '# samples',
      rounds: [{ tested: ['# samples'], leak: true }],
    });
  });

  it('a value that does not match eq goes to otherwise', () => {
    expect(
      walkProcedure(procedure(), { limit: 100, stages: '# samples\nmode=batch' }, { parse: parseKv })
        .conclusion,
    ).toBe('big');
  });
});

describe('conditions', () => {
  it.each([
    [{ value: 'v', op: 'eq', to: 3 }, { v: '3' }, true],
    [{ value: 'v', op: 'neq', to: 'a' }, { v: 'b' }, true],
    [{ value: 'v', op: 'eq', to: true }, { v: true }, true],
    [{ value: 'v', op: 'lte', to: 3 }, { v: 3 }, true],
    [{ value: 'v', op: 'gt', to: 3 }, { v: 'many' }, false],
    [{ value: 'v', op: 'gte', to: 3 }, {}, false],
  ] as const)('%o on %o is %s', (condition, values, expected) => {
    expect(holds(condition, values)).toBe(expected);
  });
});
