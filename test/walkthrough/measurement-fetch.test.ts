import { describe, expect, it } from 'vitest';
import { checkProcedure } from '../../src/walkthrough/lint.ts';
import { measurement } from '../../src/walkthrough/steps/measurement.ts';
import type { StepContext } from '../../src/walkthrough/steps/step-kind.ts';
import { rawProcedure, TEST_PARSERS } from './helpers.ts';

type RawStep = Record<string, unknown>;

/** The test procedure with its measurement step (heap-usage) given a fetch. */
function withFetch(fetch: Record<string, unknown>) {
  const raw = structuredClone(rawProcedure()) as { steps: RawStep[] };
  Object.assign(raw.steps[1] ?? {}, { fetch });
  return checkProcedure(raw, TEST_PARSERS);
}

const ctx: StepContext = { values: {}, facts: [], rounds: [], linesOf: () => [], linesWanted: () => false };
const FROM = {
  connector: 'glue',
  paths: ['GetJobRun JobName=j RunId=jr_1'],
  fetchedAt: '2026-12-03T11:00:00.000Z',
};

describe('a measurement step a connector can answer', () => {
  it('names the parsed value that is its number, or the procedure is refused', () => {
    const check = withFetch({ connector: 'glue', resources: ['heap-metrics'] });
    expect(check.ok ? 'valid' : check.message).toMatch(
      /a measurement's fetch names the parsed value that is its number, e\.g\. value: heapUsagePeak\n {2}→ at steps\[1\]\.fetch\.value/,
    );
    expect(withFetch({ connector: 'glue', resources: ['heap-metrics'], value: 'heapUsagePeak' }).ok).toBe(
      true,
    );
  });

  it('a second source (or:) names its value too', () => {
    const first = { connector: 'glue', resources: ['heap-metrics'], value: 'heapUsagePeak' };
    const check = withFetch({ ...first, or: { connector: 'spark', resources: ['environment'] } });
    expect(check.ok ? 'valid' : check.message).toMatch(/→ at steps\[1\]\.fetch\.or\.value/);
    const named = { connector: 'spark', resources: ['environment'], value: 'executorCores' };
    expect(withFetch({ ...first, or: named }).ok).toBe(true);
  });

  it('records a fetched number as fetched, and the transcript says from where and when', () => {
    const step = measurement.schema.parse({
      id: 'heap',
      kind: 'measurement',
      title: 'Peak heap',
      text: 'Read it.',
      unit: 'ratio',
      otherwise: 'next',
      fetch: { connector: 'glue', resources: ['heap-metrics'], value: 'heapUsagePeak' },
    });
    const effect = measurement.answer(step, { type: 'measure', value: 0.93, from: FROM }, ctx, () => {
      throw new Error('a measurement parses nothing');
    });
    if (!('outcome' in effect)) throw new Error('expected an outcome');
    expect(effect.outcome.answer).toEqual({ kind: 'measurement', value: 0.93, unit: 'ratio', fetched: FROM });
    expect(measurement.transcript?.(effect.outcome.answer)).toEqual([
      'Fetched from glue: GetJobRun JobName=j RunId=jr_1 at 2026-12-03T11:00:00.000Z',
    ]);
    const typed = measurement.answer(step, { type: 'measure', value: 0.5 }, ctx, () => {
      throw new Error('unused');
    });
    if ('outcome' in typed) expect(measurement.transcript?.(typed.outcome.answer)).toEqual([]);
  });
});
