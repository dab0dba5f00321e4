import { describe, expect, it } from 'vitest';
import { isEmptyAnswer, parseText } from '../../../src/engine/parsers/parse-text.ts';
import { ParseFailedError } from '../../../src/errors.ts';

// Valid answers that hold nothing (issue 35, finding 13): Flink's MetricCollectionResponseBody with no
// metric (AbstractMetricsHandler: `[]` for a TaskManager its MetricStore holds nothing of), YARN's
// AppInfo `diagnostics: ""` (ResourceManagerRest.md's own sample). Each is said for what it means.
describe('an empty answer is said for what it means, not called the wrong output', () => {
  it.each([
    ['flink-tm-metrics', '[]', /^the answer is an empty list: Flink holds no metrics for that TaskManager/],
    ['flink-tm-metrics', '[ ]\n', /^the answer is an empty list/],
    [
      'yarn-container',
      '',
      /^the diagnostics are empty: YARN recorded no reason, so they name no container kill/,
    ],
    ['yarn-container', '  \n', /^the diagnostics are empty/],
  ])('%s on %j', (parser, text, meaning) => {
    let error: unknown;
    try {
      parseText(parser, text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ParseFailedError);
    expect((error as Error).message).toMatch(meaning);
    expect((error as Error).message).not.toMatch(/does not look like/);
  });

  it('leaves a parser without such a meaning to say the text does not look like its output', () => {
    expect(() => parseText('nmt', '')).toThrow(/does not look like/);
  });

  it('knows blank text and an empty JSON list, and nothing else, as empty', () => {
    expect(['', ' \n', '[]', '[ ]\n', '\n[\n]\n'].map(isEmptyAnswer)).toEqual([true, true, true, true, true]);
    expect(['[{}]', '{}', '[] x', 'null'].map(isEmptyAnswer)).toEqual([false, false, false, false]);
  });
});
