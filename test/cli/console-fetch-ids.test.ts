import { describe, expect, it } from 'vitest';
import { typedIds } from '../../src/cli/console/fetch.ts';

describe('the console reads `fetch <ids>`', () => {
  it.each([
    [['jobName', 'runId'], ['nightly', 'jr_1'], { jobName: 'nightly', runId: 'jr_1' }],
    [
      ['jobName', 'runId'],
      ['Combine', 'legistators', 'data', 'jr_1'],
      { jobName: 'Combine legistators data', runId: 'jr_1' },
    ],
    [['jobName', 'runId'], ['nightly'], { jobName: 'nightly' }],
    [['jobId'], [], {}],
  ])('%j from %j', (missing, words, ids) => {
    expect(typedIds(missing, words)).toEqual(ids);
  });
});
