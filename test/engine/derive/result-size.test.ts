import { describe, expect, it } from 'vitest';
import { resultSize } from '../../../src/engine/derive/result-size.ts';
import { GiB } from '../../../src/engine/units.ts';
import { bookOf } from './book.ts';

const fact = (values: Record<string, number>) => ['spark.max-result-size', values] as [string, typeof values];

describe('result-size derivation', () => {
  // 1.5 GiB of results from 120 tasks against a 1 GiB limit: 1.5 GiB / 120 = 12.8 MiB per task;
  // limit = roundUp(1.5 x 1.5 GiB = 2.25 GiB, 1 GiB) = 3g; driver = roundUp(3 x 1.5 GiB = 4.5 GiB) = 5g.
  it('gives the per-task size and a limit with 50% headroom', () => {
    const book = bookOf({}, fact({ resultBytes: 1.5 * GiB, limitBytes: GiB, tasks: 120 }));
    expect(resultSize(book)).toEqual({
      'result.size': '1.5 GB',
      'result.limit': '1 GB',
      'result.tasks': '120',
      'result.per-task': '12.8 MB',
      'result.suggested-limit': '3g',
      'driver.suggested-memory': '5g',
    });
  });

  it('leaves out the per-task size without a positive task count', () => {
    const values = resultSize(bookOf({}, fact({ resultBytes: 4 * GiB, tasks: 0 })));
    // 1.5 x 4 GiB = 6 GiB exactly; driver 3 x 4 GiB = 12g.
    expect(values).toEqual({
      'result.size': '4 GB',
      'result.tasks': '0',
      'result.suggested-limit': '6g',
      'driver.suggested-memory': '12g',
    });
  });

  it('reports the limit alone when the result size is unknown', () => {
    expect(resultSize(bookOf({}, fact({ limitBytes: 2 * GiB, tasks: 7 })))).toEqual({
      'result.limit': '2 GB',
      'result.tasks': '7',
    });
    expect(resultSize(bookOf({}))).toEqual({});
  });
});
