import { describe, expect, it } from 'vitest';
import { parseSlashText } from '../../src/slack/command-text.ts';

describe('parseSlashText', () => {
  it.each([
    ['', { kind: 'modal' }],
    ['   ', { kind: 'modal' }],
    ['help', { kind: 'help' }],
    ['LIST', { kind: 'list' }],
    ['status', { kind: 'status' }],
    ['stats', { kind: 'stats' }],
    ['stats please', { kind: 'diagnose', text: 'stats please' }],
    ['private java.lang.OutOfMemoryError', { kind: 'private', text: 'java.lang.OutOfMemoryError' }],
    ['private', { kind: 'diagnose', text: 'private' }],
    ['walk spark-heap-oom', { kind: 'walk', playbook: 'spark-heap-oom' }],
    ['calc executor --memory 8g', { kind: 'calc', args: ['executor', '--memory', '8g'] }],
    ['calc', { kind: 'calc', args: [] }],
    [
      'calc spark \u2014spark.executor.cores 4',
      { kind: 'calc', args: ['spark', '--spark.executor.cores', '4'] },
    ],
    ['glue', { kind: 'modal', engine: 'glue' }],
    // A Glue job name may hold spaces: all after "check glue" is <job-name>/<run-id>.
    [
      'check glue Combine legistators data/jr_1',
      { kind: 'check', system: 'glue', id: 'Combine legistators data/jr_1' },
    ],
    ['check GLUE nightly/jr_1', { kind: 'check', system: 'glue', id: 'nightly/jr_1' }],
    ['check glue', { kind: 'check', system: 'glue' }],
    [
      'glue java.lang.OutOfMemoryError: Java heap space',
      { kind: 'diagnose', engine: 'glue', text: 'java.lang.OutOfMemoryError: Java heap space' },
    ],
    ['flink\nline one\nline two', { kind: 'diagnose', engine: 'flink', text: 'line one\nline two' }],
    [
      'java.lang.OutOfMemoryError: Java heap space',
      { kind: 'diagnose', text: 'java.lang.OutOfMemoryError: Java heap space' },
    ],
    ['help me, the job died', { kind: 'diagnose', text: 'help me, the job died' }],
    ['walk Not A Playbook', { kind: 'diagnose', text: 'walk Not A Playbook' }],
    ['check kubernetes etl/spark-exec-1', { kind: 'check', system: 'kubernetes', id: 'etl/spark-exec-1' }],
    ['check K8s spark-exec-1', { kind: 'check', system: 'kubernetes', id: 'spark-exec-1' }],
    ['check kubectl pod', { kind: 'check' }],
  ])('%j', (text, expected) => {
    expect(parseSlashText(text)).toEqual(expected);
  });
});
