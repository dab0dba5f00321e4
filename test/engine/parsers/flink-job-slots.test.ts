import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonDocuments } from '../../../src/engine/parsers/flink-job-slots.ts';
import { detectFormat, parseText } from '../../../src/engine/parsers/parse-text.ts';

const read = (file: string) =>
  readFileSync(join(import.meta.dirname, 'fixtures', 'flink-job-slots', file), 'utf8');

describe('the flink-job-slots parser', () => {
  it('compares a real job with a real cluster: parallelism 1 against 4 slots', () => {
    const out = parseText('flink-job-slots', read('assembled-overview-then-job.txt'));
    expect(out.values).toMatchObject({
      verdict: 'enough-slots',
      taskManagers: 1,
      slotsTotal: 4,
      slotsAvailable: 4,
      jobState: 'FINISHED',
      vertices: 1,
      maxParallelism: 1,
      tasksWaiting: 0,
      slotsShort: 0,
    });
  });

  it('counts the slots missing and the TaskManagers to add when parallelism exceeds the slots', () => {
    const out = parseText('flink-job-slots', read('assembled-fewer-slots.txt'));
    expect(out.values).toMatchObject({
      verdict: 'fewer-slots',
      maxParallelism: 8,
      slotsTotal: 4,
      tasksWaiting: 4,
      slotsShort: 4,
      slotsPerTaskManager: 4,
      taskManagersToAdd: 1,
    });
    expect(out.summary).toMatch(/needs 4 more slot\(s\) than the cluster has/);
  });

  it('reads either response alone, and a cluster without TaskManagers', () => {
    expect(parseText('flink-job-slots', read('dinky-job-finished.json')).values.verdict).toBe('job-only');
    expect(parseText('flink-job-slots', read('sif-overview-flink-1.17.1.json')).values.verdict).toBe(
      'cluster-only',
    );
    const older = parseText('flink-job-slots', read('notes-overview-flink-1.9.0.json'));
    expect(older.values).toMatchObject({ verdict: 'cluster-only', slotsTotal: 6 });
    const none = parseText('flink-job-slots', read('assembled-no-taskmanagers.json'));
    expect(none.values.verdict).toBe('no-task-managers');
    expect(none.facts.map((f) => f.kind)).toContain('flink.no-task-managers');
  });

  it('says what it needs for anything else, and is never guessed', () => {
    expect(() => parseText('flink-job-slots', '{"jid": "abc"')).toThrow(
      /\/overview \(or \/taskmanagers\) and of GET \/jobs/,
    );
    expect(detectFormat(read('assembled-overview-then-job.txt').split('\n'))).not.toBe('flink-job-slots');
  });

  it('splits concatenated JSON, braces inside strings included', () => {
    expect(jsonDocuments('$ curl\n{"a":"}{"}\n\n{"b":[1,{"c":2}]} trailing')).toEqual([
      { a: '}{' },
      { b: [1, { c: 2 }] },
    ]);
  });
});
