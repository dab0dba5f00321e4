import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';

const read = (dir: string, file: string) =>
  readFileSync(join(import.meta.dirname, 'fixtures', dir, file), 'utf8');
// A real GET /taskmanagers of a Flink 1.3-era JobManager (SOURCES.md): slots, cpuCores and physicalMemory
// at the top level, and no totalResource or freeResource.
const OLD = read('flink-rest', 'dtstack-flink-1.3-taskmanagers.json');

describe('an old Flink /taskmanagers answer without resources (issue 21, item 5)', () => {
  it('counts the slots and says the resources are not reported, instead of "0 B" free', () => {
    const out = parseText('flink-rest', OLD);
    expect(out.values).toEqual({
      endpoint: 'taskmanagers',
      resourcesReported: false,
      taskManagers: 1,
      slotsTotal: 4,
      slotsFree: 4,
      verdict: '4 free slots',
    });
    expect(out.summary).toBe(
      '1 TaskManager(s), 4 of 4 slots free; this Flink version does not report resources (its /taskmanagers has no totalResource or freeResource), so only the slots can be compared.',
    );
    expect(out.summary).not.toContain('0 B');
  });

  it('does not call requests short of a core against it: the comparison cannot be made', () => {
    const out = parseText('flink-slot-fit', read('flink-slot-fit', 'assembled-old-flink-no-resources.txt'));
    expect(out.values).toEqual({
      verdict: 'resources-unreported',
      requests: 4,
      taskManagers: 1,
      unplaced: 0,
      short: '',
    });
    expect(out.summary).toContain('this Flink version does not report resources');
    expect(out.summary).not.toMatch(/short of|0 B/);
  });

  it('still compares a new Flink answer, which reports them', () => {
    const out = parseText('flink-rest', read('flink-rest', 'superzhc-yarn-taskmanagers.json'));
    expect(out.values).toMatchObject({ resourcesReported: true, slotsFree: 8 });
    expect(out.summary).toContain('free task heap');
  });
});
