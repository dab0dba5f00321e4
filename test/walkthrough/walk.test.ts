import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WalkthroughEvent } from '../../src/walkthrough/events.ts';
import { transition } from '../../src/walkthrough/machine.ts';
import { WalkthroughRecordSchema } from '../../src/walkthrough/record.ts';
import { walkProcedure } from '../../src/walkthrough/walk.ts';
import { AT, newRecord, parseKv, testProcedure } from './helpers.ts';

/** A heap-dump step's answer as a surface sends it: the analysis' facts (here one, by kind). */
function dumpWith(kind: string): WalkthroughEvent {
  return { type: 'heap-dump', source: 'java_pid1.hprof', summary: 'read', facts: [{ kind }] };
}

describe('walkProcedure', () => {
  it.each([
    [{ 'which-limit': 'heap', 'heap-usage': 90 }, 'grow-heap'],
    [{ 'which-limit': 'heap', 'heap-usage': 'skip' }, 'grow-heap'],
    [{ 'which-limit': 'heap', 'heap-usage': 10, 'find-leak': { culprit: 'write' } }, 'leak-found'],
    [{ 'which-limit': 'heap', 'heap-usage': 10, 'find-leak': { culprit: 'read' } }, 'leak-found'],
    [{ 'which-limit': 'container', restart: 'cant' }, 'give-up'],
    [{ 'which-limit': 'container', restart: 'done', samples: '# samples\ngrowth=1' }, 'no-leak'],
    [{ 'which-limit': 'container', restart: 'done', samples: 'skip', dump: 'skip' }, 'no-leak'],
    [
      { 'which-limit': 'container', restart: 'done', samples: 'skip', dump: dumpWith('heap-dump.peak') },
      'no-leak',
    ],
    [
      {
        'which-limit': 'container',
        restart: 'done',
        samples: 'skip',
        dump: dumpWith('heap-dump.leak'),
        'find-leak': { culprit: 'parse' },
      },
      'leak-found',
    ],
  ])('%o ends at %s', (answers, conclusion) => {
    expect(walkProcedure(testProcedure(), answers, { parse: parseKv }).conclusion).toBe(conclusion);
  });

  it('finds the culprit the table names, in at most ceil(log2 n) rounds', () => {
    for (const culprit of ['read', 'parse', 'enrich', 'aggregate', 'write']) {
      const walk = walkProcedure(testProcedure(), {
        'which-limit': 'heap',
        'heap-usage': 10,
        'find-leak': { culprit },
      });
      const answer = walk.record.path.at(-1)?.answer;
      expect(answer?.kind === 'bisection' && answer.found).toBe(culprit);
      expect(answer?.kind === 'bisection' && answer.rounds.length).toBeLessThanOrEqual(3);
    }
  });

  it('uses diagnosis facts to skip steps', () => {
    const walk = walkProcedure(testProcedure(), { 'heap-usage': 99 }, { facts: [{ kind: 'oom.java-heap' }] });
    expect(walk.steps).toEqual(['which-limit', 'heap-usage', 'grow-heap']);
  });

  it('says which step lacks an answer', () => {
    expect(() => walkProcedure(testProcedure(), { 'which-limit': 'container' })).toThrow(
      /no answer for step "restart"/,
    );
  });
});

const anyEvent: fc.Arbitrary<WalkthroughEvent> = fc.oneof(
  fc.constantFrom<WalkthroughEvent>(
    { type: 'done' },
    { type: 'skip' },
    { type: 'cant' },
    { type: 'back' },
    { type: 'abort' },
  ),
  fc.constantFrom('heap', 'container', 'disk').map((answer) => ({ type: 'choose' as const, answer })),
  fc.integer({ min: -10, max: 120 }).map((value) => ({ type: 'measure' as const, value })),
  fc.integer({ min: 0, max: 40 }).map((g) => ({ type: 'paste' as const, text: `# samples\ngrowth=${g}` })),
  fc.boolean().map((leak) => ({ type: 'bisect' as const, leak })),
  fc.constantFrom('heap-dump.leak', 'heap-dump.peak').map(dumpWith),
);

describe('any sequence of events', () => {
  it('keeps the record valid, bumps the version by one per accepted event, never throws', () => {
    fc.assert(
      fc.property(fc.array(anyEvent, { maxLength: 25 }), (events) => {
        let record = transition(newRecord(), { type: 'start' }, { actor: 'U1', at: AT });
        if (!record.ok) throw record.error;
        let current = record.record;
        for (const event of events) {
          const result = transition(current, event, { actor: 'U1', at: AT, parse: parseKv });
          if (!result.ok) continue;
          expect(result.record.version).toBe(current.version + 1);
          current = WalkthroughRecordSchema.parse(result.record);
        }
        record = { ok: true, record: current };
        expect(current.path.every((e) => current.procedure.steps.some((s) => s.id === e.step))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
