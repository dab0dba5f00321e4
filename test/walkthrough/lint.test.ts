import { describe, expect, it } from 'vitest';
import { checkProcedure } from '../../src/walkthrough/lint.ts';
import { rawProcedure, TEST_PARSERS } from './helpers.ts';

type RawStep = Record<string, unknown>;

/** The test procedure with one change applied to its raw form. */
function mutated(change: (raw: { start: string; steps: RawStep[] }) => void) {
  const raw = structuredClone(rawProcedure()) as { start: string; steps: RawStep[] };
  change(raw);
  return checkProcedure(raw, TEST_PARSERS);
}

const message = (check: ReturnType<typeof checkProcedure>) => (check.ok ? 'valid' : check.message);

describe('checkProcedure', () => {
  it('accepts the test procedure', () => {
    expect(checkProcedure(rawProcedure(), TEST_PARSERS).ok).toBe(true);
  });

  it('names the field of a schema error', () => {
    const check = mutated((raw) => {
      raw.steps[0] = { ...raw.steps[0], kind: 'riddle' };
    });
    expect(message(check)).toMatch(/steps\[0\]/);
  });

  it.each([
    [
      'a duplicate step id',
      (r: { steps: RawStep[] }) => Object.assign(r.steps[6] ?? {}, { id: 'grow-heap' }),
      /step id "grow-heap" is used twice\n {2}→ at steps\[6\]\.id/,
    ],
    [
      'a missing target',
      (r: { steps: RawStep[] }) => Object.assign(r.steps[2] ?? {}, { next: 'nowhere' }),
      /no step "nowhere"\n {2}→ at steps\[2\]\.next/,
    ],
    [
      'a missing start',
      (r: { start: string }) => Object.assign(r, { start: 'begin' }),
      /no step "begin".*\n {2}→ at start/,
    ],
    [
      'an unknown parser',
      (r: { steps: RawStep[] }) => Object.assign(r.steps[3] ?? {}, { parser: 'pmap' }),
      /unknown parser "pmap" \(known: test-kv\)\n {2}→ at steps\[3\]\.parser/,
    ],
    [
      'a prefill naming no answer',
      (r: { steps: RawStep[] }) =>
        Object.assign(r.steps[0] ?? {}, { prefill: [{ fact: 'oom.java-heap', answer: 'disk' }] }),
      /"disk" is not one of this question's answers/,
    ],
    [
      'an unreachable step',
      (r: { steps: RawStep[] }) => Object.assign(r.steps[2] ?? {}, { on_cant: undefined }),
      /"give-up" cannot be reached/,
    ],
    [
      'a loop',
      (r: { steps: RawStep[] }) => Object.assign(r.steps[4] ?? {}, { found: 'heap-usage' }),
      /loop \(heap-usage → find-leak → heap-usage\)/,
    ],
    [
      'a step leading to itself',
      (r: { steps: RawStep[] }) => Object.assign(r.steps[2] ?? {}, { next: 'restart' }),
      /cannot lead to itself/,
    ],
    [
      'bisection candidates from a non-paste step',
      (r: { steps: RawStep[] }) => Object.assign(r.steps[4] ?? {}, { candidates: { from_step: 'restart' } }),
      /"restart" must be a paste step/,
    ],
    [
      'a heap-dump branch on a value a dump does not give',
      (r: { steps: RawStep[] }) =>
        Object.assign(r.steps.find((s) => s.kind === 'heap-dump') ?? {}, {
          branches: [{ when: [{ value: 'leakShare', op: 'gt', to: 0.5 }], next: 'find-leak' }],
        }),
      /a heap dump gives no "leakShare" \(it gives: leak, peak, holder, classLoaderLeak, suspect, topShare, oom, cutShort\)\n {2}→ at steps\[9\]\.branches\[0\]\.when\[0\]\.value/,
    ],
  ])('reports %s', (_name, change, expected) => {
    expect(message(mutated(change as (raw: { start: string; steps: RawStep[] }) => void))).toMatch(expected);
  });
});
