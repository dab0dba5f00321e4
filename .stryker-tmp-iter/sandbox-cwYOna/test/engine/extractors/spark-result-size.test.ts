// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { sparkResultSize } from '../../../src/engine/extractors/spark-result-size.ts';
import { MiB } from '../../../src/engine/units.ts';
import { findingsOf, kindsOf } from './run-extractor.ts';

describe('spark-result-size', () => {
  it.each([
    {
      line: 'org.apache.spark.SparkException: Job aborted due to stage failure: Total size of serialized results of 2572 tasks (1062.8 MB) is bigger than spark.driver.maxResultSize (1024.0 MB)',
      values: { tasks: 2572, resultBytes: Math.round(1062.8 * MiB), limitBytes: 1024 * MiB },
    },
    {
      line: 'ERROR TaskSetManager: Total size of serialized results of 2 tasks (1030.8 KiB) is bigger than spark.driver.maxResultSize (1024.0 KiB)',
      values: { tasks: 2, resultBytes: Math.round(1030.8 * 1024), limitBytes: 1024 * 1024 },
    },
    {
      line: 'Job aborted due to stage failure: Total size of serialized results of 30095 tasks (1024.0 MiB) is bigger than spark.driver.maxResultSize (1024.0 MiB)',
      values: { tasks: 30095, resultBytes: 1024 * MiB, limitBytes: 1024 * MiB },
    },
    {
      line: 'Total size of serialized results of 16 tasks (1048.5 MB) is bigger than maxResultSize (1024.0 MB)',
      values: { tasks: 16, resultBytes: Math.round(1048.5 * MiB), limitBytes: 1024 * MiB },
    },
    {
      line: 'WARN TaskSetManager: Lost task 12.0 in stage 0.0 (TID 12, 192.168.68.105, executor driver): TaskKilled (Tasks result size has exceeded maxResultSize)',
      values: undefined,
    },
  ])('$line', ({ line, values }) => {
    const [first] = findingsOf(sparkResultSize, line);
    expect(first).toEqual(
      values ? { kind: 'spark.max-result-size', values } : { kind: 'spark.max-result-size' },
    );
  });

  it('flags tens of thousands of tasks, whose statuses alone can fill the result budget', () => {
    const line = (tasks: number) =>
      `Total size of serialized results of ${tasks} tasks (1024.0 MiB) is bigger than spark.driver.maxResultSize (1024.0 MiB)`;
    expect(findingsOf(sparkResultSize, line(30095)).map((f) => f.kind)).toEqual([
      'spark.max-result-size',
      'spark.many-tasks',
    ]);
    expect(findingsOf(sparkResultSize, line(18)).map((f) => f.kind)).toEqual(['spark.max-result-size']);
  });

  it.each([
    // The RPC message limit is a different error (task too big to send), not driver memory.
    'org.apache.spark.SparkException: Job aborted due to stage failure: Serialized task 0:0 was 135793721 bytes, which exceeds max allowed: spark.rpc.message.maxSize (134217728 bytes). Consider increasing spark.rpc.message.maxSize or using broadcast variables for large values.',
    '--conf spark.driver.maxResultSize=4g',
    'spark.driver.maxResultSize 0',
    'INFO Utils: spark.driver.maxResultSize is set to 2g',
  ])('finds nothing in %s', (line) => {
    expect(kindsOf(sparkResultSize, line)).toEqual([]);
  });
});
